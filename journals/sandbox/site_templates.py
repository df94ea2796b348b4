"""Each sandbox site's encode operator: its URL scheme, listing markup and journal page templates.

Sites follow how the six publishers of the heuristic-extraction paper organise theirs (A–Z letters, paginated
listings, a journal page and one more hop to the metrics), with the hard cases of that paper's Table 3: several
templates per site, label variants, values before labels or inside running text, decoys, noise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from urllib.parse import parse_qs

from journals.sandbox.markup import link, number, page
from journals.sandbox.relation import METRIC_YEAR, SandboxJournal
from journals.sandbox.sources import LETTERS, Site, letter_of, slugify


@dataclass(frozen=True)
class Redirect:
    """A redirect to ``location`` (a path on the same site): permanent (301) unless ``status`` says otherwise, as
    a tracker or a form's "Go" answers with 302."""

    location: str
    status: int = 301


@dataclass(frozen=True)
class Payload:
    """A response that is not an HTML page: a script or JSON a page's script fetches."""

    body: str
    content_type: str
    """The ``Content-Type`` it is served with (``application/javascript``, ``application/json``)."""


Rendered = str | Redirect | Payload | None


def issn_pair(v: dict[str, object], sep: str = " | ") -> str:
    """Print and online ISSN in one text node, as several publishers write them."""
    parts = []
    if v.get("issn"):
        parts.append(f"Print ISSN: {v['issn']}")
    if v.get("eissn"):
        parts.append(f"Online ISSN: {v['eissn']}")
    return sep.join(parts)


class SiteTemplates:
    """How one site encodes its pages. Subclasses set the URL scheme and markup; this class routes paths."""

    hop_text = "About the journal"

    def __init__(self, site: Site) -> None:
        self.site = site
        self.name = site.name
        self.root = f"/{site.name}/"

    # URL scheme -------------------------------------------------------------------------------------------------
    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """The canonical path of a letter's listing page."""
        suffix = f"?page={page_no}" if page_no > 1 else ""
        return f"{self.root}journals/{letter.lower()}{suffix}"

    def letter_href(self, letter: str, page_no: int = 1) -> str:
        """The href a page writes for a letter's listing page (subclasses write relative or absolute forms)."""
        return self.letter_path(letter, page_no)

    def journal_path(self, index: int) -> str:
        """The canonical path of a journal's home page."""
        return f"{self.root}journal/{slugify(self.site.relation.titles[index])}"

    def journal_href(self, index: int) -> str:
        """The href of a journal's entry on its listing (may redirect to :meth:`journal_path`)."""
        return self.journal_path(index)

    def hop_path(self, index: int) -> str | None:
        """The path of the journal's metrics page, or None when its home page shows the metrics."""
        return None

    def listing_chain(self, index: int) -> list[str]:
        """Paths of the listing pages a crawler passes to reach a journal: its letter's first page, then its own."""
        letter = letter_of(self.site.relation.titles[index])
        page_no = next(p for p, chunk in enumerate(self.pages_of(letter), start=1) if index in chunk)
        return [self.letter_path(letter, 1)] + ([self.letter_path(letter, page_no)] if page_no > 1 else [])

    def listing_values(self, index: int) -> dict[str, object]:
        """Values a journal's listing entry shows besides its title (a table row's ISSN, impact factor…)."""
        return {}

    def variant(self, index: int, count: int) -> int:
        """Which of ``count`` page templates this journal's pages use."""
        return self.site.rng(index, "template").randrange(count)

    # Pages ------------------------------------------------------------------------------------------------------
    def frame(self, title: str, main: str, aside: str = "") -> str:
        """The site's chrome around a page's main content."""
        nav = " ".join(
            link(h, t)
            for h, t in (
                (self.root, "Home"),
                (f"{self.root}search?q=", "Search"),
                (f"{self.root}about", "About us"),
                (f"{self.root}help", "Help"),
            )
        )
        return page(
            f"{title} | {self.name.title()}",
            f'<header><div class="logo">{escape(self.name.title())}</div><nav>{nav}</nav></header>\n'
            f'<div class="ad">Advertisement: Publish open access with a 20% discount!</div>\n'
            f"<main>{main}</main>\n{aside}\n"
            f"<footer><p>© 2026 {escape(self.name.title())}. {link(self.root + 'privacy', 'Privacy')}</p></footer>",
        )

    def alphabet(self) -> str:
        """The A–Z bar: every letter and ``0-9``."""
        return '<div class="az">' + " ".join(link(self.letter_href(c), c) for c in LETTERS) + "</div>"

    def home(self) -> str:
        """The start page: the A–Z bar and some news."""
        return self.frame(
            f"{self.name.title()} journals",
            f"<h1>Browse journals A–Z</h1>{self.alphabet()}<p>Find the right journal for your research.</p>",
        )

    def pages_of(self, letter: str) -> list[list[int]]:
        """The journals of a letter split into listing pages."""
        indices = self.site.by_letter.get(letter, [])
        size = self.site.spec.page_size
        return [indices[i : i + size] for i in range(0, len(indices), size)] or [[]]

    def pagination(self, letter: str, page_no: int, count: int) -> str:
        """Links to the other pages of a letter's listing."""
        if count <= 1:
            return ""
        links = [
            link(self.letter_href(letter, p), str(p)) if p != page_no else f"<b>{p}</b>" for p in range(1, count + 1)
        ]
        if page_no < count:
            links.append(link(self.letter_href(letter, page_no + 1), "Next ›"))
        return '<div class="pagination">' + " ".join(links) + "</div>"

    def entry(self, index: int) -> str:
        """One journal's entry on a listing page."""
        return f'<li class="journal">{link(self.journal_href(index), self.site.relation.titles[index])}</li>'

    def listing(self, letter: str, page_no: int) -> Rendered:
        """A letter's listing page ``page_no``; None when the page does not exist."""
        pages = self.pages_of(letter)
        if not 1 <= page_no <= len(pages):
            return None
        entries = "".join(self.entry(i) for i in pages[page_no - 1]) or "<li>No titles for this letter.</li>"
        main = (
            f"<h1>Journals: {escape(letter)}</h1>{self.alphabet()}<ul class='journals'>{entries}</ul>"
            f"{self.pagination(letter, page_no, len(pages))}"
        )
        return self.frame(f"Journals starting with {letter}", main)

    def featured(self, index: int) -> str:
        """A decoy sidebar: another journal of the site quoted with its impact factor."""
        others = self.site.journal_indices
        other = others[(index * 7 + 3) % len(others)]
        if other == index:
            other = others[(index * 7 + 4) % len(others)]
        journal = self.site.journal(other)
        return (
            f'<aside class="sidebar"><h3>Featured journal</h3>{link(self.journal_path(other), journal.title)}'
            f"<p>Impact Factor: {number(journal.impact_factor)}</p>"
            f"<p>ISSN: {journal.issn}</p></aside>"
        )

    def journal_home(self, index: int) -> str:
        """A journal's home page."""
        raise NotImplementedError

    def journal_hop(self, index: int) -> Rendered:
        """A journal's metrics page (the extra hop), None when it has none."""
        return None

    def values(self, index: int) -> tuple[SandboxJournal, dict[str, object]]:
        """The journal and the values this site shows for it."""
        journal = self.site.journal(index)
        return journal, self.site.shown_values(journal)

    def route(self, path: str, query: str) -> Rendered:
        """The page at ``path?query`` of this site, a redirect, or None for 404."""
        rest = path[len(self.root) :]
        params = parse_qs(query)
        page_no = int(params.get("page", ["1"])[0]) if params.get("page", ["1"])[0].isdigit() else 0
        if rest == "":
            return self.home()
        if match := re.fullmatch(r"journals/([a-z]|0-9)", rest):
            return self.listing(match[1].upper() if match[1] != "0-9" else "0-9", page_no)
        return self.route_journal(rest)

    def route_journal(self, rest: str) -> Rendered:
        """Journal home and hop pages under ``journal/<slug>``."""
        match = re.fullmatch(r"journal/([a-z0-9-]+)(/[a-z]+)?(/?)", rest)
        if not match or match[1] not in self.site.by_slug:
            return None
        index = self.site.by_slug[match[1]]
        if match[3]:
            return Redirect(self.journal_path(index) + (match[2] or ""))
        if match[2] is None:
            return self.journal_home(index)
        hop = self.hop_path(index)
        return self.journal_hop(index) if hop and hop.endswith(match[2]) else None


class ElsevierTemplates(SiteTemplates):
    """Elsevier: query-string letters, metrics on the home page or behind "Journal insights"."""

    hop_text = "Journal insights"

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """Listing pages are one path with query-string letters and pages."""
        suffix = f"&page={page_no}" if page_no > 1 else ""
        return f"{self.root}journals?letter={letter.lower()}{suffix}"

    def journal_href(self, index: int) -> str:
        """Every tenth journal is linked with a trailing slash that redirects."""
        path = self.journal_path(index)
        return path + "/" if index % 10 == 3 else path

    def hop_path(self, index: int) -> str | None:
        """Template 1 keeps its metrics on a separate insights page."""
        return self.journal_path(index) + "/insights" if self.variant(index, 2) == 1 else None

    def route(self, path: str, query: str) -> Rendered:
        """Listings live at ``journals?letter=x&page=n``."""
        if path == f"{self.root}journals":
            params = parse_qs(query)
            letter = params.get("letter", [""])[0]
            page_no = params.get("page", ["1"])[0]
            if (re.fullmatch(r"[a-z]|0-9", letter)) and page_no.isdigit():
                return self.listing(letter.upper() if letter != "0-9" else letter, int(page_no))
            return None
        return super().route(path, query)

    def metrics_dl(self, v: dict[str, object]) -> str:
        """Metrics as a definition list."""
        rows = [
            ("CiteScore", number(v.get("citescore"), 1)),
            ("Impact Factor", number(v.get("impact_factor"))),
            ("5-Year Impact Factor", number(v.get("five_year_impact_factor"))),
            ("SNIP", number(v.get("snip"))),
            ("SJR", number(v.get("sjr"))),
        ]
        return '<dl class="metrics">' + "".join(f"<dt>{k}</dt><dd>{val}</dd>" for k, val in rows) + "</dl>"

    def journal_home(self, index: int) -> str:
        """Title, ISSN, editor, access model, then metrics or the insights link."""
        journal, v = self.values(index)
        oa = {True: "Open access", False: "Subscription", None: "n/a"}[v.get("open_access")]  # type: ignore[index]
        head = (
            f'<div class="journal-header"><h1 class="journal-title">{escape(journal.title)}</h1>'
            f'<p class="issn">ISSN: {v.get("issn") or "n/a"}</p>'
            f"<p>Access model: <span>{oa}</span></p>"
            f'<div class="editors"><h3>Editor-in-Chief</h3><p>{escape(str(v.get("editor_in_chief") or "TBA"))}'
            f"</p></div></div>"
        )
        if self.hop_path(index):
            body = head + f"<p>{link(self.hop_path(index), 'Journal insights')}: speed, reach and impact.</p>"
        else:
            body = (
                head + '<section class="journal-metrics"><h2>Journal metrics</h2>' + self.metrics_dl(v) + "</section>"
            )
        return self.frame(journal.title, body, self.featured(index))

    def journal_hop(self, index: int) -> str:
        """The insights page: metrics as a table."""
        journal, v = self.values(index)
        rows = [
            ("Impact Factor", number(v.get("impact_factor"))),
            ("Five-Year Impact Factor", number(v.get("five_year_impact_factor"))),
            ("CiteScore", number(v.get("citescore"), 1)),
            ("Source Normalized Impact per Paper (SNIP)", number(v.get("snip"))),
            ("SCImago Journal Rank (SJR)", number(v.get("sjr"))),
        ]
        table = "".join(f"<tr><th>{k}</th><td>{val}</td></tr>" for k, val in rows)
        return self.frame(
            f"Insights: {journal.title}",
            f"<h1>{escape(journal.title)}</h1><h2>Journal insights</h2><table>{table}</table>",
            self.featured(index),
        )


class WileyTemplates(SiteTemplates):
    """Wiley: relative letter links, "VIEW 1-40 | 41-80 | Next >", renamed titles, an "About the journal" hop."""

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """Listings at ``az/<LETTER>?start=N``."""
        start = f"?start={(page_no - 1) * self.site.spec.page_size + 1}" if page_no > 1 else ""
        return f"{self.root}az/{letter}{start}"

    def letter_href(self, letter: str, page_no: int = 1) -> str:
        """Relative to the site root (pages under ``az/`` write their own relative form)."""
        return self.letter_path(letter, page_no)[len(self.root) :]

    def alphabet(self) -> str:
        """The Wiley bar, relative links as the root page writes them."""
        return (
            '<div class="az">ALL '
            + " ".join(link(self.letter_href(c), c) for c in LETTERS)
            + " Select All Get email alerts</div>"
        )

    def hop_path(self, index: int) -> str:
        """Every journal has its metrics on the about page."""
        return self.journal_path(index) + "/about"

    def home(self) -> str:
        """The Wiley root page with its base so that relative letter links resolve."""
        return self.frame("Publications A - Z", f"<h1>Publications A - Z</h1>{self.alphabet()}")

    def listing(self, letter: str, page_no: int) -> Rendered:
        """VIEW 1-40 | 41-80 | Next >; some entries are old titles, linked through a redirect."""
        pages = self.pages_of(letter)
        if not 1 <= page_no <= len(pages):
            return None
        size = self.site.spec.page_size
        views = [f"{p * size + 1}-{(p + 1) * size}" for p in range(len(pages))]
        bar = " | ".join(
            (f"<b>{v}</b>" if p + 1 == page_no else link("../" + self.letter_href(letter, p + 1), v))
            for p, v in enumerate(views)
        )
        if page_no < len(pages):
            bar += " | " + link("../" + self.letter_href(letter, page_no + 1), "Next >")
        entries = []
        for i in pages[page_no - 1]:
            title = self.site.relation.titles[i]
            entries.append(
                f'<div class="az-item"><input type="checkbox"> {link(self.journal_path(i), title)}'
                f' <span class="type">JOURNAL</span></div>'
            )
            if i % 17 == 5:
                entries.append(
                    f'<div class="az-item"><input type="checkbox"> '
                    f"{link(f'{self.root}r/{slugify(title)}', title + ' (Former Series)')}"
                    f" <span>Currently known as: {escape(title)}</span></div>"
                )
        letters = '<div class="az">ALL ' + " ".join(link("../" + self.letter_href(c), c) for c in LETTERS) + "</div>"
        main = (
            f"<h1>Publications A - Z</h1>{letters}<div class='view'>VIEW {bar}</div>"
            f"<div class='az-list'>{''.join(entries) or 'No publications.'}</div>"
        )
        return self.frame("Publications A - Z", main)

    def route(self, path: str, query: str) -> Rendered:
        """Listings at ``az/X?start=N`` and former titles at ``r/<slug>``."""
        rest = path[len(self.root) :]
        if match := re.fullmatch(r"az/([A-Z]|0-9)", rest):
            start = parse_qs(query).get("start", ["1"])[0]
            if not start.isdigit():
                return None
            return self.listing(match[1], (int(start) - 1) // self.site.spec.page_size + 1)
        if (match := re.fullmatch(r"r/([a-z0-9-]+)", rest)) and match[1] in self.site.by_slug:
            return Redirect(self.journal_path(self.site.by_slug[match[1]]))
        return super().route(path, query)

    def journal_home(self, index: int) -> str:
        """Cover, title, the about link."""
        journal, _ = self.values(index)
        body = (
            f'<div class="journal-banner"><h1>{escape(journal.title)}</h1></div>'
            f'<ul class="tabs"><li>{link(self.journal_path(index), "Home")}</li>'
            f"<li>{link(self.hop_path(index), self.hop_text)}</li>"
            f"<li>{link(self.journal_path(index) + '/issues', 'Browse issues')}</li></ul>"
            "<p>Latest articles will appear here.</p>"
        )
        return self.frame(journal.title, body, self.featured(index))

    def journal_hop(self, index: int) -> str:
        """About page: a th/td table or a definition list, by template."""
        journal, v = self.values(index)
        rows = [
            ("Online ISSN", v.get("eissn")),
            ("Print ISSN", v.get("issn")),
            ("Journal Impact Factor™", number(v.get("impact_factor"))),
            ("Editor-in-Chief", v.get("editor_in_chief")),
            ("Subject", v.get("subject")),
        ]
        rows = [(k, val) for k, val in rows if val is not None]
        if self.variant(index, 2) == 0:
            block = (
                "<table class='journal-info'>"
                + "".join(f"<tr><th>{k}</th><td>{escape(str(val))}</td></tr>" for k, val in rows)
                + "</table>"
            )
        else:
            block = (
                "<dl class='journal-info'>"
                + "".join(f"<dt>{k}:</dt><dd>{escape(str(val))}</dd>" for k, val in reversed(rows))
                + "</dl>"
            )
        return self.frame(
            f"About {journal.title}", f"<h1>{escape(journal.title)}</h1><h2>Overview</h2>{block}", self.featured(index)
        )


class NatureTemplates(SiteTemplates):
    """Nature: a site index with nested sub-letter pages; three journal templates, one with metrics in prose."""

    hop_text = "Journal metrics"

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """Letters at ``siteindex/<letter>``; no pagination, sub-letters instead."""
        return f"{self.root}siteindex/{letter.lower()}"

    def hop_path(self, index: int) -> str | None:
        """Template 2 has a separate metrics page."""
        return self.journal_path(index) + "/metrics" if self.variant(index, 3) == 2 else None

    def sub_groups(self, letter: str) -> dict[str, list[int]]:
        """A large letter is split by its second letter into sub-letter pages."""
        groups: dict[str, list[int]] = {}
        for i in self.site.by_letter.get(letter, []):
            title = self.site.relation.titles[i]
            second = title[1].lower() if len(title) > 1 and title[1].isalpha() else "0"
            groups.setdefault(letter[0].upper() + second, []).append(i)
        return groups

    def listing_chain(self, index: int) -> list[str]:
        """The letter page, then the sub-letter page when the letter is split."""
        letter = letter_of(self.site.relation.titles[index])
        chain = [self.letter_path(letter)]
        if len(self.site.by_letter.get(letter, [])) > self.site.spec.page_size:
            key = next(k for k, group in self.sub_groups(letter).items() if index in group)
            chain.append(f"{self.letter_path(letter)}/{key.lower()}")
        return chain

    def route(self, path: str, query: str) -> Rendered:
        """Letters and sub-letters under ``siteindex/``."""
        rest = path[len(self.root) :]
        if match := re.fullmatch(r"siteindex/([a-z]|0-9)(?:/([a-z0-9]{2}))?", rest):
            letter = match[1].upper() if match[1] != "0-9" else "0-9"
            return self.nature_listing(letter, match[2])
        return super().route(path, query)

    def nature_listing(self, letter: str, sub: str | None) -> Rendered:
        """The letter page lists its journals, or links sub-letter pages when it has many."""
        indices = self.site.by_letter.get(letter, [])
        groups = self.sub_groups(letter)
        if sub is not None:
            key = sub[0].upper() + sub[1]
            if len(indices) <= self.site.spec.page_size or key not in groups:
                return None
            indices = groups[key]
        elif len(indices) > self.site.spec.page_size:
            subs = " ".join(link(f"{self.letter_path(letter)}/{k.lower()}", k) for k in sorted(groups))
            return self.frame(
                f"Site index {letter}", f"<h1>Site index</h1>{self.alphabet()}<div class='sub-index'>{subs}</div>"
            )
        entries = "".join(f"<li>{link(self.journal_path(i), self.site.relation.titles[i])}</li>" for i in indices)
        return self.frame(
            f"Site index {letter}", f"<h1>Site index</h1>{self.alphabet()}<ol class='titles'>{entries}</ol>"
        )

    def journal_home(self, index: int) -> str:
        """Template 0: details paragraphs; 1: metrics in prose; 2: link to the metrics page."""
        journal, v = self.values(index)
        variant = self.variant(index, 3)
        editor = escape(str(v.get("editor_in_chief") or ""))
        if variant == 0:
            body = (
                f'<div class="journal-details"><h1>{escape(journal.title)}</h1>'
                f"<p>ISSN: {v.get('issn') or 'n/a'}</p><p>EISSN: {v.get('eissn') or 'n/a'}</p>"
                f'<p>Impact Factor: <span class="impact">{number(v.get("impact_factor"))}</span></p>'
                f'<p>5-year Impact Factor: <span class="impact">{number(v.get("five_year_impact_factor"))}'
                f"</span></p><p>Chief Editor: <span>{editor}</span></p></div>"
            )
        elif variant == 1:
            sentences = [f"<h1>{escape(journal.title)}</h1><div class='about'>"]
            if v.get("impact_factor") is not None:
                sentences.append(
                    f"<p>{escape(journal.title)} is a monthly journal. The journal's {METRIC_YEAR} "
                    f"Impact Factor is {number(v['impact_factor'])}.</p>"
                )
            if v.get("five_year_impact_factor") is not None:
                sentences.append(
                    f"<p>Its five-year impact factor stands at {number(v['five_year_impact_factor'])}.</p>"
                )
            issns = "; ".join(
                x
                for x in (
                    f"{v['issn']} (print)" if v.get("issn") else "",
                    f"{v['eissn']} (online)" if v.get("eissn") else "",
                )
                if x
            )
            sentences.append(f"<p>ISSN {issns}</p>" if issns else "")
            sentences.append(f"<p>Chief Editor: {editor}</p></div>" if editor else "</div>")
            body = "".join(sentences)
        else:
            body = (
                f"<h1>{escape(journal.title)}</h1><p>{escape(journal.title)} publishes research across "
                f"{escape(journal.subject)}.</p><p>{link(self.hop_path(index) or '', 'Journal metrics')}</p>"
            )
        return self.frame(journal.title, body, self.featured(index))

    def journal_hop(self, index: int) -> str:
        """Metrics page: each value before its label."""
        journal, v = self.values(index)
        items = [
            (number(v.get("impact_factor")), "2-year impact factor"),
            (number(v.get("five_year_impact_factor")), "5-year impact factor"),
        ]
        metrics = "".join(
            f'<li><span class="value">{val}</span> <span class="label">{k}</span></li>' for val, k in items
        )
        ids = (
            f"<p>Print ISSN {v.get('issn') or 'n/a'}</p><p>Online ISSN {v.get('eissn') or 'n/a'}</p>"
            f"<p>Chief Editor <b>{escape(str(v.get('editor_in_chief') or ''))}</b></p>"
        )
        return self.frame(
            f"Journal metrics | {journal.title}",
            f"<h1>{escape(journal.title)}: journal metrics</h1><ul class='metrics'>{metrics}</ul>{ids}",
            self.featured(index),
        )


class BMJTemplates(SiteTemplates):
    """BMJ: absolute letter links, discontinued titles that 404, value before label, metrics in one text node."""

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """Listings at ``browse/<L>/`` and ``browse/<L>/<n>/``."""
        return f"{self.root}browse/{letter}/" + (f"{page_no}/" if page_no > 1 else "")

    def letter_href(self, letter: str, page_no: int = 1) -> str:
        """BMJ writes absolute URLs; the host is filled in by the server."""
        return "http://{host}" + self.letter_path(letter, page_no)

    def hop_path(self, index: int) -> str | None:
        """Template 0 keeps the metrics on the about page."""
        return self.journal_path(index) + "/about" if self.variant(index, 2) == 0 else None

    def entry(self, index: int) -> str:
        """Table rows, with a discontinued title now and then."""
        title = self.site.relation.titles[index]
        row = f"<tr><td>{link(self.journal_href(index), title)}</td><td>Journal</td></tr>"
        if index % 13 == 0:
            row += (
                f"<tr><td>{link(self.root + 'journal/discontinued-' + slugify(title), title + ' Archive')}"
                "</td><td>Discontinued</td></tr>"
            )
        return row

    def listing(self, letter: str, page_no: int) -> Rendered:
        """A table of journals."""
        pages = self.pages_of(letter)
        if not 1 <= page_no <= len(pages):
            return None
        rows = "".join(self.entry(i) for i in pages[page_no - 1])
        main = (
            f"<h1>BMJ Journals {escape(letter)}</h1>{self.alphabet()}<table class='journal-list'>{rows}</table>"
            f"{self.pagination(letter, page_no, len(pages))}"
        )
        return self.frame(f"BMJ journals {letter}", main)

    def route(self, path: str, query: str) -> Rendered:
        """Listings under ``browse/``."""
        rest = path[len(self.root) :]
        if match := re.fullmatch(r"browse/([A-Z]|0-9)/(?:(\d+)/)?", rest):
            return self.listing(match[1], int(match[2] or 1))
        return super().route(path, query)

    def journal_home(self, index: int) -> str:
        """Template 0: about link; 1: "Impact Factor (2024): 4.117" and both ISSNs in one text node."""
        journal, v = self.values(index)
        if self.hop_path(index):
            body = (
                f"<h1>{escape(journal.title)}</h1><p>Leading research in {escape(journal.subject)}.</p>"
                f"<p>{link(self.hop_path(index) or '', self.hop_text)}</p>"
            )
        else:
            lines = [f"<h1>{escape(journal.title)}</h1><div class='journal-facts'>"]
            if v.get("impact_factor") is not None:
                lines.append(f"<p>Impact Factor ({METRIC_YEAR}): {number(v['impact_factor'])}</p>")
            if v.get("citescore") is not None:
                lines.append(f"<p>CiteScore ({METRIC_YEAR}): {number(v['citescore'], 1)}</p>")
            lines.append(f"<p>{issn_pair(v)}</p>")
            if v.get("editor_in_chief"):
                lines.append(f"<p>Editor in Chief: {escape(str(v['editor_in_chief']))}</p>")
            body = "".join(lines) + "</div>"
        return self.frame(journal.title, body, self.featured(index))

    def journal_hop(self, index: int) -> str:
        """About page: metric tiles with the value before its label."""
        journal, v = self.values(index)
        tiles = "".join(
            f'<div class="metric"><strong>{val}</strong> {k}</div>'
            for val, k in (
                (number(v.get("impact_factor")), "Impact factor"),
                (number(v.get("citescore"), 1), "CiteScore"),
            )
        )
        ids = (
            f"<p>ISSN: {v.get('issn') or 'n/a'}</p><p>eISSN: {v.get('eissn') or 'n/a'}</p>"
            f"<h3>Editor</h3><p>{escape(str(v.get('editor_in_chief') or ''))}</p>"
        )
        return self.frame(
            f"About {journal.title}",
            f"<h1>About {escape(journal.title)}</h1><div class='metrics'>{tiles}</div>{ids}",
            self.featured(index),
        )


class OxfordTemplates(SiteTemplates):
    """Oxford: the A–Z behind a "Browse journals" page, relative query letters, a "Journal information" hop."""

    hop_text = "Journal information"

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """Listings at ``journals?l=x&p=n``."""
        return f"{self.root}journals?l={letter.lower()}" + (f"&p={page_no}" if page_no > 1 else "")

    def letter_href(self, letter: str, page_no: int = 1) -> str:
        """Relative query-string links."""
        return self.letter_path(letter, page_no)[len(self.root) + len("journals") :]

    def hop_path(self, index: int) -> str:
        """Every journal has an information page."""
        return self.journal_path(index) + "/information"

    def home(self) -> str:
        """The start page links to the A–Z browse page instead of listing letters."""
        return self.frame(
            "Oxford Academic", f"<h1>Oxford Academic</h1><p>{link(self.root + 'journals', 'Browse journals A–Z')}</p>"
        )

    def route(self, path: str, query: str) -> Rendered:
        """The browse page and its query-string listings."""
        if path == f"{self.root}journals":
            params = parse_qs(query)
            letter = params.get("l", [""])[0]
            page_no = params.get("p", ["1"])[0]
            if not letter:
                return self.frame("Browse journals", f"<h1>Browse journals A–Z</h1>{self.alphabet()}")
            if re.fullmatch(r"[a-z]|0-9", letter) and page_no.isdigit():
                return self.listing(letter.upper() if letter != "0-9" else letter, int(page_no))
            return None
        return super().route(path, query)

    def entry(self, index: int) -> str:
        """Journal cards."""
        title = self.site.relation.titles[index]
        return f'<div class="journal-card"><h3>{link(self.journal_path(index), title)}</h3></div>'

    def listing(self, letter: str, page_no: int) -> Rendered:
        """Cards, with a discontinued title that 404s now and then."""
        pages = self.pages_of(letter)
        if not 1 <= page_no <= len(pages):
            return None
        cards = "".join(self.entry(i) for i in pages[page_no - 1])
        if page_no == 1 and pages[0]:
            retired = link(f"{self.root}journal/retired-{letter.lower()}", "Retired title")
            cards += f'<div class="journal-card"><h3>{retired}</h3></div>'
        main = (
            f"<h1>Journals: {escape(letter)}</h1>{self.alphabet()}{cards}{self.pagination(letter, page_no, len(pages))}"
        )
        return self.frame(f"Journals {letter}", main)

    def journal_home(self, index: int) -> str:
        """Title and the information link."""
        journal, _ = self.values(index)
        body = (
            f"<h1 class='journal-title'>{escape(journal.title)}</h1>"
            f"<nav class='journal-nav'>{link(self.journal_path(index), 'Issues')} "
            f"{link(self.hop_path(index), 'Journal information')} {link(self.root + 'submit', 'Submit')}</nav>"
        )
        return self.frame(journal.title, body, self.featured(index))

    def journal_hop(self, index: int) -> str:
        """Information page: a definition list (template 0) or a table (template 1)."""
        journal, v = self.values(index)
        rows = [
            ("Print ISSN", v.get("issn")),
            ("Online ISSN", v.get("eissn")),
            ("Impact Factor", number(v.get("impact_factor"))),
            ("5-Year Impact Factor", number(v.get("five_year_impact_factor"))),
            ("Editor-in-Chief", v.get("editor_in_chief")),
        ]
        rows = [(k, val if val is not None else "n/a") for k, val in rows]
        if self.variant(index, 2) == 0:
            block = "<dl>" + "".join(f"<dt>{k}</dt><dd>{escape(str(val))}</dd>" for k, val in rows) + "</dl>"
        else:
            block = (
                "<table><tbody>"
                + "".join(f"<tr><td>{k}</td><td>{escape(str(val))}</td></tr>" for k, val in rows)
                + "</tbody></table>"
            )
        return self.frame(
            f"Information | {journal.title}", f"<h1>{escape(journal.title)}</h1>{block}", self.featured(index)
        )


class SpringerTemplates(SiteTemplates):
    """Springer: "Journal metrics" hop with dt/dd, year in brackets, decimal commas in one template."""

    hop_text = "Journal metrics"

    def hop_path(self, index: int) -> str:
        """Every journal has a metrics page."""
        return self.journal_path(index) + "/metrics"

    def metrics_href(self, index: int) -> str:
        """Where the journal page's "Journal metrics" link goes: its metrics page (a trap site sends some
        elsewhere, :mod:`journals.sandbox.trapsites`)."""
        return self.journal_path(index) + "/metrics"

    def entry(self, index: int) -> str:
        """Article-style entries."""
        anchor = link(self.journal_path(index), self.site.relation.titles[index])
        return f'<article class="c-card"><h2>{anchor}</h2></article>'

    def journal_home(self, index: int) -> str:
        """Title, ISSNs in the footer strip, metrics link."""
        journal, v = self.values(index)
        access = {True: "Open access", False: "Subscription"}.get(v.get("open_access"))  # type: ignore[arg-type]
        oa = f"<p class='oa'>Access: <b>{access}</b></p>" if access else ""
        body = (
            f"<h1>{escape(journal.title)}</h1>{oa}<p>{link(self.metrics_href(index), 'Journal metrics')}</p>"
            f"<p class='ids'>{issn_pair(v, ' / ')}</p>"
        )
        return self.frame(journal.title, body, self.featured(index))

    def journal_hop(self, index: int) -> str:
        """Metrics as dt/dd, values with the year in brackets; template 1 writes decimal commas."""
        journal, v = self.values(index)
        comma = self.variant(index, 2) == 1
        rows = [
            ("Impact factor", v.get("impact_factor"), 3),
            ("5 year impact factor", v.get("five_year_impact_factor"), 3),
            ("SNIP", v.get("snip"), 3),
            ("SJR", v.get("sjr"), 3),
        ]
        dl = "".join(
            f"<dt>{k}</dt><dd>{number(val, d, comma)} ({METRIC_YEAR})</dd>" for k, val, d in rows if val is not None
        )
        extra = ""
        if v.get("apc"):
            extra += f"<dt>Article processing charge</dt><dd>€{v['apc']:,}</dd>"
        editors = (
            f"<h3>Editors-in-Chief</h3><ul><li>{escape(str(v['editor_in_chief']))}</li></ul>"
            if v.get("editor_in_chief")
            else ""
        )
        return self.frame(
            f"Journal metrics | {journal.title}",
            f"<h1>{escape(journal.title)}</h1><dl class='c-journal-metrics'>{dl}{extra}</dl>{editors}",
            self.featured(index),
        )


class ScimagoTemplates(SiteTemplates):
    """An aggregator with labels: ISSNs written without hyphens, joined by a comma."""

    hop_text = ""

    def journal_home(self, index: int) -> str:
        """One journal per page, a labelled table."""
        journal, v = self.values(index)
        issns = ", ".join(str(x).replace("-", "") for x in (v.get("issn"), v.get("eissn")) if x)
        rows = [
            ("ISSN", issns or None),
            ("Subject Area and Category", v.get("subject")),
            ("Publisher", v.get("publisher")),
            ("SJR", number(v.get("sjr")) if v.get("sjr") is not None else None),
            ("H-Index", v.get("h_index")),
            ("CiteScore", number(v.get("citescore"), 1) if v.get("citescore") is not None else None),
        ]
        table = "".join(f"<tr><td>{k}</td><td>{escape(str(val))}</td></tr>" for k, val in rows if val is not None)
        return self.frame(journal.title, f"<h1>{escape(journal.title)}</h1><table class='journal-grid'>{table}</table>")


class MetricsDBTemplates(SiteTemplates):
    """An aggregator without labels: one row of bare values per journal page."""

    hop_text = ""

    def journal_home(self, index: int) -> str:
        """A header-less table: title, ISSN, impact factor, CiteScore, SNIP."""
        journal, v = self.values(index)
        cells = [
            escape(journal.title),
            str(v.get("issn") or ""),
            number(v.get("impact_factor")) if v.get("impact_factor") is not None else "",
            number(v.get("citescore"), 1) if v.get("citescore") is not None else "",
            number(v.get("snip")) if v.get("snip") is not None else "",
        ]
        row = "".join(f"<td>{c}</td>" for c in cells)
        return self.frame(journal.title, f"<table class='record'><tr>{row}</tr></table>")
