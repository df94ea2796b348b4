"""Two sandbox sites whose journals only a browser sees (issue 16): JavaScript builds their content in the page.

- ``scriptlist`` (Lexicon Journals): real A–Z letter links on the start page lead to *shells*, pages whose
  ``<div id="app">`` is empty until ``static/list.js`` fetches ``api/journals?letter=L&page=N`` (JSON, 20 journals a
  page) and writes the journals' links and a "Next" link into it. Journal pages are plain server HTML.
- ``scriptapp`` (Quire Academic): the start page's letters are script handlers (``javascript:void(0)`` anchors with
  ``onclick`` and ``<button>`` elements given listeners by ``static/letters.js``); a click replaces the content of
  the empty ``<div id="results">`` with the letter's journals from ``api/letters/L.json``. Nothing is shown before a
  click. A journal page's server HTML holds its title and no metric label: ``static/journal.js`` fills the empty
  ``<div id="root">`` with label/value rows from ``api/journal/<slug>.json``.

The scripts are package data (``journals/sandbox/static/*.js``, read with ``pkgutil.get_data``); what they write
is what the truth says the pages show (:meth:`~journals.sandbox.sources.Site.shown_values`). Both sites carry a
menu heavier than their content and a footer of partner journals that are not journals of their list.
"""

from __future__ import annotations

import json
import pkgutil
import random
import re
from functools import cache, cached_property
from html import escape
from urllib.parse import parse_qs

from journals.sandbox.markup import link
from journals.sandbox.realweb import shown_text
from journals.sandbox.relation import METRIC_YEAR, drawn_fields
from journals.sandbox.site_templates import Payload, Rendered, SiteTemplates
from journals.sandbox.sources import LETTERS, NUMERIC, letter_of, slugify

SCRIPT_TYPE = "application/javascript"
JSON_TYPE = "application/json"
LABELS = {
    "issn": "Print ISSN",
    "eissn": "Online ISSN",
    "impact_factor": f"Impact Factor ({METRIC_YEAR})",
    "five_year_impact_factor": "5-Year Impact Factor",
    "citescore": "CiteScore",
    "editor_in_chief": "Editor-in-Chief",
}
"""The label each site writes before a value, by attribute."""


@cache
def static_script(name: str) -> str:
    """The text of ``journals/sandbox/static/<name>``, a script the sandbox serves."""
    data = pkgutil.get_data("journals.sandbox", f"static/{name}")
    if data is None:  # pragma: no cover - only when the package data is missing from an install
        raise RuntimeError(f"journals/sandbox/static/{name} is missing from the installed package")
    return data.decode("utf-8")


def as_json(value: object) -> Payload:
    """``value`` served as JSON."""
    return Payload(json.dumps(value, ensure_ascii=False), JSON_TYPE)


def letter_param(text: str) -> str | None:
    """An index letter (``A``…``Z``, ``0-9``) as a URL writes it, either case; None when it is none."""
    letter = text.upper()
    return letter if letter in LETTERS else None


def document(title: str, body: str, script: str = "") -> str:
    """A whole HTML page; ``script`` is the path of the one script it loads, deferred (no inline script)."""
    tag = f'<script src="{escape(script)}" defer></script>' if script else ""
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{escape(title)}</title>'
        f"<style>.menu ul ul{{display:none}}.menu li:hover ul{{display:block}}</style>{tag}</head>\n"
        f"<body>\n{body}\n</body></html>\n"
    )


class ScriptedTemplates(SiteTemplates):
    """What both scripted sites share: a menu with sub-menus, partner journals in the footer, info pages."""

    brand = "Scripted"
    hop_text = ""
    menu_paths = ("authors", "authors/submit", "authors/open-access", "librarians", "news", "about", "sign-in")
    """Pages the menu links besides subjects: each an info page (no journal)."""
    scripts: tuple[str, ...] = ()
    """The scripts of ``journals/sandbox/static`` this site serves under ``static/``."""

    def menu(self) -> str:
        """The header menu: journals, twelve subjects (as topics), author and librarian pages, news, about, sign in."""
        subjects = "".join(f"<li>{link(f'{self.root}subjects/{slugify(f)}', f)}</li>" for f in self.subjects())
        authors = "".join(
            f"<li>{link(self.root + p, t)}</li>"
            for p, t in (
                ("authors", "Author guidelines"),
                ("authors/submit", "Submit a paper"),
                ("authors/open-access", "Publishing options"),
            )
        )
        return (
            '<nav class="menu" aria-label="Main"><ul>'
            f"<li>{link(self.root, 'Journals')}</li>"
            f"<li><span>Topics</span><ul>{subjects}</ul></li>"
            f"<li><span>For authors</span><ul>{authors}</ul></li>"
            f"<li>{link(self.root + 'librarians', 'For librarians')}</li>"
            f"<li>{link(self.root + 'news', 'News')}</li><li>{link(self.root + 'about', 'About us')}</li>"
            f"<li>{link(self.root + 'sign-in', 'Sign in')}</li></ul></nav>"
        )

    def subjects(self) -> list[str]:
        """The menu's subjects: twelve fields of the world, a fixed draw per seed and site."""
        return drawn_fields("subjects", self.site.relation.seed, self.name)

    @cached_property
    def partner_indices(self) -> list[int]:
        """Journals of the world this site does not list, named in its footer as partners' journals."""
        listed = set(self.site.journal_indices)
        unlisted = [i for i in range(len(self.site.relation)) if i not in listed]
        rng = random.Random(f"partners:{self.site.relation.seed}:{self.name}")
        return rng.sample(unlisted, min(4, len(unlisted)))

    def partner_path(self, index: int) -> str:
        """A partner journal's page on this site: a pointer to its publisher, no metrics."""
        return f"{self.root}partners/{slugify(self.site.relation.titles[index])}"

    def footer(self) -> str:
        """Partner journals and the legal links."""
        partners = "".join(
            f"<li>{link(self.partner_path(i), self.site.relation.titles[i])}</li>" for i in self.partner_indices
        )
        return (
            f'<footer><h4>From our partners</h4><ul class="partners">{partners}</ul>'
            f"<p>© 2026 {escape(self.brand)} · {link(self.root + 'about', 'About us')} · "
            f"{link(self.root + 'privacy', 'Privacy')}</p></footer>"
        )

    def frame(self, title: str, main: str, aside: str = "", script: str = "") -> str:
        """The site's header and menu, the main content, and the footer; ``script`` the page's one script."""
        header = f'<header><a class="brand" href="{self.root}">{escape(self.brand)}</a>{self.menu()}</header>'
        return document(f"{title} | {self.brand}", f"{header}\n<main>{main}</main>\n{aside}\n{self.footer()}", script)

    def info_page(self, heading: str, text: str) -> str:
        """A page of prose: subjects, partners, menu pages."""
        return self.frame(heading, f"<article><h1>{escape(heading)}</h1><p>{escape(text)}</p></article>")

    def route_extra(self, rest: str) -> Rendered:
        """Subject, partner and menu pages; None when ``rest`` is none of them."""
        if match := re.fullmatch(r"subjects/([a-z0-9-]+)", rest):
            names = {slugify(f): f for f in self.subjects()}
            if match[1] in names:
                return self.info_page(names[match[1]], f"Research in {names[match[1]]} across our portfolio.")
        if match := re.fullmatch(r"partners/([a-z0-9-]+)", rest):
            partners = {slugify(self.site.relation.titles[i]): i for i in self.partner_indices}
            if match[1] in partners:
                title = self.site.relation.titles[partners[match[1]]]
                return self.info_page(title, f"{title} is published by one of our partner societies.")
        if rest in (*self.menu_paths, "privacy"):
            return self.info_page(rest.replace("/", ": ").replace("-", " ").capitalize(), f"{self.brand}.")
        return None

    def route_static(self, rest: str) -> Rendered:
        """The site's scripts under ``static/``."""
        match = re.fullmatch(r"static/([a-z]+\.js)", rest)
        if match and match[1] in self.scripts:
            return Payload(static_script(match[1]), SCRIPT_TYPE)
        return None


class ScriptListTemplates(ScriptedTemplates):
    """Lexicon Journals: letter links to shells whose list a script fetches as JSON, 20 journals a page."""

    brand = "Lexicon Journals"
    scripts = ("list.js",)

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """Shells at ``journals/<LETTER>`` with ``?page=N``."""
        return f"{self.root}journals/{letter}" + (f"?page={page_no}" if page_no > 1 else "")

    def api_path(self, letter: str, page_no: int) -> str:
        """Where the shell's script fetches a letter's page of journals."""
        return f"{self.root}api/journals?letter={letter}&page={page_no}"

    def home(self) -> str:
        """The start page: an A–Z bar of real links to the shells."""
        letters = "".join(f"<li>{link(self.letter_path(c), c)}</li>" for c in LETTERS)
        main = (
            f'<h1>Journals A–Z</h1><nav class="az" aria-label="Journals A to Z"><ul>{letters}</ul></nav>'
            "<p>Browse our peer-reviewed journals by title.</p>"
        )
        return self.frame(f"{self.brand}: journals A–Z", main)

    def listing(self, letter: str, page_no: int) -> Rendered:
        """The shell of a letter's page: an empty ``#app``, a noscript line and the list script."""
        if not 1 <= page_no <= len(self.pages_of(letter)):
            return None
        main = '<div id="app"></div><noscript>You need to enable JavaScript to run this app.</noscript>'
        return self.frame(f"Journals: {letter}", main, script=f"{self.root}static/list.js")

    def api_journals(self, query: str) -> Rendered:
        """One page of a letter's journals as JSON: titles, URLs, the next page's shell and API URLs or null."""
        params = parse_qs(query)
        letter = letter_param(params.get("letter", [""])[0])
        page_text = params.get("page", ["1"])[0]
        if letter is None or not page_text.isdigit():
            return None
        pages, page_no = self.pages_of(letter), int(page_text)
        if not 1 <= page_no <= len(pages):
            return None
        more = page_no < len(pages)
        return as_json(
            {
                "letter": letter,
                "page": page_no,
                "pages": len(pages),
                "journals": [
                    {"title": self.site.relation.titles[i], "url": self.journal_path(i)} for i in pages[page_no - 1]
                ],
                "next": self.letter_path(letter, page_no + 1) if more else None,
                "next_api": self.api_path(letter, page_no + 1) if more else None,
            }
        )

    def journal_home(self, index: int) -> str:
        """Server HTML: the title, then facts as ``<div>``-wrapped dt/dd pairs (template 0) or a table (1)."""
        journal, values = self.values(index)
        rows = [(LABELS[n], shown_text(n, values.get(n))) for n in self.site.spec.attributes if n != "title"]
        if self.variant(index, 2) == 0:
            pairs = "".join(f'<div class="fact"><dt>{k}</dt><dd>{v}</dd></div>' for k, v in rows)
            facts = f'<dl class="lx-facts">{pairs}</dl>'
        else:
            cells = "".join(f"<tr><td class='lx-label'>{k}</td><td class='lx-value'>{v}</td></tr>" for k, v in rows)
            facts = f'<table class="lx-facts"><tbody>{cells}</tbody></table>'
        main = (
            f'<h1 class="lx-title">{escape(journal.title)}</h1>'
            f"<p>An international journal of {escape(journal.subject)}.</p>{facts}"
            f"<p>{link(self.letter_path(letter_of(journal.title)), 'More journals under ' + letter_of(journal.title))}"
            "</p>"
        )
        return self.frame(journal.title, main)

    def route(self, path: str, query: str) -> Rendered:
        """Start page, shells, the list API, journal pages, scripts and info pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if match := re.fullmatch(r"journals/([A-Z]|0-9)", rest):
            page_text = parse_qs(query).get("page", ["1"])[0]
            return self.listing(match[1], int(page_text)) if page_text.isdigit() else None
        if rest == "api/journals":
            return self.api_journals(query)
        return self.route_journal(rest) or self.route_static(rest) or self.route_extra(rest)


class ScriptAppTemplates(ScriptedTemplates):
    """Quire Academic: letters that run a script, journal pages whose metrics a script writes."""

    brand = "Quire Academic"
    scripts = ("letters.js", "journal.js")

    def listing_chain(self, index: int) -> list[str]:
        """Every journal is listed on the start page, after a click on its letter."""
        return [self.root]

    def letter_control(self, position: int, letter: str) -> str:
        """Letters at even positions (A, C, …, Y, ``0-9``) are ``javascript:void(0)`` anchors with ``onclick``;
        those at odd positions (B, D, …, Z) are buttons the letters script gives a listener."""
        if position % 2 == 0:
            return (
                f'<a href="javascript:void(0)" class="letter" data-letter="{letter}" '
                f"onclick=\"showLetter('{letter}')\">{letter}</a>"
            )
        return f'<button type="button" class="letter" data-letter="{letter}">{letter}</button>'

    def home(self) -> str:
        """The start page: script letters, an empty ``#results``, a noscript line."""
        controls = " ".join(self.letter_control(p, c) for p, c in enumerate(LETTERS))
        main = (
            f'<h1>Browse journals</h1><div class="letters" role="toolbar" aria-label="Title begins with">{controls}'
            '</div><p class="hint">Choose a letter to see its journals.</p>'
            '<div id="results" aria-live="polite"></div>'
            "<noscript>Please enable JavaScript to browse our journals by letter.</noscript>"
        )
        return self.frame(f"{self.brand}: browse journals", main, script=f"{self.root}static/letters.js")

    def api_letter(self, letter: str) -> Payload:
        """A letter's journals as JSON: every one at once, titles and URLs."""
        indices = self.site.by_letter.get(letter, [])
        journals = [{"title": self.site.relation.titles[i], "url": self.journal_path(i)} for i in indices]
        return as_json({"letter": letter, "journals": journals})

    def metric_rows(self, index: int) -> list[dict[str, str]]:
        """The journal's label/value rows as its page's script writes them (text, not HTML); a value the site does
        not show has no row."""
        _, values = self.values(index)
        return [
            {"label": LABELS[n], "value": shown_text(n, values[n]) if n in NUMERIC else str(values[n])}
            for n in self.site.spec.attributes
            if n != "title" and values.get(n) is not None
        ]

    def api_journal(self, slug: str) -> Rendered:
        """A journal's title and label/value rows as JSON."""
        index = self.site.by_slug.get(slug)
        if index is None:
            return None
        return as_json({"title": self.site.relation.titles[index], "rows": self.metric_rows(index)})

    def journal_banner(self, index: int) -> str:
        """A journal page's banner: its title in ``<h1>`` and its tabs (home, submission, guidelines, news)."""
        tabs = "".join(
            f"<li>{link(self.root + p, t)}</li>"
            for p, t in (("authors/submit", "Submit a paper"), ("authors", "Author guidelines"), ("news", "News"))
        )
        return (
            f'<div class="journal-banner"><h1>{escape(self.site.journal(index).title)}</h1></div>'
            f'<ul class="journal-tabs"><li>{link(self.journal_path(index), "Home")}</li>{tabs}</ul>'
        )

    def journal_home(self, index: int) -> str:
        """Server HTML: the title in ``<h1>``, an empty ``#root`` the journal script fills, a noscript line."""
        main = (
            self.journal_banner(index)
            + '<div id="root"></div>'
            + "<noscript>Please enable JavaScript to view this journal's metrics.</noscript>"
        )
        return self.frame(self.site.journal(index).title, main, script=f"{self.root}static/journal.js")

    def footer(self) -> str:
        """Partner journals as a paragraph of links (not the list scriptlist writes), then the legal line."""
        partners = " · ".join(link(self.partner_path(i), self.site.relation.titles[i]) for i in self.partner_indices)
        return (
            f'<footer class="site-footer"><p class="partners">Partner titles: {partners}</p>'
            f"<p>© 2026 {escape(self.brand)} · {link(self.root + 'privacy', 'Privacy')}</p></footer>"
        )

    def route(self, path: str, query: str) -> Rendered:
        """Start page, the letters and journal APIs, journal pages, scripts and info pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if (match := re.fullmatch(r"api/letters/([A-Za-z]|0-9)\.json", rest)) and (letter := letter_param(match[1])):
            return self.api_letter(letter)
        if match := re.fullmatch(r"api/journal/([a-z0-9-]+)\.json", rest):
            return self.api_journal(match[1])
        return self.route_journal(rest) or self.route_static(rest) or self.route_extra(rest)
