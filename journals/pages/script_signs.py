"""Whether a downloaded page is built in the browser: the signs of a script-built page, and whether it names any
journal data. Pure: the spider asks, and fetches the page again through the browser when the page shows signs and
none of what it came for (:mod:`journals.downloadermiddlewares.rendering` renders it).

A page is taken for script-built on what its served HTML says of itself, never on its site's name:

- an application root left empty for a script to fill (``<div id="root">``, ``app``, ``__next``, ``__nuxt``…);
- a ``<noscript>`` asking for JavaScript;
- A–Z letters that are script handlers (``<button>``, ``href="javascript:…"`` or ``"#"``, ``onclick``), not links;
- an element still reading "Loading…" (a panel a script fills after load), or a panel left empty for a script to
  fill: a closed tab or accordion section whose body holds no text, a section under a heading naming journal data
  ("Journal metrics") with nothing but empty boxes (a skeleton, a spinner), an element marked ``aria-busy``. Such a
  page is not finished, even when it already names other journal data: it is probed (rendered beside its served
  HTML, and the two compared) rather than read as it is.

Each sign counts only on a page that runs scripts, and only where the page lacks what the crawl came for: an index
page without letters or a journal list, a journal page that names neither an ISSN nor a metric. A page with data
and a stray ``<noscript>`` (an analytics pixel) is read as it is.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property

from lxml import etree

from journals.domain.issn import holds_issn
from journals.pages.navigation import UNSEEN_TAGS, visible_text
from journals.pages.parsed import ParsedPage
from journals.vocabulary import label_key, load_attributes

APP_ROOT_IDS = ("root", "app", "__next", "__nuxt", "___gatsby", "svelte", "main-app", "application")
"""The ids script frameworks give the element they render into."""
MIN_SCRIPT_LETTERS = 10
"""Distinct A–Z letters a page must make script handlers of to have script-driven letters."""
JOURNAL_DATA_CHARS = 200_000
"""Visible characters of a page searched for journal data at most (a longer page has data or never will)."""

UNSEEN_WITH_SCRIPTS = UNSEEN_TAGS | {"noscript", "template"}
"""Elements whose text a reader of a page with scripts never sees: a ``<noscript>`` naming the Impact Factor it
would show is no data."""

_APP_ROOTS = etree.XPath(f"id('{' '.join(APP_ROOT_IDS)}')")
"""The application roots of a page, looked up in the parser's table of ids (a scan of every element's ``id`` costs
more than the parse on a 1 MB page)."""
_LETTER_CONTROLS = etree.XPath(
    "//button | //a[not(@href) or starts-with(normalize-space(@href), '#')"
    " or starts-with(translate(normalize-space(@href), 'JAVSCRIPT', 'javscript'), 'javascript:')]"
    " | //*[@onclick or @role='button'][not(self::a or self::button)]"
)
_ASKS_FOR_JAVASCRIPT = re.compile(
    r"\b(?:enable|turn on|activate|allow|requires?|need|needs|switch on)\b.{0,60}\bjava\s*script\b"
    r"|\bjava\s*script\b.{0,40}\b(?:required|disabled|enabled|needed|is off|turned off)\b",
    re.IGNORECASE | re.DOTALL,
)
_LETTER = re.compile(r"[A-Z]|0\s*[-–]\s*9|#")


@dataclass(frozen=True)
class ScriptSigns:
    """What a page's served HTML says of being built by scripts."""

    scripts: int
    """Script elements that run (JSON-LD and templates not counted)."""
    empty_app_roots: int
    """Application roots (``<div id="root">``…) left empty."""
    asks_for_javascript: bool
    """Whether a ``<noscript>`` asks the reader to turn JavaScript on."""
    script_letters: int
    """Distinct A–Z letters shown as script handlers rather than links (0 unless asked for)."""
    placeholders: int = 0
    """Elements whose whole text says their content is loading ("Loading metrics…")."""
    builders: int = 0
    """Running scripts that can write the page: loaded from a file, or inline and calling the DOM or the network
    (``fetch``, ``innerHTML``, ``appendChild``…); an analytics line pushing to a data layer is none."""
    empty_panels: int = 0
    """Panels a script has yet to fill: closed tabs or accordion sections with no text, empty sections under a
    heading naming journal data, elements marked ``aria-busy``."""

    @property
    def script_built(self) -> bool:
        """Whether the page runs scripts and shows one sign of building its content with them."""
        return self.scripts > 0 and bool(
            self.empty_app_roots
            or self.asks_for_javascript
            or self.script_letters >= MIN_SCRIPT_LETTERS
            or self.placeholders
            or self.empty_panels
        )

    @property
    def unfinished(self) -> bool:
        """Whether the page runs scripts and still shows a placeholder or an empty panel: rendered even when it
        names some data."""
        return self.scripts > 0 and (self.placeholders > 0 or self.empty_panels > 0)

    @property
    def names(self) -> tuple[str, ...]:
        """The signs shown, by name (``app_root``, ``noscript``, ``script_letters``), for stats and logs."""
        shown = (
            ("app_root", bool(self.empty_app_roots)),
            ("noscript", self.asks_for_javascript),
            ("script_letters", self.script_letters >= MIN_SCRIPT_LETTERS),
            ("placeholder", bool(self.placeholders)),
            ("empty_panel", bool(self.empty_panels)),
        )
        return tuple(name for name, present in shown if present)


NO_SIGNS = ScriptSigns(scripts=0, empty_app_roots=0, asks_for_javascript=False, script_letters=0)
"""The signs of a page with no tree."""


def script_signs(page: ParsedPage, *, letters: bool = False) -> ScriptSigns:
    """The signs ``page`` shows of being script-built; script-driven letters are counted only when ``letters``
    (an index page: a journal page's letter buttons mean nothing)."""
    tree = page.tree
    if tree is None:
        return NO_SIGNS
    scripts, builders, noscript_texts = 0, 0, []
    for element in tree.iter("script", "noscript"):
        if element.tag == "noscript":
            noscript_texts.append(" ".join(element.itertext()))
        elif _runs(element.get("type")):
            scripts += 1
            builders += bool(element.get("src")) or builds_page(element.text or "")
    lowered = page.text.lower()
    return ScriptSigns(
        scripts=scripts,
        empty_app_roots=sum(1 for root in _APP_ROOTS(tree) if len(root) == 0 and not "".join(root.itertext()).strip()),
        asks_for_javascript=bool(_ASKS_FOR_JAVASCRIPT.search(" ".join(noscript_texts))),
        script_letters=_script_letters(tree) if letters else 0,
        placeholders=_placeholders(tree) if may_hold_placeholder(page.text, lowered) else 0,
        empty_panels=_empty_panels(tree, lowered),
        builders=builders,
    )


_BUILD_WORDS = (
    "fetch", "XMLHttpRequest", "innerHTML", "outerHTML", "insertAdjacentHTML", "appendChild", "append",
    "replaceChildren", "createElement", "IntersectionObserver", "render", "mount", "bootstrap",
)  # fmt: skip
"""What an inline script calls when it writes the page or fetches its content."""
_BUILDS = re.compile(rf"\b(?:{'|'.join(_BUILD_WORDS)})\b")


def builds_page(script: str) -> bool:
    """Whether an inline script's text calls one of :data:`_BUILD_WORDS` (as a word). A match begins with one of
    them, so the expression is only tried from the first place one of them is found, and not at all when none is:
    a regular expression tries every character of a script, a search for a word runs in C (a page's scripts are
    often hundreds of kB)."""
    found = [at for word in _BUILD_WORDS if (at := script.find(word)) >= 0]
    return bool(found) and _BUILDS.search(script, min(found)) is not None


_PLACEHOLDER_WORDS = ("loading", "cargando", "chargement", "wird geladen", "carregando", "caricamento")
_PLACEHOLDER_MARK = re.compile(rf"\b(?:{'|'.join(_PLACEHOLDER_WORDS)})\b", re.I)
_CASE_FOLDED_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
"""The letters other than ASCII's that ``re.IGNORECASE`` matches to ASCII letters (İ, ı, ſ, the Kelvin sign): the
text in lower case may not hold the ASCII letter where the expression matches one."""


def may_hold_placeholder(text: str, lowered: str | None = None) -> bool:
    """Whether ``text`` holds a placeholder's word (:data:`_PLACEHOLDER_MARK`), the question asked of every page
    before its elements are looked at. A match is one of the words in any case: the text in lower case holds it
    at the same place, unless it holds one of :data:`_CASE_FOLDED_TO_ASCII` (İ alone lowers to two characters),
    when the expression alone answers. The case-insensitive expression tries every character of the page (and a
    word inside another, "downloading", would send it on through the rest); lowering the page and finding the
    words run in C, and the expression is tried at each place a word is found. ``lowered``: ``text.lower()``, when
    the caller has it."""
    if any(letter in text for letter in _CASE_FOLDED_TO_ASCII):
        return _PLACEHOLDER_MARK.search(text) is not None
    lowered = text.lower() if lowered is None else lowered
    for word in _PLACEHOLDER_WORDS:
        at = lowered.find(word)
        while at >= 0:
            if _PLACEHOLDER_MARK.match(text, at) is not None:
                return True
            at = lowered.find(word, at + 1)
    return False


_PLACEHOLDER = re.compile(rf"{_PLACEHOLDER_MARK.pattern}.{{0,40}}$", re.IGNORECASE)
"""A placeholder's whole text, from its first word ("Loading metrics…", "Cargando…")."""


_PLACEHOLDER_INITIALS = frozenset(
    {initial for word in _PLACEHOLDER_WORDS for initial in (word[0], word[0].upper())} | set(_CASE_FOLDED_TO_ASCII)
)
"""The characters a text that :data:`_PLACEHOLDER` matches may start with: a word's first letter in either case
(or one of the letters ``re.IGNORECASE`` takes for an ASCII one)."""


def _placeholders(tree: etree._Element) -> int:
    """Elements with no child elements whose visible text is a placeholder's (see :data:`_PLACEHOLDER`). An
    element's text is collapsed and matched only when its first character may start one (most texts are
    indentation or start with another letter)."""
    found = 0
    for element in tree.iter():
        own = element.text
        if not own or own.lstrip()[:1] not in _PLACEHOLDER_INITIALS:
            continue
        if not isinstance(element.tag, str) or len(element) or element.tag in UNSEEN_WITH_SCRIPTS:
            continue
        text = " ".join(own.split())
        if _PLACEHOLDER.match(text) and not any(a.tag in UNSEEN_WITH_SCRIPTS for a in element.iterancestors()):
            found += 1
    return found


_PANEL_CONTROLS = etree.XPath(
    "//*[@aria-controls and (@role='tab' or @aria-expanded='false') or @aria-busy='true'"
    " or self::summary and parent::details[not(@open)]]"
)
"""Elements that stand for a panel a script may fill: tabs and accordion buttons (with the id of the panel they
control), the summary of a closed ``<details>``, an element a script marks busy."""
HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_CONTROL_MARKS = ("aria-controls", "aria-busy", "<summary")
"""What a page's HTML in lower case holds when it has a panel control: its attribute or its tag (the parser makes
names lower case, ASCII letters only)."""
MAX_PANEL_CONTROLS = 50
"""Panel controls of a page looked into at most (a menu of hundreds of accordions is no journal page)."""


def _empty_panels(tree: etree._Element, lowered: str | None = None) -> int:
    """Panels a script has yet to fill: a tab's or accordion button's panel (``aria-controls``) or a closed
    ``<details>``'s body with no visible text, an element marked ``aria-busy``, and a heading naming journal data
    (:func:`_names_data`: "Journal metrics" does not, "Impact Factor" does; see :func:`_names_section`) followed by
    boxes with no text up to the next heading, one of them holding elements (a skeleton's lines, a spinner): an
    empty field under its label ("Editor" over an empty paragraph) is a journal without it, no panel to fill.
    ``lowered``, the page's HTML in lower case, spares a page with no :data:`_CONTROL_MARKS` the search for controls
    (a pass over every element's attributes)."""
    found = 0
    by_id: dict[str, list[etree._Element]] | None = None
    searched = lowered is None or any(mark in lowered for mark in _CONTROL_MARKS)
    for control in _PANEL_CONTROLS(tree)[:MAX_PANEL_CONTROLS] if searched else ():
        if control.get("aria-busy") == "true":
            found += 1
        elif control.tag == "summary":
            details = control.getparent()
            body = [child for child in details if child is not control and isinstance(child.tag, str)]
            found += not any(visible_text(child, 1, UNSEEN_WITH_SCRIPTS) for child in body)
        else:
            by_id = _elements_by_id(tree) if by_id is None else by_id
            panels = [panel for i in (control.get("aria-controls") or "").split() for panel in by_id.get(i, ())]
            found += any(not visible_text(panel, 1, UNSEEN_WITH_SCRIPTS) for panel in panels)
    for heading in itertools.islice(tree.iter(HEADING_TAGS), MAX_PANEL_CONTROLS):
        if not _names_section(visible_text(heading, 80, UNSEEN_WITH_SCRIPTS, separator=" ")):
            continue
        boxes = []
        for sibling in heading.itersiblings():
            if not isinstance(sibling.tag, str) or sibling.tag in UNSEEN_WITH_SCRIPTS:
                continue
            if sibling.tag in HEADING_TAGS:
                break
            boxes.append(sibling)
        skeleton = any(len(box) for box in boxes)  # empty boxes in a box, a spinner: not one empty field
        found += skeleton and not any(visible_text(box, 1, UNSEEN_WITH_SCRIPTS) for box in boxes)
    return found


def _elements_by_id(tree: etree._Element) -> dict[str, list[etree._Element]]:
    """The page's elements by ``id``, in document order, from one walk of the tree (a page of tabs names many
    panels; a search of the whole tree for each cost one walk each)."""
    by_id: dict[str, list[etree._Element]] = {}
    for element in tree.iter(etree.Element):
        element_id = element.get("id")
        if element_id is not None:
            by_id.setdefault(element_id, []).append(element)
    return by_id


_SECTION_WORDS = re.compile(
    r"\b(?:metrics?|indicators?|impact|citations?|bibliometrics?|editors?|editorial|m[ée]tricas?|m[ée]triques?"
    r"|indicadores|indicateurs|kennzahlen|metriken)\b",
    re.IGNORECASE,
)
"""Words of a heading over a section of journal facts ("Journal metrics", "Key indicators", "Editorial board")."""


def _names_section(text: str) -> bool:
    """Whether a heading's ``text`` names a section of journal facts: a data label or a word of
    :data:`_SECTION_WORDS`."""
    return bool(text) and (bool(_SECTION_WORDS.search(text)) or _names_data(text))


class VisibleData:
    """A page's visible text as it is searched for journal data (its first :data:`JOURNAL_DATA_CHARS`, no script or
    hidden part) and its label words, each read once when first asked for: a journal page is asked whether it names
    data and, when it may be rendered, how much it names, and both read the same text."""

    def __init__(self, tree: etree._Element) -> None:
        self.tree = tree

    @cached_property
    def text(self) -> str:
        """The visible text, pieces joined by spaces."""
        return visible_text(self.tree, JOURNAL_DATA_CHARS, UNSEEN_WITH_SCRIPTS, separator=" ")

    @cached_property
    def holds_issn(self) -> bool:
        """Whether it holds a valid ISSN (:func:`~journals.domain.issn.holds_issn`)."""
        return holds_issn(self.text)

    @cached_property
    def words(self) -> str:
        """Its :func:`~journals.vocabulary.label_key`, with a space at either end (labels are looked for as words)."""
        return f" {label_key(self.text)} "

    @cached_property
    def labels(self) -> int:
        """How many distinct labels of :func:`_data_labels` it holds."""
        return sum(1 for _ in _labels_held(self.words))

    @cached_property
    def names_a_label(self) -> bool:
        """Whether it holds one of them (the search stops at the first)."""
        return _holds_a_label(self.words)


def journal_facts(page: ParsedPage, visible: VisibleData | None = None) -> int:
    """How much journal data the page's visible text names: its distinct data labels (:func:`_data_labels`) and
    one more when it holds an ISSN. What a probe compares between a page as served and as rendered. ``visible``:
    the page's :class:`VisibleData`, when it was read already."""
    tree = page.tree
    if tree is None:
        return 0
    visible = visible if visible is not None else VisibleData(tree)
    return visible.labels + visible.holds_issn


def _runs(script_type: str | None) -> bool:
    """Whether a script of this ``type`` runs (JavaScript, a module), rather than holding data (JSON-LD, templates)."""
    return script_type is None or "javascript" in script_type.lower() or script_type.lower() in ("", "module")


def _script_letters(tree: etree._Element) -> int:
    """Distinct A–Z letters (``0-9`` and ``#`` included) whose control is a script handler, not a link."""
    found = set()
    for element in _LETTER_CONTROLS(tree):
        text = " ".join("".join(element.itertext()).split()).upper()
        if len(text) <= 5 and _LETTER.fullmatch(text):
            found.add(text[:1])
    return len(found)


def names_journal_data(page: ParsedPage, visible: VisibleData | None = None) -> bool:
    """Whether the page's visible text names a journal's data: an ISSN, or the label of a metric or an
    identifier of the vocabulary (ISSN, eISSN, Impact Factor, CiteScore…). ``visible``: the page's
    :class:`VisibleData`, read here when needed and kept for :func:`journal_facts`."""
    tree = page.tree
    if tree is None or not _names_data(page.text):
        return False  # not even in the markup, where a look at the visible text alone costs a tenth of it
    visible = visible if visible is not None else VisibleData(tree)
    return visible.holds_issn or visible.names_a_label


def _names_data(text: str) -> bool:
    """Whether ``text`` holds an ISSN or a label of :func:`_data_labels`."""
    return holds_issn(text) or _holds_a_label(f" {label_key(text)} ")


def _holds_a_label(words: str) -> bool:
    """Whether ``words`` (a :func:`~journals.vocabulary.label_key` with a space at either end) holds a label of
    :func:`_data_labels` as words."""
    return next(_labels_held(words), None) is not None


def _labels_held(words: str) -> Iterator[str]:
    """The labels of :func:`_spaced_labels` that ``words`` holds (each once, in no set order). A label held as
    words has each of its words between two spaces in the text: a label one of whose words the text lacks is not
    looked for (a one-word label is held when the text has it), where looking for every label walks the whole text
    once per label."""
    spaced_words = words.split(" ")
    held_words = set(itertools.islice(spaced_words, 1, len(spaced_words) - 1))  # between two spaces
    by_first_word = _spaced_labels_by_first_word()
    for first_word in by_first_word.keys() & held_words:
        for label, other_words in by_first_word[first_word]:
            if not other_words or (held_words.issuperset(other_words) and label in words):
                yield label


@cache
def _spaced_labels() -> tuple[str, ...]:
    """:func:`_data_labels`, each with a space at either end, as they are looked for among words."""
    return tuple(f" {label} " for label in _data_labels())


@cache
def _spaced_labels_by_first_word() -> dict[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """:func:`_spaced_labels` by their first word, each with its other words."""
    by_first_word: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for label in _spaced_labels():
        first_word, *other_words = label.split(" ")[1:-1]
        by_first_word.setdefault(first_word, []).append((label, tuple(other_words)))
    return {word: tuple(labels) for word, labels in by_first_word.items()}


@cache
def _data_labels() -> tuple[str, ...]:
    """The vocabulary's labels of metrics and identifiers, as :func:`~journals.vocabulary.label_key` writes them
    (a label of two letters or fewer, or a bare "Print" or "Online", would match ordinary words)."""
    kinds = {"number", "issn"}
    labels = {label_key(label) for a in load_attributes() if a.type in kinds for label in a.labels}
    return tuple(sorted(label for label in labels if len(label) > 2 and label not in ("print", "online")))
