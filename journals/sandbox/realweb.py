"""What real publisher sites put around their journals, for the sandbox sites built with the real web's shapes.

Issue 13: the crawler scored F1 1.0 on the sandbox and found no journal on real list pages. The sites of
:mod:`journals.sandbox.realsites` are drawn with the shapes that broke it, and this module holds the parts they
share: chrome with a mega menu and a footer of sister journals with their ISSNs; journal headings that join the
title with screen-reader and hidden spans and the current issue's date; metrics blocks (definition list, table,
value-first tiles) that a "Featured journal" box next to them repeats for another journal with the same labels; a
journal menu whose "Editors" link is followed by other menu links; and topic, news and subject pages that are
linked like journals but are not journals.
"""

from __future__ import annotations

import random
import re
from html import escape

from journals.sandbox.markup import link, number, page
from journals.sandbox.relation import FIELDS, METRIC_YEAR, drawn_fields
from journals.sandbox.site_templates import Rendered, SiteTemplates
from journals.sandbox.sources import slugify

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
NEWS_HEADLINES = (
    "{n} of our journals receive their first Journal Impact Factor in {year}",
    "Call for papers: a special issue on {f} and {g} opens for submissions",
    "Meet the new editorial board members of our {f} portfolio",
    "Open access week: all {f} articles free to read until the end of the month",
    "How peer review works at our {f} journals, explained by three handling editors",
    "Award for the best paper of the year in {g} announced at the annual meeting",
    "New metrics released: Impact Factor and CiteScore rise across {f} titles",
    "Webinar recording: publishing your {g} dataset alongside your article",
)
ARTICLE_TITLES = (
    "A randomised comparison of {f} interventions in a multicentre cohort of {n} participants",
    "Long-term trends in {f}: evidence from four decades of observations in {g}",
    "Machine learning for {f}: a systematic review and meta-analysis of {n} studies",
    "The role of {g} in {f}: mechanisms, open questions and a research agenda",
    "Reproducibility of {f} measurements across {n} laboratories: a registered report",
)
SUB_PAGES = ("issue", "stats", "rss", "editors", "aims", "submit")
"""Pages every journal of a real-web site links besides its home and metrics pages; none of them is a journal."""
METRIC_LABELS = {
    "impact_factor": "Impact Factor",
    "five_year_impact_factor": "5-Year Impact Factor",
    "citescore": "CiteScore",
    "sjr": "SJR",
    "issn": "ISSN",
    "eissn": "eISSN",
}


def shown_text(name: str, value: object) -> str:
    """A value as the metrics blocks write it: three decimals, CiteScore one, ``–`` when absent."""
    if value is None:
        return "–"
    if name == "citescore":
        return number(value, 1)  # type: ignore[arg-type]
    if isinstance(value, float):
        return number(value)
    return escape(str(value))


def metrics_block(rows: list[tuple[str, str]], style: str, css: str) -> str:
    """Label/value rows as a definition list, a table, or tiles with the value before the label."""
    if style == "dl":
        return f'<dl class="{css}">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows) + "</dl>"
    if style == "table":
        body = "".join(f"<tr><th scope='row'>{k}</th><td>{v}</td></tr>" for k, v in rows)
        return f'<table class="{css}"><tbody>{body}</tbody></table>'
    tiles = "".join(
        f'<div class="tile"><span class="value">{v}</span> <span class="label">{k}</span></div>' for k, v in rows
    )
    return f'<div class="{css} tiles">{tiles}</div>'


class RealWebTemplates(SiteTemplates):
    """The parts every real-web site shares; subclasses choose the listings and the journal templates."""

    brand = "Portal"
    """The platform's name, in the header, the footer's copyright line and hidden heading spans: a hosting
    platform's brand (like "ScienceDirect"), no organisation, so the journals' publisher is not shown."""
    metric_names: tuple[str, ...] = ("impact_factor", "citescore")
    """The metrics a journal page's block shows, in order (the featured box repeats them for another journal)."""

    # Chrome -------------------------------------------------------------------------------------------------------
    def frame(self, title: str, main: str, aside: str = "") -> str:
        """A header with a mega menu, the main content, an aside, and a footer of sister journals with ISSNs."""
        menu = "".join(
            f"<li>{link(self.root + path, text)}</li>"
            for path, text in (
                ("", "Journals"),
                ("topics/" + slugify(self.topics()[0]), "Topics"),
                ("authors", "For authors"),
                ("reviewers", "For reviewers"),
                ("news/" + self.news_slug(0), "News"),
                ("about", "About"),
            )
        )
        return page(
            f"{title} | {self.brand}",
            f'<header class="site-header"><a class="brand" href="{self.root}">{escape(self.brand)}</a>'
            f'<nav class="mega-menu"><ul>{menu}</ul></nav>'
            f'<form action="{self.root}search"><input name="q" placeholder="Search articles"></form></header>\n'
            f"<main>{main}</main>\n{aside}\n{self.footer()}",
        )

    def sister_indices(self) -> list[int]:
        """The site's flagship journals, listed in every page's footer."""
        indices = self.site.journal_indices
        rng = random.Random(f"sisters:{self.site.relation.seed}:{self.name}")
        return rng.sample(indices, min(6, len(indices)))

    def footer(self) -> str:
        """Sister journals with their ISSNs, as real footers list them."""
        items = []
        for other in self.sister_indices():
            journal = self.site.journal(other)
            items.append(
                f"<li>{link(self.journal_path(other), journal.title)} <span>ISSN {journal.issn}</span>"
                f" <span>eISSN {journal.eissn}</span></li>"
            )
        return (
            f'<footer class="site-footer"><h4>Our journals</h4><ul class="sisters">{"".join(items)}</ul>'
            f"<p>© 2026 {escape(self.brand)}. {link(self.root + 'privacy', 'Privacy')} · "
            f"{link(self.root + 'accessibility', 'Accessibility')}</p></footer>"
        )

    # Pages that look like journals' and are not ---------------------------------------------------------------
    def topics(self) -> list[str]:
        """The site's topic names (fields of the world), a fixed draw per seed."""
        return drawn_fields("topics", self.site.relation.seed, self.name)

    def news_slug(self, number_: int) -> str:
        """The slug of the site's ``number_``-th news item."""
        return f"{number_ + 1}-" + slugify(self.news_headline(number_))[:60].strip("-")

    def news_headline(self, number_: int) -> str:
        """The headline of the site's ``number_``-th news item."""
        rng = random.Random(f"news:{self.site.relation.seed}:{self.name}:{number_}")
        f, g = rng.sample(FIELDS, 2)
        pattern = NEWS_HEADLINES[(number_ + len(self.name)) % len(NEWS_HEADLINES)]
        return pattern.format(n=rng.randint(3, 14), year=METRIC_YEAR, f=f, g=g)

    def most_read(self, count: int = 10) -> list[tuple[str, str]]:
        """(path, title) of the "Most read" articles: long titles, many links."""
        rng = random.Random(f"most-read:{self.site.relation.seed}:{self.name}")
        articles = []
        for number_ in range(count):
            f, g = rng.sample(FIELDS, 2)
            title = ARTICLE_TITLES[number_ % len(ARTICLE_TITLES)].format(f=f, g=g, n=rng.randint(40, 4000))
            articles.append((f"{self.root}news/{number_ + 100}-{slugify(title)[:50].strip('-')}", title))
        return articles

    def info_page(self, heading: str, paragraphs: list[str]) -> str:
        """A page of prose under a heading: topics, news, journal sub-pages."""
        text = "".join(f"<p>{escape(p)}</p>" for p in paragraphs)
        return self.frame(heading, f"<article><h1>{escape(heading)}</h1>{text}</article>")

    def topic_page(self, slug: str) -> Rendered:
        """A topic (or subject) page: an overview, no journal."""
        names = {slugify(t): t for t in (*self.topics(), *FIELDS)}
        if slug not in names:
            return None
        name = names[slug]
        return self.info_page(
            name,
            [
                f"{name} brings together research from across our portfolio.",
                f"Explore collections, special issues and the most cited {name.lower()} papers of {METRIC_YEAR}.",
            ],
        )

    def news_page(self, slug: str) -> Rendered:
        """A news item: a headline and prose quoting figures, no journal."""
        number_ = int(slug.split("-", 1)[0]) - 1 if slug.split("-", 1)[0].isdigit() else -1
        if 0 <= number_ < 12 and slug == self.news_slug(number_):
            headline = self.news_headline(number_)
        elif number_ >= 99 and (match := [t for p, t in self.most_read() if p.endswith("/" + slug)]):
            headline = match[0]
        else:
            return None
        other = self.site.journal(self.site.journal_indices[(number_ * 5 + 1) % len(self.site.journal_indices)])
        return self.info_page(
            headline,
            [
                f"Published 12 {MONTHS[number_ % 12]} 2026.",
                f"{other.title} now has an Impact Factor of {number(other.impact_factor)} (ISSN {other.issn}).",
            ],
        )

    # Journal pages ----------------------------------------------------------------------------------------------
    def issue_label(self, index: int) -> str:
        """The journal's current issue, as headings and listings write it."""
        rng = self.site.rng(index, "issue")
        return f"Volume {rng.randint(1, 60)}, Issue {rng.randint(1, 12)} ({MONTHS[rng.randrange(12)]} 2026)"

    def heading(self, index: int, form: int) -> str:
        """The journal's ``<h1>``: its title joined with hidden spans and the current issue's date."""
        title = escape(self.site.relation.titles[index])
        issue = self.issue_label(index)
        if form == 0:
            return (
                f'<h1 class="journal-title">{title}<span class="sr-only"> journal home page</span>'
                f'<span style="display:none">{escape(self.brand)}</span> '
                f'<span class="current-issue">{issue}</span></h1>'
            )
        return (
            f'<h1><span class="sr-only">Journal: </span>{title}<span style="display:none"> | Open access</span>'
            f"<br><small>Current issue: {issue}</small></h1>"
        )

    def journal_menu(self, index: int) -> str:
        """The journal's menu: "Editors" followed by other menu links."""
        base = self.journal_path(index)
        items = (
            ("editors", "Editors"),
            ("aims", "Aims and scope"),
            ("submit", "Submit an article"),
            ("issue", "Current issue"),
            ("stats", "Journal statistics"),
        )
        return '<ul class="journal-menu">' + "".join(f"<li>{link(f'{base}/{p}', t)}</li>" for p, t in items) + "</ul>"

    def metric_rows(self, values: dict[str, object]) -> list[tuple[str, str]]:
        """(label, shown text) of :attr:`metric_names` and ISSN, the same for the journal and the featured box."""
        return [(METRIC_LABELS[n], shown_text(n, values.get(n))) for n in (*self.metric_names, "issn")]

    def featured_index(self, index: int) -> int:
        """Another journal of the site, featured next to this one's metrics."""
        others = self.site.journal_indices
        other = others[(index * 13 + 7) % len(others)]
        return others[(index * 13 + 8) % len(others)] if other == index else other

    def metrics_with_featured(self, index: int, style: str, featured_first: bool) -> str:
        """The journal's metrics block and, beside it, a featured journal's block with the same labels."""
        _, values = self.values(index)
        own_block = metrics_block(self.metric_rows(values), style, "metrics")
        own = f'<section class="journal-metrics"><h2>Journal metrics</h2>{own_block}</section>'
        other = self.featured_index(index)
        other_journal = self.site.journal(other)
        other_values = {n: getattr(other_journal, n, None) for n in (*self.metric_names, "issn")}
        featured = (
            f'<section class="featured-journal"><h2>Featured journal</h2>'
            f"<h3>{link(self.journal_path(other), other_journal.title)}</h3>"
            f"{metrics_block(self.metric_rows(other_values), style, 'metrics')}</section>"
        )
        blocks = (featured, own) if featured_first else (own, featured)
        return f'<div class="metrics-row">{"".join(blocks)}</div>'

    def sub_page(self, index: int, name: str) -> Rendered:
        """A journal's page that is not its home or metrics page: editors, aims, issue, stats, RSS, submit."""
        title = self.site.relation.titles[index]
        texts = {
            "issue": [f"{title}: {self.issue_label(index)}.", "Editorial", "Research articles", "Reviews"],
            "stats": [f"Usage of {title} in 2026: downloads, views and citations by month."],
            "rss": [f"Subscribe to the RSS feed of {title} to hear of new articles."],
            "editors": ["Editorial board", *(f"Associate editor {i}" for i in range(1, 4))],
            "aims": [f"{title} publishes original research, reviews and letters."],
            "submit": ["Submissions are made through our online system."],
        }
        return self.info_page(f"{title}: {name}", texts[name])

    # Routing ----------------------------------------------------------------------------------------------------
    def route_extra(self, rest: str) -> Rendered:
        """Topic, subject and news pages, journal sub-pages; None when ``rest`` is none of them."""
        if match := re.fullmatch(r"(?:topics|subjects)/([a-z0-9-]+)", rest):
            return self.topic_page(match[1])
        if match := re.fullmatch(r"news/([a-z0-9-]+)", rest):
            return self.news_page(match[1])
        match = re.fullmatch(r"journal/([a-z0-9-]+)/([a-z]+)", rest)
        if match and match[1] in self.site.by_slug and match[2] in SUB_PAGES:
            return self.sub_page(self.site.by_slug[match[1]], match[2])
        return None

    def route_journal(self, rest: str) -> Rendered:
        """Journal home and metrics pages, then the pages that are not journals."""
        rendered = super().route_journal(rest)
        if rendered is None:
            return self.route_extra(rest)
        return rendered
