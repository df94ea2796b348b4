"""The script-built sites' plain twins (``scrapy sandbox --prerendered``): the same sites rendered on the server.

Each twin serves, at the same URLs, the HTML its site's scripts would have written into the page, and loads no
script, so a crawl without a browser reads it as a browser reads the original. The benchmarks time a rendered
crawl of the scripted sites against a plain crawl of their twins (``make bench``'s ``render`` group).

- ``scriptlist``: a letter page holds its list and its pager (``static/list.js``'s markup) in ``<div id="app">``.
- ``scriptapp``: the start page holds every letter's list, one ``<section>`` per letter (what a click on each letter
  shows, and what the crawl's letter expansion keeps), under a bar of in-page links to the sections; a journal page
  holds its label/value rows (``static/journal.js``'s table) in ``<div id="root">``.

URLs, listing pages, journal pages and values are the originals', so the truth is the same in both modes.
"""

from __future__ import annotations

from html import escape

from journals.sandbox.markup import link
from journals.sandbox.scripted import ScriptAppTemplates, ScriptListTemplates
from journals.sandbox.site_templates import Rendered, SiteTemplates
from journals.sandbox.sources import LETTERS


class PrerenderedScriptListTemplates(ScriptListTemplates):
    """``scriptlist`` with each letter page's list in the served HTML."""

    def listing(self, letter: str, page_no: int) -> Rendered:
        """A letter's page of journals as ``static/list.js`` writes it: heading, list (or a line saying it is
        empty) and the pager with its "Next" link."""
        pages = self.pages_of(letter)
        if not 1 <= page_no <= len(pages):
            return None
        items = "".join(
            f'<li class="journal-item">{link(self.journal_path(i), self.site.relation.titles[i])}</li>'
            for i in pages[page_no - 1]
        )
        journals = f'<ul class="journal-list">{items}</ul>' if items else "<p>No titles for this letter.</p>"
        more = (
            f' <a href="{escape(self.letter_path(letter, page_no + 1))}" rel="next">Next</a>'
            if page_no < len(pages)
            else ""
        )
        pager = (
            f'<nav class="pager" aria-label="More journals"><span>Page {page_no} of {len(pages)} </span>{more}</nav>'
        )
        main = f'<div id="app" data-state="ready"><h1>Journals: {letter}</h1>{journals}{pager}</div>'
        return self.frame(f"Journals: {letter}", main)


class PrerenderedScriptAppTemplates(ScriptAppTemplates):
    """``scriptapp`` with every letter's list on the start page and each journal's rows on its page."""

    def letter_section(self, letter: str) -> str:
        """What a click on ``letter`` shows (``static/letters.js``'s markup), in a section of its own."""
        indices = self.site.by_letter.get(letter, [])
        heading = f"<h2>Journals starting with {letter}</h2>"
        if not indices:
            return f'<section id="letter-{letter}">{heading}<p>No journals under this letter yet.</p></section>'
        items = "".join(f"<li>{link(self.journal_path(i), self.site.relation.titles[i])}</li>" for i in indices)
        return f'<section id="letter-{letter}">{heading}<ul class="results-list">{items}</ul></section>'

    def home(self) -> str:
        """The start page: in-page letter links over every letter's section."""
        letters = " ".join(f'<a class="letter" href="#letter-{c}">{c}</a>' for c in LETTERS)
        sections = "".join(self.letter_section(c) for c in LETTERS)
        main = (
            f'<h1>Browse journals</h1><div class="letters" aria-label="Title begins with">{letters}</div>'
            f'<div id="results">{sections}</div>'
        )
        return self.frame(f"{self.brand}: browse journals", main)

    def journal_home(self, index: int) -> str:
        """The title, the tabs, and the label/value table ``static/journal.js`` writes into ``#root``."""
        rows = "".join(
            f'<tr><th scope="row">{escape(row["label"])}</th><td>{escape(row["value"])}</td></tr>'
            for row in self.metric_rows(index)
        )
        main = (
            self.journal_banner(index)
            + '<div id="root" data-state="ready"><h2>At a glance</h2>'
            + f'<table class="journal-metrics"><tbody>{rows}</tbody></table></div>'
        )
        return self.frame(self.site.journal(index).title, main)


PRERENDERED: dict[str, type[SiteTemplates]] = {
    "scriptlist": PrerenderedScriptListTemplates,
    "scriptapp": PrerenderedScriptAppTemplates,
}
"""The plain twin's templates of every script-built site, by site name."""
