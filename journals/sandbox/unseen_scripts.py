"""Four sandbox sites whose pages scripts build, in shapes real script-built publisher sites have (first contact).

They were written from a description of real script-built sites by someone who never read the crawler, so that
their first crawl tells whether the crawler's rendering generalises. What the truth records for a journal is what
its page shows once its scripts have run (``journals/sandbox/static/*.js``, plain ES2017).

- ``spa`` (Helix Scientific): a single-page app. Every page the server answers (start page, ``journals/…``,
  ``journal/<slug>``, anything but the API and the script) is one empty shell: ``<app-root></app-root>``, a
  ``<noscript>`` line and ``main.js``. The script reads the route and writes the menu, an A–Z bar whose letters are
  hash routes (``#/journals/B``, ``#/journals/B/2``) and the views from ``api/…json``; journal links are real paths
  that the script follows with ``history.pushState`` (a click loads nothing), and a journal path loaded directly
  renders the journal view (title, ISSNs, impact factor, CiteScore, editor-in-chief) from ``api/journal/<slug>.json``.
- ``loadmore`` (Kestrel University Press): one "All journals" page in server HTML whose grid a script fills from
  ``api/journals.json?page=N``, ten cards on load, then ten more per click on "Load more journals" until none is
  left (the button is then removed). No letters, no page numbers, no "Next" link. Journal pages are server HTML.
- ``nextdata`` (Lumen Academic): Next.js-like. Every page is ``<div id="__next"></div>`` and a
  ``<script id="__NEXT_DATA__" type="application/json">`` holding the page's props, which ``main.js`` renders: an
  A–Z index of real letter links (``journals/<letter>``, ``?page=N``), journal overview pages (ISSNs, editor) and a
  "Journal metrics" tab (``journal/<slug>/metrics``: impact factor, five-year impact factor, CiteScore) with a
  source note ("Impact Factor: Journal Citation Reports (Clarivate, 2024)") that stays on journals with no impact
  factor, whose metric rows are absent.
- ``deferred`` (Alder Scientific Publishing): server HTML throughout (A–Z letter links, numbered pages, journal
  pages with title, ISSNs and editor), but a journal page's "Journal metrics" panel reads "Loading metrics…" until
  ``metrics.js`` fetches ``api/metrics/<slug>.json`` 800 ms after the page's load and writes Impact Factor, CiteScore
  and SJR into it.

Every site has a menu heavier than its content, subject and news pages, a footer of partner journals or sister
links, and (but ``nextdata``) a box quoting other journals with the same labels as the journal's own values.
"""

from __future__ import annotations

import json
import random
import re
from html import escape
from typing import Any
from urllib.parse import parse_qs

from journals.sandbox.markup import link, page
from journals.sandbox.realweb import MONTHS, NEWS_HEADLINES, shown_text
from journals.sandbox.relation import FIELDS, METRIC_YEAR, drawn_fields
from journals.sandbox.scripted import SCRIPT_TYPE, as_json, letter_param, static_script
from journals.sandbox.site_templates import Payload, Redirect, Rendered, SiteTemplates
from journals.sandbox.sources import LETTERS, NUMERIC, Site, slugify
from journals.sandbox.unseen_lists import ProjectedSite

PAGE_PATHS = {
    "authors": "For authors",
    "librarians": "For librarians",
    "open-access": "Open access",
    "about": "About us",
    "contact": "Contact",
    "privacy": "Privacy policy",
    "cookies": "Cookie settings",
    "sign-in": "Sign in",
}
"""The menu and footer pages every site has: prose, no journal."""


def json_value(name: str, value: object) -> object:
    """A shown value as an API carries it: metrics as JSON numbers, the rest as text, null when not shown."""
    if value is None:
        return None
    if name in NUMERIC:
        return float(value)  # type: ignore[arg-type]
    return str(value)


class ScriptShapeTemplates(SiteTemplates):
    """What the four sites share: their scripts, subjects, news, prose pages and the values their APIs carry."""

    brand = "Script-built"
    hop_text = ""
    scripts: tuple[tuple[str, str], ...] = ()
    """(path under the site's root, file of ``journals/sandbox/static`` served there)."""

    def route_script(self, rest: str) -> Rendered:
        """The site's scripts, at the paths it loads them from."""
        name = dict(self.scripts).get(rest)
        return Payload(static_script(name), SCRIPT_TYPE) if name else None

    def subjects(self) -> list[str]:
        """The menu's subjects: eight fields of the world, a fixed draw per seed and site."""
        return drawn_fields("subjects", self.site.relation.seed, self.name, 8)

    def news(self) -> list[tuple[str, str]]:
        """(slug, headline) of the site's five news items."""
        items = []
        for number_ in range(5):
            rng = random.Random(f"news:{self.site.relation.seed}:{self.name}:{number_}")
            f, g = rng.sample(FIELDS, 2)
            headline = NEWS_HEADLINES[(number_ + len(self.name)) % len(NEWS_HEADLINES)].format(
                n=rng.randint(3, 14), year=METRIC_YEAR, f=f, g=g
            )
            items.append((f"{number_ + 1}-{slugify(headline)[:50].strip('-')}", headline))
        return items

    def prose(self, rest: str) -> tuple[str, list[str]] | None:
        """(heading, paragraphs) of a page that is no journal's (subject, news, menu page); None when none."""
        if match := re.fullmatch(r"subjects/([a-z0-9-]+)", rest):
            names = {slugify(f): f for f in self.subjects()}
            if match[1] in names:
                name = names[match[1]]
                return name, [f"Research in {name} across our portfolio.", f"Special issues in {name}, {METRIC_YEAR}."]
        if match := re.fullmatch(r"news/([a-z0-9-]+)", rest):
            for number_, (slug, headline) in enumerate(self.news()):
                if slug == match[1]:
                    return headline, [f"Published {number_ + 3} {MONTHS[number_]} 2026.", headline + "."]
        if rest in PAGE_PATHS:
            return PAGE_PATHS[rest], [f"{PAGE_PATHS[rest]} at {self.brand}."]
        return None

    def related(self, index: int, count: int = 2) -> list[int]:
        """Other journals of the site shown beside this one ("Related journals"), a fixed draw per journal."""
        others = [i for i in self.site.journal_indices if i != index]
        return self.site.rng(index, "related").sample(others, min(count, len(others)))

    def partners(self) -> list[int]:
        """Journals of the world this site does not list, named in its footer as partners' journals."""
        listed = set(self.site.journal_indices)
        rng = random.Random(f"partners:{self.site.relation.seed}:{self.name}")
        return rng.sample([i for i in range(len(self.site.relation)) if i not in listed], 4)

    def shown(self, index: int) -> dict[str, object]:
        """The values journal ``index``'s page shows (None where it shows none)."""
        return self.values(index)[1]

    def title(self, index: int) -> str:
        """Journal ``index``'s title."""
        return self.site.relation.titles[index]

    def journal_view(self, index: int, slug: str, related: list[dict[str, object]], **first: object) -> Rendered:
        """A journal's view as the sites' APIs answer it: ``first`` fields, then its title, slug, subject and shown
        values (null where not shown), the metrics' year and the ``related`` journals its view lists (decoys)."""
        values = self.shown(index)
        return as_json(
            {
                **first,
                "title": self.title(index),
                "slug": slug,
                "subject": self.site.journal(index).subject,
                "printIssn": json_value("issn", values["issn"]),
                "onlineIssn": json_value("eissn", values["eissn"]),
                "impactFactor": json_value("impact_factor", values["impact_factor"]),
                "citeScore": json_value("citescore", values["citescore"]),
                "editorInChief": json_value("editor_in_chief", values["editor_in_chief"]),
                "metricsYear": METRIC_YEAR,
                "related": related,
            }
        )


# 1. A single-page app ------------------------------------------------------------------------------------------


class SpaTemplates(ScriptShapeTemplates):
    """Helix Scientific: every page one empty ``<app-root>`` shell, views written by ``main.js`` from a JSON API."""

    brand = "Helix Scientific"
    scripts = (("main.js", "spa.js"),)

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """A letter's view is a hash route on the start page: ``#/journals/B``, ``#/journals/B/2``."""
        return f"{self.root}#/journals/{letter}" + (f"/{page_no}" if page_no > 1 else "")

    def shell(self) -> str:
        """The one page the server sends for every route: an empty app root, a noscript line, one script."""
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Helix Scientific</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<script src="{self.root}main.js" defer></script></head>\n'
            "<body><app-root></app-root><noscript>Please enable JavaScript to continue using this application."
            "</noscript></body></html>\n"
        )

    def api_site(self) -> dict[str, Any]:
        """The menu and footer the script writes on every view."""
        subjects = [{"label": f, "path": f"{self.root}subjects/{slugify(f)}"} for f in self.subjects()]
        return {
            "brand": self.brand,
            "menu": [
                {"label": "Journals", "path": f"{self.root}journals"},
                {"label": "Subjects", "children": subjects},
                {"label": "Open access", "path": f"{self.root}open-access"},
                {"label": "For authors", "path": f"{self.root}authors"},
                {"label": "News", "path": f"{self.root}news/{self.news()[0][0]}"},
                {"label": "About us", "path": f"{self.root}about"},
                {"label": "Sign in", "path": f"{self.root}sign-in"},
            ],
            "partners": [
                {"title": self.title(i), "url": f"https://partners.example.org/{slugify(self.title(i))}"}
                for i in self.partners()
            ],
            "legal": [{"label": PAGE_PATHS[p], "path": f"{self.root}{p}"} for p in ("privacy", "cookies", "contact")],
        }

    def api_home(self) -> dict[str, Any]:
        """The start page's featured journals and news."""
        featured = self.site.journal_indices[3::17][:4]
        return {
            "heading": "Journals from Helix Scientific",
            "featured": [{"title": self.title(i), "path": self.journal_path(i)} for i in featured],
            "news": [{"headline": h, "path": f"{self.root}news/{s}"} for s, h in self.news()],
        }

    def api_letters(self) -> dict[str, Any]:
        """The A–Z bar: every letter with how many journals it has (a letter with none is no link)."""
        return {"letters": [{"letter": c, "count": len(self.site.by_letter.get(c, []))} for c in LETTERS]}

    def api_letter(self, letter: str, query: str) -> Rendered:
        """One page of a letter's journals: titles, paths and subjects, the page count."""
        page_text = parse_qs(query).get("page", ["1"])[0]
        pages = self.pages_of(letter)
        if not page_text.isdigit() or not 1 <= int(page_text) <= len(pages):
            return None
        return as_json(
            {
                "letter": letter,
                "page": int(page_text),
                "pages": len(pages),
                "total": len(self.site.by_letter.get(letter, [])),
                "journals": [
                    {"title": self.title(i), "path": self.journal_path(i), "subject": self.site.journal(i).subject}
                    for i in pages[int(page_text) - 1]
                ],
            }
        )

    def api_journal(self, slug: str) -> Rendered:
        """A journal's view: its title and shown values (null where not shown), related journals as decoys."""
        index = self.site.by_slug.get(slug)
        if index is None:
            return None
        related = []
        for other in self.related(index):
            impact = self.shown(other)["impact_factor"]
            related.append({"title": self.title(other), "path": self.journal_path(other), "impactFactor": impact})
        return self.journal_view(index, slug, related)

    def api_page(self, rest: str) -> Rendered:
        """A prose view (subject, news, menu page) as JSON."""
        found = self.prose(rest)
        return as_json({"heading": found[0], "paragraphs": found[1]}) if found else None

    def route(self, path: str, query: str) -> Rendered:
        """The API and the script; every other path is the shell (the script shows "Page not found" itself)."""
        rest = path[len(self.root) :]
        if rest.startswith("api/"):
            api = rest[len("api/") :]
            if api == "site.json":
                return as_json(self.api_site())
            if api == "home.json":
                return as_json(self.api_home())
            if api == "letters.json":
                return as_json(self.api_letters())
            if (match := re.fullmatch(r"journals/([A-Za-z]|0-9)\.json", api)) and (letter := letter_param(match[1])):
                return self.api_letter(letter, query)
            if match := re.fullmatch(r"journal/([a-z0-9-]+)\.json", api):
                return self.api_journal(match[1])
            if match := re.fullmatch(r"pages/([a-z0-9/-]+)\.json", api):
                return self.api_page(match[1])
            return None
        return self.route_script(rest) or self.shell()


# 2. Load more ----------------------------------------------------------------------------------------------------


class ServerChromeTemplates(ScriptShapeTemplates):
    """Server HTML chrome for the sites whose pages the server writes: a menu with subjects, a partners footer."""

    def header(self) -> str:
        """The brand, a sign-in corner, a search form and the main menu with a subjects drop-down."""
        subjects = "".join(f"<li>{link(f'{self.root}subjects/{slugify(f)}', f)}</li>" for f in self.subjects())
        items = "".join(
            f"<li>{link(self.root + p, t)}</li>"
            for p, t in (("open-access", "Open access"), ("authors", "For authors"), ("librarians", "For librarians"))
        )
        return (
            f'<header class="site-header"><a class="brand" href="{self.root}">{escape(self.brand)}</a>'
            f'<div class="account">{link(self.root + "sign-in", "Sign in")}</div>'
            f'<form class="search" action="{self.root}search"><input name="q" aria-label="Search">'
            "<button>Search</button></form>"
            f'<nav class="main-menu" aria-label="Main"><ul><li>{link(self.journals_path(), "Journals")}</li>'
            f'<li><span>Subjects</span><ul class="dropdown">{subjects}</ul></li>{items}'
            f"<li>{link(self.root + 'news/' + self.news()[0][0], 'News')}</li>"
            f"<li>{link(self.root + 'about', 'About us')}</li></ul></nav></header>"
        )

    def journals_path(self) -> str:
        """Where the menu's "Journals" goes."""
        return self.root

    def footer(self) -> str:
        """Partner journals and the legal links."""
        partners = "".join(
            f"<li>{link('https://partners.example.org/' + slugify(self.title(i)), self.title(i))}</li>"
            for i in self.partners()
        )
        legal = " · ".join(link(self.root + p, PAGE_PATHS[p]) for p in ("privacy", "cookies", "contact"))
        return (
            f'<footer class="site-footer"><h4>Partner journals</h4><ul class="partners">{partners}</ul>'
            f"<p>© 2026 {escape(self.brand)} · {legal}</p></footer>"
        )

    def frame(self, title: str, main: str, aside: str = "", script: str = "") -> str:
        """Header, the main content, an aside and the footer; ``script`` the page's own script, deferred."""
        head = f'<script src="{escape(script)}" defer></script>' if script else ""
        return page(
            f"{title} | {self.brand}",
            f'{self.header()}\n<div class="content"><main>{main}</main>\n{aside}</div>\n{self.footer()}',
            head=head,
        )

    def prose_page(self, rest: str) -> Rendered:
        """A prose page in the chrome; None when ``rest`` is none."""
        found = self.prose(rest)
        if found is None:
            return None
        heading, paragraphs = found
        text = "".join(f"<p>{escape(p)}</p>" for p in paragraphs)
        return self.frame(heading, f"<article><h1>{escape(heading)}</h1>{text}</article>")

    def related_box(self, index: int, labels: dict[str, str]) -> str:
        """Other journals quoted with the labels this journal's values carry: their impact factor and ISSN."""
        items = []
        for other in self.related(index):
            values = self.shown(other)
            facts = "".join(
                f"<li>{labels[n]}: {shown_text(n, values[n])}</li>"
                for n in ("impact_factor", "issn")
                if values.get(n) is not None
            )
            items.append(f"<li><h3>{link(self.journal_path(other), self.title(other))}</h3><ul>{facts}</ul></li>")
        return f'<aside class="related"><h2>Related journals</h2><ul>{"".join(items)}</ul></aside>'

    def journal_sub(self, index: int, name: str) -> str:
        """A journal's page that is not its home: editorial board, submission, issues."""
        heading = {"editorial-board": "Editorial board", "submit": "Submit a manuscript", "issues": "All issues"}[name]
        return self.frame(
            f"{heading} | {self.title(index)}",
            f"<article><h1>{escape(self.title(index))}: {heading}</h1><p>{heading} of the journal.</p></article>",
        )

    def route_journal(self, rest: str) -> Rendered:
        """Journal homes, their sub-pages, then prose pages."""
        match = re.fullmatch(r"journal/([a-z0-9-]+)(?:/(editorial-board|submit|issues))?", rest)
        if match and (index := self.site.by_slug.get(match[1])) is not None:
            return self.journal_sub(index, match[2]) if match[2] else self.journal_home(index)
        return self.prose_page(rest)


LOADMORE_LABELS = {
    "issn": "ISSN (print)",
    "eissn": "ISSN (online)",
    "impact_factor": "Impact factor",
    "citescore": "CiteScore",
    "editor_in_chief": "Editor-in-chief",
}


class LoadMoreTemplates(ServerChromeTemplates):
    """Kestrel University Press: an "All journals" grid a script fills ten at a time behind "Load more journals"."""

    brand = "Kestrel University Press"
    scripts = (("assets/js/journals.js", "loadmore.js"),)

    def journals_path(self) -> str:
        """The "All journals" page."""
        return f"{self.root}journals"

    def listing_chain(self, index: int) -> list[str]:
        """Every journal is on the "All journals" page, once its cards are loaded."""
        return [self.journals_path()]

    def home(self) -> str:
        """The start page: a hero linking "Browse all journals", subjects, news."""
        subjects = "".join(f"<li>{link(f'{self.root}subjects/{slugify(f)}', f)}</li>" for f in self.subjects())
        news = "".join(f"<li>{link(f'{self.root}news/{s}', h)}</li>" for s, h in self.news())
        main = (
            '<section class="hero"><h1>Kestrel University Press journals</h1>'
            f"<p>{len(self.site.journal_indices)} peer-reviewed journals across the sciences and humanities.</p>"
            f"<p>{link(self.journals_path(), 'Browse all journals', 'btn')}</p></section>"
            f'<section class="subjects"><h2>Explore by subject</h2><ul>{subjects}</ul></section>'
            f'<section class="news"><h2>News</h2><ul>{news}</ul></section>'
        )
        return self.frame("Journals", main)

    def all_journals(self) -> str:
        """The page whose grid the script fills: empty grid, a hidden button, a noscript line."""
        main = (
            "<h1>All journals</h1>"
            f"<p class='intro'>Browse all {len(self.site.journal_indices)} journals published by {self.brand}.</p>"
            '<div class="journal-grid" id="journal-grid" aria-live="polite"></div>'
            '<p class="status" id="journal-status"></p>'
            '<button type="button" class="btn load-more" id="load-more" hidden>Load more journals</button>'
            "<noscript>Please enable JavaScript to browse our journals.</noscript>"
        )
        return self.frame("All journals", main, script=f"{self.root}assets/js/journals.js")

    def api_journals(self, query: str) -> Rendered:
        """A page of ten cards: title, URL, subject, access, and whether more remain."""
        page_text = parse_qs(query).get("page", ["1"])[0]
        indices = self.site.journal_indices
        size = self.site.spec.page_size
        pages = max(1, -(-len(indices) // size))
        if not page_text.isdigit() or not 1 <= int(page_text) <= pages:
            return None
        page_no = int(page_text)
        cards = [
            {
                "title": self.title(i),
                "url": self.journal_path(i),
                "subject": self.site.journal(i).subject,
                "openAccess": self.site.journal(i).open_access,
                "cover": f"{self.root}covers/{slugify(self.title(i))[:40]}.svg",
            }
            for i in indices[(page_no - 1) * size : page_no * size]
        ]
        return as_json({"page": page_no, "total": len(indices), "hasMore": page_no < pages, "journals": cards})

    def cover(self, slug: str) -> Rendered:
        """A journal's cover image (a coloured card with its initials), as the grid's cards show it."""
        index = next((i for i in self.site.journal_indices if slugify(self.title(i))[:40] == slug), None)
        if index is None:
            return None
        initials = "".join(w[0] for w in self.title(index).split() if w[0].isalnum())[:3]
        hue = self.site.rng(index, "cover").randrange(360)
        return Payload(
            '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="160">'
            f'<rect width="120" height="160" fill="hsl({hue},45%,40%)"/>'
            f'<text x="60" y="90" font-size="28" text-anchor="middle" fill="#fff">{escape(initials)}</text></svg>',
            "image/svg+xml",
        )

    def journal_home(self, index: int) -> str:
        """Server HTML: title, facts as a definition list (template 0) or a table (1), related journals."""
        values = self.shown(index)
        rows = [(LOADMORE_LABELS[n], shown_text(n, values[n])) for n in LOADMORE_LABELS if values.get(n) is not None]
        if self.variant(index, 2) == 0:
            facts = '<dl class="journal-facts">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows) + "</dl>"
        else:
            facts = (
                '<table class="journal-facts"><tbody>'
                + "".join(f"<tr><th scope='row'>{k}</th><td>{v}</td></tr>" for k, v in rows)
                + "</tbody></table>"
            )
        tabs = "".join(
            f"<li>{link(f'{self.journal_path(index)}/{p}', t)}</li>"
            for p, t in (("issues", "All issues"), ("editorial-board", "Editorial board"), ("submit", "Submit"))
        )
        main = (
            f'<nav class="breadcrumb">{link(self.root, "Home")} › {link(self.journals_path(), "All journals")}</nav>'
            f'<h1 class="journal-title">{escape(self.title(index))}</h1><ul class="journal-tabs">{tabs}</ul>'
            f"<p>A journal of {escape(self.site.journal(index).subject)}.</p>"
            f"<section><h2>Journal information</h2>{facts}</section>"
        )
        return self.frame(self.title(index), main, self.related_box(index, LOADMORE_LABELS))

    def route(self, path: str, query: str) -> Rendered:
        """Start page, the "All journals" page and its API, journal pages, the script, prose pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if rest == "journals":
            return self.all_journals()
        if rest == "api/journals.json":
            return self.api_journals(query)
        if match := re.fullmatch(r"covers/([a-z0-9-]+)\.svg", rest):
            return self.cover(match[1])
        return self.route_script(rest) or self.route_journal(rest)


# 3. Next.js-like pages -------------------------------------------------------------------------------------------

NOT_IN_JCR = 0.2
"""The share of ``nextdata``'s journals with no Journal Citation Reports metrics: no impact factor row, no five-year
row, the source note as on every journal."""
SOURCE_NOTES = (
    f"Impact Factor: Journal Citation Reports (Clarivate, {METRIC_YEAR})",
    f"CiteScore: Scopus (Elsevier, {METRIC_YEAR})",
)


class NextDataTemplates(ScriptShapeTemplates):
    """Lumen Academic: every page an empty ``#__next`` and its props in ``__NEXT_DATA__``, rendered by ``main.js``."""

    brand = "Lumen Academic"
    scripts = (("_next/static/chunks/main.js", "nextdata.js"),)
    build_id = "k3Xq9vLumen24"

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        self.site = ProjectedSite(site, self.hidden)

    def hidden(self, index: int) -> frozenset[str]:
        """A journal not (yet) in the Journal Citation Reports shows neither impact factor."""
        if self.site.rng(index, "jcr").random() < NOT_IN_JCR:
            return frozenset({"impact_factor", "five_year_impact_factor"})
        return frozenset()

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """``journals/<letter>`` in lower case, ``?page=N``."""
        return f"{self.root}journals/{letter.lower()}" + (f"?page={page_no}" if page_no > 1 else "")

    def hop_path(self, index: int) -> str:
        """Every journal's metrics are on its "Journal metrics" tab."""
        return self.journal_path(index) + "/metrics"

    def document(self, page_name: str, query: dict[str, str], props: dict[str, Any]) -> str:
        """The served page: an empty ``#__next``, the page's data as JSON, the script that renders it."""
        data = {
            "props": {"pageProps": props, "__N_SSG": True},
            "page": page_name,
            "query": query,
            "buildId": self.build_id,
            "assetPrefix": self.root.rstrip("/"),
            "isFallback": False,
            "gsp": True,
            "locale": "en",
            "scriptLoader": [],
        }
        text = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width"><meta name="next-head-count" content="2">'
            f'<script src="{self.root}_next/static/chunks/main.js" defer></script></head>\n'
            f'<body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{text}</script>'
            "</body></html>\n"
        )

    def chrome(self) -> dict[str, Any]:
        """The menu and footer every page's props carry."""
        return {
            "brand": self.brand,
            "nav": [
                {"label": "Journals", "href": f"{self.root}journals"},
                *({"label": f, "href": f"{self.root}subjects/{slugify(f)}"} for f in self.subjects()[:5]),
                {"label": "Open access", "href": f"{self.root}open-access"},
                {"label": "For authors", "href": f"{self.root}authors"},
                {"label": "About", "href": f"{self.root}about"},
                {"label": "Sign in", "href": f"{self.root}sign-in"},
            ],
            "footer": [{"label": PAGE_PATHS[p], "href": f"{self.root}{p}"} for p in ("privacy", "cookies", "contact")],
            "partners": [
                {"title": self.title(i), "href": f"https://partners.example.org/{slugify(self.title(i))}"}
                for i in self.partners()
            ],
        }

    def letters(self) -> list[dict[str, Any]]:
        """The A–Z index: each letter with its page's path, or none when it has no journal."""
        return [{"letter": c, "href": self.letter_path(c) if c in self.site.by_letter else None} for c in LETTERS]

    def home(self) -> str:
        """The start page: the A–Z index, featured journals, news."""
        featured = self.site.journal_indices[5::19][:4]
        props = {
            "chrome": self.chrome(),
            "heading": "Journals from Lumen Academic",
            "letters": self.letters(),
            "featured": [{"title": self.title(i), "href": self.journal_path(i)} for i in featured],
            "news": [{"headline": h, "href": f"{self.root}news/{s}"} for s, h in self.news()],
        }
        return self.document("/", {}, props)

    def index(self) -> str:
        """``journals``: the A–Z index alone."""
        props = {"chrome": self.chrome(), "heading": "Browse journals A–Z", "letters": self.letters()}
        return self.document("/journals", {}, props)

    def listing(self, letter: str, page_no: int) -> Rendered:
        """A letter's page of journals, with links to its other pages."""
        pages = self.pages_of(letter)
        if not 1 <= page_no <= len(pages):
            return None
        props = {
            "chrome": self.chrome(),
            "letters": self.letters(),
            "letter": letter,
            "page": page_no,
            "pages": [self.letter_path(letter, p) for p in range(1, len(pages) + 1)],
            "journals": [
                {"title": self.title(i), "href": self.journal_path(i), "subject": self.site.journal(i).subject}
                for i in pages[page_no - 1]
            ],
        }
        return self.document("/journals/[letter]", {"letter": letter.lower()}, props)

    def tabs(self, index: int) -> list[dict[str, str]]:
        """A journal's tabs: overview, metrics, editorial board, submission."""
        base = self.journal_path(index)
        return [
            {"label": "Overview", "href": base},
            {"label": "Journal metrics", "href": base + "/metrics"},
            {"label": "Editorial board", "href": base + "/editorial-board"},
            {"label": "Submit a manuscript", "href": base + "/submit"},
        ]

    def journal_home(self, index: int) -> str:
        """The overview: title, aims, ISSNs and editor-in-chief (null where the site shows none)."""
        values = self.shown(index)
        journal = self.site.journal(index)
        props = {
            "chrome": self.chrome(),
            "journal": {
                "title": journal.title,
                "slug": slugify(journal.title),
                "tabs": self.tabs(index),
                "aims": f"{journal.title} publishes original research and reviews in {journal.subject}.",
                "issnPrint": json_value("issn", values["issn"]),
                "issnOnline": json_value("eissn", values["eissn"]),
                "editorInChief": json_value("editor_in_chief", values["editor_in_chief"]),
            },
        }
        return self.document("/journal/[slug]", {"slug": slugify(journal.title)}, props)

    def journal_hop(self, index: int) -> str:
        """The metrics tab: a row per metric the journal has (none for an absent one), the source notes always."""
        values = self.shown(index)
        journal = self.site.journal(index)
        metrics = [
            {"key": key, "label": label, "value": values[name]}
            for name, key, label in (
                ("impact_factor", "impactFactor", "Impact Factor"),
                ("five_year_impact_factor", "fiveYearImpactFactor", "5-year Impact Factor"),
                ("citescore", "citeScore", "CiteScore"),
            )
            if values[name] is not None
        ]
        props = {
            "chrome": self.chrome(),
            "journal": {"title": journal.title, "slug": slugify(journal.title), "tabs": self.tabs(index)},
            "metrics": metrics,
            "year": METRIC_YEAR,
            "notes": list(SOURCE_NOTES),
        }
        return self.document("/journal/[slug]/metrics", {"slug": slugify(journal.title)}, props)

    def journal_tab(self, index: int, tab: str) -> str:
        """The editorial board and submission tabs: prose."""
        heading = {"editorial-board": "Editorial board", "submit": "Submit a manuscript"}[tab]
        props = {
            "chrome": self.chrome(),
            "journal": {"title": self.title(index), "slug": slugify(self.title(index)), "tabs": self.tabs(index)},
            "heading": heading,
            "paragraphs": [f"{heading} of {self.title(index)}."],
        }
        return self.document("/journal/[slug]/[tab]", {"slug": slugify(self.title(index)), "tab": tab}, props)

    def prose_page(self, rest: str) -> Rendered:
        """A subject, news or menu page."""
        found = self.prose(rest)
        if found is None:
            return None
        props = {"chrome": self.chrome(), "heading": found[0], "paragraphs": found[1]}
        return self.document("/[...slug]", {"slug": rest}, props)

    def route(self, path: str, query: str) -> Rendered:
        """Start page, index, letter pages, journal tabs, the script, prose pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if rest == "journals":
            return self.index()
        if match := re.fullmatch(r"journals/([a-z]|0-9)", rest):
            page_text = parse_qs(query).get("page", ["1"])[0]
            letter = match[1].upper() if match[1] != "0-9" else "0-9"
            return self.listing(letter, int(page_text)) if page_text.isdigit() else None
        match = re.fullmatch(r"journal/([a-z0-9-]+)(?:/(metrics|editorial-board|submit))?", rest)
        if match and (index := self.site.by_slug.get(match[1])) is not None:
            if match[2] == "metrics":
                return self.journal_hop(index)
            return self.journal_tab(index, match[2]) if match[2] else self.journal_home(index)
        return self.route_script(rest) or self.prose_page(rest)


# 4. Metrics written late -----------------------------------------------------------------------------------------

DEFERRED_LABELS = {
    "issn": "Print ISSN",
    "eissn": "Electronic ISSN",
    "impact_factor": "Impact Factor",
    "citescore": "CiteScore",
    "sjr": "SJR",
    "editor_in_chief": "Editor-in-Chief",
}


class DeferredTemplates(ServerChromeTemplates):
    """Alder Scientific Publishing: server HTML, but the metrics panel is filled by a script 800 ms after load."""

    brand = "Alder Scientific Publishing"
    scripts = (("static/metrics.js", "metrics.js"),)

    def journals_path(self) -> str:
        """The menu's "Journals" is the start page's A–Z index."""
        return self.root

    def alphabet(self, current: str = "") -> str:
        """The A–Z bar: links to letters with journals, the others greyed out."""
        items = []
        for c in LETTERS:
            if c == current:
                items.append(f'<li class="active"><span aria-current="page">{c}</span></li>')
            elif c in self.site.by_letter:
                items.append(f"<li>{link(self.letter_path(c), c)}</li>")
            else:
                items.append(f'<li class="disabled"><span>{c}</span></li>')
        return f'<nav class="az" aria-label="Journals by title"><ul>{"".join(items)}</ul></nav>'

    def home(self) -> str:
        """The start page: the A–Z bar, an introduction, news."""
        news = "".join(f"<li>{link(f'{self.root}news/{s}', h)}</li>" for s, h in self.news())
        main = (
            f"<h1>Journals A–Z</h1>{self.alphabet()}<p>{escape(self.brand)} publishes "
            f"{len(self.site.journal_indices)} journals.</p><section class='news'><h2>News</h2><ul>{news}</ul>"
            "</section>"
        )
        return self.frame("Journals A–Z", main)

    def listing(self, letter: str, page_no: int) -> Rendered:
        """A letter's page: the bar, the journals with their subjects, "‹ Previous 1 2 Next ›"."""
        pages = self.pages_of(letter)
        if letter not in self.site.by_letter or not 1 <= page_no <= len(pages):
            return None
        items = "".join(
            f'<li class="journal-item">{link(self.journal_path(i), self.title(i))}'
            f' <span class="subject">{escape(self.site.journal(i).subject)}</span></li>'
            for i in pages[page_no - 1]
        )
        pager = ""
        if len(pages) > 1:
            parts = [link(self.letter_path(letter, page_no - 1), "‹ Previous")] if page_no > 1 else []
            parts += [
                link(self.letter_path(letter, p), str(p)) if p != page_no else f'<span aria-current="page">{p}</span>'
                for p in range(1, len(pages) + 1)
            ]
            if page_no < len(pages):
                parts.append(link(self.letter_path(letter, page_no + 1), "Next ›"))
            pager = f'<nav class="pagination" aria-label="pagination">{" ".join(parts)}</nav>'
        main = f"<h1>Journals: {letter}</h1>{self.alphabet(letter)}<ul class='journal-list'>{items}</ul>{pager}"
        return self.frame(f"Journals starting with {letter}", main)

    def api_metrics(self, slug: str) -> Rendered:
        """A journal's metrics as the panel's script reads them: null where the page shows none."""
        index = self.site.by_slug.get(slug)
        if index is None:
            return None
        values = self.shown(index)
        return as_json(
            {
                "journal": slug,
                "year": METRIC_YEAR,
                "impactFactor": json_value("impact_factor", values["impact_factor"]),
                "citeScore": json_value("citescore", values["citescore"]),
                "sjr": json_value("sjr", values["sjr"]),
            }
        )

    def journal_home(self, index: int) -> str:
        """Title, ISSNs and editor in server HTML; the metrics panel a placeholder until the script fills it."""
        values = self.shown(index)
        ids = "".join(
            f'<li><span class="label">{DEFERRED_LABELS[n]}</span> <span class="value">{escape(str(values[n]))}</span>'
            "</li>"
            for n in ("issn", "eissn")
            if values.get(n)
        )
        editor = values.get("editor_in_chief")
        chief = f'<p class="editor">{DEFERRED_LABELS["editor_in_chief"]}: {escape(str(editor))}</p>' if editor else ""
        panel = (
            f'<section class="metrics-panel" id="journal-metrics" data-journal="{slugify(self.title(index))}">'
            '<h2>Journal metrics</h2><p class="loading" role="status">Loading metrics…</p></section>'
        )
        main = (
            f'<h1 class="journal-title">{escape(self.title(index))}</h1>'
            f"<p>A peer-reviewed journal of {escape(self.site.journal(index).subject)}.</p>"
            f'<ul class="identifiers">{ids}</ul>{chief}{panel}'
            f"<p>{link(self.journal_path(index) + '/submit', 'Submit a manuscript')} · "
            f"{link(self.journal_path(index) + '/editorial-board', 'Editorial board')}</p>"
        )
        return self.frame(
            self.title(index), main, self.related_box(index, DEFERRED_LABELS), script=f"{self.root}static/metrics.js"
        )

    def route(self, path: str, query: str) -> Rendered:
        """Start page, letter pages, journal pages, the metrics API, the script, prose pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if match := re.fullmatch(r"journals/([a-z]|0-9)", rest):
            page_text = parse_qs(query).get("page", ["1"])[0]
            letter = match[1].upper() if match[1] != "0-9" else "0-9"
            return self.listing(letter, int(page_text)) if page_text.isdigit() else None
        if match := re.fullmatch(r"api/metrics/([a-z0-9-]+)\.json", rest):
            return self.api_metrics(match[1])
        if rest == "journals":
            return Redirect(self.root)
        return self.route_script(rest) or self.route_journal(rest)
