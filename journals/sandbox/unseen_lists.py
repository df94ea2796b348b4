"""Four sandbox sites whose *navigation* has shapes real publisher sites have (issue 23's first contact).

They were drawn from written descriptions of real sites by someone who never read the crawler, so the crawler's
first crawl of them says whether it generalises:

- ``rowlinks`` (Molecular Society Publications): a landing page links "Journals A–Z" to a table of journals
  paginated by page numbers; every row carries "Latest Issue", "Current Issue", "Sample Issue", "Back Issues",
  "Submit your article", "Author Services" and "RSS" links under the journal's URL, and some rows link the journal
  by its cover image alone. The top menu and footer go through ``action/clickThrough?id=…&url=…`` trackers that
  answer 302 to book, magazine, collection and help pages: lists of links that are not journals.
- ``selectgo`` (Meridian Science Publishing): the only list of journals is a ``<select name="journal">`` in a
  ``<form action="go">`` with a "Go" button; ``go?journal=…`` answers 302 to the journal page. A visible subject
  menu leads to subject pages of news and featured articles.
- ``bysubject`` (Northbridge Academic): one page lists every journal under subject headings (``h2`` broad areas,
  ``h3`` subjects, ``ul`` of journals), each journal under two or three subjects at the same URL.
- ``areas`` (Portal de Revistas Científicas): a Spanish site browsed by "Áreas temáticas", each area paginated
  with "‹ Anterior", page numbers and "Siguiente ›"; journal pages label their values in Spanish, write ISSNs with
  an en dash and metrics with decimal commas, and some show a five-year impact factor.

Every site has a heavy menu, a login link, news, a footer of sister and partner links, two or three journal-page
templates and a "you may also like" box quoting another journal's figures with the same labels.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from functools import cached_property
from html import escape
from urllib.parse import parse_qs, quote

from journals.sandbox.markup import link, number, page
from journals.sandbox.realweb import ARTICLE_TITLES, MONTHS, RealWebTemplates, metrics_block
from journals.sandbox.relation import FIELDS, METRIC_YEAR, SandboxJournal, drawn_fields
from journals.sandbox.site_templates import Payload, Redirect, Rendered
from journals.sandbox.sources import Site, slugify

ENGLISH_LABELS = {
    "issn": "ISSN (print)",
    "eissn": "ISSN (online)",
    "impact_factor": "Impact Factor",
    "five_year_impact_factor": "5-Year Impact Factor",
    "citescore": "CiteScore",
    "editor_in_chief": "Editor-in-Chief",
    "publisher": "Publisher",
}
"""How the English sites label a journal's facts."""
SPANISH_LABELS = {
    "issn": "ISSN impreso",
    "eissn": "ISSN electrónico",
    "impact_factor": "Factor de impacto",
    "five_year_impact_factor": "Factor de impacto a cinco años",
    "citescore": "CiteScore",
    "editor_in_chief": "Editor en jefe",
    "publisher": "Editorial",
}
"""How the Spanish site labels them."""
FACT_ORDER = ("issn", "eissn", "impact_factor", "five_year_impact_factor", "citescore", "editor_in_chief", "publisher")
METRICS = ("impact_factor", "five_year_impact_factor", "citescore")


class ProjectedSite(Site):
    """A site whose projection differs per journal: an attribute some journal templates do not show is null in
    what the site shows for those journals (so the truth records only what each page shows)."""

    def __init__(self, site: Site, hidden: Callable[[int], frozenset[str]]) -> None:
        super().__init__(site.spec, site.relation)
        self.hidden = hidden
        """The attributes journal ``index``'s page does not show."""

    def shown_values(self, journal: SandboxJournal) -> dict[str, object]:
        """The site's values, null where the journal's template shows none."""
        shown = super().shown_values(journal)
        return {name: None if name in self.hidden(journal.index) else value for name, value in shown.items()}


class UnseenTemplates(RealWebTemplates):
    """What the four sites share: a heavy chrome, content pages of links, labelled facts and a decoy box."""

    lang = "en"
    labels = ENGLISH_LABELS
    decimal_comma = False
    issn_dash = "-"
    also_heading = "You may also like"

    # Chrome -------------------------------------------------------------------------------------------------------
    def menu(self) -> list[tuple[str, str]]:
        """(href, text) of the top menu."""
        return [(self.root, "Home")]

    def account_links(self) -> list[tuple[str, str]]:
        """(href, text) of the login corner."""
        return [(self.root + "login", "Log in"), (self.root + "register", "Register")]

    def footer_groups(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """(heading, links) of the footer's columns: sister sites, partners, the usual legal links."""
        return []

    def frame(self, title: str, main: str, aside: str = "") -> str:
        """Header (brand, login corner, search, mega menu), the main content, an aside and a heavy footer."""
        menu = "".join(f"<li>{link(h, t)}</li>" for h, t in self.menu())
        account = " | ".join(link(h, t) for h, t in self.account_links())
        columns = "".join(
            f'<div class="footer-col"><h4>{escape(heading)}</h4><ul>'
            + "".join(f"<li>{link(h, t)}</li>" for h, t in links)
            + "</ul></div>"
            for heading, links in self.footer_groups()
        )
        return page(
            f"{title} | {self.brand}",
            f'<header class="site-header"><a class="brand" href="{self.root}">{escape(self.brand)}</a>'
            f'<div class="account">{account}</div>'
            f'<form class="quick-search" action="{self.root}search"><input name="q"><button>Search</button></form>'
            f'<nav class="main-menu"><ul>{menu}</ul></nav></header>\n'
            f'<div id="content"><main>{main}</main>\n{aside}</div>\n'
            f'<footer class="site-footer">{columns}<p class="legal">© 2026 {escape(self.brand)}</p></footer>',
            lang=self.lang,
        )

    def content_page(self, heading: str, paragraphs: list[str], items: Sequence[tuple[str, str]] = ()) -> str:
        """An ordinary page: prose under a heading, then a list of links (books, articles, help topics)."""
        text = "".join(f"<p>{escape(p)}</p>" for p in paragraphs)
        listed = (
            '<ul class="item-list">' + "".join(f'<li class="item">{link(h, t)}</li>' for h, t in items) + "</ul>"
            if items
            else ""
        )
        return self.frame(heading, f"<article><h1>{escape(heading)}</h1>{text}{listed}</article>")

    def article_titles(self, purpose: str, count: int) -> list[str]:
        """``count`` article titles, a fixed draw per site and purpose."""
        rng = random.Random(f"articles:{self.site.relation.seed}:{self.name}:{purpose}")
        titles = []
        for n in range(count):
            f, g = rng.sample(FIELDS, 2)
            titles.append(
                ARTICLE_TITLES[(n + len(purpose)) % len(ARTICLE_TITLES)].format(f=f, g=g, n=rng.randint(40, 4000))
            )
        return titles

    # Journal facts ----------------------------------------------------------------------------------------------
    def fact_text(self, name: str, value: object) -> str:
        """A value as the site writes it: metrics with three decimals (CiteScore one), ISSNs with its dash."""
        if name in METRICS:
            return number(value, 1 if name == "citescore" else 3, self.decimal_comma)  # type: ignore[arg-type]
        if name in ("issn", "eissn"):
            return escape(str(value).replace("-", self.issn_dash))
        return escape(str(value))

    def facts(self, index: int, names: tuple[str, ...] = FACT_ORDER) -> list[tuple[str, str]]:
        """(label, text) of the journal's shown values among ``names``; a value the site does not show is left out."""
        _, values = self.values(index)
        return [
            (self.labels[name], self.fact_text(name, values[name]))
            for name in names
            if name in self.site.spec.attributes and values.get(name) is not None
        ]

    def also_like(self, index: int) -> str:
        """A decoy box: another journal of the site, linked, with its figures under the same labels."""
        other = self.featured_index(index)
        journal = self.site.journal(other)
        rows = [
            (self.labels["impact_factor"], self.fact_text("impact_factor", journal.impact_factor)),
            (self.labels["issn"], self.fact_text("issn", journal.issn)),
        ]
        return (
            f'<aside class="also-like"><h3>{escape(self.also_heading)}</h3>'
            f"<h4>{link(self.journal_path(other), journal.title)}</h4>{metrics_block(rows, 'dl', 'facts')}</aside>"
        )

    def editor_line(self, index: int) -> str:
        """The editor-in-chief as a labelled paragraph, empty when not shown."""
        facts = dict(self.facts(index, ("editor_in_chief",)))
        label = self.labels["editor_in_chief"]
        return f'<p class="editor"><strong>{label}:</strong> {facts[label]}</p>' if label in facts else ""


# Site 1: rows of links, trackers ---------------------------------------------------------------------------------
ROW_LINKS = (
    ("issue/latest", "Latest Issue"),
    ("issue/current", "Current Issue"),
    ("issue/sample", "Sample Issue"),
    ("loi", "Back Issues"),
    ("submit", "Submit your article"),
    ("authors", "Author Services"),
    ("rss", "RSS"),
)
"""A journal row's links besides the journal's own: each path extends the journal's URL."""
TRACKED_SECTIONS = (
    ("books", "Books"),
    ("help", "Help"),
    ("mobile", "Mobile"),
    ("librarians", "Librarians"),
    ("advertisers", "Info for Advertisers"),
    ("styleguide", "Style Guide"),
    ("reagents", "Reagent Chemicals"),
    ("magazine", "Magazine archive"),
    ("collections", "Article Collections"),
    ("shotofscience", "Shot of Science"),
)
"""The menu and footer pages reached through the click-through tracker: (section, link text)."""
SECTION_ITEMS = {
    "books": (
        "{f} Symposium Series, Volume {n}",
        "Advances in {f}: {g} Perspectives",
        "The {f} Handbook, {n}th Edition",
    ),
    "help": ("Getting started with {f} searches", "Managing your {g} alerts", "Access and {f} entitlements"),
    "mobile": ("The {f} app for iOS", "Reading {g} articles offline", "Mobile alerts for {f}"),
    "librarians": ("Usage statistics for {f} titles", "{g} package pricing", "Title lists and KBART files: {f}"),
    "advertisers": ("Media kit: {f} audiences", "Sponsored {g} webinars", "Print advertising in the {f} magazine"),
    "styleguide": ("Style guide chapter {n}: {f} nomenclature", "Units and symbols in {g}", "Citing {f} datasets"),
    "reagents": ("{f} reagent specifications, edition {n}", "Test methods for {g}", "{f} reference standards"),
    "magazine": ("Magazine issue {n}: {f} in focus", "Cover story: the future of {g}", "Special report on {f}"),
    "collections": ("Virtual issue: {f} and {g}", "Editors' choice in {f}", "Most cited {g} papers of {n}"),
    "shotofscience": ("Video: {f} in {n} seconds", "Inside a {g} laboratory", "Why {f} matters"),
}
"""Title patterns of each tracked section's items."""


class RowLinksTemplates(UnseenTemplates):
    """Molecular Society Publications: a landing page, a paginated table of journal rows full of links, trackers."""

    brand = "Molecular Society Publications"
    also_heading = "Related journals"

    # URL scheme ---------------------------------------------------------------------------------------------------
    @cached_property
    def codes(self) -> dict[int, str]:
        """Each journal's short code (its URL), built from its initials as coden-like codes are."""
        codes: dict[int, str] = {}
        taken: set[str] = set()
        for index in self.site.journal_indices:
            words = [
                w
                for w in slugify(self.site.relation.titles[index]).split("-")
                if w not in ("of", "and", "the", "in", "fur")
            ]
            base = ("".join(w[0] for w in words) + words[-1][1:])[:6]
            code, n = base, 1
            while code in taken:
                n += 1
                code = f"{base}{n}"
            taken.add(code)
            codes[index] = code
        return codes

    @cached_property
    def by_code(self) -> dict[str, int]:
        """Journal index per code."""
        return {code: index for index, code in self.codes.items()}

    def journal_path(self, index: int) -> str:
        """``journal/<code>``."""
        return f"{self.root}journal/{self.codes[index]}"

    def list_path(self, page_no: int) -> str:
        """The list's page ``page_no`` (``startPage`` counts from 0, as the platform does)."""
        return f"{self.root}action/showPublications?pubType=journal" + (
            f"&startPage={page_no - 1}" if page_no > 1 else ""
        )

    def tracked(self, section: str, number_: int) -> str:
        """The tracker URL of a section's index page."""
        target = f"{self.root}page/{section}/index.html"
        return f"{self.root}action/clickThrough?id={number_}&url={quote(target, safe='')}"

    def list_pages(self) -> list[list[int]]:
        """The list split into pages of the site's page size."""
        indices = self.site.journal_indices
        size = self.site.spec.page_size
        return [indices[i : i + size] for i in range(0, len(indices), size)] or [[]]

    @cached_property
    def positions(self) -> dict[int, int]:
        """Each journal's position in the list."""
        return {index: position for position, index in enumerate(self.site.journal_indices)}

    def listing_chain(self, index: int) -> list[str]:
        """The list's first page, then the page holding the journal."""
        page_no = self.positions[index] // self.site.spec.page_size + 1
        return [self.list_path(1)] + ([self.list_path(page_no)] if page_no > 1 else [])

    # Chrome -------------------------------------------------------------------------------------------------------
    def menu(self) -> list[tuple[str, str]]:
        """Publications, then every tracked section."""
        tracked = [(self.tracked(s, 100 + n), t) for n, (s, t) in enumerate(TRACKED_SECTIONS)]
        return [(self.root, "Home"), (self.list_path(1), "Journals"), *tracked]

    def account_links(self) -> list[tuple[str, str]]:
        """Log in, register, cart."""
        return [
            (self.root + "action/showLogin", "Log In"),
            (self.root + "action/registration", "Register"),
            (self.root + "action/showCart", "Cart"),
        ]

    def footer_groups(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """Resources through the tracker, sister sites and partners."""
        resources = [(self.tracked(s, 200 + n), t) for n, (s, t) in enumerate(TRACKED_SECTIONS)]
        sisters = [
            (self.tracked(s, 300 + n), t)
            for n, (s, t) in enumerate((("magazine", "C&EN Magazine"), ("collections", "Society Meetings")))
        ]
        partners = [
            (f"{self.root}page/partners/{slugify(name)}.html", name)
            for name in ("CHORUS", "COPE", "COUNTER", "Crossref", "ORCID", "Portico")
        ]
        return [("Resources", resources), ("Sister sites", sisters), ("Partners", partners)]

    # Pages --------------------------------------------------------------------------------------------------------
    def home(self) -> str:
        """The landing page: a hero with "Journals A–Z" and "All journals", news and featured articles."""
        news = [(f"{self.root}page/news/{n + 1}.html", self.news_headline(n)) for n in range(4)]
        articles = [self.first_article(i) for i in self.site.journal_indices[::37][:6]]
        main = (
            f'<section class="hero"><h1>Publications of the Molecular Society</h1>'
            f"<p>Trusted research across {len(self.site.journal_indices)} peer-reviewed journals.</p>"
            f"<p>{link(self.list_path(1), 'Journals A–Z', 'btn')} {link(self.list_path(1), 'All journals', 'btn')}</p>"
            f"</section>"
            f'<section class="news"><h2>News</h2><ul>{"".join(f"<li>{link(h, t)}</li>" for h, t in news)}</ul>'
            "</section>"
            f'<section class="featured"><h2>Featured articles</h2><ul>'
            f"{''.join(f'<li>{link(h, t)}</li>' for h, t in articles)}</ul></section>"
        )
        return self.frame("Home", main)

    def row(self, index: int) -> str:
        """A journal's row: its link (the name, or only the cover image in some rows), then its other links."""
        title = self.site.relation.titles[index]
        base = self.journal_path(index)
        cover = f"/img/covers/{self.codes[index]}.jpg"
        if self.site.rng(index, "row").random() < 0.3:
            own = f'<td class="cover"><a href="{base}"><img src="{cover}" alt="{escape(title)}"></a></td>'
            name = f'<td class="pub-title"><span class="title">{escape(title)}</span></td>'
        else:
            own = f'<td class="cover"><img src="{cover}" alt=""></td>'
            name = f'<td class="pub-title">{link(base, title, "title")}</td>'
        others = "".join(
            f'<li><a href="{base}/{path}" title="RSS feed"><img src="/img/rss.svg" alt="{text}"></a></li>'
            if path == "rss"
            else f"<li>{link(f'{base}/{path}', text)}</li>"
            for path, text in ROW_LINKS
        )
        return f'<tr class="publication">{own}{name}<td class="pub-links"><ul>{others}</ul></td></tr>'

    def list_page(self, page_no: int) -> Rendered:
        """List page ``page_no``: the table, page numbers and a next arrow."""
        pages = self.list_pages()
        if not 1 <= page_no <= len(pages):
            return None
        rows = "".join(self.row(i) for i in pages[page_no - 1])
        numbers = [
            f"<li><span class='current'>{p}</span></li>"
            if p == page_no
            else f"<li>{link(self.list_path(p), str(p))}</li>"
            for p in range(1, len(pages) + 1)
        ]
        if page_no < len(pages):
            numbers.append(f"<li>{link(self.list_path(page_no + 1), '›')}</li>")
        main = (
            f"<h1>Journals A–Z</h1><p>Showing {len(pages[page_no - 1])} of {len(self.site.journal_indices)}</p>"
            f'<table class="publication-list"><tbody>{rows}</tbody></table>'
            f'<div class="pagination"><ul>{"".join(numbers)}</ul></div>'
        )
        return self.frame("Journals A–Z", main)

    def article_path(self, index: int, volume: int, issue: int, number_: int) -> str:
        """An article's DOI page: ``doi/10.1021/<code>.<volume>c<issue><number>``."""
        return f"{self.root}doi/10.1021/{self.codes[index]}.{volume}c{issue:02d}{number_:02d}"

    def issue_of(self, index: int) -> tuple[int, int]:
        """The journal's current volume and issue."""
        rng = self.site.rng(index, "issue")
        return rng.randint(5, 60), rng.randint(1, 12)

    def first_article(self, index: int) -> tuple[str, str]:
        """(path, title) of the first article of the journal's current issue: what featured lists link."""
        volume, issue = self.issue_of(index)
        return self.article_path(index, volume, issue, 1), self.article_titles(f"toc-{index}-{volume}-{issue}", 3)[0]

    def toc(self, index: int, volume: int, issue: int, heading: str) -> str:
        """An issue's table of contents: three articles."""
        title = self.site.relation.titles[index]
        titles = self.article_titles(f"toc-{index}-{volume}-{issue}", 3)
        items = [(self.article_path(index, volume, issue, n + 1), t) for n, t in enumerate(titles)]
        return self.content_page(
            f"{title}: {heading}",
            [f"Volume {volume}, Issue {issue}, {MONTHS[(issue - 1) % 12]} 2026", f"Back to {title}"],
            items,
        )

    def journal_sub(self, index: int, rest: str) -> Rendered:
        """The pages a journal's row links: issues, back issues, submission, author services, RSS."""
        title = self.site.relation.titles[index]
        volume, issue = self.issue_of(index)
        if rest in ("issue/latest", "issue/current"):
            return self.toc(index, volume, issue, "Current Issue" if rest.endswith("current") else "Latest Issue")
        if rest == "issue/sample":
            return self.toc(index, volume - 1, 1, "Sample Issue")
        if rest == "loi":
            items = [
                (f"{self.journal_path(index)}/toc/{volume - v}/{i}", f"Volume {volume - v}, Issue {i}")
                for v in range(2)
                for i in (1, 2)
            ]
            return self.content_page(f"{title}: Back Issues", ["Browse the issues of every volume."], items)
        if match := re.fullmatch(r"toc/(\d+)/([12])", rest):
            if int(match[1]) in (volume, volume - 1):
                return self.toc(index, int(match[1]), int(match[2]), f"Volume {match[1]}, Issue {match[2]}")
            return None
        if rest == "submit":
            return self.content_page(f"Submit your article to {title}", ["Submissions are made through Paragon Plus."])
        if rest == "authors":
            return self.content_page(
                f"{title}: Author Services", ["Language editing, figures and graphical abstracts."]
            )
        if rest == "rss":
            items = "".join(
                f"<item><title>{escape(t)}</title><link>{self.article_path(index, volume, issue, n + 1)}</link></item>"
                for n, t in enumerate(self.article_titles(f"toc-{index}-{volume}-{issue}", 3))
            )
            return Payload(
                f'<?xml version="1.0"?><rss version="2.0"><channel><title>{escape(title)}</title>{items}'
                "</channel></rss>",
                "application/rss+xml",
            )
        return None

    def article(self, code: str, volume: int, issue: int, number_: int) -> Rendered:
        """An article page: its title, its journal (linked), an abstract."""
        index = self.by_code.get(code)
        if index is None or not 1 <= number_ <= 3 or not 1 <= issue <= 12:
            return None
        titles = self.article_titles(f"toc-{index}-{volume}-{issue}", 3)
        journal = self.site.relation.titles[index]
        main = (
            f"<article><h1>{escape(titles[number_ - 1])}</h1><p class='authors'>A. Author, B. Author</p>"
            f"<p>Cite this: {link(self.journal_path(index), journal)} 2026, {volume}, {issue}</p>"
            "<h2>Abstract</h2><p>We report results and discuss them.</p></article>"
        )
        return self.frame(titles[number_ - 1], main)

    def section_items(self, section: str) -> list[tuple[str, str]]:
        """A tracked section's items: (href, title); books have DOI pages, collections list articles."""
        rng = random.Random(f"section:{self.site.relation.seed}:{self.name}:{section}")
        items = []
        for n in range(12):
            f, g = rng.sample(FIELDS, 2)
            title = SECTION_ITEMS[section][n % 3].format(f=f, g=g, n=rng.randint(2, 40))
            href = (
                f"{self.root}doi/book/10.1021/bk-2025-{1400 + n}"
                if section == "books"
                else f"{self.root}page/{section}/{n + 1}-{slugify(title)[:40].strip('-')}.html"
            )
            items.append((href, title))
        return items

    def section_page(self, section: str, item: str) -> Rendered:
        """A tracked section's index page (a list of its items) or one item's page."""
        names = dict(TRACKED_SECTIONS)
        if section == "partners":
            return self.content_page(item.replace("-", " ").upper(), ["A partner of the Molecular Society."])
        if section == "news" and item.isdigit() and 1 <= int(item) <= 4:
            return self.content_page(self.news_headline(int(item) - 1), [f"Published {MONTHS[int(item)]} 2026."])
        if section not in names:
            return None
        items = self.section_items(section)
        if item == "index":
            return self.content_page(names[section], [f"{names[section]} from the Molecular Society."], items)
        match = [t for h, t in items if h.endswith(f"/{item}.html")]
        if not match:
            return None
        if section == "collections":
            chosen = self.site.journal_indices[int(item.split("-", maxsplit=1)[0]) :: 29][:5]
            articles = [self.first_article(i) for i in chosen]
            return self.content_page(match[0], ["A curated collection of articles."], articles)
        return self.content_page(match[0], ["Read more from the Molecular Society."])

    def route(self, path: str, query: str) -> Rendered:
        """Landing, list, tracker, section, journal, issue and article pages."""
        rest = path[len(self.root) :]
        params = parse_qs(query)
        if rest == "":
            return self.home()
        if rest == "action/showPublications":
            start = params.get("startPage", ["0"])[0]
            return self.list_page(int(start) + 1) if start.isdigit() and params.get("pubType") == ["journal"] else None
        if rest == "action/clickThrough":
            target = params.get("url", [""])[0]
            if re.fullmatch(rf"{re.escape(self.root)}page/[a-z]+/index\.html", target):
                return Redirect(target, 302)
            return None
        if rest in ("action/showLogin", "action/registration", "action/showCart"):
            return self.content_page("Log In", ["Log in with your Molecular Society ID.", "Forgot password?"])
        if match := re.fullmatch(r"page/([a-z]+)/([a-z0-9-]+)\.html", rest):
            return self.section_page(match[1], match[2])
        if match := re.fullmatch(r"doi/book/10\.1021/bk-2025-(\d+)", rest):
            n = int(match[1]) - 1400
            books = self.section_items("books")
            return (
                self.content_page(books[n][1], ["A volume of the Symposium Series."]) if 0 <= n < len(books) else None
            )
        if match := re.fullmatch(r"doi/10\.1021/([a-z0-9]+)\.(\d+)c(\d\d)(\d\d)", rest):
            return self.article(match[1], int(match[2]), int(match[3]), int(match[4]))
        if match := re.fullmatch(r"journal/([a-z0-9]+)(?:/(.+))?", rest):
            index = self.by_code.get(match[1])
            if index is None:
                return None
            return self.journal_home(index) if match[2] is None else self.journal_sub(index, match[2])
        return None

    def journal_home(self, index: int) -> str:
        """Template 0: value-first metric tiles; 1: an "About the journal" table; 2: a definition list in prose."""
        journal, _ = self.values(index)
        variant = self.variant(index, 3)
        base = self.journal_path(index)
        menu = " ".join(link(f"{base}/{p}", t) for p, t in ROW_LINKS[:5])
        head = (
            f'<div class="journal-banner"><h1>{escape(journal.title)}</h1><nav class="journal-nav">{menu}</nav></div>'
        )
        ids = " ".join(f'<span class="issn">{k}: {v}</span>' for k, v in self.facts(index, ("issn", "eissn")))
        metrics = self.facts(index, ("impact_factor", "citescore"))
        if variant == 0:
            tiles = "".join(
                f'<div class="metric"><span class="metric-value">{v}</span>'
                f'<span class="metric-name">{METRIC_YEAR} {k}</span></div>'
                for k, v in metrics
            )
            body = f'{head}<div class="journal-metrics">{tiles}</div><p class="ids">{ids}</p>{self.editor_line(index)}'
        elif variant == 1:
            body = f"{head}<h2>About the journal</h2>{metrics_block(self.facts(index), 'table', 'journal-info')}"
        else:
            body = (
                f"{head}<p>{escape(journal.title)} publishes original research in {escape(journal.subject)}.</p>"
                f"{metrics_block(self.facts(index), 'dl', 'journal-facts')}"
            )
        return self.frame(journal.title, body, self.also_like(index))


# Site 2: a select and a Go button --------------------------------------------------------------------------------
class SelectGoTemplates(UnseenTemplates):
    """Meridian Science Publishing: every journal only as an option of a ``<select>`` in a ``go`` form."""

    brand = "Meridian Science Publishing"
    also_heading = "Recommended journals"

    def subjects(self) -> list[str]:
        """The subject menu's subjects (seven fields of the world)."""
        return drawn_fields("subject-menu", self.site.relation.seed, self.name, 7)

    def listing_chain(self, index: int) -> list[str]:
        """The start page holds the select."""
        return [self.root]

    def menu(self) -> list[tuple[str, str]]:
        """Subjects, then the pages every publisher has."""
        return [
            (self.root, "Home"),
            *((f"{self.root}subject/{slugify(s)}", s) for s in self.subjects()),
            (f"{self.root}open-access", "Open access"),
            (f"{self.root}authors", "For authors"),
            (f"{self.root}reviewers", "For reviewers"),
            (f"{self.root}librarians", "For librarians"),
            (f"{self.root}about", "About us"),
        ]

    def footer_groups(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """Sister imprints and partners (pages of the site), the legal links."""
        sisters = [
            (f"{self.root}imprints/{slugify(n)}", n)
            for n in ("Meridian Books", "Meridian Conferences", "Meridian Data")
        ]
        partners = [(f"{self.root}partners/{slugify(n)}", n) for n in ("COPE", "DOAJ", "Crossref", "ORCID")]
        legal = [
            (f"{self.root}{p}", t) for p, t in (("privacy", "Privacy"), ("terms", "Terms"), ("cookies", "Cookies"))
        ]
        return [("Sister imprints", sisters), ("Partners", partners), ("Legal", legal)]

    def article_path(self, subject: str, number_: int) -> str:
        """A featured article of a subject."""
        return f"{self.root}article/{slugify(subject)}-{number_}"

    def home(self) -> str:
        """The subject menu, the journal finder (select and Go), latest news."""
        titles = self.site.relation.titles
        options = "".join(
            f'<option value="journal/{slugify(titles[i])}">{escape(titles[i])}</option>'
            for i in self.site.journal_indices
        )
        subjects = "".join(f"<li>{link(f'{self.root}subject/{slugify(s)}', s)}</li>" for s in self.subjects())
        news = "".join(
            f"<li>{link(f'{self.root}news/{self.news_slug(n)}', self.news_headline(n))}</li>" for n in range(5)
        )
        main = (
            f'<section class="subjects"><h2>Browse by subject</h2><ul class="subject-menu">{subjects}</ul></section>'
            '<section class="finder"><h2>Find a journal</h2><form method="get" action="go">'
            '<label for="journal">Journal</label> <select name="journal" id="journal">'
            f'<option value="">Select a journal</option>{options}</select> <button type="submit">Go</button></form>'
            "</section>"
            f'<section class="news"><h2>Latest news</h2><ul>{news}</ul></section>'
        )
        return self.frame("Meridian Science Publishing", main)

    def subject_page(self, slug: str) -> Rendered:
        """A subject: news and a few featured articles, no journal list."""
        names = {slugify(s): s for s in self.subjects()}
        if slug not in names:
            return None
        name = names[slug]
        articles = "".join(
            f'<li class="card">{link(self.article_path(name, n + 1), t)}<span class="meta">Research article</span></li>'
            for n, t in enumerate(self.article_titles(slug, 4))
        )
        news = "".join(
            f"<li>{link(f'{self.root}news/{self.news_slug(n)}', self.news_headline(n))}</li>" for n in range(3)
        )
        main = (
            f"<h1>{escape(name)}</h1><p>Research, news and events in {escape(name.lower())}.</p>"
            f'<section><h2>Featured articles</h2><ul class="cards">{articles}</ul></section>'
            f"<section><h2>News</h2><ul>{news}</ul></section>"
        )
        return self.frame(name, main)

    def route(self, path: str, query: str) -> Rendered:
        """Start page, ``go``, subjects, articles, news, journal pages and their sub-pages, the usual pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if rest == "go":
            chosen = parse_qs(query).get("journal", [""])[0].removeprefix(self.root).removeprefix("/")
            match = re.fullmatch(r"journal/([a-z0-9-]+)", chosen)
            if match and match[1] in self.site.by_slug:
                return Redirect(self.journal_path(self.site.by_slug[match[1]]), 302)
            return None
        if match := re.fullmatch(r"subject/([a-z0-9-]+)", rest):
            return self.subject_page(match[1])
        if match := re.fullmatch(r"article/([a-z0-9-]+)-([1-4])", rest):
            names = {slugify(s): s for s in self.subjects()}
            if match[1] not in names:
                return None
            title = self.article_titles(match[1], 4)[int(match[2]) - 1]
            return self.content_page(title, ["Research article", "Abstract: we report and discuss results."])
        if rest in (
            "open-access",
            "authors",
            "reviewers",
            "librarians",
            "about",
            "privacy",
            "terms",
            "cookies",
            "login",
            "register",
        ):
            return self.content_page(rest.replace("-", " ").title(), ["Information from Meridian Science Publishing."])
        if match := re.fullmatch(r"(imprints|partners)/([a-z0-9-]+)", rest):
            return self.content_page(match[2].replace("-", " ").title(), ["A partner of Meridian Science Publishing."])
        if rest.startswith("journal/"):
            return self.route_journal(rest)
        if match := re.fullmatch(r"news/([a-z0-9-]+)", rest):
            return self.news_page(match[1])
        return None

    def journal_home(self, index: int) -> str:
        """Template 0: a "Journal information" definition list beside the menu; 1: metric cards and ISSN line."""
        journal, _ = self.values(index)
        variant = self.variant(index, 2)
        head = f"{self.heading(index, variant)}{self.journal_menu(index)}"
        if variant == 0:
            body = f"{head}<h2>Journal information</h2>{metrics_block(self.facts(index), 'dl', 'journal-info')}"
        else:
            cards = metrics_block(self.facts(index, METRICS), "tiles", "metric-cards")
            ids = " · ".join(f"{k} {v}" for k, v in self.facts(index, ("issn", "eissn")))
            body = f"{head}{cards}<p class='ids'>{ids}</p>{self.editor_line(index)}"
        return self.frame(journal.title, body, self.also_like(index))


# Site 3: one page, journals under several subjects ---------------------------------------------------------------
BROAD_AREAS = ("Life Sciences", "Physical Sciences & Engineering", "Health Sciences", "Social Sciences & Humanities")


class BySubjectTemplates(UnseenTemplates):
    """Northbridge Academic: one "Browse by subject" page, each journal under two or three subjects."""

    brand = "Northbridge Academic"
    also_heading = "Other journals in this field"

    def subjects(self) -> list[str]:
        """Twelve subjects, three under each broad area."""
        return drawn_fields("by-subject", self.site.relation.seed, self.name, 12)

    @cached_property
    def subjects_of(self) -> dict[int, list[str]]:
        """Each journal's two or three subjects."""
        subjects = self.subjects()
        return {
            i: sorted(self.site.rng(i, "subjects").sample(subjects, self.site.rng(i, "count").choice((2, 2, 3))))
            for i in self.site.journal_indices
        }

    def journal_path(self, index: int) -> str:
        """``journals/<slug>``."""
        return f"{self.root}journals/{slugify(self.site.relation.titles[index])}"

    def browse_path(self) -> str:
        """The one page listing every journal by subject."""
        return f"{self.root}browse/subjects"

    def listing_chain(self, index: int) -> list[str]:
        """Every journal is on the subjects page."""
        return [self.browse_path()]

    def menu(self) -> list[tuple[str, str]]:
        """Browse, the usual publisher pages."""
        return [
            (self.root, "Home"),
            (self.browse_path(), "Browse by subject"),
            (f"{self.root}books", "Books"),
            (f"{self.root}open-research", "Open research"),
            (f"{self.root}authors", "Authors"),
            (f"{self.root}librarians", "Librarians"),
            (f"{self.root}societies", "Societies"),
            (f"{self.root}news/{self.news_slug(0)}", "News"),
            (f"{self.root}about", "About"),
        ]

    def footer_groups(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """Flagship journals (sister journals) and partners."""
        sisters = [(self.journal_path(i), self.site.relation.titles[i]) for i in self.sister_indices()[:4]]
        partners = [(f"{self.root}partners/{slugify(n)}", n) for n in ("Research4Life", "CLOCKSS", "Crossref", "OASPA")]
        return [
            ("Flagship journals", sisters),
            ("Partners", partners),
            ("Help", [(f"{self.root}help", "Help & contact")]),
        ]

    def home(self) -> str:
        """Hero with "Browse by subject", news and most read."""
        news = "".join(
            f"<li>{link(f'{self.root}news/{self.news_slug(n)}', self.news_headline(n))}</li>" for n in range(5)
        )
        read = "".join(f"<li>{link(h, t)}</li>" for h, t in self.most_read(6))
        main = (
            f'<section class="hero"><h1>Northbridge Academic</h1><p>Publishing {len(self.site.journal_indices)} '
            f"journals with learned societies.</p><p>{link(self.browse_path(), 'Browse by subject', 'cta')}</p>"
            "</section>"
            f"<section><h2>News</h2><ul>{news}</ul></section><section><h2>Most read</h2><ol>{read}</ol></section>"
        )
        return self.frame("Northbridge Academic", main)

    def browse(self) -> str:
        """Every broad area (``h2``), its subjects (``h3``, linked to their pages) and their journals (``ul``)."""
        subjects = self.subjects()
        sections = []
        for n, area in enumerate(BROAD_AREAS):
            groups = []
            for subject in subjects[n * 3 : n * 3 + 3]:
                members = [i for i in self.site.journal_indices if subject in self.subjects_of[i]]
                items = "".join(f"<li>{link(self.journal_path(i), self.site.relation.titles[i])}</li>" for i in members)
                groups.append(
                    f'<h3 id="{slugify(subject)}">{link(f"{self.root}subject/{slugify(subject)}", subject)}</h3>'
                    f'<ul class="journal-list">{items}</ul>'
                )
            sections.append(f'<section class="area"><h2>{escape(area)}</h2>{"".join(groups)}</section>')
        jump = " | ".join(f'<a href="#{slugify(s)}">{escape(s)}</a>' for s in subjects)
        return self.frame(
            "Browse by subject", f"<h1>Browse by subject</h1><p class='jump'>{jump}</p>{''.join(sections)}"
        )

    def route(self, path: str, query: str) -> Rendered:
        """Home, the subjects page, subject overviews, journals and their sub-pages, news and the usual pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if rest == "browse/subjects":
            return self.browse()
        if match := re.fullmatch(r"subject/([a-z0-9-]+)", rest):
            return self.topic_page(match[1])
        if match := re.fullmatch(r"journals/([a-z0-9-]+)(?:/([a-z]+))?", rest):
            index = self.site.by_slug.get(match[1])
            if index is None:
                return None
            if match[2] is None:
                return self.journal_home(index)
            return self.route_extra(f"journal/{match[1]}/{match[2]}")
        if rest in (
            "books",
            "open-research",
            "authors",
            "librarians",
            "societies",
            "about",
            "help",
            "login",
            "register",
        ):
            return self.content_page(rest.replace("-", " ").title(), ["Information from Northbridge Academic."])
        if match := re.fullmatch(r"partners/([a-z0-9-]+)", rest):
            return self.content_page(match[1].title(), ["A partner of Northbridge Academic."])
        return self.route_extra(rest)

    def journal_menu(self, index: int) -> str:
        """The journal's menu, under its ``journals/<slug>`` URL."""
        base = self.journal_path(index)
        items = (
            ("aims", "Aims and scope"),
            ("editors", "Editorial board"),
            ("submit", "Submit"),
            ("issue", "Latest issue"),
        )
        return '<ul class="journal-menu">' + "".join(f"<li>{link(f'{base}/{p}', t)}</li>" for p, t in items) + "</ul>"

    def journal_home(self, index: int) -> str:
        """Template 0: a table of facts; 1: tiles and an ISSN line; 2: prose sentences."""
        journal, values = self.values(index)
        variant = self.variant(index, 3)
        head = f"{self.heading(index, variant % 2)}{self.journal_menu(index)}"
        subjects = ", ".join(self.subjects_of[index])
        if variant == 0:
            # The subjects as links, no label: the relation holds one subject per journal, these are two or three.
            tags = "".join(f"<li>{link(f'{self.root}subject/{slugify(s)}', s)}</li>" for s in self.subjects_of[index])
            body = f"{head}<ul class='subject-tags'>{tags}</ul>{metrics_block(self.facts(index), 'table', 'facts')}"
        elif variant == 1:
            ids = " | ".join(f"{k}: {v}" for k, v in self.facts(index, ("issn", "eissn")))
            body = (
                f"{head}{metrics_block(self.facts(index, METRICS), 'tiles', 'metrics')}"
                f"<p class='ids'>{ids}</p>{self.editor_line(index)}"
            )
        else:
            facts = dict(self.facts(index))
            sentences = [f"{escape(journal.title)} is a journal of {escape(subjects)}."]
            if values.get("impact_factor") is not None:
                sentences.append(f"Its {METRIC_YEAR} Impact Factor is {facts['Impact Factor']}.")
            if values.get("citescore") is not None:
                sentences.append(f"CiteScore: {facts['CiteScore']}.")
            ids = "".join(f"<li>{k}: {v}</li>" for k, v in self.facts(index, ("issn", "eissn")))
            body = f"{head}<p>{' '.join(sentences)}</p><ul class='ids'>{ids}</ul>{self.editor_line(index)}"
        return self.frame(journal.title, body, self.also_like(index))


# Site 4: Spanish, paginated subject areas ------------------------------------------------------------------------
AREAS = (
    "Ciencias de la Salud",
    "Ciencias de la Vida",
    "Ciencias Exactas y Naturales",
    "Ingeniería y Tecnología",
    "Ciencias Agrarias",
    "Ciencias Sociales",
    "Artes y Humanidades",
)
"""The site's "Áreas temáticas"."""


class AreasTemplates(UnseenTemplates):
    """Portal de Revistas Científicas: Spanish, journals by paginated subject area, Spanish labels and numbers."""

    brand = "Portal de Revistas Científicas"
    lang = "es"
    labels = SPANISH_LABELS
    decimal_comma = True
    issn_dash = "–"
    also_heading = "Otras revistas del área"

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        self.site = ProjectedSite(site, self.hidden)

    def hidden(self, index: int) -> frozenset[str]:
        """Template 2 shows no five-year impact factor."""
        return frozenset({"five_year_impact_factor"}) if self.variant(index, 3) == 2 else frozenset()

    @cached_property
    def area_of(self) -> dict[int, str]:
        """Each journal's one area."""
        return {i: self.site.rng(i, "area").choice(AREAS) for i in self.site.journal_indices}

    def area_pages(self, area: str) -> list[list[int]]:
        """An area's journals split into pages."""
        indices = [i for i in self.site.journal_indices if self.area_of[i] == area]
        size = self.site.spec.page_size
        return [indices[i : i + size] for i in range(0, len(indices), size)] or [[]]

    def area_path(self, area: str, page_no: int = 1) -> str:
        """``area/<slug>?pagina=N``."""
        return f"{self.root}area/{slugify(area)}" + (f"?pagina={page_no}" if page_no > 1 else "")

    def journal_path(self, index: int) -> str:
        """``revista/<slug>``."""
        return f"{self.root}revista/{slugify(self.site.relation.titles[index])}"

    def listing_chain(self, index: int) -> list[str]:
        """The area's first page, then the page holding the journal."""
        area = self.area_of[index]
        page_no = next(p for p, chunk in enumerate(self.area_pages(area), start=1) if index in chunk)
        return [self.area_path(area)] + ([self.area_path(area, page_no)] if page_no > 1 else [])

    def menu(self) -> list[tuple[str, str]]:
        """Inicio, áreas, the usual pages of a Spanish portal."""
        return [
            (self.root, "Inicio"),
            (f"{self.root}areas", "Áreas temáticas"),
            (f"{self.root}noticias", "Noticias"),
            (f"{self.root}autores", "Para autores"),
            (f"{self.root}evaluadores", "Para evaluadores"),
            (f"{self.root}acceso-abierto", "Acceso abierto"),
            (f"{self.root}contacto", "Contacto"),
        ]

    def account_links(self) -> list[tuple[str, str]]:
        """Acceder, registrarse."""
        return [(f"{self.root}acceder", "Acceder"), (f"{self.root}registro", "Registrarse")]

    def footer_groups(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """Sister portals and partners, as pages of the site."""
        sisters = [
            (f"{self.root}portales/{slugify(n)}", n)
            for n in ("Portal de Libros", "Repositorio Institucional", "Congresos")
        ]
        partners = [(f"{self.root}socios/{slugify(n)}", n) for n in ("Latindex", "SciELO", "Redalyc", "DOAJ")]
        return [
            ("Portales hermanos", sisters),
            ("Socios", partners),
            ("Legal", [(f"{self.root}aviso-legal", "Aviso legal")]),
        ]

    def area_list(self) -> str:
        """The "Áreas temáticas" list with each area's number of journals."""
        counts = {a: sum(len(p) for p in self.area_pages(a)) for a in AREAS}
        items = "".join(
            f"<li>{link(self.area_path(a), a)} <span class='count'>({counts[a]} revistas)</span></li>" for a in AREAS
        )
        return f'<section class="areas"><h2>Áreas temáticas</h2><ul>{items}</ul></section>'

    def home(self) -> str:
        """The areas, news, a search box."""
        news = "".join(f"<li>{link(f'{self.root}noticias/{n + 1}', t)}</li>" for n, t in enumerate(self.noticias()))
        main = (
            f"<h1>Revistas científicas</h1><p>{len(self.site.journal_indices)} revistas arbitradas.</p>"
            f"{self.area_list()}<section class='news'><h2>Noticias</h2><ul>{news}</ul></section>"
        )
        return self.frame("Inicio", main)

    def noticias(self) -> list[str]:
        """News headlines in Spanish."""
        rng = random.Random(f"noticias:{self.site.relation.seed}:{self.name}")
        return [
            f"Convocatoria de artículos: número especial sobre {rng.choice(FIELDS)}",
            f"Nuevos factores de impacto {METRIC_YEAR} para nuestras revistas",
            "Taller de redacción científica para jóvenes investigadores",
            f"Premio al mejor artículo del año en {rng.choice(FIELDS)}",
        ]

    def area_page(self, slug: str, page_no: int) -> Rendered:
        """An area's page ``page_no``: journal cards and "‹ Anterior", numbers, "Siguiente ›"."""
        areas = {slugify(a): a for a in AREAS}
        if slug not in areas:
            return None
        area = areas[slug]
        pages = self.area_pages(area)
        if not 1 <= page_no <= len(pages):
            return None
        cards = "".join(
            f'<div class="revista"><h3>{link(self.journal_path(i), self.site.relation.titles[i])}</h3>'
            f"<p>Periodicidad: {self.site.rng(i, 'frecuencia').choice(('semestral', 'trimestral', 'anual'))}</p>"
            f"<p>{link(self.journal_path(i), 'Ver revista ›', 'more')}</p></div>"
            for i in pages[page_no - 1]
        )
        nav = []
        if page_no > 1:
            nav.append(link(self.area_path(area, page_no - 1), "‹ Anterior"))
        nav += [
            f"<span class='actual'>{p}</span>" if p == page_no else link(self.area_path(area, p), str(p))
            for p in range(1, len(pages) + 1)
        ]
        if page_no < len(pages):
            nav.append(link(self.area_path(area, page_no + 1), "Siguiente ›"))
        main = (
            f"<h1>{escape(area)}</h1><div class='listado'>{cards}</div>"
            f"<nav class='paginacion'>{' '.join(nav) if len(pages) > 1 else ''}</nav>{self.area_list()}"
        )
        return self.frame(area, main)

    def route(self, path: str, query: str) -> Rendered:
        """Inicio, areas, area pages, journals, news and the usual pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if rest == "areas":
            return self.frame("Áreas temáticas", self.area_list())
        if match := re.fullmatch(r"area/([a-z0-9-]+)", rest):
            value = parse_qs(query).get("pagina", ["1"])[0]
            return self.area_page(match[1], int(value) if value.isdigit() else 0)
        if match := re.fullmatch(r"revista/([a-z0-9-]+)(?:/([a-z]+))?", rest):
            index = self.site.by_slug.get(match[1])
            if index is None or match[2] not in (None, "envios", "equipo", "numeros"):
                return None
            if match[2] is None:
                return self.journal_home(index)
            title = self.site.relation.titles[index]
            heading = {"envios": "Envíos", "equipo": "Equipo editorial", "numeros": "Números anteriores"}[match[2]]
            return self.content_page(f"{title}: {heading}", ["Información para autores y lectores."])
        if match := re.fullmatch(r"noticias/([1-4])", rest):
            return self.content_page(self.noticias()[int(match[1]) - 1], ["Publicado en 2026."])
        if rest in (
            "noticias",
            "autores",
            "evaluadores",
            "acceso-abierto",
            "contacto",
            "acceder",
            "registro",
            "aviso-legal",
        ):
            return self.content_page(rest.replace("-", " ").capitalize(), ["Portal de Revistas Científicas."])
        if match := re.fullmatch(r"(portales|socios)/([a-z0-9-]+)", rest):
            return self.content_page(match[2].replace("-", " ").title(), ["Un socio del portal."])
        return None

    def journal_home(self, index: int) -> str:
        """Template 0: a definition list; 1: an "Información de la revista" table; 2: lines of text, no five-year
        impact factor."""
        journal, _ = self.values(index)
        variant = self.variant(index, 3)
        base = self.journal_path(index)
        menu = " · ".join(
            link(f"{base}/{p}", t)
            for p, t in (("numeros", "Números anteriores"), ("equipo", "Equipo editorial"), ("envios", "Envíos"))
        )
        head = f'<div class="cabecera"><h1>{escape(journal.title)}</h1><nav>{menu}</nav></div>'
        if variant == 0:
            body = f"{head}{metrics_block(self.facts(index), 'dl', 'datos')}"
        elif variant == 1:
            body = f"{head}<h2>Información de la revista</h2>{metrics_block(self.facts(index), 'table', 'datos')}"
        else:
            lines = "".join(f"<p>{k}: {v}</p>" for k, v in self.facts(index))
            body = f"{head}<div class='datos'>{lines}</div>"
        return self.frame(journal.title, body, self.also_like(index))
