"""Three sandbox sites with the shapes of the real web's journal lists (issue 13), three journal templates each.

- ``openaccess`` (Open Access Portal): the start page *is* the list, a table of one row per journal (number,
  title, ISSN, launch year, impact factor, CiteScore, current issue, statistics and RSS links), paginated inside
  ``<nav aria-label="pagination">``; no letters at all.
- ``societypress`` (Societas Online): letters that are script handlers (``onclick="showLetter('B')"``,
  ``javascript:void(0)``) over one page holding every letter's section; journals are logo tiles whose only text
  is an image's ``alt`` or the link's ``title``; the list sits in ``role="navigation"``; "Topics" and "News"
  tiles share the journals' markup.
- ``campuspress`` (Campus Library): letter pages reached by script, many with one to three journals, beside a
  subject menu and "Most read" / "Latest news" lists heavier than them; its letters are buttons whose ``onclick``
  goes to the letter's page on the start page, and a ``<select>`` that goes to its value on a letter's page;
  journal cards inside ``<nav>``, ``role="navigation"`` or a plain list by letter; "Topics" and "News" cards with
  the journals' classes; pagination in ``<nav aria-label="pagination">``.

Journal pages (all three) join the title with hidden spans and the issue date, put a "Featured journal" box
with the same labels next to the metrics, list sister journals with ISSNs in the footer, and carry an "Editors"
menu link followed by other links where no editor-in-chief is shown.
"""

from __future__ import annotations

import random
import re
from functools import cached_property
from html import escape
from urllib.parse import parse_qs

from journals.sandbox.markup import link, number
from journals.sandbox.realweb import RealWebTemplates, metrics_block, shown_text
from journals.sandbox.relation import FIELDS, METRIC_YEAR
from journals.sandbox.site_templates import Rendered
from journals.sandbox.sources import LETTERS, slugify


def page_param(query: str, name: str = "page") -> int:
    """The page number of a query string; 1 when absent, 0 (no such page) when not a number."""
    value = parse_qs(query).get(name, ["1"])[0]
    return int(value) if value.isdigit() else 0


def pagination_nav(hrefs: list[str], page_no: int) -> str:
    """Numbered page links and a "next" arrow inside ``<nav aria-label="pagination">``."""
    if len(hrefs) <= 1:
        return ""
    items = [
        f'<li class="active"><span aria-current="page">{p}</span></li>'
        if p == page_no
        else f'<li><a class="page-link" href="{escape(href)}">{p}</a></li>'
        for p, href in enumerate(hrefs, start=1)
    ]
    if page_no < len(hrefs):
        items.append(f'<li><a class="page-link" href="{escape(hrefs[page_no])}" aria-label="Next page">›</a></li>')
    return f'<nav aria-label="pagination"><ul class="pagination">{"".join(items)}</ul></nav>'


class OpenAccessTemplates(RealWebTemplates):
    """Open Access Portal: the start page is the whole list, a paginated table of journals with their figures."""

    brand = "Open Access Portal"
    hop_text = ""
    metric_names = ("impact_factor", "citescore")

    @cached_property
    def positions(self) -> dict[int, int]:
        """Each journal's position in the list."""
        return {index: position for position, index in enumerate(self.site.journal_indices)}

    def table_pages(self) -> list[list[int]]:
        """The list split into pages of the site's page size."""
        indices = self.site.journal_indices
        size = self.site.spec.page_size
        return [indices[i : i + size] for i in range(0, len(indices), size)] or [[]]

    def table_path(self, page_no: int) -> str:
        """The path of list page ``page_no`` (the start page is page 1)."""
        return self.root + (f"?page={page_no}" if page_no > 1 else "")

    def listing_chain(self, index: int) -> list[str]:
        """The start page, then the list page holding the journal."""
        page_no = self.positions[index] // self.site.spec.page_size + 1
        return [self.table_path(1)] + ([self.table_path(page_no)] if page_no > 1 else [])

    def listing_values(self, index: int) -> dict[str, object]:
        """Each row shows the journal's ISSN, impact factor and CiteScore."""
        _, values = self.values(index)
        return {name: values.get(name) for name in ("issn", "impact_factor", "citescore")}

    def row(self, index: int) -> str:
        """One journal's row: its figures and other links (current issue, statistics, RSS)."""
        _, values = self.values(index)
        base = self.journal_path(index)
        launched = 1990 + self.site.rng(index, "launched").randrange(35)
        cells = [
            f"{self.positions[index] + 1}.",
            link(base, self.site.relation.titles[index], "journal-name"),
            str(values.get("issn") or ""),
            str(launched),
            shown_text("impact_factor", values.get("impact_factor")),
            shown_text("citescore", values.get("citescore")),
            link(base + "/issue", self.issue_label(index)),
            link(base + "/stats", "Statistics"),
            f'<a href="{base}/rss" title="RSS feed"><img src="/img/rss.svg" alt="RSS"></a>',
        ]
        return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"

    def table_page(self, page_no: int) -> Rendered:
        """List page ``page_no``: the table, its pagination, a subject filter beside it."""
        pages = self.table_pages()
        if not 1 <= page_no <= len(pages):
            return None
        head = "".join(
            f"<th>{h}</th>"
            for h in ("#", "Journal Name", "ISSN", "Launched", "IF", "CiteScore", "Current Issue", "Stats", "RSS")
        )
        rows = "".join(self.row(i) for i in pages[page_no - 1])
        hrefs = ["?page=1", *(f"?page={p}" for p in range(2, len(pages) + 1))]
        subjects = "".join(f"<li>{link(f'{self.root}subjects/{slugify(t)}', t)}</li>" for t in self.topics())
        main = (
            f"<h1>Journals</h1><p>{len(self.site.journal_indices)} peer-reviewed open access journals.</p>"
            f'<div class="filters"><h3>Filter by subject</h3><ul>{subjects}</ul></div>'
            f'<table class="journaltable"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
            f"{pagination_nav(hrefs, page_no)}"
        )
        return self.frame("Journals", main)

    def home(self) -> str:
        """The start page: the first page of the list."""
        return self.table_page(1) or ""

    def route(self, path: str, query: str) -> Rendered:
        """The list at the site root (``?page=N``); no letter pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.table_page(page_param(query))
        return self.route_journal(rest)

    def journal_home(self, index: int) -> str:
        """Template 0: a definition list, featured after; 1: a table, featured first; 2: value-first tiles."""
        journal, values = self.values(index)
        variant = self.variant(index, 3)
        style = ("dl", "table", "tiles")[variant]
        ids = f'<p class="ids">eISSN: {values["eissn"]}</p>' if values.get("eissn") else ""
        body = (
            f"{self.heading(index, variant % 2)}{self.journal_menu(index)}{ids}"
            f"{self.metrics_with_featured(index, style, featured_first=variant == 1)}"
            f"<p>{escape(journal.title)} is an open access journal of {escape(journal.subject)}.</p>"
        )
        return self.frame(journal.title, body)


class SocietyPressTemplates(RealWebTemplates):
    """Societas Online: one page holds every letter's section; letters are scripts; journals are logo tiles."""

    brand = "Societas Online"
    hop_text = "Journal metrics"
    metric_names = ("impact_factor", "five_year_impact_factor")

    def listing_chain(self, index: int) -> list[str]:
        """Every journal is on the start page."""
        return [self.root]

    def hop_path(self, index: int) -> str | None:
        """Template 1 keeps its metrics on a separate page."""
        return self.journal_path(index) + "/metrics" if self.variant(index, 3) == 1 else None

    def tile(self, href: str, name: str, form: int) -> str:
        """A logo tile whose only text is the image's ``alt`` (form 0, 2) or the link's ``title`` (form 1)."""
        logo = f"/img/logos/{slugify(name)[:40]}.png"
        if form == 1:
            anchor = f'<a class="tile-link" href="{escape(href)}" title="{escape(name)}"><img src="{logo}" alt=""></a>'
        elif form == 2:
            anchor = (
                f'<a class="tile-link" href="{escape(href)}"><img class="lazy" data-src="{logo}" '
                f'src="/img/blank.gif" alt="{escape(name)}" loading="lazy"></a>'
            )
        else:
            anchor = f'<a class="tile-link" href="{escape(href)}"><img src="{logo}" alt="{escape(name)}"></a>'
        return f'<li class="tile">{anchor}</li>'

    def journal_tile(self, index: int) -> str:
        """A journal's tile, its form drawn per journal."""
        form = self.site.rng(index, "tile").randrange(3)
        return self.tile(self.journal_path(index), self.site.relation.titles[index], form)

    def script_letters(self, javascript_void: bool) -> str:
        """Letters that only run a script: ``onclick="showLetter('B')"`` or ``href="javascript:void(0)"``."""
        if javascript_void:
            anchors = (f'<a href="javascript:void(0)" data-letter="{c}" class="az-link">{c}</a>' for c in LETTERS)
        else:
            anchors = (f'<a href="#" onclick="showLetter(\'{c}\')" class="az-link">{c}</a>' for c in LETTERS)
        return '<div class="az-filter">' + " ".join(anchors) + "</div>"

    def home(self) -> str:
        """Every letter's section in one page, script letters above and below, topic and news tiles after."""
        sections = "".join(
            f'<section id="letter-{letter}" class="letter-group"><h2>{letter}</h2>'
            f'<ul class="tiles">{"".join(self.journal_tile(i) for i in indices)}</ul></section>'
            for letter, indices in self.site.by_letter.items()
        )
        topics = "".join(self.tile(f"{self.root}topics/{slugify(t)}", t, 0) for t in self.topics())
        news = "".join(self.tile(f"{self.root}news/{self.news_slug(n)}", self.news_headline(n), 0) for n in range(8))
        main = (
            f"<h1>Our journals</h1>{self.script_letters(False)}"
            f'<div class="journal-index" role="navigation">{sections}</div>{self.script_letters(True)}'
            f'<section class="topics"><h2>Topics</h2><ul class="tiles">{topics}</ul></section>'
            f'<section class="news"><h2>News</h2><ul class="tiles">{news}</ul></section>'
            "<script>function showLetter(l){document.getElementById('letter-'+l).scrollIntoView()}</script>"
        )
        return self.frame("Our journals", main)

    def route(self, path: str, query: str) -> Rendered:
        """The start page holds the list; no letter pages."""
        rest = path[len(self.root) :]
        return self.home() if rest == "" else self.route_journal(rest)

    def identity(self, index: int) -> str:
        """ISSNs and, when shown, the editor-in-chief."""
        _, values = self.values(index)
        ids = " · ".join(
            text
            for text in (
                f"Print ISSN {values['issn']}" if values.get("issn") else "",
                f"Online ISSN {values['eissn']}" if values.get("eissn") else "",
            )
            if text
        )
        editor = values.get("editor_in_chief")
        chief = (
            f'<p class="editor">Editor-in-Chief: {link(self.journal_path(index) + "/editors", str(editor))}</p>'
            if editor
            else ""
        )
        return f'<p class="ids">{ids}</p>{chief}'

    def journal_home(self, index: int) -> str:
        """Template 0: definition list, featured after; 1: the metrics link; 2: tiles, featured first."""
        journal, _ = self.values(index)
        variant = self.variant(index, 3)
        head = f"{self.heading(index, variant % 2)}{self.journal_menu(index)}{self.identity(index)}"
        if variant == 1:
            body = head + f"<p>{link(self.hop_path(index) or '', 'Journal metrics')}</p>"
        else:
            body = head + self.metrics_with_featured(index, "dl" if variant == 0 else "tiles", variant == 2)
        return self.frame(journal.title, body)

    def journal_hop(self, index: int) -> str:
        """The metrics page: a table with the featured journal's table first."""
        journal, _ = self.values(index)
        body = f"{self.heading(index, 0)}{self.metrics_with_featured(index, 'table', featured_first=True)}"
        return self.frame(f"Journal metrics | {journal.title}", body)


class CampusPressTemplates(RealWebTemplates):
    """Campus Library: short letter pages beside heavier menus, cards in ``<nav>``, topic and news cards alike."""

    brand = "Campus Library"
    hop_text = "Metrics"
    metric_names = ("impact_factor", "citescore", "sjr")

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """Listings at ``browse/<letter>`` with ``?page=N``."""
        return f"{self.root}browse/{letter.lower()}" + (f"?page={page_no}" if page_no > 1 else "")

    def hop_path(self, index: int) -> str | None:
        """Template 2 keeps its metrics on a separate page."""
        return self.journal_path(index) + "/metrics" if self.variant(index, 3) == 2 else None

    def list_form(self, letter: str) -> int:
        """How a letter's cards are wrapped: 0 a plain list, 1 ``<nav>``, 2 ``role="navigation"``."""
        return random.Random(f"list-form:{self.site.relation.seed}:{self.name}:{letter}").randrange(3)

    def card(self, href: str, text: str, meta: str = "") -> str:
        """A card: the markup of journal entries, topics and news alike."""
        extra = f' <span class="card-meta">{escape(meta)}</span>' if meta else ""
        return f'<li class="card">{link(href, text, "card-link")}{extra}</li>'

    def subject_menu(self) -> str:
        """Every subject of the world with its article count: a menu heavier than a short letter's list."""
        rng = random.Random(f"subjects:{self.site.relation.seed}:{self.name}")
        items = "".join(
            f"<li>{link(f'{self.root}subjects/{slugify(f)}', f'{f} ({rng.randint(40, 9000)} articles)')}</li>"
            for f in FIELDS
        )
        return f'<div class="col-3 subject-menu"><h3>Browse by subject</h3><ul>{items}</ul></div>'

    def sidebar(self) -> str:
        """ "Most read" and "Latest news": long link texts in a plain ``<div>``."""
        read = "".join(f"<li>{link(path, title)}</li>" for path, title in self.most_read())
        news = "".join(
            f"<li>{link(f'{self.root}news/{self.news_slug(n)}', self.news_headline(n))}</li>" for n in range(6)
        )
        return f'<div class="col-3 sidebar"><h3>Most read</h3><ol>{read}</ol><h3>Latest news</h3><ul>{news}</ul></div>'

    def topic_and_news_cards(self) -> str:
        """A "Topics" section and a "News" list of cards with the journal cards' classes."""
        topics = "".join(self.card(f"{self.root}topics/{slugify(t)}", t, "Topic") for t in self.topics()[:8])
        news = "".join(
            self.card(f"{self.root}news/{self.news_slug(n)}", self.news_headline(n), "News") for n in range(4)
        )
        return (
            f'<section class="topics"><h2>Topics</h2><ul class="card-list">{topics}</ul></section>'
            f'<section class="news"><h2>News</h2><ul class="card-list">{news}</ul></section>'
        )

    def alphabet(self, control: str = "button") -> str:
        """Letters that go to their page by script, no link: ``button`` elements whose ``onclick`` sets
        ``location.href``, or a ``select`` whose change goes to the chosen option's value."""
        if control == "select":
            options = "".join(f'<option value="{escape(self.letter_href(c))}">{escape(c)}</option>' for c in LETTERS)
            return (
                '<div class="az"><label>Journals starting with <select onchange="location.href = this.value">'
                f'<option value="">Choose a letter</option>{options}</select></label></div>'
            )
        buttons = " ".join(
            f'<button type="button" class="az-link" onclick="location.href=\'{escape(self.letter_href(c))}\'">'
            f"{escape(c)}</button>"
            for c in LETTERS
        )
        return f'<div class="az">{buttons}</div>'

    def home(self) -> str:
        """Letters, the subject menu, the sidebars and the topic and news cards; no journal."""
        main = (
            f'<div class="row">{self.subject_menu()}<div class="col-6"><h1>Journals A–Z</h1>{self.alphabet()}'
            f"{self.topic_and_news_cards()}</div>{self.sidebar()}</div>"
        )
        return self.frame("Journals A–Z", main)

    def listing(self, letter: str, page_no: int) -> Rendered:
        """A letter's page: cards wrapped by the letter's form, pagination, topics and news, heavier menus."""
        pages = self.pages_of(letter)
        if not 1 <= page_no <= len(pages):
            return None
        cards = (
            "".join(
                self.card(self.journal_path(i), self.site.relation.titles[i], "Open access" if i % 3 == 0 else "")
                for i in pages[page_no - 1]
            )
            or "<li>No journals for this letter.</li>"
        )
        form = self.list_form(letter)
        wrapped = (
            f'<ul class="card-list">{cards}</ul>',
            f'<nav class="journal-list" aria-label="Journals"><ul class="card-list">{cards}</ul></nav>',
            f'<div class="journal-list" role="navigation"><ul class="card-list">{cards}</ul></div>',
        )[form]
        hrefs = [self.letter_path(letter, p) for p in range(1, len(pages) + 1)]
        main = (
            f'<div class="row">{self.subject_menu()}<div class="col-6"><h1>Journals: {escape(letter)}</h1>'
            f"{self.alphabet('select')}{wrapped}{pagination_nav(hrefs, page_no)}{self.topic_and_news_cards()}</div>"
            f"{self.sidebar()}</div>"
        )
        return self.frame(f"Journals starting with {letter}", main)

    def route(self, path: str, query: str) -> Rendered:
        """Letter pages at ``browse/<letter>``."""
        rest = path[len(self.root) :]
        if match := re.fullmatch(r"browse/([a-z]|0-9)", rest):
            letter = match[1].upper() if match[1] != "0-9" else "0-9"
            return self.listing(letter, page_param(query))
        if rest.startswith("journals/"):
            return None
        return super().route(path, query)

    def identity(self, index: int) -> str:
        """ISSNs as a label-less pair and, when shown, the editor-in-chief."""
        _, values = self.values(index)
        pair = " / ".join(
            f"{values[n]} ({kind})" for n, kind in (("issn", "print"), ("eissn", "online")) if values.get(n)
        )
        editor = values.get("editor_in_chief")
        chief = f"<p><strong>Editor-in-Chief</strong> {escape(str(editor))}</p>" if editor else ""
        return f"<p class='ids'>ISSN {pair}</p>{chief}" if pair else chief

    def journal_home(self, index: int) -> str:
        """Template 0: a definition list, featured after; 1: a table, featured first; 2: the metrics link."""
        journal, _ = self.values(index)
        variant = self.variant(index, 3)
        head = f"{self.heading(index, 1 - variant % 2)}{self.journal_menu(index)}{self.identity(index)}"
        if variant == 2:
            body = head + f"<p>{link(self.hop_path(index) or '', 'Metrics')}: citations and usage.</p>"
        else:
            body = head + self.metrics_with_featured(index, ("dl", "table")[variant], featured_first=variant == 1)
        return self.frame(journal.title, body)

    def journal_hop(self, index: int) -> str:
        """The metrics page: value-first tiles, the featured journal's tiles after, last year's figure below."""
        journal, _ = self.values(index)
        usage = metrics_block([("Downloads", f"{self.site.rng(index, 'usage').randint(10, 900)}k")], "tiles", "usage")
        body = (
            f"{self.heading(index, 0)}{self.metrics_with_featured(index, 'tiles', featured_first=False)}{usage}"
            f"<p>Impact factor history: {METRIC_YEAR - 1}: {number(journal.previous_impact_factor)}</p>"
        )
        return self.frame(f"Metrics | {journal.title}", body)
