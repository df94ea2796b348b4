"""Five more sandbox sites whose pages scripts build or finish, in shapes of real script-built publisher sites.

Like :mod:`journals.sandbox.unseen_scripts`, they were written from a description of real sites (React, Vue and
AngularJS apps, server pages with scripted panels) by someone who never read the crawler, so that their first crawl
says whether the crawler's rendering generalises. What the truth records for a journal is what its page shows once
its scripts have run and the reader has scrolled, clicked its tabs or opened its sections
(``journals/sandbox/static/*.js``, plain ES2017).

- ``infinite`` (Ibis Scholarly): one "Browse journals" page in server HTML with no letters, page numbers or button;
  ``assets/browse.js`` appends twelve journals from ``api/v2/journals?offset=N&limit=12`` on load and twelve more
  each time an ``IntersectionObserver`` sees the sentinel after the list (the reader scrolled to the bottom), until
  all are shown. Journal pages are server HTML, their facts in a ``<table>`` of label/value rows (three templates).
- ``tabs`` (Harrow & Teal): a Vue-like app with a history router. The A–Z index is server HTML (``journals?letter=B``,
  "Previous"/"Next"), which the router re-renders from ``api/journals`` on a click. A journal page is a shell with
  the title and ISSNs and a tab bar of ``<button role="tab">``: "Overview" (prose, publisher, access) is served,
  "Journal metrics" and "Editorial board" are empty panels filled by a fetch on the tab's first click, no earlier.
- ``hashbang`` (Quillon Press): an AngularJS-style app. The one page the server sends is an empty ``<div ng-app>``
  holding ``<div ng-view></div>`` and a ``<noscript>`` line; every route is a hashbang route on it (``#!/browse/A``,
  ``#!/journal/<slug>``, ``#!/page/about``), rendered from ``views/*.html`` templates (``{{ }}``, ``ng-repeat``,
  ``ng-if``) and ``api/*.json``. A journal's URL is its hash route; its view lists its facts in a ``<dl>``.
- ``accordion`` (Marram Academic): server HTML A–Z letters and journal pages (title, ISSNs, editor, prose, a JSON-LD
  ``Periodical`` with title and ISSNs only), with sections "About this journal", "Journal metrics" and "Abstracting
  and indexing": ``<button aria-expanded>`` and hidden panels on half the journals, ``<details><summary>`` on the
  other half (a site mid-redesign). The metrics section is empty until first opened, then filled with an HTML
  fragment fetched from ``ajax/journal-metrics/<slug>``.
- ``skeleton`` (Sable Research Journals): server HTML A–Z letters paginated with numbered links, journal pages with
  title, ISSNs and editor; the "Metrics" panel holds empty skeleton lines and an SVG spinner (no text) until a fetch
  of ``api/journals/<code>/metrics``, started 1.2 s after the page's load, writes impact factor, CiteScore, SJR and
  SNIP into it (tiles on half the journals, "CiteScore 2024: 5.1" lines on the other).

Every site has a menu heavier than its content, subject, news and prose pages, a footer of partner journals it does
not list, and a box quoting other journals' values with the labels of the journal's own.
"""

from __future__ import annotations

import json
import re
from html import escape
from typing import Any
from urllib.parse import parse_qs

from journals.sandbox.markup import link, page
from journals.sandbox.realweb import shown_text
from journals.sandbox.relation import FIRST_NAMES, LAST_NAMES, METRIC_YEAR
from journals.sandbox.scripted import as_json, letter_param
from journals.sandbox.site_templates import Payload, Redirect, Rendered
from journals.sandbox.sources import LETTERS, NUMERIC, Site, letter_of, slugify
from journals.sandbox.unseen_lists import ProjectedSite
from journals.sandbox.unseen_scripts import PAGE_PATHS, ScriptShapeTemplates, json_value

MORE_PATHS = {
    "peer-review": "Peer review",
    "apc": "Article processing charges",
    "ethics": "Publication ethics",
    "press": "Press office",
    "careers": "Careers",
    "accessibility": "Accessibility",
}
"""Menu pages besides :data:`~journals.sandbox.unseen_scripts.PAGE_PATHS`: prose, no journal."""
NOT_AVAILABLE_SHARE = 0.3
"""The share of a journal's absent metrics its page writes "Not available" for; the others' rows are left out."""
AFFILIATIONS = (
    "University of Bergen, Norway",
    "McGill University, Canada",
    "University of Cape Town, South Africa",
    "Kyoto University, Japan",
    "Universidad de Chile, Chile",
    "University of Edinburgh, UK",
    "ETH Zürich, Switzerland",
    "University of Melbourne, Australia",
    "Sorbonne Université, France",
    "Tsinghua University, China",
    "University of Michigan, USA",
    "Universität Heidelberg, Germany",
)
"""Where an editorial board's members work."""
INDEXES = (
    "Scopus",
    "Web of Science Core Collection (Science Citation Index Expanded)",
    "Journal Citation Reports",
    "PubMed",
    "DOAJ",
    "EBSCO Academic Search",
    "ProQuest",
    "Google Scholar",
    "CNKI Scholar",
    "Dimensions",
)
"""The databases an "Abstracting and indexing" section names."""


def json_script(value: object) -> str:
    """``value`` as JSON safe inside a ``<script>`` element."""
    return json.dumps(value, ensure_ascii=False).replace("</", "<\\/")


class PanelTemplates(ScriptShapeTemplates):
    """What the five sites share: the sections of their heavy menu, more prose pages, partners and decoys."""

    partner_host = "partners.example.org"
    """The host the footer's partner journals live on (they are not this site's)."""

    def journals_path(self) -> str:
        """Where the menu's "Browse journals" goes."""
        return self.root

    def prose(self, rest: str) -> tuple[str, list[str]] | None:
        """(heading, paragraphs) of a subject, news or menu page, the menu's extra pages included."""
        found = super().prose(rest)
        if found is None and rest in MORE_PATHS:
            heading = MORE_PATHS[rest]
            return heading, [f"{heading} at {self.brand}.", f"Questions about {heading.lower()}? Contact us."]
        return found

    def menu_sections(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """(heading, [(path, text)]) of the main menu: journals, subjects, publishing, librarians, about."""
        r = self.root
        return [
            (
                "Journals",
                [
                    (self.journals_path(), "Browse journals"),
                    (r + "open-access", "Open access journals"),
                    (f"{r}news/{self.news()[0][0]}", "New journals"),
                ],
            ),
            ("Subjects", [(f"{r}subjects/{slugify(f)}", f) for f in self.subjects()]),
            (
                "Publish with us",
                [
                    (r + "authors", "For authors"),
                    (r + "peer-review", "Peer review"),
                    (r + "apc", "Article processing charges"),
                    (r + "ethics", "Publication ethics"),
                ],
            ),
            ("Librarians", [(r + "librarians", "For librarians"), (r + "accessibility", "Accessibility")]),
            (
                "About",
                [
                    (r + "about", "About us"),
                    (r + "press", "Press office"),
                    (r + "careers", "Careers"),
                    (r + "contact", "Contact"),
                ],
            ),
        ]

    def header(self) -> str:
        """The site's header and main menu (each site writes its own markup)."""
        raise NotImplementedError

    def partner_links(self) -> list[tuple[str, str]]:
        """(URL, title) of the partner journals the footer names: journals this site does not list."""
        return [(f"https://{self.partner_host}/{slugify(self.title(i))}", self.title(i)) for i in self.partners()]

    def footer(self) -> str:
        """Partner journals, the legal links and the copyright line."""
        partners = "".join(f"<li>{link(url, title)}</li>" for url, title in self.partner_links())
        legal = " · ".join(link(self.root + p, PAGE_PATHS[p]) for p in ("privacy", "cookies", "contact"))
        return (
            f'<footer class="site-footer"><section class="partners"><h4>From our partners</h4><ul>{partners}</ul>'
            f"</section><p>© 2026 {escape(self.brand)} · {legal}</p></footer>"
        )

    def frame(self, title: str, main: str, aside: str = "", script: str = "", head: str = "") -> str:
        """Header, the main content, an aside and the footer; ``script`` the page's own script, deferred."""
        tag = f'<script src="{escape(script)}" defer></script>' if script else ""
        return page(
            f"{title} | {self.brand}",
            f'{self.header()}\n<div class="content"><main>{main}</main>\n{aside}</div>\n{self.footer()}',
            head=head + tag,
        )

    def prose_page(self, rest: str) -> Rendered:
        """A prose page in the site's chrome; None when ``rest`` is none."""
        found = self.prose(rest)
        if found is None:
            return None
        heading, paragraphs = found
        text = "".join(f"<p>{escape(p)}</p>" for p in paragraphs)
        return self.frame(heading, f"<article><h1>{escape(heading)}</h1>{text}</article>")

    def sub_page(self, index: int, name: str) -> str:
        """A journal's page that is not its home (aims, board, submission): prose, no value."""
        heading = {
            "aims-and-scope": "Aims and scope",
            "editorial-board": "Editorial board",
            "submit": "Submit a manuscript",
        }[name]
        title = escape(self.title(index))
        return self.frame(
            f"{heading} | {self.title(index)}",
            f"<article><h1>{title}</h1><h2>{heading}</h2><p>{heading} of the journal.</p></article>",
        )

    def written(self, index: int, name: str, values: dict[str, object]) -> str | None:
        """A value as the site's pages write it (escaped HTML); an absent metric is "Not available" on a share of
        journals and no row (None) on the others, as is any other absent value."""
        value = values.get(name)
        if value is not None:
            return shown_text(name, value)
        if name in NUMERIC and self.site.rng(index, f"na:{name}").random() < NOT_AVAILABLE_SHARE:
            return "Not available"
        return None

    def decoy_box(self, index: int, labels: dict[str, str], heading: str, css: str) -> str:
        """Other journals of the site quoted with the labels of this journal's values: impact factor and ISSN."""
        items = []
        for other in self.related(index, 3):
            values = self.shown(other)
            facts = "".join(
                f"<li>{escape(labels[n])}: {shown_text(n, values[n])}</li>"
                for n in ("impact_factor", "issn")
                if values.get(n) is not None
            )
            items.append(f"<li>{link(self.journal_path(other), self.title(other))}<ul>{facts}</ul></li>")
        return f'<aside class="{css}"><h2>{escape(heading)}</h2><ul>{"".join(items)}</ul></aside>'

    def people(self, index: int, purpose: str, count: int) -> list[dict[str, str]]:
        """``count`` board members of journal ``index`` (names and affiliations), none the editor-in-chief."""
        rng = self.site.rng(index, purpose)
        chief = self.site.journal(index).editor_in_chief
        members: list[dict[str, str]] = []
        while len(members) < count:
            name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
            if name != chief and name not in (m["name"] for m in members):
                members.append({"name": name, "affiliation": rng.choice(AFFILIATIONS)})
        return members


# 1. Infinite scroll ----------------------------------------------------------------------------------------------

INFINITE_BATCH = 12
"""How many journals the "Browse journals" list shows at first and appends per scroll to its bottom."""
INFINITE_LABELS = (
    {
        "issn": "Print ISSN",
        "eissn": "Online ISSN",
        "impact_factor": "Journal Impact Factor",
        "citescore": "CiteScore",
        "editor_in_chief": "Editor-in-Chief",
    },
    {
        "issn": "ISSN (Print)",
        "eissn": "ISSN (Online)",
        "impact_factor": f"Impact factor ({METRIC_YEAR})",
        "citescore": f"CiteScore {METRIC_YEAR}",
        "editor_in_chief": "Editor in Chief",
    },
    {
        "issn": "ISSN",
        "eissn": "ISSN",
        "impact_factor": "Impact Factor™",
        "citescore": "CiteScore (Scopus)",
        "editor_in_chief": "Chief Editor",
    },
)
"""The labels of ``infinite``'s three journal-page templates (the third writes both ISSNs in one row)."""


class InfiniteTemplates(PanelTemplates):
    """Ibis Scholarly: one "Browse journals" list that a script extends as the reader scrolls to its bottom."""

    brand = "Ibis Scholarly"
    scripts = (("assets/browse.js", "infinite.js"),)
    partner_host = "partners.ibis-scholarly.example"

    def journals_path(self) -> str:
        """The "Browse journals" page."""
        return f"{self.root}browse"

    def journal_path(self, index: int) -> str:
        """Journal pages at ``journals/<slug>``."""
        return f"{self.root}journals/{slugify(self.title(index))}"

    def listing_chain(self, index: int) -> list[str]:
        """Every journal is on the "Browse journals" page, once the reader has scrolled far enough."""
        return [self.journals_path()]

    def header(self) -> str:
        """A Bootstrap-like navbar: brand, five drop-downs, search, sign in."""
        items = []
        for heading, links in self.menu_sections():
            entries = "".join(f'<a class="dropdown-item" href="{escape(h)}">{escape(t)}</a>' for h, t in links)
            items.append(
                '<li class="nav-item dropdown"><a class="nav-link dropdown-toggle" href="#" role="button" '
                f'data-bs-toggle="dropdown" aria-expanded="false">{escape(heading)}</a>'
                f'<div class="dropdown-menu">{entries}</div></li>'
            )
        return (
            f'<nav class="navbar navbar-expand-lg"><div class="container-fluid">'
            f'<a class="navbar-brand" href="{self.root}">{escape(self.brand)}</a>'
            '<button class="navbar-toggler" type="button" aria-label="Toggle navigation">'
            '<span class="navbar-toggler-icon"></span></button>'
            f'<ul class="navbar-nav">{"".join(items)}</ul>'
            f'<form class="d-flex" role="search" action="{self.root}search"><input class="form-control" type="search" '
            'name="q" placeholder="Search journals" aria-label="Search"></form>'
            f'<a class="btn btn-outline-light" href="{self.root}sign-in">Sign in</a></div></nav>'
        )

    def frame(self, title: str, main: str, aside: str = "", script: str = "", head: str = "") -> str:
        """The shared frame with the navbar's drop-downs hidden until hovered."""
        style = "<style>.dropdown-menu{display:none}.dropdown:hover .dropdown-menu{display:block}</style>"
        return super().frame(title, main, aside, script, style + head)

    def home(self) -> str:
        """The start page: a hero linking "Browse journals", featured journals, news."""
        featured = "".join(
            f"<li>{link(self.journal_path(i), self.title(i))}</li>" for i in self.site.journal_indices[2::15][:4]
        )
        news = "".join(f"<li>{link(f'{self.root}news/{s}', h)}</li>" for s, h in self.news())
        main = (
            '<section class="hero"><h1>Journals from Ibis Scholarly</h1>'
            f"<p>{len(self.site.journal_indices)} peer-reviewed journals, read in 190 countries.</p>"
            f"<p>{link(self.journals_path(), 'Browse journals', 'btn btn-primary')}</p></section>"
            f'<section class="featured"><h2>Featured journals</h2><ul>{featured}</ul></section>'
            f'<section class="news"><h2>Latest news</h2><ul>{news}</ul></section>'
        )
        return self.frame("Journals", main)

    def browse(self) -> str:
        """The list page: an empty list, the sentinel after it, a status line; no letters, pages or button."""
        style = (
            "<style>.journal-row{display:block;min-height:64px;padding:14px 0;border-bottom:1px solid #ddd}"
            ".scroll-sentinel{height:1px}</style>"
        )
        main = (
            "<h1>Browse journals</h1>"
            f'<p class="lead">All {len(self.site.journal_indices)} journals published by {escape(self.brand)}, '
            "from A to Z.</p>"
            f'<ul class="journal-list" id="journal-list" data-api="{self.root}api/v2/journals" aria-live="polite">'
            "</ul>"
            '<div class="scroll-sentinel" id="scroll-sentinel" aria-hidden="true"></div>'
            '<p class="list-status" id="list-status" role="status"></p>'
            "<noscript>Please enable JavaScript to browse our journals.</noscript>"
        )
        return self.frame("Browse journals", main, script=f"{self.root}assets/browse.js", head=style)

    def api_journals(self, query: str) -> Rendered:
        """``limit`` journals from ``offset`` (12 from 0 by default, 48 at most), the total and the next offset
        (null after the last); an offset past the end is a 404."""
        params = parse_qs(query)
        offset_text = params.get("offset", ["0"])[0]
        limit_text = params.get("limit", [str(INFINITE_BATCH)])[0]
        if not offset_text.isdigit() or not limit_text.isdigit() or int(limit_text) == 0:
            return None
        indices = self.site.journal_indices
        offset, limit = int(offset_text), min(int(limit_text), 48)
        if offset > len(indices):
            return None
        chunk = indices[offset : offset + limit]
        end = offset + len(chunk)
        return as_json(
            {
                "total": len(indices),
                "offset": offset,
                "limit": limit,
                "nextOffset": end if end < len(indices) else None,
                "items": [
                    {
                        "slug": slugify(self.title(i)),
                        "title": self.title(i),
                        "url": self.journal_path(i),
                        "subject": self.site.journal(i).subject,
                        "openAccess": self.site.journal(i).open_access,
                    }
                    for i in chunk
                ],
            }
        )

    def fact_rows(self, index: int) -> list[tuple[str, str]]:
        """(label, value HTML) of a journal's facts table, in its template's labels."""
        values = self.shown(index)
        variant = self.variant(index, 3)
        labels = INFINITE_LABELS[variant]
        rows: list[tuple[str, str]] = []
        if variant == 2:
            ids = [f"{values[n]} ({kind})" for n, kind in (("issn", "print"), ("eissn", "online")) if values.get(n)]
            if ids:
                rows.append((labels["issn"], " · ".join(ids)))
        else:
            rows += [(labels[n], escape(str(values[n]))) for n in ("issn", "eissn") if values.get(n)]
        for name in ("impact_factor", "citescore", "editor_in_chief"):
            text = self.written(index, name, values)
            if text is not None:
                rows.append((labels[name], text))
        return rows

    def facts_table(self, index: int) -> str:
        """The facts as a th/td table (template 0), a table of classed cells (1) or a captioned table with a
        "Metric | Value" head row (2)."""
        rows = self.fact_rows(index)
        variant = self.variant(index, 3)
        if variant == 0:
            body = "".join(f'<tr><th scope="row">{k}</th><td>{v}</td></tr>' for k, v in rows)
            return f'<table class="journal-details"><tbody>{body}</tbody></table>'
        if variant == 1:
            body = "".join(f'<tr><td class="tbl__key">{k}</td><td class="tbl__val">{v}</td></tr>' for k, v in rows)
            return f'<table class="tbl tbl--striped">{body}</table>'
        body = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in rows)
        return (
            '<table class="metrics-table"><caption>Journal information</caption>'
            f"<thead><tr><th>Metric</th><th>Value</th></tr></thead><tbody>{body}</tbody></table>"
        )

    def journal_home(self, index: int) -> str:
        """Server HTML: breadcrumb, title, the journal's links, its facts table, readers' other journals."""
        base = self.journal_path(index)
        pages = (("aims-and-scope", "Aims and scope"), ("editorial-board", "Editorial board"), ("submit", "Submit"))
        links = "".join(f"<li>{link(f'{base}/{p}', t)}</li>" for p, t in pages)
        main = (
            f'<nav class="breadcrumb">{link(self.root, "Home")} / {link(self.journals_path(), "Browse journals")}'
            f" / <span>{escape(self.title(index))}</span></nav>"
            f'<h1 class="journal-title">{escape(self.title(index))}</h1>'
            f'<p class="journal-subject">An international journal of {escape(self.site.journal(index).subject)}.</p>'
            f'<ul class="journal-links">{links}</ul>'
            f'<section class="journal-info"><h2>About the journal</h2>{self.facts_table(index)}</section>'
        )
        labels = INFINITE_LABELS[self.variant(index, 3)]
        return self.frame(self.title(index), main, self.decoy_box(index, labels, "Readers also viewed", "also-viewed"))

    def route(self, path: str, query: str) -> Rendered:
        """Start page, "Browse journals" and its API, journal pages, the script, prose pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if rest == "browse":
            return self.browse()
        if rest == "journals":
            return Redirect(self.journals_path())
        if rest == "api/v2/journals":
            return self.api_journals(query)
        match = re.fullmatch(r"journals/([a-z0-9-]+)(?:/(aims-and-scope|editorial-board|submit))?", rest)
        if match and (index := self.site.by_slug.get(match[1])) is not None:
            return self.sub_page(index, match[2]) if match[2] else self.journal_home(index)
        return self.route_script(rest) or self.prose_page(rest)


# 2. Tabs filled on click -----------------------------------------------------------------------------------------

VUE_SCOPE = "data-v-5f2a1c3e"
"""The scoped-style attribute a Vue single-file component writes on its elements."""
TABS_NOT_IN_JCR = 0.15
"""The share of ``tabs``'s journals not in the Journal Citation Reports: no impact factor of either kind."""


class TabsTemplates(PanelTemplates):
    """Harrow & Teal: a Vue-like app; server A–Z pages, journal shells whose metrics and board tabs fetch on click."""

    brand = "Harrow & Teal"
    scripts = (("js/app.4e1b7c.js", "tabs.js"),)
    partner_host = "journals.partner-society.example"

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        self.site = ProjectedSite(site, self.hidden)

    def hidden(self, index: int) -> frozenset[str]:
        """A journal not in the Journal Citation Reports shows neither impact factor."""
        if self.site.rng(index, "jcr").random() < TABS_NOT_IN_JCR:
            return frozenset({"impact_factor", "five_year_impact_factor"})
        return frozenset()

    def journals_path(self) -> str:
        """The A–Z index."""
        return f"{self.root}journals"

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """``journals?letter=B``, ``&page=N``."""
        return f"{self.root}journals?letter={letter}" + (f"&page={page_no}" if page_no > 1 else "")

    def script_path(self) -> str:
        """The app's one script, on every page."""
        return self.root + self.scripts[0][0]

    def header(self) -> str:
        """A Vue app bar: drop-down sections opened by buttons, sign in."""
        items = []
        for heading, links in self.menu_sections():
            entries = "".join(f"<li {VUE_SCOPE}>{link(h, t)}</li>" for h, t in links)
            items.append(
                f'<li class="app-nav__item app-nav__item--has-menu" {VUE_SCOPE}><button type="button" '
                f'class="app-nav__toggle" aria-expanded="false" aria-haspopup="true" {VUE_SCOPE}>{escape(heading)}'
                f'</button><ul class="app-nav__menu" {VUE_SCOPE}>{entries}</ul></li>'
            )
        return (
            f'<header class="app-bar" {VUE_SCOPE}><div class="app-bar__inner" {VUE_SCOPE}>'
            f'<a href="{self.root}" class="app-bar__logo" {VUE_SCOPE}>{escape(self.brand)}</a>'
            f'<nav class="app-nav" aria-label="Primary" {VUE_SCOPE}><ul class="app-nav__list">{"".join(items)}</ul>'
            f'</nav><a class="app-bar__signin" href="{self.root}sign-in" {VUE_SCOPE}>Sign in</a></div></header>'
        )

    def frame(self, title: str, main: str, aside: str = "", script: str = "", head: str = "") -> str:
        """Every page is the server's render of the app: ``#app`` holds the chrome and the view, then the app
        script (on every page: menus, router, tabs)."""
        style = (
            "<style>.app-nav__menu{display:none}.app-nav__item--open .app-nav__menu{display:block}"
            ".tab-panel[hidden]{display:none}</style>"
        )
        return page(
            f"{title} | {self.brand}",
            f'<div id="app" data-v-app=""><!--[-->{self.header()}<div class="layout" {VUE_SCOPE}>'
            f'<main class="page" {VUE_SCOPE}>{main}</main>{aside}</div>{self.footer()}<!--]--></div>',
            head=style + head + f'<script src="{self.script_path()}" defer></script>',
        )

    def az_index(self, current: str | None) -> str:
        """The A–Z bar: letters with journals are router links, the others greyed spans (the markup the router's
        script writes, attribute for attribute)."""
        items = []
        for c in LETTERS:
            if c not in self.site.by_letter:
                items.append(
                    f'<li {VUE_SCOPE}><span {VUE_SCOPE} class="az-index__link az-index__link--empty" '
                    f'aria-disabled="true">{c}</span></li>'
                )
                continue
            active = c == current
            css = "az-index__link" + (" router-link-active router-link-exact-active" if active else "")
            current_attr = ' aria-current="page"' if active else ""
            href = escape(self.letter_path(c))
            items.append(f'<li {VUE_SCOPE}><a {VUE_SCOPE} href="{href}" class="{css}"{current_attr}>{c}</a></li>')
        return (
            f'<nav {VUE_SCOPE} class="az-index" aria-label="Browse journals by title"><ul {VUE_SCOPE}>{"".join(items)}'
            "</ul></nav>"
        )

    def home(self) -> str:
        """The start page: the A–Z bar, featured journals, news."""
        featured = "".join(
            f"<li>{link(self.journal_path(i), self.title(i))}</li>" for i in self.site.journal_indices[4::13][:4]
        )
        news = "".join(f"<li>{link(f'{self.root}news/{s}', h)}</li>" for s, h in self.news())
        main = (
            f"<h1>Harrow &amp; Teal journals</h1><p>Find a journal by its title.</p>{self.az_index(None)}"
            f'<section class="featured"><h2>Featured journals</h2><ul>{featured}</ul></section>'
            f'<section class="news"><h2>News</h2><ul>{news}</ul></section>'
        )
        return self.frame("Journals", main)

    def results(self, letter: str, page_no: int) -> str:
        """A letter's page of journals: heading, count, list, "Previous"/"Page i of n"/"Next" (the markup the
        router's script writes for the same page, attribute for attribute)."""
        v = VUE_SCOPE
        pages = self.pages_of(letter)
        total = len(self.site.by_letter.get(letter, []))
        items = "".join(
            f'<li {v} class="journal-results__item"><a {v} href="{escape(self.journal_path(i))}" '
            f'class="journal-results__title">{escape(self.title(i))}</a>'
            f'<span {v} class="journal-results__subject">{escape(self.site.journal(i).subject)}</span>'
            + (f'<span {v} class="badge badge--oa">Open access</span>' if self.site.journal(i).open_access else "")
            + "</li>"
            for i in pages[page_no - 1]
        )
        empty = f'<p {v} class="results-empty">No journals yet.</p>'
        body = f'<ul {v} class="journal-results">{items}</ul>' if items else empty
        pager = ""
        if len(pages) > 1:
            parts = []
            if page_no > 1:
                parts.append(f'<a {v} href="{escape(self.letter_path(letter, page_no - 1))}" rel="prev">Previous</a>')
            parts.append(f'<span {v} class="pager__status">Page {page_no} of {len(pages)}</span>')
            if page_no < len(pages):
                parts.append(f'<a {v} href="{escape(self.letter_path(letter, page_no + 1))}" rel="next">Next</a>')
            pager = f'<nav {v} class="pager" aria-label="Pagination">{" ".join(parts)}</nav>'
        return (
            f'<section {v} class="results" id="results" data-letter="{letter}" data-page="{page_no}">'
            f'<h2 {v} class="results__heading">Journals beginning with {letter}</h2>'
            f'<p {v} class="results__count">{total} journal{"s" if total != 1 else ""}</p>{body}{pager}</section>'
        )

    def listing(self, letter: str, page_no: int) -> Rendered:
        """``journals?letter=L&page=N``: the bar and the letter's page; None past its last page."""
        if not 1 <= page_no <= len(self.pages_of(letter)):
            return None
        main = f"<h1>Journals A–Z</h1>{self.az_index(letter)}{self.results(letter, page_no)}"
        return self.frame(f"Journals: {letter}", main)

    def index(self) -> str:
        """``journals`` with no letter: the bar and a prompt."""
        main = f"<h1>Journals A–Z</h1>{self.az_index(None)}<p>Choose a letter to see its journals.</p>"
        return self.frame("Journals A–Z", main)

    def api_journals(self, query: str) -> Rendered:
        """A letter's page as JSON for the router: the letters' counts, the page, its journals."""
        params = parse_qs(query)
        letter = letter_param(params.get("letter", [""])[0])
        page_text = params.get("page", ["1"])[0]
        if letter is None or not page_text.isdigit():
            return None
        pages, page_no = self.pages_of(letter), int(page_text)
        if not 1 <= page_no <= len(pages):
            return None
        return as_json(
            {
                "letter": letter,
                "page": page_no,
                "pages": len(pages),
                "total": len(self.site.by_letter.get(letter, [])),
                "letters": [{"letter": c, "count": len(self.site.by_letter.get(c, []))} for c in LETTERS],
                "journals": [
                    {
                        "title": self.title(i),
                        "url": self.journal_path(i),
                        "subject": self.site.journal(i).subject,
                        "openAccess": self.site.journal(i).open_access,
                    }
                    for i in pages[page_no - 1]
                ],
            }
        )

    def issn_line(self, index: int, values: dict[str, object]) -> str:
        """Both ISSNs in one line (template 0) or as two labelled spans (1)."""
        if self.variant(index, 2) == 0:
            parts = [f"{values[n]} ({kind})" for n, kind in (("issn", "Print"), ("eissn", "Online")) if values.get(n)]
            return f'<p class="journal-hero__issn">ISSN: {" | ".join(parts)}</p>' if parts else ""
        spans = "".join(
            f'<span class="journal-hero__id">{label} {values[n]}</span>'
            for n, label in (("issn", "Print ISSN"), ("eissn", "Online ISSN"))
            if values.get(n)
        )
        return f'<p class="journal-hero__ids">{spans}</p>'

    def overview(self, index: int, values: dict[str, object]) -> str:
        """The served "Overview" panel: prose, the publisher and the access model (as facts or as sentences)."""
        journal = self.site.journal(index)
        prose = (
            f"<p>{escape(journal.title)} publishes original research, reviews and short communications across "
            f"{escape(journal.subject)}. Manuscripts are peer reviewed by at least two independent referees.</p>"
        )
        publisher, access = values.get("publisher"), values.get("open_access")
        access_text = None if access is None else ("Open access" if access else "Subscription")
        if self.variant(index, 2) == 0:
            facts = "".join(
                f"<div><dt>{k}</dt><dd>{escape(str(v))}</dd></div>"
                for k, v in (("Publisher", publisher), ("Access", access_text))
                if v is not None
            )
            return prose + f'<dl class="overview-facts">{facts}</dl>'
        parts = []
        if publisher is not None:
            parts.append(f'<p class="overview-publisher">Published by <strong>{escape(str(publisher))}</strong>.</p>')
        if access is not None:
            parts.append(
                '<p class="overview-access"><span class="badge badge--oa">Open access</span> All articles are free '
                "to read.</p>"
                if access
                else '<p class="overview-access">Subscription journal with an open access option.</p>'
            )
        return prose + "".join(parts)

    def journal_home(self, index: int) -> str:
        """The shell: title and ISSNs, the tab bar of buttons, the served overview and two empty panels."""
        values = self.shown(index)
        slug = slugify(self.title(index))
        letter = letter_of(self.title(index))
        tabs = "".join(
            f'<button type="button" role="tab" id="tab-{key}" class="tabs__tab" aria-controls="panel-{key}" '
            f'aria-selected="{"true" if key == "overview" else "false"}" tabindex="{0 if key == "overview" else -1}" '
            f'data-tab="{key}" {VUE_SCOPE}>{label}</button>'
            for key, label in (("overview", "Overview"), ("metrics", "Journal metrics"), ("board", "Editorial board"))
        )
        main = (
            f'<nav class="breadcrumbs" {VUE_SCOPE}>{link(self.root, "Home")} › {link(self.journals_path(), "Journals")}'
            f" › {link(self.letter_path(letter), letter)}</nav>"
            f'<div class="journal-hero" {VUE_SCOPE}><h1 class="journal-hero__title">{escape(self.title(index))}</h1>'
            f"{self.issn_line(index, values)}</div>"
            f'<div class="tabs" role="tablist" aria-label="Journal sections" data-journal="{slug}" {VUE_SCOPE}>{tabs}'
            "</div>"
            f'<section class="tab-panel" role="tabpanel" id="panel-overview" aria-labelledby="tab-overview" '
            f"{VUE_SCOPE}>{self.overview(index, values)}</section>"
            f'<section class="tab-panel" role="tabpanel" id="panel-metrics" aria-labelledby="tab-metrics" hidden '
            f"{VUE_SCOPE}></section>"
            f'<section class="tab-panel" role="tabpanel" id="panel-board" aria-labelledby="tab-board" hidden '
            f"{VUE_SCOPE}></section>"
            f'<p class="journal-actions">{link(self.journal_path(index) + "/submit", "Submit your research", "btn")}'
            "</p>"
        )
        labels = {"impact_factor": "Impact factor", "issn": "Print ISSN"}
        return self.frame(self.title(index), main, self.decoy_box(index, labels, "You might also like", "related"))

    def api_metrics(self, slug: str) -> Rendered:
        """The "Journal metrics" tab's data: null for a metric the journal has none of."""
        index = self.site.by_slug.get(slug)
        if index is None:
            return None
        values = self.shown(index)
        return as_json(
            {
                "journal": slug,
                "year": METRIC_YEAR,
                "inJcr": not self.hidden(index),
                "impactFactor": json_value("impact_factor", values["impact_factor"]),
                "fiveYearImpactFactor": json_value("five_year_impact_factor", values["five_year_impact_factor"]),
                "citeScore": json_value("citescore", values["citescore"]),
                "sjr": json_value("sjr", values["sjr"]),
            }
        )

    def api_board(self, slug: str) -> Rendered:
        """The "Editorial board" tab's data: the editor-in-chief (null when the site shows none) and members."""
        index = self.site.by_slug.get(slug)
        if index is None:
            return None
        chief = self.shown(index)["editor_in_chief"]
        return as_json(
            {
                "journal": slug,
                "editorInChief": None
                if chief is None
                else {"name": chief, "affiliation": self.site.rng(index, "chief").choice(AFFILIATIONS)},
                "associateEditors": self.people(index, "associates", 3),
                "advisoryBoard": self.people(index, "advisers", 5),
            }
        )

    def route(self, path: str, query: str) -> Rendered:
        """Start page, A–Z pages and their API, journal shells and their tabs' APIs, the script, prose pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if rest == "journals":
            params = parse_qs(query)
            if "letter" not in params:
                return self.index()
            letter = letter_param(params["letter"][0])
            page_text = params.get("page", ["1"])[0]
            return self.listing(letter, int(page_text)) if letter and page_text.isdigit() else None
        if rest == "api/journals":
            return self.api_journals(query)
        if match := re.fullmatch(r"api/journal/([a-z0-9-]+)/(metrics|editorial-board)", rest):
            return self.api_metrics(match[1]) if match[2] == "metrics" else self.api_board(match[1])
        match = re.fullmatch(r"journal/([a-z0-9-]+)(/submit)?", rest)
        if match and (index := self.site.by_slug.get(match[1])) is not None:
            return self.sub_page(index, "submit") if match[2] else self.journal_home(index)
        return self.route_script(rest) or self.prose_page(rest)


# 3. An AngularJS-style app on hashbang routes --------------------------------------------------------------------

HASHBANG_VIEWS = {
    "header.html": (
        '<header class="qp-header"><a class="qp-brand" href="#!/">{{site.brand}}</a>'
        '<nav class="qp-menu" aria-label="Main"><ul>'
        '<li class="qp-menu__section" ng-repeat="section in site.menu"><span class="qp-menu__heading">'
        "{{section.heading}}</span>"
        '<ul class="qp-menu__links"><li ng-repeat="item in section.links"><a ng-href="{{item.href}}">{{item.label}}'
        "</a></li></ul></li></ul></nav>"
        '<a class="qp-signin" ng-href="{{site.signIn}}">Sign in</a></header>'
    ),
    "footer.html": (
        '<footer class="qp-footer"><h4>Partner journals</h4><ul class="qp-partners">'
        '<li ng-repeat="p in site.partners"><a ng-href="{{p.url}}" target="_blank" rel="noopener">{{p.title}}</a>'
        '</li></ul><p class="qp-legal">© 2026 {{site.brand}} <span ng-repeat="l in site.legal">· '
        '<a ng-href="{{l.href}}">{{l.label}}</a> </span></p></footer>'
    ),
    "home.html": (
        '<section class="qp-hero"><h1>{{home.heading}}</h1><p>{{home.intro}}</p></section>'
        '<nav class="qp-az" aria-label="Journals A to Z"><ul><li ng-repeat="l in letters">'
        '<a ng-if="l.count" ng-href="#!/browse/{{l.letter}}">{{l.letter}}</a>'
        '<span ng-if="!l.count" class="qp-az__empty">{{l.letter}}</span></li></ul></nav>'
        '<section class="qp-featured"><h2>Featured journals</h2><ul><li ng-repeat="j in home.featured">'
        '<a ng-href="#!/journal/{{j.slug}}">{{j.title}}</a></li></ul></section>'
        '<section class="qp-news"><h2>News</h2><ul><li ng-repeat="n in home.news">'
        '<a ng-href="#!/news/{{n.slug}}">{{n.headline}}</a></li></ul></section>'
    ),
    "browse.html": (
        '<h1>Journals: {{browse.letter}}</h1><nav class="qp-az" aria-label="Journals A to Z"><ul>'
        '<li ng-repeat="l in letters"><a ng-if="l.count" ng-href="#!/browse/{{l.letter}}">{{l.letter}}</a>'
        '<span ng-if="!l.count" class="qp-az__empty">{{l.letter}}</span></li></ul></nav>'
        '<p class="qp-count">{{browse.total}} journals</p>'
        '<ul class="qp-journals"><li class="qp-journals__item" ng-repeat="j in browse.journals">'
        '<a ng-href="#!/journal/{{j.slug}}">{{j.title}}</a> <small>{{j.subject}}</small></li></ul>'
        '<p ng-if="!browse.journals.length">No journals under this letter.</p>'
    ),
    "journal.html": (
        '<nav class="qp-crumbs"><a href="#!/">Home</a> › <a ng-href="#!/browse/{{journal.letter}}">'
        "{{journal.letter}}</a></nav>"
        '<article class="qp-journal"><h1 class="qp-journal__title">{{journal.title}}</h1>'
        '<p class="qp-journal__subject">{{journal.subject}}</p><dl class="qp-journal__facts">'
        '<dt ng-if="journal.printIssn">ISSN (print)</dt><dd ng-if="journal.printIssn">{{journal.printIssn}}</dd>'
        '<dt ng-if="journal.onlineIssn">ISSN (electronic)</dt>'
        '<dd ng-if="journal.onlineIssn">{{journal.onlineIssn}}</dd>'
        '<dt ng-if="journal.impactFactor">Impact Factor</dt>'
        '<dd ng-if="journal.impactFactor">{{journal.impactFactor | number:3}}</dd>'
        '<dt ng-if="journal.citeScore">CiteScore</dt>'
        '<dd ng-if="journal.citeScore">{{journal.citeScore | number:1}}</dd>'
        '<dt ng-if="journal.editorInChief">Editor-in-Chief</dt>'
        '<dd ng-if="journal.editorInChief">{{journal.editorInChief}}</dd></dl>'
        '<p class="qp-journal__note" ng-if="journal.impactFactor">Impact Factor: Journal Citation Reports '
        "{{journal.metricsYear}}. CiteScore: Scopus {{journal.metricsYear}}.</p>"
        '<p><a ng-href="#!/page/authors">Submit a manuscript</a></p></article>'
        '<aside class="qp-others"><h2>Other journals you may like</h2><ul>'
        '<li ng-repeat="r in journal.related"><a ng-href="#!/journal/{{r.slug}}">{{r.title}}</a><dl>'
        '<dt ng-if="r.impactFactor">Impact Factor</dt><dd ng-if="r.impactFactor">{{r.impactFactor | number:3}}</dd>'
        '<dt ng-if="r.printIssn">ISSN (print)</dt><dd ng-if="r.printIssn">{{r.printIssn}}</dd></dl></li></ul></aside>'
    ),
    "page.html": (
        '<article class="qp-page"><h1>{{page.heading}}</h1><p ng-repeat="p in page.paragraphs">{{p}}</p></article>'
    ),
    "404.html": (
        '<article class="qp-page"><h1>Page not found</h1><p><a href="#!/">Back to the journals</a></p></article>'
    ),
}
"""The app's view templates (``views/<name>``), AngularJS syntax that ``js/app.min.js`` compiles."""


class HashbangTemplates(PanelTemplates):
    """Quillon Press: an empty ``ng-app`` shell; every view is a hashbang route rendered from templates and JSON."""

    brand = "Quillon Press"
    scripts = (("js/app.min.js", "hashbang.js"),)
    partner_host = "www.quillon-partners.example"

    def journal_path(self, index: int) -> str:
        """A journal's hash route on the start page: ``#!/journal/<slug>``."""
        return f"{self.root}#!/journal/{slugify(self.title(index))}"

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """A letter's hash route, one view per letter: ``#!/browse/B``."""
        return f"{self.root}#!/browse/{letter}"

    def journals_path(self) -> str:
        """The start view holds the A–Z bar."""
        return f"{self.root}#!/"

    def route_of(self, path: str) -> str:
        """The hash route of a site path: subjects, news and the menu's pages (``#!/page/about``)."""
        rest = path[len(self.root) :]
        if rest.startswith("#!/"):
            return rest
        if rest.startswith(("subjects/", "news/")):
            return f"#!/{rest}"
        return f"#!/page/{rest}"

    def shell(self) -> str:
        """The one page the server sends: an empty ``ng-app`` with an empty ``ng-view``, a noscript line."""
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="fragment" content="!">'
            '<title ng-bind="pageTitle">Quillon Press</title>'
            "<style>[ng-cloak]{display:none!important}</style>"
            f'<script src="{self.root}js/app.min.js" defer></script></head>\n'
            '<body><div ng-app="quillonApp" ng-strict-di><div ng-view></div></div>'
            "<noscript>Quillon Press needs JavaScript. Please enable JavaScript in your browser to browse our journals."
            "</noscript></body></html>\n"
        )

    def api_site(self) -> dict[str, Any]:
        """The chrome the header and footer views show: brand, menu (hash routes), partners, legal links."""
        return {
            "brand": self.brand,
            "signIn": "https://account.quillon-press.example/login",
            "menu": [
                {"heading": heading, "links": [{"label": t, "href": self.route_of(h)} for h, t in links]}
                for heading, links in self.menu_sections()
            ],
            "partners": [{"title": t, "url": u} for u, t in self.partner_links()],
            "legal": [{"label": PAGE_PATHS[p], "href": f"#!/page/{p}"} for p in ("privacy", "cookies", "contact")],
        }

    def api_home(self) -> dict[str, Any]:
        """The start view's heading, featured journals and news."""
        return {
            "heading": "Journals from Quillon Press",
            "intro": "Browse our journals by title.",
            "featured": [
                {"title": self.title(i), "slug": slugify(self.title(i))} for i in self.site.journal_indices[6::17][:4]
            ],
            "news": [{"headline": h, "slug": s} for s, h in self.news()],
        }

    def api_letters(self) -> dict[str, Any]:
        """Every letter with how many journals it has (a letter with none is no link)."""
        return {"letters": [{"letter": c, "count": len(self.site.by_letter.get(c, []))} for c in LETTERS]}

    def api_browse(self, letter: str) -> dict[str, Any]:
        """A letter's journals, every one at once."""
        indices = self.site.by_letter.get(letter, [])
        return {
            "letter": letter,
            "total": len(indices),
            "journals": [
                {"title": self.title(i), "slug": slugify(self.title(i)), "subject": self.site.journal(i).subject}
                for i in indices
            ],
        }

    def api_journal(self, slug: str) -> Rendered:
        """A journal's view data: title, shown values (null where not shown), related journals as decoys."""
        index = self.site.by_slug.get(slug)
        if index is None:
            return None
        related = []
        for other in self.related(index, 3):
            other_values = self.shown(other)
            related.append(
                {
                    "title": self.title(other),
                    "slug": slugify(self.title(other)),
                    "impactFactor": json_value("impact_factor", other_values["impact_factor"]),
                    "printIssn": other_values["issn"],
                }
            )
        return self.journal_view(index, slug, related, letter=letter_of(self.title(index)))

    def api_page(self, rest: str) -> Rendered:
        """A prose view's heading and paragraphs."""
        found = self.prose(rest)
        return as_json({"heading": found[0], "paragraphs": found[1]}) if found else None

    def route(self, path: str, query: str) -> Rendered:
        """The shell at the start page (and ``index.html``), the script, the views and the API; nothing else."""
        rest = path[len(self.root) :]
        if rest in ("", "index.html"):
            return self.shell()
        if rest.startswith("views/"):
            view = HASHBANG_VIEWS.get(rest[len("views/") :])
            return Payload(view, "text/html") if view else None
        if rest.startswith("api/"):
            api = rest[len("api/") :]
            fixed = {"site.json": self.api_site, "home.json": self.api_home, "letters.json": self.api_letters}
            if api in fixed:
                return as_json(fixed[api]())
            if (match := re.fullmatch(r"browse/([A-Za-z]|0-9)\.json", api)) and (letter := letter_param(match[1])):
                return as_json(self.api_browse(letter))
            if match := re.fullmatch(r"journal/([a-z0-9-]+)\.json", api):
                return self.api_journal(match[1])
            if match := re.fullmatch(r"page/([a-z0-9/-]+)\.json", api):
                return self.api_page(match[1])
            return None
        return self.route_script(rest)


# 4. Accordion sections -------------------------------------------------------------------------------------------

ACCORDION_LABELS = (
    {
        "issn": "Print ISSN",
        "eissn": "Online ISSN",
        "impact_factor": "Journal Impact Factor",
        "five_year_impact_factor": "5-Year Journal Impact Factor",
        "citescore": "CiteScore",
        "editor_in_chief": "Editor-in-Chief",
    },
    {
        "issn": "ISSN (print)",
        "eissn": "ISSN (online)",
        "impact_factor": f"Impact factor {METRIC_YEAR}",
        "five_year_impact_factor": "5-year impact factor",
        "citescore": f"CiteScore {METRIC_YEAR}",
        "editor_in_chief": "Editor-in-chief",
    },
)
"""The labels of ``accordion``'s two templates: buttons and hidden panels (0), ``<details>`` (1)."""


class AccordionTemplates(PanelTemplates):
    """Marram Academic: server pages whose "Journal metrics" section is fetched the first time it is opened."""

    brand = "Marram Academic"
    scripts = (("themes/marram/js/accordion.js", "accordion.js"),)
    partner_host = "partner-journals.example.net"

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """One page per letter: ``journals/a-z/b``."""
        return f"{self.root}journals/a-z/{letter.lower()}"

    def journal_path(self, index: int) -> str:
        """Journal pages at ``journals/<slug>/``, with the trailing slash."""
        return f"{self.root}journals/{slugify(self.title(index))}/"

    def journals_path(self) -> str:
        """The A–Z index's first letter."""
        return self.letter_path("A")

    def header(self) -> str:
        """A Drupal-like main menu: expanded items with nested menus, a utility bar above it."""
        items = "".join(
            '<li class="menu-item menu-item--expanded"><span class="menu-item__label">'
            f'{escape(heading)}</span><ul class="menu">'
            + "".join(f'<li class="menu-item">{link(h, t)}</li>' for h, t in links)
            + "</ul></li>"
            for heading, links in self.menu_sections()
        )
        return (
            f'<div class="utility-bar"><ul class="menu menu--utility"><li>{link(self.root + "sign-in", "Log in")}</li>'
            f"<li>{link(self.root + 'librarians', 'Institutional access')}</li></ul></div>"
            f'<header class="site-header" role="banner"><a class="site-logo" href="{self.root}" rel="home">'
            f'{escape(self.brand)}</a><nav role="navigation" aria-label="Main navigation">'
            f'<ul class="menu menu--main nav">{items}</ul></nav></header>'
        )

    def frame(self, title: str, main: str, aside: str = "", script: str = "", head: str = "") -> str:
        """The shared frame with the nested menus hidden until hovered."""
        style = "<style>.menu--main .menu{display:none}.menu-item--expanded:hover .menu{display:block}</style>"
        return super().frame(title, main, aside, script, style + head)

    def alphabet(self, current: str = "") -> str:
        """The A–Z bar: a link per letter with journals."""
        items = "".join(
            f'<li class="is-active"><span>{c}</span></li>'
            if c == current
            else f"<li>{link(self.letter_path(c), c)}</li>"
            if c in self.site.by_letter
            else f'<li class="is-empty">{c}</li>'
            for c in LETTERS
        )
        return f'<nav class="az-filter" aria-label="Journals A–Z"><ul>{items}</ul></nav>'

    def home(self) -> str:
        """The start page: the A–Z bar, an introduction, news."""
        news = "".join(f"<li>{link(f'{self.root}news/{s}', h)}</li>" for s, h in self.news())
        main = (
            f"<h1>Journals A–Z</h1>{self.alphabet()}<p>{escape(self.brand)} publishes "
            f"{len(self.site.journal_indices)} journals for scholarly societies.</p>"
            f'<section class="news"><h2>News</h2><ul>{news}</ul></section>'
        )
        return self.frame("Journals A–Z", main)

    def listing(self, letter: str) -> Rendered:
        """A letter's journals as views rows; None for a letter with none."""
        indices = self.site.by_letter.get(letter)
        if not indices:
            return None
        rows = "".join(
            f'<div class="views-row"><h3 class="field--title">{link(self.journal_path(i), self.title(i))}</h3>'
            f'<div class="field--subject">{escape(self.site.journal(i).subject)}</div></div>'
            for i in indices
        )
        main = f'<h1>Journals: {letter}</h1>{self.alphabet(letter)}<div class="view-content">{rows}</div>'
        return self.frame(f"Journals: {letter}", main)

    def json_ld(self, index: int) -> str:
        """The head's JSON-LD: the journal's title and ISSNs, no metric."""
        values = self.shown(index)
        data = {
            "@context": "https://schema.org",
            "@type": "Periodical",
            "name": self.title(index),
            "issn": [str(values[n]) for n in ("issn", "eissn") if values.get(n)],
        }
        return f'<script type="application/ld+json">{json_script(data)}</script>'

    def metrics_src(self, index: int) -> str:
        """Where the metrics section's body is fetched from: an HTML fragment."""
        return f"{self.root}ajax/journal-metrics/{slugify(self.title(index))}"

    def sections(self, index: int) -> list[tuple[str, str, str]]:
        """(key, heading, served body) of the three sections; the metrics body is empty."""
        journal = self.site.journal(index)
        about = (
            f"<p>{escape(journal.title)} is a peer-reviewed journal of {escape(journal.subject)}, published "
            f"monthly by {escape(self.brand)} since {1950 + journal.index % 70}.</p>"
            f"<p>{link(self.journal_path(index) + 'editorial-board/', 'Editorial board')} · "
            f"{link(self.journal_path(index) + 'submit/', 'Submit a manuscript')}</p>"
        )
        indexes = self.site.rng(index, "indexing").sample(INDEXES, 4)
        indexing = "<ul>" + "".join(f"<li>{escape(name)}</li>" for name in indexes) + "</ul>"
        return [
            ("about", "About this journal", about),
            ("metrics", "Journal metrics", ""),
            ("indexing", "Abstracting and indexing", indexing),
        ]

    def accordion(self, index: int) -> str:
        """The sections as buttons with hidden panels (template 0) or as ``<details>`` (1)."""
        source = f' data-src="{self.metrics_src(index)}"'
        if self.variant(index, 2) == 0:
            items = "".join(
                f'<div class="accordion__item"><h2 class="accordion__heading"><button type="button" '
                f'class="accordion__trigger" id="acc-{key}-trigger" aria-expanded="false" aria-controls="acc-{key}">'
                f'{heading}</button></h2><div class="accordion__panel" id="acc-{key}" role="region" '
                f'aria-labelledby="acc-{key}-trigger"{source if key == "metrics" else ""} hidden>'
                f"{body}</div></div>"
                for key, heading, body in self.sections(index)
            )
            return f'<div class="accordion" id="journal-accordion">{items}</div>'
        items = "".join(
            f'<details class="c-collapsible" data-section="{key}"'
            + (source if key == "metrics" else "")
            + f'><summary class="c-collapsible__title">{heading}</summary><div class="c-collapsible__body">{body}</div>'
            "</details>"
            for key, heading, body in self.sections(index)
        )
        return f'<div class="c-collapsibles">{items}</div>'

    def identifiers(self, index: int) -> str:
        """ISSNs and editor: one text line (template 0) or a list of labelled spans (1)."""
        values = self.shown(index)
        labels = ACCORDION_LABELS[self.variant(index, 2)]
        editor = values.get("editor_in_chief")
        if self.variant(index, 2) == 0:
            ids = " · ".join(f"{labels[n]}: {values[n]}" for n in ("issn", "eissn") if values.get(n))
            chief = (
                f'<p class="chief"><span class="chief__label">{labels["editor_in_chief"]}</span> '
                f"{link(self.journal_path(index) + 'editorial-board/', str(editor))}</p>"
                if editor
                else ""
            )
            return (f'<p class="issn">{ids}</p>' if ids else "") + chief
        items = "".join(
            f'<li><span class="k">{labels[n]}</span> <span class="v">{escape(str(values[n]))}</span></li>'
            for n in ("issn", "eissn", "editor_in_chief")
            if values.get(n)
        )
        return f'<ul class="journal-ids">{items}</ul>'

    def journal_home(self, index: int) -> str:
        """Title, ISSNs, editor and prose in server HTML, the accordion, other journals; JSON-LD in the head."""
        journal = self.site.journal(index)
        main = (
            f'<div class="journal-banner"><h1 class="page-title">{escape(journal.title)}</h1>'
            f"{self.identifiers(index)}</div>"
            f'<div class="field--body"><p>{escape(journal.title)} welcomes original articles, reviews and '
            f"case studies in {escape(journal.subject)} and neighbouring fields.</p></div>"
            f"{self.accordion(index)}"
        )
        labels = ACCORDION_LABELS[self.variant(index, 2)]
        return self.frame(
            journal.title,
            main,
            self.decoy_box(index, labels, f"More from {self.brand}", "block-related"),
            script=self.root + self.scripts[0][0],
            head=self.json_ld(index),
        )

    def metrics_fragment(self, slug: str) -> Rendered:
        """The metrics section's body: a table (template 0) or "label: value" lines (1), then the sources."""
        index = self.site.by_slug.get(slug)
        if index is None:
            return None
        values = self.shown(index)
        variant = self.variant(index, 2)
        labels = ACCORDION_LABELS[variant]
        rows = [
            (labels[n], text)
            for n in ("impact_factor", "five_year_impact_factor", "citescore")
            if (text := self.written(index, n, values)) is not None
        ]
        if not rows:
            body = "<p>Metrics for this journal are not available yet.</p>"
        elif variant == 0:
            body = (
                '<table class="metrics-table"><tbody>'
                + "".join(f'<tr><th scope="row">{k}</th><td>{v}</td></tr>' for k, v in rows)
                + "</tbody></table>"
            )
        else:
            lines = "".join(f"<li>{k}: <strong>{v}</strong></li>" for k, v in rows)
            body = f'<ul class="metrics-list">{lines}</ul>'
        source = (
            f'<p class="metrics-source">Sources: Journal Citation Reports (Clarivate, {METRIC_YEAR + 1}); '
            f"Scopus (Elsevier, {METRIC_YEAR + 1}).</p>"
        )
        return Payload(body + source, "text/html")

    def route(self, path: str, query: str) -> Rendered:
        """Start page, letter pages, journal pages and their sub-pages, the fragments, the script, prose pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if rest in ("journals", "journals/a-z"):
            return Redirect(self.journals_path())
        if (match := re.fullmatch(r"journals/a-z/([a-z]|0-9)", rest)) and (letter := letter_param(match[1])):
            return self.listing(letter)
        if match := re.fullmatch(r"ajax/journal-metrics/([a-z0-9-]+)", rest):
            return self.metrics_fragment(match[1])
        match = re.fullmatch(r"journals/([a-z0-9-]+)(/(?:editorial-board|submit)/?|/)?", rest)
        if match and (index := self.site.by_slug.get(match[1])) is not None:
            if match[2] is None:
                return Redirect(self.journal_path(index))
            if match[2] == "/":
                return self.journal_home(index)
            return self.sub_page(index, match[2].strip("/"))
        return self.route_script(rest) or self.prose_page(rest)


# 5. Skeleton placeholders ----------------------------------------------------------------------------------------

SKELETON_DELAY_MS = 1200
"""How long after the page's load event the metrics panel's fetch starts."""
SKELETON_LABELS = (
    {"issn": "ISSN", "eissn": "eISSN", "editor_in_chief": "Chief Editor"},
    {"issn": "ISSN", "eissn": "Online ISSN", "editor_in_chief": "Editor-in-Chief"},
)
"""The identifiers' labels of ``skeleton``'s two templates (the metrics' labels are the script's)."""
SPINNER = (
    '<svg class="spinner" width="28" height="28" viewBox="0 0 50 50" aria-hidden="true" focusable="false">'
    '<circle cx="25" cy="25" r="20" fill="none" stroke="currentColor" stroke-width="5" stroke-dasharray="90 150">'
    '<animateTransform attributeName="transform" type="rotate" from="0 25 25" to="360 25 25" dur="1s" '
    'repeatCount="indefinite"/></circle></svg>'
)
"""The metrics panel's spinner: an SVG with no text."""


class SkeletonTemplates(PanelTemplates):
    """Sable Research Journals: server pages whose metrics panel is skeleton lines until a late fetch fills it."""

    brand = "Sable Research Journals"
    scripts = (("static/js/metrics-panel.min.js", "skeleton.js"),)
    partner_host = "www.sable-partners.example"

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """``titles/b``, ``titles/b/2``."""
        return f"{self.root}titles/{letter.lower()}" + (f"/{page_no}" if page_no > 1 else "")

    def journal_path(self, index: int) -> str:
        """Journal pages at ``journal/<slug>``."""
        return f"{self.root}journal/{slugify(self.title(index))}"

    def code(self, index: int) -> int:
        """The journal's number in the metrics API."""
        return 40_000 + index

    def header(self) -> str:
        """A BEM header whose menu sections are ``<details>`` drop-downs."""
        groups = "".join(
            f'<details class="c-nav__group"><summary class="c-nav__heading">{escape(heading)}</summary>'
            '<ul class="c-nav__list">'
            + "".join(f'<li class="c-nav__item">{link(h, t, "c-nav__link")}</li>' for h, t in links)
            + "</ul></details>"
            for heading, links in self.menu_sections()
        )
        return (
            f'<header class="c-header"><a class="c-header__logo" href="{self.root}">{escape(self.brand)}</a>'
            f'<nav class="c-nav" aria-label="Site">{groups}</nav>'
            f'<div class="c-header__account">{link(self.root + "sign-in", "My account", "c-header__link")}</div>'
            "</header>"
        )

    def alphabet(self, current: str = "") -> str:
        """The A–Z bar: a link per letter with journals, the current one marked."""
        items = "".join(
            '<li class="c-az__item">'
            + (
                link(self.letter_path(c), c, "c-az__link" + (" is-current" if c == current else ""))
                if c in self.site.by_letter
                else f'<span class="c-az__none">{c}</span>'
            )
            + "</li>"
            for c in LETTERS
        )
        return f'<nav class="c-az" aria-label="Titles A–Z"><ol class="c-az__list">{items}</ol></nav>'

    def home(self) -> str:
        """The start page: the A–Z bar, subjects, news."""
        news = "".join(f"<li>{link(f'{self.root}news/{s}', h)}</li>" for s, h in self.news())
        subjects = "".join(f"<li>{link(f'{self.root}subjects/{slugify(f)}', f)}</li>" for f in self.subjects())
        main = (
            f"<h1>Our journals</h1>{self.alphabet()}"
            f'<section class="c-subjects"><h2>Explore subjects</h2><ul>{subjects}</ul></section>'
            f'<section class="c-news"><h2>From the newsroom</h2><ul>{news}</ul></section>'
        )
        return self.frame("Our journals", main)

    def listing(self, letter: str, page_no: int) -> Rendered:
        """A letter's page of journals with numbered page links; None past the last page."""
        pages = self.pages_of(letter)
        if letter not in self.site.by_letter or not 1 <= page_no <= len(pages):
            return None
        items = "".join(
            f'<li class="c-results__item">{link(self.journal_path(i), self.title(i), "c-results__title")}'
            f'<p class="c-results__meta">{escape(self.site.journal(i).subject)}</p></li>'
            for i in pages[page_no - 1]
        )
        pager = ""
        if len(pages) > 1:
            numbers = "".join(
                f'<li><span class="c-pager__current" aria-current="page">{p}</span></li>'
                if p == page_no
                else f"<li>{link(self.letter_path(letter, p), str(p), 'c-pager__link')}</li>"
                for p in range(1, len(pages) + 1)
            )
            pager = f'<nav class="c-pager" aria-label="Result pages"><ol>{numbers}</ol></nav>'
        main = (
            f'<h1>Titles beginning with {letter}</h1>{self.alphabet(letter)}<ul class="c-results">{items}</ul>{pager}'
        )
        return self.frame(f"Titles: {letter}", main)

    def identifiers(self, index: int) -> str:
        """Title, ISSNs and editor: spans under the title (template 0) or a definition list (1)."""
        values = self.shown(index)
        variant = self.variant(index, 2)
        labels = SKELETON_LABELS[variant]
        editor = values.get("editor_in_chief")
        if variant == 0:
            ids = " ".join(
                f'<span class="c-journal__id">{labels[n]} {values[n]}</span>'
                for n in ("issn", "eissn")
                if values.get(n)
            )
            chief = ""
            if editor:
                chief = f'<p class="c-journal__editor">{labels["editor_in_chief"]}: {escape(str(editor))}</p>'
            return f'<p class="c-journal__ids">{ids}</p>{chief}'
        rows = "".join(
            f"<dt>{labels[n]}</dt><dd>{escape(str(values[n]))}</dd>"
            for n in ("issn", "eissn", "editor_in_chief")
            if values.get(n)
        )
        return f'<dl class="c-journal__facts">{rows}</dl>'

    def journal_home(self, index: int) -> str:
        """Title, ISSNs and editor in server HTML; the metrics panel skeleton lines and a spinner, no text."""
        layout = ("tiles", "lines")[self.variant(index, 2)]
        skeleton = "".join(
            f'<div class="skeleton-line{" skeleton-line--short" if n % 2 else ""}"></div>' for n in range(4)
        )
        main = (
            f'<div class="c-journal"><h1 class="c-journal__title">{escape(self.title(index))}</h1>'
            f"{self.identifiers(index)}</div>"
            f"<p>Original research in {escape(self.site.journal(index).subject)}, published continuously.</p>"
            '<section class="c-metrics" aria-labelledby="metrics-heading"><h2 id="metrics-heading">Metrics</h2>'
            f'<div class="c-metrics__body" id="journal-metrics" data-code="{self.code(index)}" data-layout="{layout}" '
            f'aria-busy="true">{SPINNER}{skeleton}</div></section>'
            f"<p>{link(self.journal_path(index) + '/editorial-board', 'Editorial board')} · "
            f"{link(self.journal_path(index) + '/submit', 'Submit a manuscript')}</p>"
        )
        labels = {"impact_factor": "Impact Factor", "issn": "ISSN"}
        style = (
            "<style>.skeleton-line{height:12px;margin:8px 0;background:#e4e4e4;border-radius:4px}"
            ".skeleton-line--short{width:60%}</style>"
        )
        return self.frame(
            self.title(index),
            main,
            self.decoy_box(index, labels, "Similar journals", "c-similar"),
            script=self.root + self.scripts[0][0],
            head=style,
        )

    def api_metrics(self, code: int) -> Rendered:
        """The panel's data: each metric a number or null, and the absent ones the panel calls not available."""
        index = code - 40_000
        if index not in set(self.site.journal_indices):
            return None
        values = self.shown(index)
        names = {"impactFactor": "impact_factor", "citeScore": "citescore", "sjr": "sjr", "snip": "snip"}
        data: dict[str, Any] = {key: json_value(name, values[name]) for key, name in names.items()}
        data["unavailable"] = [
            key for key, name in names.items() if self.written(index, name, values) == "Not available"
        ]
        data["year"] = METRIC_YEAR
        return as_json(data)

    def route(self, path: str, query: str) -> Rendered:
        """Start page, letter pages, journal pages and sub-pages, the metrics API, the script, prose pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if (match := re.fullmatch(r"titles/([a-z]|0-9)(?:/(\d+))?", rest)) and (letter := letter_param(match[1])):
            return self.listing(letter, int(match[2] or 1)) if match[2] != "1" else Redirect(self.letter_path(letter))
        if match := re.fullmatch(r"api/journals/(\d+)/metrics", rest):
            return self.api_metrics(int(match[1]))
        match = re.fullmatch(r"journal/([a-z0-9-]+)(?:/(editorial-board|submit))?", rest)
        if match and (index := self.site.by_slug.get(match[1])) is not None:
            return self.sub_page(index, match[2]) if match[2] else self.journal_home(index)
        return self.route_script(rest) or self.prose_page(rest)
