"""The pages of the traps world's sites (:mod:`journals.sandbox.traps`): Springer's markup, one trap each.

Each site lists its real journals with the Springer site's markup (letters, article cards, a journal page with a
"Journal metrics" hop), so the spider reads it as any sandbox site, and sets one trap:

- ``escape``: listing entries that answer 302 to the outside listener (:mod:`journals.sandbox.outside`) or to
  ``localhost`` on the same port, a journal page with a ``<meta http-equiv="refresh">`` to the outside, an entry
  and an A–Z letter linking the outside directly, a real journal whose metrics hop leaves the site, and one whose
  metrics page answers 302 to the outside (the journal must still be stored, from its own page);
- ``endless-next``: one letter's "Next" pages never end, each listing new made-up journals; another letter's
  "Next" pages cycle through its real pages forever;
- ``session-id``: every link of every page carries a session id (``;jsessionid=`` in the path, ``?sid=``, or
  both), fresh on every response: the URL space never ends though the site is small;
- ``calendar``: every listing page has an events calendar whose "Next month ›" reaches the same listing under a
  new ``?month=`` forever;
- ``nested-letters``: one letter's sub-letter bar links relatively (``a/``, ``b/``), so every sub-letter page
  links two deeper ones forever, each listing made-up journals.

Made-up journals (titles ending ``Series <ID>``) are rendered from their id alone, so a site needs no list of
them; they are never in the truth.
"""

from __future__ import annotations

import calendar
import dataclasses
import itertools
import random
import re
import zlib
from functools import cached_property
from html import escape
from typing import Any
from urllib.parse import parse_qs

from journals.sandbox.markup import link
from journals.sandbox.relation import FIELDS, SandboxJournal, make_issn
from journals.sandbox.site_templates import Rendered, SpringerTemplates
from journals.sandbox.sources import LETTERS, Site, slugify
from journals.sandbox.web import WebResponse

MADE_UP_BASE = 10_000_000
"""Made-up journals get indices from here on, far beyond any relation."""
MADE_UP_PER_PAGE = 3
ENDLESS_PAGE_SIZE = 2
"""The endless-next site pages its letters by two journals, so its trap letters have real pagination too."""
NESTED_SUB_LETTERS = ("a", "b")
"""The sub-letters of the nested-letters trap: two, so the trap branches without exploding a bounded crawl."""
CALENDAR_START = (2026, 12)
LETTER_WORDS = dict(
    zip(
        LETTERS,
        (
            "Annals", "Bulletin", "Chronicle", "Digest", "Echoes", "Frontiers", "Gazette", "Horizons", "Insights",
            "Journal", "Kompass", "Letters", "Monographs", "Notes", "Observations", "Proceedings", "Quarterly",
            "Reports", "Studies", "Transactions", "Updates", "Views", "Works", "Xenia", "Yearbook", "Zeitschrift",
            "3D Annals",
        ),
        strict=True,
    )
)
"""The first word of a made-up journal listed under each letter: made-up entries start with their page's letter,
as real ones do, so the spider takes them for the list."""


def made_up_title(seed: int, ident: str) -> str:
    """The title of made-up journal ``ident`` (``[a-z0-9-]+``; its first character is its letter)."""
    letter = "0-9" if ident[0].isdigit() else ident[0].upper()
    field = random.Random(f"made-up:{seed}:{ident}").choice(FIELDS)
    return f"{LETTER_WORDS[letter]} of {field}, Series {ident.upper()}"


def made_up_ident(slug: str) -> str | None:
    """The made-up journal id a journal slug ends with (``…-series-<id>``), None for any other slug."""
    head, found, ident = slug.rpartition("-series-")
    return ident if found and head and re.fullmatch(r"[a-z0-9][a-z0-9-]*", ident) else None


def letter_code(letter: str) -> str:
    """A letter as made-up ids and paths write it: ``a``; ``0`` for ``0-9``."""
    return "0" if letter == "0-9" else letter.lower()


class TrapTemplates(SpringerTemplates):
    """Springer's markup over a trap site, with made-up journals beside the real ones.

    Letters without journals are greyed out, not linked, as many real A–Z bars do: a trap site links only its
    few letters, so one crawl of every trap site stays short.
    """

    def __init__(self, site: Site, outside_url: str) -> None:
        super().__init__(site)
        self.outside_url = outside_url
        self._made_up: dict[int, str] = {}

    # Journals, real and made up -----------------------------------------------------------------------------------
    @cached_property
    def busiest_letters(self) -> list[str]:
        """The site's letters, those with the most journals first (A–Z among equals, ``0-9`` last): where its
        traps go."""
        by_letter = self.site.by_letter
        return sorted(by_letter, key=lambda letter: (-len(by_letter[letter]), letter == "0-9", letter))

    def made_up_index(self, ident: str) -> int:
        """The index standing for made-up journal ``ident`` (remembered, so its pages can be rendered)."""
        index = MADE_UP_BASE + zlib.crc32(ident.encode())
        self._made_up[index] = ident
        return index

    def title_of(self, index: int) -> str:
        """A journal's title, real or made up."""
        if index in self._made_up:
            return made_up_title(self.site.relation.seed, self._made_up[index])
        return self.site.relation.titles[index]

    def values(self, index: int) -> tuple[SandboxJournal, dict[str, object]]:
        """A real journal's values; a made-up one borrows a real journal's figures under its own title and ISSNs."""
        if index not in self._made_up:
            return super().values(index)
        relation = self.site.relation
        number = zlib.crc32(self._made_up[index].encode())
        journal = dataclasses.replace(
            relation.journal(number % len(relation)),
            index=index,
            title=self.title_of(index),
            issn=make_issn(number % 5_000_000),
            eissn=make_issn(5_000_000 + number % 5_000_000),
        )
        return journal, self.site.shown_values(journal)

    def journal_path(self, index: int) -> str:
        """``journal/<slug>`` for real and made-up journals alike."""
        return f"{self.root}journal/{slugify(self.title_of(index))}"

    def index_of(self, slug: str) -> int | None:
        """The journal a slug names: a real one, or a made-up one whose title gives back the slug."""
        if slug in self.site.by_slug:
            return self.site.by_slug[slug]
        ident = made_up_ident(slug)
        if ident is None or slugify(made_up_title(self.site.relation.seed, ident)) != slug:
            return None
        return self.made_up_index(ident)

    # Pages --------------------------------------------------------------------------------------------------------
    def alphabet(self) -> str:
        """The A–Z bar: the site's letters linked, the others greyed out."""
        cells = [self.letter_cell(letter) for letter in LETTERS]
        return '<div class="az">' + " ".join(cells) + "</div>"

    def letter_cell(self, letter: str) -> str:
        """One letter of the A–Z bar."""
        if letter in self.site.by_letter:
            return link(self.letter_href(letter), letter)
        return f'<span class="off">{escape(letter)}</span>'

    def entry(self, index: int) -> str:
        """An article card, as Springer's."""
        return f'<article class="c-card"><h2>{link(self.journal_path(index), self.title_of(index))}</h2></article>'

    def made_up_entries(self, idents: list[str]) -> str:
        """Cards of made-up journals."""
        return "".join(self.entry(self.made_up_index(ident)) for ident in idents)

    def listing_page(self, heading: str, entries: str, pagination: str = "", extra: str = "") -> str:
        """A listing page under ``heading`` (a letter, or a sub-letter's prefix): the A–Z bar, ``extra`` (a
        sub-letter bar, a calendar), the entries and the pagination."""
        main = (
            f"<h1>Journals: {escape(heading)}</h1>{self.alphabet()}{extra}<div class='journals'>"
            f"{entries or '<p>No titles for this letter.</p>'}</div>{pagination}"
        )
        return self.frame(f"Journals starting with {heading}", main)

    def listing(self, letter: str, page_no: int, extra: str = "") -> Rendered:
        """A letter's real listing page, ``extra`` above its entries (a sub-letter bar, a calendar)."""
        pages = self.pages_of(letter)
        if not 1 <= page_no <= len(pages):
            return None
        entries = "".join(self.entry(i) for i in pages[page_no - 1]) + self.extra_entries(letter, page_no)
        return self.listing_page(letter, entries, self.pagination(letter, page_no, len(pages)), extra)

    def extra_entries(self, letter: str, page_no: int) -> str:
        """Cards a trap adds after a real listing page's entries."""
        return ""

    def route_journal(self, rest: str) -> Rendered:
        """``journal/<slug>`` and ``journal/<slug>/metrics``, real or made up."""
        match = re.fullmatch(r"journal/([a-z0-9-]+)(/metrics)?", rest)
        index = self.index_of(match[1]) if match else None
        if match is None or index is None:
            return None
        return self.journal_hop(index) if match[2] else self.journal_home(index)

    def answer(self, path: str, query: str, host: str) -> WebResponse | None:
        """A response that is not a page (a redirect off the site), before routing; None for a page."""
        return None

    def trap_facts(self, base_url: str) -> dict[str, Any]:
        """What the truth says of this site's trap (which letters, which URLs)."""
        return {}


class EscapeTemplates(TrapTemplates):
    """Links and redirects that leave the site, beside real journals that stay on it."""

    @cached_property
    def trap_letter(self) -> str:
        """The letter whose listing carries the escaping entries."""
        return self.busiest_letters[0]

    @cached_property
    def outside_letter(self) -> str:
        """A letter without journals here, linked to the outside listener."""
        return next(letter for letter in LETTERS if letter not in self.site.by_letter and letter != "0-9")

    @cached_property
    def outside_hop_index(self) -> int:
        """The real journal whose "Journal metrics" link goes to the outside listener."""
        return self.site.journal_indices[1]

    @cached_property
    def redirected_hop_index(self) -> int:
        """The real journal whose on-site metrics page answers 302 to the outside listener."""
        return self.site.journal_indices[2]

    def ident(self, how: str) -> str:
        """The made-up journal of one escaping entry: ``redirect``, ``localhost``, ``refresh`` or ``outside``."""
        return f"{self.trap_letter[0].lower()}-{how}"

    def outside_journal_url(self, index: int) -> str:
        """A journal's page as the outside listener serves it."""
        return f"{self.outside_url}/journal/{slugify(self.title_of(index))}"

    def letter_cell(self, letter: str) -> str:
        """The outside letter links the outside listener's listing."""
        if letter == self.outside_letter:
            return link(f"{self.outside_url}/journals/{letter.lower()}", letter)
        return super().letter_cell(letter)

    def hop_path(self, index: int) -> str | None:
        """No on-site metrics page for the journals whose hop leaves the site (by its link or by a 302)."""
        return None if index in (self.outside_hop_index, self.redirected_hop_index) else super().hop_path(index)

    def metrics_href(self, index: int) -> str:
        """The outside hop journal's metrics link goes to the outside listener."""
        if index == self.outside_hop_index:
            return self.outside_journal_url(index) + "/metrics"
        return super().metrics_href(index)

    def extra_entries(self, letter: str, page_no: int) -> str:
        """The trap letter's first page also lists the four escaping entries, the last linking the outside."""
        if letter != self.trap_letter or page_no != 1:
            return ""
        cards = self.made_up_entries([self.ident(how) for how in ("redirect", "localhost", "refresh")])
        outside = self.made_up_index(self.ident("outside"))
        anchor = link(self.outside_journal_url(outside), self.title_of(outside))
        return cards + f'<article class="c-card"><h2>{anchor}</h2></article>'

    def answer(self, path: str, query: str, host: str) -> WebResponse | None:
        """The redirecting entries: 302 to the outside listener, 302 to ``localhost`` on the same port; and the
        metrics page that redirects to the outside listener."""
        port = host.rpartition(":")[2]
        if path == self.metrics_href(self.redirected_hop_index):
            return WebResponse(302, headers={"Location": self.outside_journal_url(self.redirected_hop_index) + "/m"})
        redirect = self.journal_path(self.made_up_index(self.ident("redirect")))
        localhost = self.journal_path(self.made_up_index(self.ident("localhost")))
        if path == redirect:
            return WebResponse(302, headers={"Location": f"{self.outside_url}/journal/{redirect.rpartition('/')[2]}"})
        if path == localhost:
            moved = f"{self.root}moved/{localhost.rpartition('/')[2]}"
            return WebResponse(302, headers={"Location": f"http://localhost:{port}{moved}"})
        return None

    def route_journal(self, rest: str) -> Rendered:
        """The meta-refresh journal page, the page the ``localhost`` redirect leads to, then the journals."""
        refresh = self.made_up_index(self.ident("refresh"))
        if rest == self.journal_path(refresh)[len(self.root) :]:
            target = self.outside_journal_url(refresh)
            return (
                f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><meta http-equiv="refresh" '
                f'content="0;url={escape(target)}"><title>{escape(self.title_of(refresh))}</title></head>'
                f"<body><p>This journal has moved to {link(target, 'its new home')}.</p></body></html>\n"
            )
        if match := re.fullmatch(r"moved/([a-z0-9-]+)", rest):
            index = self.index_of(match[1])
            return self.journal_home(index) if index is not None else None
        return super().route_journal(rest)

    def trap_facts(self, base_url: str) -> dict[str, Any]:
        """The escaping entries, letter and hop."""
        return {
            "letter": self.trap_letter,
            "outside_letter": self.outside_letter,
            "outside_hop_journal": base_url + self.journal_path(self.outside_hop_index),
            "redirected_hop_journal": base_url + self.journal_path(self.redirected_hop_index),
            "escaping_entries": [
                base_url + self.journal_path(self.made_up_index(self.ident(how)))
                for how in ("redirect", "localhost", "refresh")
            ]
            + [self.outside_journal_url(self.made_up_index(self.ident("outside")))],
        }


class EndlessNextTemplates(TrapTemplates):
    """A letter whose "Next" pages never end, listing new made-up journals; another whose "Next" pages cycle
    through its real pages forever."""

    @cached_property
    def endless_letter(self) -> str:
        """The letter whose pages go on with made-up journals after its real ones."""
        return self.busiest_letters[0]

    @cached_property
    def repeat_letter(self) -> str:
        """The letter whose pages go on repeating its real ones."""
        return self.busiest_letters[1]

    def listing(self, letter: str, page_no: int) -> Rendered:
        """Past its real pages, the endless letter lists made-up journals and the repeating one its real pages
        again; both always link a next page."""
        if letter not in (self.endless_letter, self.repeat_letter) or page_no < 1:
            return super().listing(letter, page_no)
        real = self.pages_of(letter)
        if page_no <= len(real):
            entries = "".join(self.entry(i) for i in real[page_no - 1])
        elif letter == self.endless_letter:
            code = letter_code(letter)
            entries = self.made_up_entries([f"{code}-p{page_no}-{k}" for k in range(1, MADE_UP_PER_PAGE + 1)])
        else:
            entries = "".join(self.entry(i) for i in real[(page_no - 1) % len(real)])
        numbers = [
            link(self.letter_href(letter, p), str(p)) if p != page_no else f"<b>{p}</b>"
            for p in range(max(1, page_no - 2), page_no + 3)
        ]
        pagination = " ".join([*numbers, link(self.letter_href(letter, page_no + 1), "Next ›")])
        return self.listing_page(letter, entries, f'<div class="pagination">{pagination}</div>')

    def trap_facts(self, base_url: str) -> dict[str, Any]:
        """The two letters and how many real pages each has."""
        return {
            "endless_letter": self.endless_letter,
            "endless_letter_url": base_url + self.letter_path(self.endless_letter),
            "endless_real_pages": len(self.pages_of(self.endless_letter)),
            "repeat_letter": self.repeat_letter,
            "repeat_letter_url": base_url + self.letter_path(self.repeat_letter),
            "repeat_real_pages": len(self.pages_of(self.repeat_letter)),
        }


JSESSIONID = re.compile(r";jsessionid=[^/?;]*", re.IGNORECASE)
SESSION_HREF = re.compile(r'href="(/[^"?]*)(\?[^"]*)?"')


class SessionIdTemplates(TrapTemplates):
    """Every on-site link carries a session id, new on every response: letters ``;jsessionid=`` in the path,
    journals ``?sid=``, every other link (pages, metrics, chrome) both. The site ignores both when routing."""

    def __init__(self, site: Site, outside_url: str) -> None:
        super().__init__(site, outside_url)
        self._sessions = itertools.count(1)  # next() on it is atomic under the GIL: the server's threads share it

    def route(self, path: str, query: str) -> Rendered:
        """The page without its session, its links with a new one."""
        kept = "&".join(pair for pair in query.split("&") if pair and not pair.lower().startswith("sid="))
        rendered = super().route(JSESSIONID.sub("", path), kept)
        return self.with_session(rendered) if isinstance(rendered, str) else rendered

    def new_session(self) -> str:
        """A session id never handed out before by this site."""
        number = next(self._sessions)
        return f"{zlib.crc32(f'{self.site.relation.seed}:{number}'.encode()):08X}{number:08X}"

    def with_session(self, page_html: str) -> str:
        """``page_html`` with one new session id in each of its on-site links."""
        session = self.new_session()
        letter_page = re.compile(re.escape(self.root) + r"journals/[a-z0]")
        journal_page = re.compile(re.escape(self.root) + r"journal/[a-z0-9-]+")

        def rewrite(match: re.Match[str]) -> str:
            path, query = match[1], match[2] or ""
            if not path.startswith(self.root):
                return match[0]
            in_path = not (journal_page.fullmatch(path) and not query)
            in_query = not (letter_page.fullmatch(path) and not query)
            if in_path:
                path += f";jsessionid={session}"
            if in_query:
                query += f"&amp;sid={session}" if query else f"?sid={session}"
            return f'href="{path}{query}"'

        return SESSION_HREF.sub(rewrite, page_html)


class CalendarTemplates(TrapTemplates):
    """Every listing page carries an events calendar whose "Next month ›" shows the same listing a month on."""

    def route(self, path: str, query: str) -> Rendered:
        """A letter's listing with ``?month=YYYY-MM`` is its first page with that month's calendar."""
        month = parse_qs(query).get("month", [""])[0]
        if not month:
            return super().route(path, query)
        match = re.fullmatch(re.escape(self.root) + r"journals/([a-z]|0-9)", path)
        parsed = re.fullmatch(r"(\d{4})-(0[1-9]|1[0-2])", month)
        if match is None or parsed is None:
            return None
        letter = match[1].upper() if match[1] != "0-9" else "0-9"
        return self.listing(letter, 1, (int(parsed[1]), int(parsed[2])))

    def listing(self, letter: str, page_no: int, month: tuple[int, int] = CALENDAR_START) -> Rendered:  # type: ignore[override]
        """The real listing page with the calendar of ``month`` (year, month)."""
        return super().listing(letter, page_no, extra=self.calendar(month))

    def calendar(self, month: tuple[int, int]) -> str:
        """The events of ``month`` and links to the months before and after, relative like real widgets'."""
        year, number = month
        before = (year, number - 1) if number > 1 else (year - 1, 12)
        after = (year, number + 1) if number < 12 else (year + 1, 1)
        rng = random.Random(f"events:{self.site.relation.seed}:{year}-{number}")
        events = "".join(
            f"<li>{day} {calendar.month_name[number]} {year}: {escape(field)} conference</li>"
            for day, field in sorted(zip(rng.sample(range(1, 29), 2), rng.sample(FIELDS, 2), strict=True))
        )
        return (
            f'<div class="events-calendar"><h3>{link(f"?month={year}-{number:02d}", "Events")}: '
            f"{calendar.month_name[number]} {year}</h3><ul>{events}</ul><p>"
            f'{link(f"?month={before[0]}-{before[1]:02d}", "‹ Previous month")} '
            f'{link(f"?month={after[0]}-{after[1]:02d}", "Next month ›")}</p></div>'
        )

    def trap_facts(self, base_url: str) -> dict[str, Any]:
        """The letters whose listings carry the calendar: all of the site's."""
        year, month = CALENDAR_START
        return {"calendar_letters": sorted(self.site.by_letter), "first_month": f"{year}-{month:02d}"}


class NestedLettersTemplates(TrapTemplates):
    """One letter's sub-letter bar links relatively (``a/``, ``b/``) from a page whose path ends in ``/``, so each
    sub-letter page links two deeper ones, forever; each lists made-up journals."""

    @cached_property
    def trap_letter(self) -> str:
        """The letter with the nested sub-letters."""
        return self.busiest_letters[0]

    def letter_path(self, letter: str, page_no: int = 1) -> str:
        """Letters at ``journals/<l>/``: the trailing slash that makes relative sub-letter links nest."""
        return f"{self.root}journals/{letter.lower()}/" + (f"?page={page_no}" if page_no > 1 else "")

    def route(self, path: str, query: str) -> Rendered:
        """Letters and the trap letter's sub-letter pages at any depth."""
        rest = path[len(self.root) :]
        match = re.fullmatch(r"journals/([a-z]|0-9)/((?:[a-z]/)*)", rest)
        if match is None:
            return None if rest.startswith("journals") else super().route(path, query)
        letter = match[1].upper() if match[1] != "0-9" else "0-9"
        prefix = match[2].replace("/", "")
        if not prefix:
            page = parse_qs(query).get("page", ["1"])[0]
            return self.listing(letter, int(page) if page.isdigit() else 0)
        if letter != self.trap_letter or query:
            return None
        code = letter_code(letter)
        entries = self.made_up_entries([f"{code}-{prefix}-{k}" for k in range(1, MADE_UP_PER_PAGE + 1)])
        return self.listing_page(letter + prefix, entries, extra=self.sub_letters(letter))

    def listing(self, letter: str, page_no: int, extra: str = "") -> Rendered:
        """The trap letter's page shows its sub-letter bar above its real journals."""
        return super().listing(letter, page_no, self.sub_letters(letter) if letter == self.trap_letter else extra)

    def sub_letters(self, letter: str) -> str:
        """The sub-letter bar: ``Aa``, ``Ab`` linking ``a/``, ``b/`` relative to the page."""
        anchors = " ".join(link(f"{sub}/", letter + sub) for sub in NESTED_SUB_LETTERS)
        return f'<div class="sub-az">{anchors}</div>'

    def trap_facts(self, base_url: str) -> dict[str, Any]:
        """The nesting letter."""
        return {"nested_letter": self.trap_letter, "nested_letter_url": base_url + self.letter_path(self.trap_letter)}


TRAP_TEMPLATES: dict[str, type[TrapTemplates]] = {
    "escape": EscapeTemplates,
    "endless-next": EndlessNextTemplates,
    "session-id": SessionIdTemplates,
    "calendar": CalendarTemplates,
    "nested-letters": NestedLettersTemplates,
}
