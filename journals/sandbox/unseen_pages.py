"""Four sandbox sites whose *journal pages* have shapes real publisher sites have (issue 23's first contact).

They were written from a description of real journal pages by someone who never read the crawler, so that their
first crawl tells whether the extraction generalises. Navigation is plain (an A–Z index with numbered pages, or one
"All journals" list with page numbers): the test is the journal pages.

- ``sidebar`` (Meridian Science): the journal home shows its metrics only in an ``<aside>`` headed "Journal
  metrics", each a tile with the value before its label ("4.117 <span>Impact Factor</span>"); a second aside,
  "Featured journal", quotes another journal's impact factor and ISSN as tiles with the same labels.
- ``prose`` (Lanternfish Academic): the "About the journal" page states the metrics in running sentences ("The
  journal's 2024 Impact Factor is 3.812.", "Its five-year Impact Factor is 4.02.", "CiteScore 2024: 6.1."), among
  sentences with other numbers (founding year, issues, acceptance rate); a fifth of the journals have no impact
  factor yet and still state their five-year figure.
- ``yeartable`` (Northgate Scholarly): an "About this journal" definition list or two-column table whose rows each
  journal may lack (print ISSN, impact factor, SJR, editor), in one of two orders, and a "Metrics" table with one
  column per year (oldest or newest first); what the site shows is the latest year's value.
- ``masthead`` (journals hosted on the Quillbase platform): the page's ``<title>`` is "Home : <name>" or "<name> -
  Current issue : January 2025 - Vol 3 No 1", the name otherwise only in the logo's ``alt`` ("<name> homepage") or
  a banner's, the visible heading sometimes the journal's abbreviation; ``DC.source`` holds the site's URL; the
  publisher is the "Publisher Name" row of a box of identifiers, while the footer names the platform's company.
"""

from __future__ import annotations

import re
from html import escape
from urllib.parse import parse_qs

from journals.sandbox.markup import link, number, page
from journals.sandbox.realweb import MONTHS, RealWebTemplates
from journals.sandbox.relation import FIELDS, LAST_NAMES, METRIC_YEAR
from journals.sandbox.site_templates import Rendered
from journals.sandbox.sources import slugify

METRIC_LABELS = (
    ("impact_factor", "Impact Factor"),
    ("five_year_impact_factor", "5-year Impact Factor"),
    ("citescore", "CiteScore"),
    ("sjr", "SJR"),
)
"""The metrics the sites show, with the labels real pages give them."""
UNIVERSITIES = ("University of Leeds", "ETH Zürich", "Kyoto University", "McGill University", "Universidad de Chile")


class UnseenTemplates(RealWebTemplates):
    """What the four sites share: the real-web chrome, an A–Z index, a news-bearing home page, shown values."""

    def shown(self, name: str, value: object) -> str:
        """A value as the site writes it: a metric with the site's decimals (CiteScore one), text escaped."""
        if isinstance(value, float):
            places = dict(self.site.spec.decimals).get(name, 1 if name == "citescore" else 3)
            return number(value, places)
        return escape(str(value))

    def home(self) -> str:
        """The start page: the A–Z bar, a welcome and the latest news."""
        news = "".join(
            f"<li>{link(f'{self.root}news/{self.news_slug(n)}', self.news_headline(n))}</li>" for n in range(5)
        )
        return self.frame(
            f"{self.brand} journals",
            f"<h1>Browse journals A–Z</h1>{self.alphabet()}<p>{escape(self.brand)} publishes peer-reviewed journals "
            f"across the sciences.</p><section class='news'><h2>Latest news</h2><ul>{news}</ul></section>",
        )

    def sister_items(self) -> str:
        """The footer's sister journals with the ISSNs the site shows for them (on a sister's own page, its footer
        must not show an ISSN its page leaves out)."""
        items = []
        for other in self.sister_indices():
            journal, values = self.values(other)
            ids = "".join(
                f" <span>{label} {values[n]}</span>"
                for n, label in (("issn", "ISSN"), ("eissn", "eISSN"))
                if values.get(n)
            )
            items.append(f"<li>{link(self.journal_path(other), journal.title)}{ids}</li>")
        return f'<ul class="sisters">{"".join(items)}</ul>'

    def footer(self) -> str:
        """Sister journals with their shown ISSNs, the copyright line."""
        return (
            f'<footer class="site-footer"><h4>Our journals</h4>{self.sister_items()}'
            f"<p>© 2026 {escape(self.brand)}. {link(self.root + 'privacy', 'Privacy')} · "
            f"{link(self.root + 'accessibility', 'Accessibility')}</p></footer>"
        )

    def founded(self, index: int) -> int:
        """The journal's founding year: a number its pages write near its metrics."""
        return self.site.rng(index, "founded").randint(1948, 2016)

    def issues_per_year(self, index: int) -> int:
        """How many issues the journal published in the metric year: another number near its metrics."""
        return self.site.rng(index, "issues").choice((4, 6, 8, 10, 12, 24))

    def latest_articles(self, index: int, count: int = 4) -> str:
        """A "Latest articles" list: long titles with page ranges and view counts."""
        rng = self.site.rng(index, "articles")
        subject = self.site.journal(index).subject
        items = []
        for _ in range(count):
            other = rng.choice(FIELDS)
            first = rng.randint(1, 400)
            headline = f"{subject} and {other}: a study of {rng.randint(12, 900)} cases"
            items.append(
                f"<li>{link(f'{self.journal_path(index)}/issue', headline)}"
                f" <span class='pages'>pp. {first}–{first + rng.randint(5, 30)}</span>"
                f" <span class='views'>{rng.randint(100, 9000)} views</span></li>"
            )
        return f"<section class='latest'><h2>Latest articles</h2><ul>{''.join(items)}</ul></section>"


# 1. Metrics only in a sidebar ----------------------------------------------------------------------------------


class SidebarTemplates(UnseenTemplates):
    """Meridian Science: metric tiles with the value first in an aside, a "Featured journal" aside beside them.

    Template 0: a ``<ul>`` of tiles, the aside after the content, then the featured one; 1: the featured aside first,
    then the content, then the metrics; 2: ``<div>`` tiles with value and label in their own ``<div>``, the metrics
    aside before the content.
    """

    brand = "Meridian Science"
    hop_text = ""

    def tiles(self, pairs: list[tuple[str, str]], form: int) -> str:
        """(value text, label) as tiles, the value before its label."""
        if form == 2:
            items = "".join(
                f'<div class="metric-tile"><div class="metric-value">{value}</div>'
                f'<div class="metric-label">{label}</div></div>'
                for value, label in pairs
            )
            return f'<div class="metric-tiles">{items}</div>'
        items = "".join(f'<li class="metric-tile">{value} <span>{label}</span></li>' for value, label in pairs)
        return f'<ul class="metric-tiles">{items}</ul>'

    def metrics_aside(self, index: int, form: int) -> str:
        """The journal's own metrics: the only place its page shows them."""
        _, values = self.values(index)
        pairs = [(self.shown(n, values[n]), label) for n, label in METRIC_LABELS if values.get(n) is not None]
        return (
            f'<aside class="sidebar journal-metrics"><h2>Journal metrics</h2>{self.tiles(pairs, form)}'
            f"<p>{link(self.journal_path(index) + '/stats', 'View all metrics')}</p></aside>"
        )

    def featured_index(self, index: int) -> int:
        """Another journal of the site that shows an impact factor and an ISSN, so that the decoy has both."""
        others = self.site.journal_indices
        start = (index * 13 + 7) % len(others)
        for step in range(len(others)):
            other = others[(start + step) % len(others)]
            _, values = self.values(other)
            if other != index and values.get("impact_factor") is not None and values.get("issn"):
                return other
        return others[start]

    def featured_aside(self, index: int, form: int) -> str:
        """Another journal's impact factor and ISSN, with the same labels: the decoy."""
        other = self.featured_index(index)
        journal, values = self.values(other)
        pairs = [
            (self.shown(n, values[n]), label)
            for n, label in (("impact_factor", "Impact Factor"), ("issn", "ISSN"))
            if values.get(n) is not None
        ]
        return (
            f'<aside class="sidebar featured-journal"><h2>Featured journal</h2>'
            f"<h3>{link(self.journal_path(other), journal.title)}</h3>{self.tiles(pairs, form)}</aside>"
        )

    def identifiers(self, index: int, form: int) -> str:
        """ISSNs: one line (0), a definition list (1), a list with the kind in brackets (2)."""
        _, values = self.values(index)
        issn, eissn = values.get("issn"), values.get("eissn")
        if form == 1:
            rows = [("ISSN", issn), ("eISSN", eissn)]
            return '<dl class="identifiers">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows if v) + "</dl>"
        if form == 2:
            rows = [("ISSN (print)", issn), ("ISSN (online)", eissn)]
            return '<ul class="identifiers">' + "".join(f"<li>{k} {v}</li>" for k, v in rows if v) + "</ul>"
        parts = [f"{k}: {v}" for k, v in (("Print ISSN", issn), ("Online ISSN", eissn)) if v]
        return f'<p class="identifiers">{" · ".join(parts)}</p>'

    def editor(self, index: int, form: int) -> str:
        """The editor-in-chief, linked (0), under a heading with an affiliation (1), or in a line (2)."""
        _, values = self.values(index)
        name = values.get("editor_in_chief")
        if not name:
            return ""
        if form == 0:
            return f"<p>Editor-in-Chief: {link(self.journal_path(index) + '/editors', str(name))}</p>"
        if form == 1:
            place = UNIVERSITIES[index % len(UNIVERSITIES)]
            return (
                f'<section class="editors"><h3>Editor-in-Chief</h3><p>{escape(str(name))}</p>'
                f'<p class="affiliation">{place}</p></section>'
            )
        return f'<p class="editor"><strong>Editor-in-Chief</strong> {escape(str(name))}</p>'

    def journal_home(self, index: int) -> str:
        """Title, identifiers, editor and articles in the content; metrics and the featured journal in asides."""
        journal, _ = self.values(index)
        form = self.variant(index, 3)
        content = (
            f'<article class="journal-home"><h1>{escape(journal.title)}</h1>{self.identifiers(index, form)}'
            f"{self.editor(index, form)}<p>{escape(journal.title)} was founded in {self.founded(index)} and "
            f"publishes {self.issues_per_year(index)} issues a year in {escape(journal.subject)}.</p>"
            f"{self.latest_articles(index)}</article>"
        )
        metrics, featured = self.metrics_aside(index, form), self.featured_aside(index, form)
        if form == 0:
            return self.frame(journal.title, content, metrics + featured)
        if form == 1:
            return self.frame(journal.title, f'<div class="columns">{featured}{content}{metrics}</div>')
        return self.frame(journal.title, f'<div class="columns">{metrics}{content}</div>', featured)


# 2. Metrics in running prose -----------------------------------------------------------------------------------


class ProseTemplates(UnseenTemplates):
    """Lanternfish Academic: metrics stated in sentences on the "About the journal" page.

    Template 0: one paragraph; 1: a paragraph per sentence under "Journal metrics", with the JCR rank and source;
    2: a "Facts and figures" list of sentences, the editor named in prose. The home page carries the ISSNs (and, on
    templates 0 and 1, the editor) with labels.
    """

    brand = "Lanternfish Academic"
    hop_text = "About the journal"

    def hop_path(self, index: int) -> str:
        """Every journal's metrics are on its about page."""
        return self.journal_path(index) + "/about"

    def journal_home(self, index: int) -> str:
        """Title, menu, labelled ISSNs and editor, a link to the about page."""
        journal, values = self.values(index)
        ids = " | ".join(
            f"{label} {values[n]}" for n, label in (("issn", "Print ISSN"), ("eissn", "Online ISSN")) if values.get(n)
        )
        editor = values.get("editor_in_chief")
        chief = f"<p>Editor-in-Chief: {escape(str(editor))}</p>" if editor and self.variant(index, 3) != 2 else ""
        body = (
            f"<h1>{escape(journal.title)}</h1>{self.journal_menu(index)}"
            f"<p>{link(self.hop_path(index), 'About the journal')}</p><p class='ids'>{ids}</p>{chief}"
            f"{self.latest_articles(index)}"
        )
        return self.frame(journal.title, body)

    def sentences(self, index: int) -> list[str]:
        """The about page's sentences, metrics among numbers that are not metrics, in the template's wording."""
        journal, values = self.values(index)
        variant = self.variant(index, 3)
        rng = self.site.rng(index, "prose")
        impact, five, cite = (values.get(n) for n in ("impact_factor", "five_year_impact_factor", "citescore"))
        accepted = values.get("acceptance_rate")
        articles = rng.randint(40, 400)
        title = escape(journal.title)
        out = [
            f"{title} was founded in {self.founded(index)} and published {self.issues_per_year(index)} issues in "
            f"{METRIC_YEAR}."
        ]
        if variant == 1:
            countries = rng.randint(20, 90)
            out.append(f"In {METRIC_YEAR} it published {articles} articles from authors in {countries} countries.")
        if impact is not None:
            source, rank = "The", ""
            if variant == 1:
                source = "According to the Journal Citation Reports (Clarivate, 2025), the"
                rank = f", ranking {rng.randint(1, 60)} of {rng.randint(61, 140)} journals in its category"
            shown = self.shown("impact_factor", impact)
            out.append(f"{source} journal's {METRIC_YEAR} Impact Factor is {shown}{rank}.")
        if five is not None:
            subject = "Its" if impact is not None else "The journal's"
            out.append(f"{subject} five-year Impact Factor is {self.shown('five_year_impact_factor', five)}.")
        if cite is not None:
            out.append(f"CiteScore {METRIC_YEAR}: {self.shown('citescore', cite)}.")
        if accepted is not None:
            out.append(f"The journal accepts {accepted}% of submissions.")
        if variant == 2 and values.get("editor_in_chief"):
            out.append(f"The journal is led by its Editor-in-Chief, {escape(str(values['editor_in_chief']))}.")
        return out

    def journal_hop(self, index: int) -> str:
        """The about page: the sentences as one paragraph, a paragraph each, or a list."""
        journal, _ = self.values(index)
        variant = self.variant(index, 3)
        sentences = self.sentences(index)
        if variant == 0:
            text = f"<p>{' '.join(sentences)}</p>"
        elif variant == 1:
            text = "<h2>Journal metrics</h2>" + "".join(f"<p>{s}</p>" for s in sentences)
        else:
            text = "<h2>Facts and figures</h2><ul>" + "".join(f"<li>{s}</li>" for s in sentences) + "</ul>"
        aims = f"<h2>Aims and scope</h2><p>{escape(journal.title)} publishes research in {escape(journal.subject)}.</p>"
        body = f"<h1>{escape(journal.title)}</h1><h2>About the journal</h2><div class='about'>{text}</div>{aims}"
        return self.frame(f"About the journal | {journal.title}", body)


# 3. Optional rows and a table of years -------------------------------------------------------------------------


class YearTableTemplates(UnseenTemplates):
    """Northgate Scholarly: one "All journals" list; facts whose rows come and go; metrics by year.

    Template 0: a definition list and the year table on the "About this journal" page; 1: a two-column table there;
    2: the definition list and the year table on the journal's home page. Row order (two orders) and column order
    (oldest or newest year first) are drawn per journal.
    """

    brand = "Northgate Scholarly"
    hop_text = "About this journal"
    YEARS = (METRIC_YEAR - 2, METRIC_YEAR - 1, METRIC_YEAR)

    def list_path(self, page_no: int) -> str:
        """The path of "All journals" page ``page_no``."""
        return f"{self.root}journals" + (f"?page={page_no}" if page_no > 1 else "")

    def list_pages(self) -> list[list[int]]:
        """Every journal, A–Z, split into pages of the site's page size."""
        indices = self.site.journal_indices
        size = self.site.spec.page_size
        return [indices[i : i + size] for i in range(0, len(indices), size)] or [[]]

    def listing_chain(self, index: int) -> list[str]:
        """The first list page, then the page holding the journal."""
        page_no = next(p for p, chunk in enumerate(self.list_pages(), start=1) if index in chunk)
        return [self.list_path(1)] + ([self.list_path(page_no)] if page_no > 1 else [])

    def home(self) -> str:
        """The start page: a link to the list and the news."""
        news = "".join(
            f"<li>{link(f'{self.root}news/{self.news_slug(n)}', self.news_headline(n))}</li>" for n in range(5)
        )
        return self.frame(
            self.brand,
            f"<h1>{escape(self.brand)}</h1><p>{link(self.list_path(1), 'All journals')}</p>"
            f"<section class='news'><h2>News</h2><ul>{news}</ul></section>",
        )

    def list_page(self, page_no: int) -> Rendered:
        """ "All journals" page ``page_no``: titles and their subject, page numbers below."""
        pages = self.list_pages()
        if not 1 <= page_no <= len(pages):
            return None
        items = "".join(
            f"<li>{link(self.journal_path(i), self.site.relation.titles[i])}"
            f" <span class='subject'>{escape(self.site.journal(i).subject)}</span></li>"
            for i in pages[page_no - 1]
        )
        numbers = " ".join(
            f"<span class='current'>{p}</span>" if p == page_no else link(self.list_path(p), str(p))
            for p in range(1, len(pages) + 1)
        )
        if page_no < len(pages):
            numbers += " " + link(self.list_path(page_no + 1), "Next")
        total = len(self.site.journal_indices)
        main = (
            f"<h1>All journals</h1><p>{total} journals</p><ul class='journal-list'>{items}</ul>"
            f"<div class='pages'>Page {numbers}</div>"
        )
        return self.frame("All journals", main)

    def route(self, path: str, query: str) -> Rendered:
        """The list at ``journals?page=N``; no letter pages."""
        rest = path[len(self.root) :]
        if rest == "":
            return self.home()
        if rest == "journals":
            value = parse_qs(query).get("page", ["1"])[0]
            return self.list_page(int(value) if value.isdigit() else 0)
        return self.route_journal(rest)

    def hop_path(self, index: int) -> str | None:
        """Templates 0 and 1 keep the facts on the about page; 2 on the home page."""
        return self.journal_path(index) + "/about" if self.variant(index, 3) != 2 else None

    def facts(self, index: int) -> str:
        """ "About this journal": the rows the journal has, in one of two orders, as a list or a table."""
        _, values = self.values(index)
        rng = self.site.rng(index, "rows")
        rows = {
            "issn": ("ISSN (print)", values.get("issn")),
            "eissn": ("ISSN (online)", values.get("eissn")),
            "impact_factor": ("Impact Factor", values.get("impact_factor")),
            "sjr": ("SJR", values.get("sjr")),
            "editor_in_chief": ("Editor-in-Chief", values.get("editor_in_chief")),
            "frequency": ("Frequency", f"{self.issues_per_year(index)} issues per year"),
            "founded": ("Founded", self.founded(index)),
        }
        order = (
            ("issn", "eissn", "editor_in_chief", "impact_factor", "sjr", "frequency", "founded")
            if rng.random() < 0.5
            else ("editor_in_chief", "founded", "frequency", "impact_factor", "sjr", "eissn", "issn")
        )
        shown = [(rows[n][0], self.shown(n, rows[n][1])) for n in order if rows[n][1] is not None]
        if self.variant(index, 3) == 1:
            cells = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in shown)
            block = f'<table class="journal-facts"><tbody>{cells}</tbody></table>'
        else:
            block = '<dl class="journal-facts">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in shown) + "</dl>"
        return f"<section><h2>About this journal</h2>{block}</section>"

    def history(self, index: int, name: str, latest: float) -> dict[int, float]:
        """A metric's value per year: the latest is the shown value, the two before differ from it."""
        journal = self.site.journal(index)
        rng = self.site.rng(index, f"history:{name}")
        places = 1 if name == "citescore" else 3
        previous = journal.previous_impact_factor if name == "impact_factor" else latest * rng.uniform(0.8, 1.2)
        earlier = previous * rng.uniform(0.8, 1.2)
        values = {METRIC_YEAR: latest}
        step = 10.0**-places
        for year, drawn in ((METRIC_YEAR - 1, previous), (METRIC_YEAR - 2, earlier)):
            value = round(drawn, places)
            while value in values.values():
                value = round(value + step, places)
            values[year] = value
        return values

    def year_table(self, index: int) -> str:
        """ "Metrics": a row per metric the journal shows, a column per year, newest first for some journals."""
        _, values = self.values(index)
        years = self.YEARS if self.site.rng(index, "columns").random() < 0.6 else tuple(reversed(self.YEARS))
        head = "<tr><th>Metric</th>" + "".join(f"<th>{y}</th>" for y in years) + "</tr>"
        rows = []
        for name, label in METRIC_LABELS:
            latest = values.get(name)
            if not isinstance(latest, float):
                continue
            history = self.history(index, name, latest)
            rows.append(f"<tr><th>{label}</th>" + "".join(f"<td>{self.shown(name, history[y])}</td>" for y in years))
        return (
            f'<section><h2>Metrics</h2><table class="metrics-by-year"><thead>{head}</thead>'
            f"<tbody>{''.join(r + '</tr>' for r in rows)}</tbody></table></section>"
        )

    def journal_home(self, index: int) -> str:
        """Title, description and the about link (templates 0, 1) or the facts and metrics (template 2)."""
        journal, _ = self.values(index)
        intro = f"<h1>{escape(journal.title)}</h1><p>An international journal of {escape(journal.subject)}.</p>"
        if hop := self.hop_path(index):
            body = f"{intro}<p>{link(hop, 'About this journal')}</p>{self.latest_articles(index)}"
        else:
            body = f"{intro}{self.facts(index)}{self.year_table(index)}{self.latest_articles(index)}"
        return self.frame(journal.title, body)

    def journal_hop(self, index: int) -> str:
        """The about page: facts, then metrics by year."""
        journal, _ = self.values(index)
        body = f"<h1>{escape(journal.title)}</h1>{self.facts(index)}{self.year_table(index)}"
        return self.frame(f"About this journal | {journal.title}", body)


# 4. Title and identity ------------------------------------------------------------------------------------------

ABBREVIATED = {
    "journal": "J.",
    "international": "Int.",
    "applied": "Appl.",
    "research": "Res.",
    "letters": "Lett.",
    "reviews": "Rev.",
    "review": "Rev.",
    "annals": "Ann.",
    "advances": "Adv.",
    "quarterly": "Q.",
    "current": "Curr.",
    "opinion": "Opin.",
    "frontiers": "Front.",
    "physical": "Phys.",
    "zeitschrift": "Z.",
}
"""ISO 4 abbreviations of the title words that have a fixed one."""
UNABBREVIATED = frozenset({"of", "and", "the", "in", "&", "für"})
"""Words an abbreviated title leaves out."""


def abbreviation(title: str) -> str:
    """A journal's abbreviated title in the ISO 4 manner: "Journal of Applied Crystallography" → "J. Appl. Cryst."."""
    words = []
    for word in title.split():
        key = word.casefold()
        if key in UNABBREVIATED:
            continue
        if key in ABBREVIATED:
            words.append(ABBREVIATED[key])
        elif len(word) > 5 and word.isalpha():
            cut = next(
                (n for n in range(3, 7) if word[n - 1].lower() not in "aeiouy" and word[n].lower() in "aeiouy"), 4
            )
            words.append(word[:cut] + ".")
        else:
            words.append(word)
    return " ".join(words)


class MastheadTemplates(UnseenTemplates):
    """Journals on the Quillbase platform: the name in ``<title>`` and image ``alt`` text, identifiers in a box.

    Template 0: "Home : <name>", the name as the heading, identifiers in a table; 1: "<name> - Current issue :
    <month> 2025 - Vol V No N", the issue as the heading and its articles, identifiers as labelled lines; 2: "Home :
    <name>", the abbreviation as the heading under a banner whose ``alt`` is the name, identifiers in a definition
    list.
    """

    brand = "Quillbase"

    def journal_path(self, index: int) -> str:
        """Each journal under ``index.php/<slug>``, as journal platforms host them."""
        return f"{self.root}index.php/{slugify(self.site.relation.titles[index])}"

    def route_journal(self, rest: str) -> Rendered:
        """Journal pages under ``index.php/<slug>``, news and topics as the other sites."""
        if match := re.fullmatch(r"index\.php/([a-z0-9-]+)", rest):
            index = self.site.by_slug.get(match[1])
            return self.journal_home(index) if index is not None else None
        if match := re.fullmatch(r"index\.php/([a-z0-9-]+)/([a-z]+)", rest):
            index = self.site.by_slug.get(match[1])
            if index is not None and match[2] in ("issue", "stats", "rss", "editors", "aims", "submit"):
                return self.sub_page(index, match[2])
            return None
        return self.route_extra(rest)

    def footer(self) -> str:
        """Sister journals with their ISSNs and the platform's copyright: a company, not the journals' publisher."""
        return (
            f'<footer class="site-footer"><h4>Journals on {self.brand}</h4>{self.sister_items()}'
            f"<p>© {escape(self.brand)} Ltd unless otherwise stated</p>"
            f"<p>{link(self.root + 'privacy', 'Privacy')} · {link(self.root + 'accessibility', 'Accessibility')}</p>"
            "</footer>"
        )

    def issue(self, index: int) -> tuple[str, str]:
        """The current issue as the ``<title>`` writes it ("January 2025 - Vol 3 No 1") and as its heading."""
        rng = self.site.rng(index, "current-issue")
        volume, issue_no, month = rng.randint(1, 40), rng.randint(1, 6), MONTHS[rng.randrange(12)]
        return f"{month} 2025 - Vol {volume} No {issue_no}", f"Vol. {volume} No. {issue_no} ({month} 2025)"

    def identity_box(self, index: int, form: int) -> str:
        """Print ISSN, Online ISSN and Publisher Name: a table (0), labelled lines (1), a definition list (2)."""
        _, values = self.values(index)
        rows = [
            (label, values.get(n))
            for n, label in (("issn", "Print ISSN"), ("eissn", "Online ISSN"), ("publisher", "Publisher Name"))
            if values.get(n)
        ]
        if form == 0:
            block = "<table>" + "".join(f"<tr><td>{k}</td><td>{escape(str(v))}</td></tr>" for k, v in rows) + "</table>"
        elif form == 1:
            block = "<p>" + "<br>".join(f"{k}: {escape(str(v))}" for k, v in rows) + "</p>"
        else:
            block = "<dl>" + "".join(f"<dt>{k}</dt><dd>{escape(str(v))}</dd>" for k, v in rows) + "</dl>"
        heading = "About this journal" if form != 1 else "About this article"
        return (
            f'<div class="block block-about"><h2 class="title">{heading}</h2><div class="content">{block}</div></div>'
        )

    def impact_block(self, index: int, form: int) -> str:
        """The impact factor where the journal shows one, worded per template."""
        _, values = self.values(index)
        impact = values.get("impact_factor")
        if impact is None:
            return ""
        text = self.shown("impact_factor", impact)
        if form == 0:
            return f'<div class="block block-impact"><p>Journal Impact Factor: {text}</p></div>'
        if form == 1:
            return (
                f'<div class="block block-impact"><p>Impact Factor ({METRIC_YEAR}): <strong>{text}</strong></p></div>'
            )
        return f'<div class="block block-impact"><h2 class="title">Impact Factor</h2><p>{text}</p></div>'

    def issue_articles(self, index: int) -> str:
        """The current issue's articles: titles, authors, pages and DOIs, numbers that are not the journal's."""
        rng = self.site.rng(index, "issue-articles")
        subject = self.site.journal(index).subject
        items = []
        for position in range(1, 6):
            first = rng.randint(1, 200)
            doi = f"10.{rng.randint(1000, 9999)}/{slugify(subject)[:6]}.{rng.randint(100, 999)}"
            anchor = link(self.journal_path(index) + "/issue", f"{subject} in practice: part {position}")
            items.append(
                f'<div class="obj_article_summary"><h3>{anchor}</h3>'
                f"<div class='authors'>{rng.choice(LAST_NAMES)}, {rng.choice(LAST_NAMES)}</div>"
                f"<div class='pages'>{first}-{first + rng.randint(4, 25)}</div><div class='doi'>DOI: {doi}</div></div>"
            )
        return '<section class="section"><h2>Articles</h2>' + "".join(items) + "</section>"

    def journal_home(self, index: int) -> str:
        """The journal's home page (templates 0, 2) or current issue (template 1) on the platform."""
        journal, _ = self.values(index)
        form = self.variant(index, 3)
        name = escape(journal.title)
        title_line, issue_heading = self.issue(index)
        if form == 1:
            title = f"{journal.title} - Current issue : {title_line}"
            main = f"<h1>Current issue</h1><h2>{issue_heading}</h2>{self.issue_articles(index)}"
        elif form == 2:
            title = f"Home : {journal.title}"
            image = f"/img/banner/{slugify(journal.title)[:40]}.jpg"
            banner = f'<div class="homepage_image"><img src="{image}" alt="{name}"></div>'
            main = (
                f"{banner}<h1>{escape(abbreviation(journal.title))}</h1><p>A peer-reviewed journal of "
                f"{escape(journal.subject)}.</p><h2>Current issue</h2><p>{issue_heading}</p>"
            )
        else:
            title = f"Home : {journal.title}"
            main = (
                f"<h1>{name}</h1><div class='additional_content'><p>{name} publishes original research in "
                f"{escape(journal.subject)} since {self.founded(index)}.</p></div>"
                f"<h2>Current issue</h2><p>{issue_heading}</p>"
            )
        side = f'<div class="sidebar">{self.identity_box(index, form)}{self.impact_block(index, form)}</div>'
        logo = (
            f'<div class="pkp_site_name"><a href="{self.journal_path(index)}" class="is_img">'
            f'<img src="/img/logo/{slugify(journal.title)[:40]}.png" alt="{name} homepage"></a></div>'
        )
        menu = "".join(
            f"<li>{link(self.journal_path(index) + '/' + p, t)}</li>"
            for p, t in (("issue", "Current"), ("issue", "Archives"), ("aims", "About"), ("submit", "Submissions"))
        )
        head = (
            f'<meta name="DC.source" content="http://{{host}}{self.root}">'
            '<meta name="generator" content="Quillbase Journals 3.3.0.8">'
        )
        body = (
            f'<header class="pkp_structure_head">{logo}<nav class="pkp_navigation_primary"><ul>{menu}</ul></nav>'
            f'<a class="platform" href="{self.root}">{self.brand}</a></header>\n'
            f'<div class="pkp_structure_content"><main class="pkp_structure_main">{main}</main>{side}</div>\n'
            f"{self.footer()}"
        )
        return page(title, body, head=head)
