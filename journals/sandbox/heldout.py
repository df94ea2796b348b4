"""A held-out site: built like the others, with markup and wording the extraction was never developed against.

"Lumen Academic" has no ``<main>``: its title sits in a masthead, its facts in a two-column table of
``<td>`` cells, a ``<ul>`` of key figures with the figure first, or a paragraph of prose; a "More from
Lumen" box after the content quotes another journal's figures; JSON-LD names the periodical on one template.
Used to measure how the heuristics generalise (issue 3): do not tune the extraction to it.
"""

from __future__ import annotations

import json
from html import escape

from journals.sandbox.markup import link, number, page
from journals.sandbox.relation import METRIC_YEAR
from journals.sandbox.site_templates import SiteTemplates


class HeldoutTemplates(SiteTemplates):
    """Lumen Academic: ``journals/<letter>?page=N`` listings, ``journal/<slug>`` pages, three templates."""

    hop_text = ""

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """Listings at ``journals/<letter>`` with ``?page=N``."""
        return f"{self.root}journals/{letter.lower()}" + (f"?page={page_no}" if page_no > 1 else "")

    def frame(self, title: str, main: str, aside: str = "") -> str:
        """Lumen's chrome: a top bar, no ``<main>`` element, the "more" box inside the page wrapper."""
        return page(
            f"{title} — Lumen Academic",
            f'<div class="topbar"><span>Lumen Academic</span> {link(self.root, "Journals")}</div>\n'
            f'<div id="wrapper"><div class="col-content">{main}</div>{aside}</div>\n'
            '<div class="legal">Lumen Academic Ltd · Terms · Accessibility</div>',
        )

    def more_box(self, index: int) -> str:
        """Another journal's figures, after the content."""
        others = self.site.journal_indices
        other = others[(index * 11 + 5) % len(others)]
        if other == index:
            other = others[(index * 11 + 6) % len(others)]
        journal = self.site.journal(other)
        return (
            f'<div class="more-from-lumen"><h4>More from Lumen</h4>{link(self.journal_path(other), journal.title)}'
            f"<div>Impact factor {number(journal.impact_factor)}</div><div>ISSN {journal.issn}</div></div>"
        )

    def journal_home(self, index: int) -> str:
        """Template 0: a facts table; 1: key figures with the figure first; 2: prose and JSON-LD."""
        journal, v = self.values(index)
        variant = self.variant(index, 3)
        masthead = f'<div class="masthead"><h1>{escape(journal.title)}</h1><p>A Lumen journal</p></div>'
        editor = escape(str(v.get("editor_in_chief") or "")) or "Vacant"
        if variant == 0:
            rows = [
                ("ISSN (print)", v.get("issn") or "—"),
                ("ISSN (online)", v.get("eissn") or "—"),
                ("Journal Impact Factor", number(v.get("impact_factor"))),
                ("CiteScore", number(v.get("citescore"), 1)),
                ("Editor-in-chief", editor),
            ]
            cells = "".join(f'<tr><td class="k">{k}</td><td class="v">{val}</td></tr>' for k, val in rows)
            body = f'{masthead}<table class="facts">{cells}</table>'
        elif variant == 1:
            figures = "".join(
                f'<li><span class="fig">{val}</span><span class="cap">{k}</span></li>'
                for val, k in (
                    (number(v.get("impact_factor")), f"Impact Factor ({METRIC_YEAR})"),
                    (number(v.get("citescore"), 1), "CiteScore"),
                )
            )
            ids = " · ".join(
                x
                for x in (f"ISSN {v['issn']}" if v.get("issn") else "", f"eISSN {v['eissn']}" if v.get("eissn") else "")
                if x
            )
            body = (
                f'{masthead}<ul class="key-figures">{figures}</ul><p class="ids">{ids}</p>'
                f"<p>Editor-in-chief: {editor}</p>"
            )
        else:
            sentences = []
            if v.get("impact_factor") is not None:
                sentences.append(
                    f"In {METRIC_YEAR} the journal received an Impact Factor of {number(v['impact_factor'])}."
                )
            if v.get("citescore") is not None:
                sentences.append(f"Its CiteScore is {number(v['citescore'], 1)}.")
            issns = [v[k] for k in ("issn", "eissn") if v.get(k)]
            ld = {"@context": "https://schema.org", "@type": "Periodical", "name": journal.title, "issn": issns}
            script = f'<script type="application/ld+json">{json.dumps(ld)}</script>'
            body = (
                f"{masthead}{script}<div class='about-text'><p>{' '.join(sentences)}</p>"
                f"<p>Print ISSN {v.get('issn') or 'n/a'}, Online ISSN {v.get('eissn') or 'n/a'}.</p>"
                f"<p>Chief Editor: {editor}</p></div>"
            )
        return self.frame(journal.title, body, self.more_box(index))
