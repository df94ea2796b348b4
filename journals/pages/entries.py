"""The journal entries of a listing page, chosen as a group by what they are, not by how much text they carry.

A publisher's list page holds many groups of links: the site menu, a subject or topic menu, "most read" and news
sidebars, a featured box, the footer, and the list of journals. The list is rarely the heaviest group: a subject
menu may carry more links and more text than a letter with three journals. So each anchor is scored for looking
like a journal entry (a name in title case, journal words, a path like ``/journal/<code>``, an ISSN in its row)
or not (menu words, dates, headlines, numbers, paths like ``/news/…`` or ``/subjects/…``), and each group of
anchors sharing a structure is scored as a whole, the coherence of its URL template counting. What a site
showed on its earlier listing pages counts too (:class:`ListingMemory`): a group repeated unchanged on several
pages is site chrome, and the structure of the list found on a long letter is preferred on a short one.

Pure code over :class:`journals.pages.navigation.Anchor` lists: no Scrapy, no parsing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol
from urllib.parse import SplitResult, parse_qsl

from journals.domain.issn import SHOWN_ISSN
from journals.pages.urls import host_of, split_url

JOURNAL_WORDS = re.compile(
    r"\b(?:journal|review|reviews|letters|annals|acta|advances|archives?|bulletin|proceedings|transactions|"
    r"reports|quarterly|magazine|international|gazette|revista|zeitschrift|cahiers|communications|frontiers)\b",
    re.IGNORECASE,
)
"""Words that journal titles carry and menus, subject lists and headlines seldom do ("Medicine" is a subject, and
"Chemistry Journals" a menu's category: "journals" is no journal word)."""
MENU_TEXT = re.compile(
    r"(?:home|about(?: us)?|contact(?: us)?|log ?in|log ?out|sign ?in|sign ?up|sign ?out|register|my account|"
    r"account|cart|basket|checkout|subscribe|subscriptions?|submit(?: (?:a |your )?(?:manuscript|paper|article))?|"
    r"help|faq|faqs|privacy(?: policy)?|terms(?: (?:and|&) conditions| of use)?|cookies?(?: policy| settings)?|"
    r"accessibility|sitemap|site map|careers|jobs|press(?: room)?|news|blog|events?|search|advanced search|"
    r"more|read more|view all|see all|show all|view more|learn more|all|rss|rss feed|rss_feed|feed|share|"
    r"print|email|e-mail|download|pdf|back|top|back to top|skip to (?:main )?content|menu|close|open|"
    r"english|deutsch|français|español|language|editorial board|for authors|for reviewers|for librarians|"
    r"open access|policies|guidelines|instructions for authors|author guidelines|contact the journal|"
    r"(?:information|info|resources|guides?|guidelines|services) for [\w ]+|"
    r"current issue|all issues|archive|articles|latest articles|special issues?|topics|subjects|"
    r"(?:latest|current|sample|free|back|recent|past|early|online) (?:issues?|articles?|view)|early view|"
    r"(?:accepted|most read|most cited|featured|recent|just accepted) (?:articles?|papers?|manuscripts?)|"
    r"(?:author|reader|librarian|subscriber|customer)s?(?:'s?)? (?:services|resources|information|info)|"
    r"submit(?: an?)? (?:manuscript|paper|article)|aims (?:and|&) scope|journal (?:home|homepage|metrics)|"
    r"facebook|twitter|linkedin|youtube|instagram|x|wechat|weibo)",
    re.IGNORECASE,
)
"""Whole anchor texts of site chrome: menus, account, social and utility links."""
DATE = re.compile(
    r"\b(?:\d{1,2}\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2},?\s+)?\d{4}\b"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d+\s+(?:minutes?|hours?|days?|weeks?)\s+ago\b",
    re.IGNORECASE,
)
"""Dates as news items and issues show them."""
_DIGIT = re.compile(r"\d")
"""What every date and issue designation holds: a text without it is not searched for them."""
ISSUE_TEXT = re.compile(r"\b(?:vol(?:ume)?\.?|issue|no\.|number)\s*\d", re.IGNORECASE)
"""An issue's designation ("Volume 39, Issue 1"): a row's link to its current issue, not the journal."""
NOT_JOURNAL_WORDS = (
    r"news|topics?|subjects?|categor(?:y|ies)|tags?|authors?|editors?|search|login|signin|register|cart|basket|"
    r"account|about|contact|help|faq|privacy|terms|cookies?|events?|blog|press|careers|jobs|rss|feeds?|stats|"
    r"articles?|special[_-]issues?|collections?|books?|conferences?|webinars?|announcements?|policies|guidelines|"
    r"doi|abs|full|pdf|epdf"
)
NOT_JOURNAL_DIRECTORY = re.compile(rf"(?:^|/)(?:{NOT_JOURNAL_WORDS})(?:/|$)", re.IGNORECASE)
"""A directory of pages that are not a journal's home (``/news/…``, ``/subjects/…``); a journal's own slug may
hold the words ("Topics in Catalysis"), so the last segment counts only when it is the whole word."""
NOT_JOURNAL_QUERY = re.compile(rf"(?:^|[&=])(?:{NOT_JOURNAL_WORDS})(?:$|[&=])", re.IGNORECASE)
_NOT_JOURNAL_SEGMENT = re.compile(rf"(?:{NOT_JOURNAL_WORDS})", re.IGNORECASE)
"""One path segment that is a :data:`NOT_JOURNAL_DIRECTORY` word (fullmatched)."""
JOURNAL_PATH = re.compile(r"(?:^|[/_.=-])(?:journals?|jour|periodicals?|titles?)(?:$|[/_.=-])", re.IGNORECASE)
MINOR_WORDS = frozenset(
    {"a", "an", "and", "the", "of", "in", "on", "for", "to", "at", "by", "with", "from", "into", "&", "de", "la",
     "le", "les", "des", "du", "der", "die", "das", "und", "et", "y", "e", "del", "della", "di", "da", "dos", "em"}
)
"""Words a title leaves in lower case."""
CHROME_FACTOR = {"": 1.0, "nav": 0.7, "aside": 0.35, "header": 0.2, "footer": 0.2}
"""How much a group inside each kind of chrome element counts: journal lists do sit in ``<nav>`` on real sites."""
MIN_GROUP_SCORE = 0.5
"""Below this, a page has no journal list (a journal page, a search form, an empty letter)."""
PREFERRED_SHAPE_BONUS = 3.0
LETTER_FACTORS = ((0.8, 3.0), (0.5, 1.0), (0.0, 0.3))
"""On a letter's page, how much a group counts by the share of its titles that start with the letter."""
LEADING_ARTICLES = re.compile(r"^(?:the|a|an|la|le|les|el|der|die|das)\s+", re.IGNORECASE)
REPEATS_FOR_CHROME = 1
"""A group with the same links on this many earlier listing pages of a site is site chrome (each set of links
counted once per page: a journal list is never the same on two listing pages, a menu is on every one; with two, a
short letter read early took a subject menu seen once for its list in 9 of 30 orders on campuspress)."""


class EntryAnchor(Protocol):
    """What the scoring needs of an anchor (:class:`journals.pages.navigation.Anchor` fits)."""

    @property
    def url(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def chrome(self) -> str: ...
    @property
    def group(self) -> str: ...
    @property
    def shape(self) -> str: ...
    @property
    def record_text(self) -> str: ...


@dataclass
class ScoreMemo:
    """What scoring one page's anchors reads more than once: a text recurs on a page (a row's "RSS", a number), and
    a row's text on each of its anchors. Kept for one page's scoring only."""

    texts: dict[str, float | None] = field(default_factory=dict)
    """Per anchor text, its score from the text alone (:func:`_text_score`)."""
    rows: dict[str, bool] = field(default_factory=dict)
    """Per row text, whether it names a journal (an ISSN, the word)."""
    segments: dict[str, bool] = field(default_factory=dict)
    """Per path segment, whether it is a word of a directory of pages that are no journal's."""


def anchor_score(anchor: EntryAnchor, parts: SplitResult | None = None, memo: ScoreMemo | None = None) -> float:
    """How much one anchor looks like a journal entry, from -1 (surely not) to about 1.5 (``parts``: its URL split,
    when the caller has it; ``memo``: what the page's other anchors read already)."""
    text = anchor.text
    if memo is None:
        score = _text_score(text)
    elif text in memo.texts:
        score = memo.texts[text]
    else:
        score = memo.texts[text] = _text_score(text)
    if score is None:
        return -1.0
    parts = judged_parts(parts if parts is not None else split_url(anchor.url))
    path = parts.path.rstrip("/")
    path = path.rpartition(".")[0] if "." in path.rpartition("/")[2] else path
    if _not_journal_directory(path, memo) or (parts.query and NOT_JOURNAL_QUERY.search(parts.query)):
        score -= 0.9
    elif JOURNAL_PATH.search(parts.path):
        score += 0.3
    if anchor.record_text and _row_names_journal(anchor.record_text, memo):
        score += 0.3
    return max(-1.0, score)


def _not_journal_directory(path: str, memo: ScoreMemo | None) -> bool:
    """``NOT_JOURNAL_DIRECTORY.search(path)``: whether one of the path's segments is a word of it, each segment
    judged once per page (``memo``: the segments judged so far; a list's paths share most of theirs)."""
    if memo is None or "\n" in path:  # before a last newline, ``$`` matches too: the pattern's own search
        return NOT_JOURNAL_DIRECTORY.search(path) is not None
    segments = memo.segments
    for segment in path.split("/"):
        found = segments.get(segment)
        if found is None:
            found = segments[segment] = _NOT_JOURNAL_SEGMENT.fullmatch(segment) is not None
        if found:
            return True
    return False


def _text_score(text: str) -> float | None:
    """What an anchor's text alone adds to its score (:func:`anchor_score`), None when it is surely no journal's."""
    if not text or len(text) > 200 or not any(map(str.isalpha, text)):
        return None
    words = text.split()
    if MENU_TEXT.fullmatch(text):
        return None
    first = next(c for c in text if c.isalnum())
    score = 0.0
    if JOURNAL_WORDS.search(text):
        score += 0.8
    capitalised = [w for w in words if w.lower() not in MINOR_WORDS and any(map(str.isalpha, w))]
    title_case = sum(1 for w in capitalised if w[0].isupper() or not w[0].isalpha()) / max(len(capitalised), 1)
    if first.islower():
        score -= 0.6
    if title_case >= 0.75 and len(words) <= 14:
        score += 0.6
    elif len(words) > 16:
        score -= 0.7  # a headline or an article title
    else:
        score += 0.1
    if _DIGIT.search(text) and (DATE.search(text) or ISSUE_TEXT.search(text)):
        score -= 0.8
    if text.endswith((".", "?", "!", "…", "...")) and len(words) > 3:
        score -= 0.4
    return score


def _row_names_journal(row: str, memo: ScoreMemo | None) -> bool:
    """Whether a row's text shows an ISSN or says "journal" (``memo``: the answers so far, by row text)."""
    names = memo.rows.get(row) if memo is not None else None
    if names is None:
        names = bool(SHOWN_ISSN.search(row)) or "journal" in row.lower()
        if memo is not None:
            memo.rows[row] = names
    return names


TRACKER_PARAMETERS = frozenset({"url", "target", "dest", "destination", "redirect", "redirect_url", "goto", "to", "u"})
"""Query parameters a click-through tracker carries its destination in (``/action/clickThrough?id=7&url=%2Fbooks``)."""


def tracker_target(parts: SplitResult) -> str | None:
    """Where a click-through tracker or redirector link goes (its ``url=``, ``target=``, ``dest=``… parameter when
    that reads as an absolute URL or a root-relative path), else None.

    Why: a link is judged by where it goes. Sites send their menus, ads and service links through trackers whose
    own path says nothing (``/action/clickThrough``, ``/redirect``), so a books page or a help page looked like any
    other entry of a group."""
    if not parts.query:
        return None
    for key, value in parse_qsl(parts.query):
        target = value.strip()
        if key.lower() in TRACKER_PARAMETERS and (
            target.startswith(("http://", "https://")) or (target.startswith("/") and not target.startswith("//"))
        ):
            return target
    return None


def judged_parts(parts: SplitResult) -> SplitResult:
    """The URL a link is judged by: a tracker's destination (:func:`tracker_target`), else the link's own."""
    target = tracker_target(parts)
    return split_url(target) if target is not None else parts


def url_template(url: str, parts: SplitResult | None = None) -> tuple[str, ...]:
    """A URL with its last path segment generalised: ``/journal/acoustics`` → ``('host', '/journal/', '')``
    (``parts``: the URL split, when the caller has it)."""
    if parts is None:
        parts = split_url(url)
    path = parts.path.rstrip("/") or "/"
    head, _, last = path.rpartition("/")
    extension = last.rpartition(".")[2] if "." in last else ""
    query_keys = tuple(sorted(k.split("=", 1)[0] for k in parts.query.split("&") if k))
    return (host_of(parts), head, extension, *query_keys)


def links_key(urls: Iterable[str]) -> tuple[int, int]:
    """A set of links as a small key: its size and Python's hash of it (order-free, 64 bits).

    A site's memory outlives its pages: kept as frozensets, the groups of a wide listing held every URL of it for
    the whole crawl. Two different groups of one site sharing a key is a chance of about one in 10^15.
    """
    links = frozenset(urls)
    return len(links), hash(links)


@dataclass
class ListingMemory:
    """What one site's earlier listing pages showed: groups repeated unchanged, and the list's structure."""

    seen_groups: Counter[tuple[int, int]] = field(default_factory=Counter)
    """Per set of a group's URLs (by :func:`links_key`), on how many listing pages it appeared."""
    list_shapes: Counter[str] = field(default_factory=Counter)
    """Per structural shape, how many confident lists had it."""

    def is_chrome(self, urls: Iterable[str]) -> bool:
        """Whether this exact set of links already appeared on enough other listing pages to be site chrome."""
        return self.is_chrome_key(links_key(urls))

    def is_chrome_key(self, key: tuple[int, int]) -> bool:
        """:meth:`is_chrome` of the set of links whose :func:`links_key` is ``key``."""
        return key[0] >= 2 and self.seen_groups[key] >= REPEATS_FOR_CHROME

    def preferred_shape(self) -> str | None:
        """The structure of the confident lists found so far, the most frequent first."""
        return self.list_shapes.most_common(1)[0][0] if self.list_shapes else None


@dataclass(frozen=True)
class EntryGroup:
    """A candidate list of journal entries and how it scored."""

    key: str
    anchors: list[EntryAnchor]
    score: float
    confident: bool


def find_journal_list(
    anchors: Sequence[EntryAnchor], memory: ListingMemory | None = None, letter: str | None = None
) -> EntryGroup | None:
    """The page's journal list (one anchor per URL, in page order), or None when it has none.

    ``memory``, a site's :class:`ListingMemory`, is read and then updated with this page's groups. ``letter``
    is the A–Z index letter (or ``0-9``) the page lists: a group whose titles mostly start with it is the list.
    Time is linear in the anchors: each is scored and generalised once. A wide page's anchors are capped where
    they are read (:func:`journals.pages.navigation.page_links`, ``MAX_ANCHORS_PER_PAGE``), not again here.
    """
    splits: dict[str, SplitResult] = {}  # every URL split once, whichever step asks (urlsplit's own cache holds 128)
    templates: dict[str, tuple[str, ...]] = {}  # and generalised once
    text_keys: dict[str, str] = {}  # and each text folded once, whichever groups hold it
    # both groupings often make the same group (a list's anchors share their classes and their shape): each
    # distinct group is reduced, and keyed, once, the groupings sharing the result
    reduced: dict[tuple[int, ...], list[EntryAnchor]] = {}
    groups = {}
    for name, members in _candidate_groups(anchors).items():
        same = tuple(map(id, members))
        unique = reduced.get(same)
        if unique is None:
            unique = reduced[same] = one_per_journal(_unique(members), splits, text_keys)
        groups[name] = unique
    # each group's set of links as the memory knows it, made once for its test and its count
    keys = None
    if memory is not None:
        made: dict[int, tuple[int, int]] = {}
        keys = {}
        for name, members in groups.items():
            links = made.get(id(members))
            if links is None:
                links = made[id(members)] = links_key(a.url for a in members)
            keys[name] = links
    best = _best_group(groups, memory, letter, splits, templates, keys=keys)
    if best is not None and (best.confident or (memory is not None and best.key == memory.preferred_shape())):
        best = _completed(best, anchors, splits, templates)
    if memory is not None and keys is not None:  # a set of links counts once per page, whichever groupings found it
        for key in set(keys.values()):
            memory.seen_groups[key] += 1
        if best is not None and best.confident:
            memory.list_shapes[best.key] += 1
    return best


def template_once(url: str, splits: dict[str, SplitResult], templates: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """:func:`url_template` of ``url``, kept in ``templates`` (its split kept in ``splits``): the list choice and
    its completion both generalise the page's URLs."""
    template = templates.get(url)
    if template is None:
        template = templates[url] = url_template(url, split_once(url, splits))
    return template


def split_once(url: str, splits: dict[str, SplitResult]) -> SplitResult:
    """``urlsplit(url)``, kept in ``splits``: a list page's steps each judge its anchors' URLs."""
    parts = splits.get(url)
    if parts is None:
        parts = splits[url] = split_url(url)
    return parts


def _best_group(
    groups: dict[str, list[EntryAnchor]],
    memory: ListingMemory | None,
    letter: str | None = None,
    splits: dict[str, SplitResult] | None = None,
    templates: dict[str, tuple[str, ...]] | None = None,
    *,
    keys: dict[str, tuple[int, int]] | None = None,
) -> EntryGroup | None:
    """The best-scoring group that looks like a journal list, or None (``splits`` and ``templates``: URLs split
    and generalised so far; ``keys``: each group's :func:`links_key`, when made already)."""
    scores: dict[int, float] = {}
    memo = ScoreMemo()
    splits = {} if splits is None else splits
    templates = {} if templates is None else templates
    preferred = memory.preferred_shape() if memory is not None else None
    best: EntryGroup | None = None
    # per group (a list two groupings share is one), its total and its score before the key's and letter's factors
    measured: dict[int, tuple[float, float, float] | None] = {}
    for key, unique in groups.items():
        if memory is not None and (
            memory.is_chrome_key(keys[key]) if keys is not None else memory.is_chrome(a.url for a in unique)
        ):
            continue
        if id(unique) in measured:
            found = measured[id(unique)]
        else:
            found = measured[id(unique)] = _measured(unique, scores, memo, splits, templates, letter=letter)
        if found is None:
            continue
        total, score, letter_share = found
        if key == preferred:
            score *= PREFERRED_SHAPE_BONUS
        if letter:
            score *= letter_factor(letter_share)
        if best is None or score > best.score:
            kept = [a for a in unique if scores[id(a)] > -0.5]
            confident = len(kept) >= 5 and total / len(unique) >= 0.4
            best = EntryGroup(key=key, anchors=kept, score=score, confident=confident)
    if best is None or best.score < MIN_GROUP_SCORE or not best.anchors:
        return None
    return best


def _measured(
    unique: list[EntryAnchor],
    scores: dict[int, float],
    memo: ScoreMemo,
    splits: dict[str, SplitResult],
    templates: dict[str, tuple[str, ...]],
    *,
    letter: str | None,
) -> tuple[float, float, float] | None:
    """A group's total of its anchors' scores (kept in ``scores``), its score from them and the coherence of its
    URL template in its kind of chrome, and the share of its titles that start with ``letter``; None when its total
    is no more than 0."""
    for anchor in unique:
        if id(anchor) not in scores:
            scores[id(anchor)] = anchor_score(anchor, split_once(anchor.url, splits), memo)
    total = sum(scores[id(a)] for a in unique)
    if total <= 0:
        return None
    shared = Counter(template_once(a.url, splits, templates) for a in unique)
    coherence = shared.most_common(1)[0][1] / len(unique)
    score = total * (0.4 + 0.6 * coherence) * CHROME_FACTOR.get(unique[0].chrome, 1.0)
    return total, score, starts_with_letter(unique, letter) if letter else 0.0


def letter_factor(share: float) -> float:
    """How much a group counts on a letter's page when ``share`` of its titles start with the letter."""
    return next(factor for least, factor in LETTER_FACTORS if share >= least)


def starts_with_letter(anchors: Sequence[EntryAnchor], letter: str) -> float:
    """The share of the anchors whose text starts with the index ``letter`` (``0-9``: a digit), a leading
    article ("The", "La") left out."""
    if not anchors:
        return 0.0
    wanted = letter.strip().upper()
    hits = 0
    for anchor in anchors:
        first = LEADING_ARTICLES.sub("", anchor.text)[:1].upper()
        hits += first.isdigit() if wanted == "0-9" else first == wanted[:1]
    return hits / len(anchors)


def _candidate_groups(anchors: Iterable[EntryAnchor]) -> dict[str, list[EntryAnchor]]:
    """Anchors grouped two ways: by their ancestors' tags and classes, and by tags and table columns only.

    The first keeps a list apart from a menu built of the same tags; the second joins a list split into
    subject boxes whose class names differ (one colour per subject).
    """
    groups: dict[tuple[str, str], list[EntryAnchor]] = {}
    for anchor in anchors:  # keyed by the anchors' own strings: no new string per anchor, and hashed once
        groups.setdefault(("g:", anchor.group), []).append(anchor)
        groups.setdefault(("s:", anchor.shape), []).append(anchor)
    return {kind + signature: members for (kind, signature), members in groups.items()}


def _unique(anchors: Iterable[EntryAnchor]) -> list[EntryAnchor]:
    """One anchor per URL, the first with text."""
    by_url: dict[str, EntryAnchor] = {}
    for anchor in anchors:
        kept = by_url.get(anchor.url)
        if kept is None or (not kept.text and anchor.text):
            by_url[anchor.url] = anchor
    return list(by_url.values())


SUB_PAGES_PER_JOURNAL = 12
"""At most this many links of a group may extend one link's path and still be read as that journal's sub-pages
(its issues, submission, RSS): a link that many more extend is a directory (``/journals``), not a journal."""
REPEATED_TEXT_URLS = 3
"""A text on this many links to different pages of one group is a row's service link ("Latest issue"), not a name."""


def one_per_journal(
    anchors: list[EntryAnchor],
    splits: dict[str, SplitResult] | None = None,
    text_keys: dict[str, str] | None = None,
) -> list[EntryAnchor]:
    """A group's anchors less the other links of each journal's row: one row of a list, one journal.

    A list's row (a table row, a card) holds the journal's own link and often its sub-pages: "Latest issue",
    "Submit your article", "RSS", "Author services". Two signs tell them apart from the journal's own link, with no
    word list: their path extends another link of the same row (``/journal/abc/issue/current`` below
    ``/journal/abc``; a menu's "Journals" is no row of its letters), or their text recurs on several rows (a
    journal's name is its own). A recurring text is dropped only while the group keeps at least half as many links
    with texts of their own: a list whose every entry reads "Visit journal" keeps its entries. ``splits``: the URLs
    split so far (:func:`split_once`); ``text_keys``: the texts folded so far.
    """
    if len(anchors) < 2:
        return anchors
    sub_pages = _row_sub_pages(anchors, {} if splits is None else splits)
    text_keys = {} if text_keys is None else text_keys
    keys = []
    for anchor in anchors:
        key = text_keys.get(anchor.text)
        if key is None:
            key = text_keys[anchor.text] = _text_key(anchor.text)
        keys.append(key)
    services = _service_texts(keys)
    kept = [a for a, key in zip(anchors, keys, strict=True) if id(a) not in sub_pages and key not in services]
    return kept or anchors


def _text_key(text: str) -> str:
    return " ".join(text.casefold().split())


def _row_sub_pages(anchors: Sequence[EntryAnchor], splits: dict[str, SplitResult]) -> set[int]:
    """The ids of anchors whose path extends another anchor's of the same row, below a link that no more than
    :data:`SUB_PAGES_PER_JOURNAL` anchors extend."""
    rows = Counter(a.record_text for a in anchors if a.record_text)
    anchors = [a for a in anchors if rows[a.record_text] >= 2]  # a row of one link has no sub-page: no URL split
    paths: dict[int, tuple[str, str]] = {}
    own: dict[tuple[str, str], EntryAnchor] = {}
    for anchor in anchors:
        parts = split_once(anchor.url, splits)
        paths[id(anchor)] = (parts.netloc, parts.path.rstrip("/"))
        if not parts.query:
            own[paths[id(anchor)]] = anchor
    extensions: Counter[tuple[str, str]] = Counter()
    parent_of: dict[int, tuple[str, str]] = {}
    for anchor in anchors:
        host, head = paths[id(anchor)]
        while "/" in head.strip("/"):
            head = head.rpartition("/")[0]
            parent = own.get((host, head))
            if parent is not None and parent is not anchor and anchor.record_text == parent.record_text != "":
                parent_of[id(anchor)] = (host, head)
                extensions[host, head] += 1
                break
    return {key for key, parent in parent_of.items() if extensions[parent] <= SUB_PAGES_PER_JOURNAL}


def _service_texts(keys: Sequence[str]) -> set[str]:
    """The texts (``keys``: the group's anchors' :func:`_text_key`) found on :data:`REPEATED_TEXT_URLS` or more
    anchors, when the group keeps at least half as many anchors with texts of their own; none otherwise."""
    texts = Counter(keys)
    repeated = {text for text, count in texts.items() if count >= REPEATED_TEXT_URLS}
    if not repeated:
        return set()
    own_texts = sum(count for text, count in texts.items() if text not in repeated)
    return repeated if own_texts * 2 >= max(texts[t] for t in repeated) else set()


def _completed(
    group: EntryGroup,
    anchors: Sequence[EntryAnchor],
    splits: dict[str, SplitResult],
    templates: dict[str, tuple[str, ...]] | None = None,
) -> EntryGroup:
    """``group`` (a confident list, or one of the structure the site's confident lists had) with the page's other
    anchors to its URL template, in the same kind of chrome, that look like entries: a list's rows may link their
    journal from different columns or tags (a cover image in some rows, the name in others), which makes two groups
    of one list. A template of pages at the site's root says too little to complete a list by.

    Why: rows of one list are judged one list by where their links go (one URL template), not only by the tags
    around the links. A row's sub-pages ("/journal/x/issue/latest") have templates of their own and stay out."""
    templates = {} if templates is None else templates
    template, count = Counter(template_once(a.url, splits, templates) for a in group.anchors).most_common(1)[0]
    if count * 2 < len(group.anchors) or not template[1].strip("/"):
        return group  # no one template, or pages at the site's root: a template that says nothing
    chrome = group.anchors[0].chrome
    have = {a.url for a in group.anchors}
    sample = next(a.url for a in group.anchors if template_once(a.url, splits, templates) == template)
    prefix = sample[: sample.index(template[1], sample.index("//") + 2) + len(template[1])] if template[1] else sample
    extra = [
        a
        for a in _unique(anchors)
        if a.url.startswith(prefix)  # a string test first: a wide page's other links are not split
        and a.url not in have
        and a.chrome == chrome
        and template_once(a.url, splits, templates) == template
        and anchor_score(a, splits[a.url]) > -0.5
    ]
    if not extra:
        return group
    order = {id(a): n for n, a in enumerate(anchors)}
    merged = sorted([*group.anchors, *extra], key=lambda a: order.get(id(a), len(order)))
    return EntryGroup(key=group.key, anchors=merged, score=group.score, confident=group.confident)
