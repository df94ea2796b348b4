"""Page templates and the XPath rules learned per (source, template, attribute).

A template is recognised from the page's structure, not its URL: the path of the title's ``<h1>`` and the
tags and classes of the content region's children. Rows left out (a null value) or reordered do not change
it; another layout (a table instead of a definition list, metrics in prose) does.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import islice

from lxml import etree

from journals.extraction.content import first_h1, title_region
from journals.extraction.positions import AUDIT_EVERY, PositionalReader, compile_reader
from journals.extraction.values import PARSERS, ValueParser
from journals.extraction.xpaths import reads_last
from journals.pages.visibility import is_hidden
from journals.vocabulary import load_attributes

LEARNING_PAGES = 5
"""Pages of a new template learned from before its rules are trusted alone: one page may lack a row."""
SEPARATOR = "\u241f"
"""Joins the values of one template's rules in the single XPath evaluation that reads them all."""


SIGNATURE_LEVELS = 2
"""How many of the title's ancestors contribute the tags of their children to a page's signature."""


def template_signature(root: etree._Element) -> str:
    """A short hex digest naming the page's template.

    It is made of the title's path and, for the title's parent and the ancestors above it, the tags and
    classes of their children, runs of equal siblings written once ("p+"): a row left out does not change it.
    """
    h1, parents = signature_parents(root)
    parts = [root.getroottree().getpath(h1) if h1 is not None else "-"]
    for parent in parents:
        if h1 is not None:
            parts.append("/")
        parts.extend(_children(parent))
    if parents:
        parts.append("//")
        parts.extend(_layout(parents[0], LAYOUT_DEPTH))
    return _digest("|".join(parts))


LAYOUT_DEPTH = 3
"""Levels below the title's parent whose shapes name the layout: the heading's own parts, and the boxes beside it
down to what they hold (a definition list, a table, value-first tiles; the order of a journal's metrics and a
box featuring another journal)."""


def signature_parents(root: etree._Element) -> tuple[etree._Element | None, list[etree._Element]]:
    """The title's ``<h1>`` and the elements whose children make the signature: the title's parent and the
    ancestors above it (:data:`SIGNATURE_LEVELS`), or without a title the content region."""
    h1 = first_h1(root)
    if h1 is None:
        return None, [title_region(root, None)]
    return h1, list(islice(h1.iterancestors(), SIGNATURE_LEVELS))


@lru_cache(maxsize=4096)
def _digest(structure: str) -> str:
    """The digest of a page structure; pages of one template share it, so it is computed once."""
    return hashlib.blake2b(structure.encode(), digest_size=8).hexdigest()


def _children(element: etree._Element) -> list[str]:
    shapes: list[str] = []
    for child in element[:]:  # a slice is cheaper than an iterator; each .tag builds a new str: read it once
        tag = child.tag
        if tag.__class__ is str:
            shape = f"{tag}.{child.get('class') or ''}"
            if shapes and shapes[-1].rstrip("+") == shape:
                shapes[-1] = shape + "+"
            else:
                shapes.append(shape)
    return shapes


def _layout(element: etree._Element, depth: int) -> list[str]:
    """The shapes below ``element``'s children, ``depth`` levels down: per level, each distinct "shape > its
    children's distinct shapes" in the order they first appear, so rows of a list or a table count once however
    many are shown (a row left out changes nothing unless it is the only one of its shape); hidden elements are
    marked (a heading that joins hidden parts to its title is another layout than a plain one)."""
    shapes: list[str] = []
    level = [(child, _shape(child)) for child in element[:] if child.tag.__class__ is str]
    for _ in range(depth - 1):
        below: list[tuple[etree._Element, str]] = []
        entries: list[str] = []
        for parent, parent_shape in level:
            seen: list[str] = []
            for child in parent[:]:
                if child.tag.__class__ is str:
                    shape = _shape(child)
                    if shape not in seen:
                        seen.append(shape)
                    below.append((child, shape))
            entry = f"{parent_shape}>{','.join(seen)}"
            if entry not in entries:
                entries.append(entry)
        shapes.append(";".join(entries))
        level = below
    return shapes


def _shape(element: etree._Element) -> str:
    return f"{element.tag}.{element.get('class') or ''}{'!' if is_hidden(element) else ''}"


@dataclass
class TemplateRules:
    """The rules of one template: attribute → XPath expression, read in one XPath evaluation."""

    xpaths: dict[str, str]
    pages_learned: int = 0
    """How many pages of the template the rules were learned or confirmed on."""
    _compiled: etree.XPath | None = field(default=None, repr=False)
    _readers: tuple[tuple[str, ValueParser, bool], ...] = field(default=(), repr=False)

    def update(self, xpaths: Mapping[str, str]) -> bool:
        """Add or replace rules; True when anything changed."""
        changed = any(self.xpaths.get(k) != v for k, v in xpaths.items())
        if changed:
            self.xpaths.update(xpaths)
            self._compiled = None
        return changed

    def drop(self, name: str) -> None:
        """Forget the rule of ``name``."""
        if self.xpaths.pop(name, None) is not None:
            self._compiled = None

    @property
    def readers(self) -> tuple[tuple[str, ValueParser, bool], ...]:
        """(attribute, its value type's parser, reads the last value) per rule, in the order :meth:`apply`
        returns texts."""
        self._compile()
        return self._readers

    def _compile(self) -> None:
        if self._compiled is not None or not self.xpaths:
            return
        types = {a.name: a.type for a in load_attributes()}
        self._readers = tuple((name, PARSERS[types[name]], reads_last(xpath)) for name, xpath in self.xpaths.items())
        joined = f", '{SEPARATOR}', ".join(self.xpaths.values())
        self._compiled = etree.XPath(f"concat({joined}, '')")

    def apply(self, root: etree._Element) -> list[str]:
        """The text each rule yields on ``root`` (``""`` where it finds nothing), in :attr:`readers` order."""
        self._compile()
        if self._compiled is None:
            return []
        return str(self._compiled(root)).split(SEPARATOR)


READERS_PER_TEMPLATE = 8
"""Page shapes (rows shown or left out) of one template that get a :class:`PositionalReader`."""
VAIN_LABEL_SEARCHES = 16
"""Pages of one trusted template searched by their labels, because their text names an attribute the rules lack,
that showed no such row: after these the template's pages are no longer searched that way (a menu's "Editors"
would otherwise cost every page a search)."""


@cache
def _labels_of_attributes_not_in(names: frozenset[str]) -> re.Pattern[str]:
    """What finds, in a page's text, a label of one of the vocabulary's core attributes not in ``names``.

    One scan of the text for all of them, and only for those that hold no other (a text naming "Print ISSN" names
    "ISSN"): whether the text names any is answered as by looking for each label in turn."""
    labels = {label for a in load_attributes() if a.core and a.name not in names for label in a.labels}
    shortest = sorted(label for label in labels if not any(other != label and other in label for other in labels))
    return re.compile("|".join(re.escape(label) for label in shortest) if shortest else "(?!)")  # "(?!)": no match


@dataclass
class PositionStats:
    """How pages were read by position (:mod:`journals.extraction.positions`), for the crawl's stats."""

    reads: int = 0
    """Pages read by a positional reader."""
    audits: int = 0
    """Of those, pages also read by the rules to check the reader."""
    disagreements: int = 0
    """Audits where the reader and the rules differed (the reader is dropped)."""


VARYING_TYPES = frozenset({"title", "issn", "number", "name"})
"""Value types that differ from one journal to the next: a rule that reads one value of these for several journals
reads something else (a footer's first sister journal, a menu entry). A publisher, a subject, open access, an APC
may be the same for every journal of a publisher."""
SHORT_NUMBER_DIGITS = 3
"""A number written with fewer digits ("4.1") is shared by two journals by chance often enough (one CiteScore in
about a hundred) that a rule is a decoy only when a third journal shows it too."""


def _repeats_to_be_decoy(value_type: str, raw: str) -> int:
    """How many journals must show a value a rule read before the rule is taken for a decoy: three for a short
    number and for a person's name (one editor may lead two journals of one publisher), two otherwise."""
    if value_type == "name" or (value_type == "number" and sum(c.isdigit() for c in raw) < SHORT_NUMBER_DIGITS):
        return 3
    return 2


WATCHED_PAGES = 4 * LEARNING_PAGES
"""Pages of a template watched for decoys after its rules last changed (a rule of a row always shown empty never
reads two values)."""


@dataclass
class RuleWitness:
    """What one rule of a varying attribute read while it is watched: its one value so far and for which journals."""

    value: object
    raw: str
    journals: set[str]


@dataclass
class LearnedRules:
    """Every source's learned templates, and which changed since they were last saved."""

    templates: dict[str, dict[str, TemplateRules]] = field(default_factory=dict)
    changed: set[tuple[str, str]] = field(default_factory=set)
    shapes: dict[tuple[str, str], list[tuple[str, PositionalReader]]] = field(default_factory=dict)
    """Per source and page role, (template, positional reader) of the page shapes seen, the last used first. The
    role only orders the tries (home pages and metrics pages alternate in a crawl); the readers decide."""
    position_stats: PositionStats = field(default_factory=PositionStats)
    witnesses: dict[tuple[str, str], dict[tuple[str, str], RuleWitness | None]] = field(default_factory=dict)
    """Per (source, template), per (attribute, XPath) of a varying attribute: the one value the rule has read so
    far, or None once it has read two values (it follows the journal)."""
    settled: set[tuple[str, str]] = field(default_factory=set)
    """Templates whose every varying rule has read two values, or that :data:`WATCHED_PAGES` pages have read
    since their rules last changed: their pages are no longer watched."""
    watched_pages: dict[tuple[str, str], int] = field(default_factory=dict)
    decoys: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    """Per (source, template), the rules found to read one value for every journal: never learned again."""
    decoys_found: int = 0
    vain_label_searches: dict[tuple[str, str], int] = field(default_factory=dict)
    """Per (source, template), the pages searched by :meth:`names_an_attribute_missing` in vain."""

    def names_an_attribute_missing(self, source: str, template: str, text: str) -> bool:
        """Whether a page of ``template`` read by its trusted rules should also be searched by its labels: its
        text names a core attribute the rules have no rule for, and :data:`VAIN_LABEL_SEARCHES` earlier such
        searches have not all come back empty.

        Which rows a template's rules cover depends on the pages they were learned on: a row the first pages left
        out (a journal without an editor-in-chief), or a rule learned by a crawl that died before it could save it
        (a resume after the database stopped it loads the older stored rules), would otherwise never be read on
        pages of a shape already seen. A substring test per label: cheap beside the page's parse.
        """
        key = (source, template)
        rules = self.templates.get(source, {}).get(template)
        if rules is None or self.vain_label_searches.get(key, 0) >= VAIN_LABEL_SEARCHES:
            return False
        return _labels_of_attributes_not_in(frozenset(rules.xpaths)).search(text) is not None

    def searched_in_vain(self, source: str, template: str) -> None:
        """Count a label search of :meth:`names_an_attribute_missing` that found no missing row."""
        key = (source, template)
        self.vain_label_searches[key] = self.vain_label_searches.get(key, 0) + 1

    def load(self, source: str, stored: Mapping[str, Mapping[str, str]]) -> None:
        """Adopt rules stored for ``source`` (template → attribute → XPath), as learned on earlier crawls."""
        mine = self.templates.setdefault(source, {})
        for template, xpaths in stored.items():
            mine[template] = TemplateRules(dict(xpaths), pages_learned=LEARNING_PAGES)
            self._forget_shapes(source, template)

    def observe(
        self, source: str, template: str, read: Mapping[str, tuple[str | None, object, str]], journal: str
    ) -> set[str]:
        """Record what a page about ``journal`` read (attribute → (rule, value, raw text)); the attributes whose
        rule is a decoy, now dropped from the template and never learned there again.

        A rule of a varying attribute (:data:`VARYING_TYPES`: an ISSN, a metric, a name, a title) that read one and
        the same value on pages about different journals does not read the journal: it reads a box beside it, the
        first of the sister journals a footer lists, a menu entry. A rule is watched until it has read two values
        (cheap: a template whose rules all have is no longer looked at), while its template learns and whenever
        a rule is added.
        """
        key = (source, template)
        if key in self.settled:
            return set()
        witnesses = self.witnesses.setdefault(key, {})
        types = _attribute_types()
        decoys: set[str] = set()
        for name, (xpath, value, raw) in read.items():
            if xpath is None or value is None or types.get(name) not in VARYING_TYPES:
                continue
            if (name, xpath) not in witnesses:
                witnesses[(name, xpath)] = RuleWitness(value, raw, {journal})
                continue
            witness = witnesses[(name, xpath)]
            if witness is None:
                continue
            if witness.value != value:
                witnesses[(name, xpath)] = None
            else:
                witness.journals.add(journal)
                if len(witness.journals) >= _repeats_to_be_decoy(types[name], raw):
                    decoys.add(name)
                    self._drop_decoy(source, template, name, xpath)
        rules = self.get(source, template)
        pages = self.watched_pages[key] = self.watched_pages.get(key, 0) + 1
        if (
            rules is not None
            and rules.pages_learned >= LEARNING_PAGES
            and (
                pages >= WATCHED_PAGES
                or all(
                    witnesses.get((name, xpath), RuleWitness(None, "", set())) is None
                    for name, xpath in rules.xpaths.items()
                    if types.get(name) in VARYING_TYPES
                )
            )
        ):
            self.settled.add(key)
        return decoys

    def _drop_decoy(self, source: str, template: str, name: str, xpath: str) -> None:
        """Forget a decoy rule: out of the template's rules and its readers, banned from being learned again."""
        self.decoys.setdefault((source, template), set()).add(xpath)
        self.decoys_found += 1
        rules = self.get(source, template)
        if rules is not None and rules.xpaths.get(name) == xpath:
            rules.drop(name)
            self.changed.add((source, template))
            self._forget_shapes(source, template)

    def decoy_rules(self, source: str, template: str) -> set[str]:
        """The rules of ``template`` found to be decoys (see :meth:`observe`)."""
        return self.decoys.get((source, template), set())

    def get(self, source: str, template: str) -> TemplateRules | None:
        """The rules of ``template`` on ``source``, if learned."""
        return self.templates.get(source, {}).get(template)

    def learn(self, source: str, template: str, xpaths: Mapping[str, str]) -> TemplateRules:
        """Merge rules learned on one more page of ``template``."""
        rules = self.templates.setdefault(source, {}).get(template)
        if rules is None:
            rules = self.templates[source][template] = TemplateRules({})
        banned = self.decoy_rules(source, template)
        if rules.update({name: xpath for name, xpath in xpaths.items() if xpath not in banned}):
            self.changed.add((source, template))
            self.settled.discard((source, template))
            self.watched_pages.pop((source, template), None)
            self._forget_shapes(source, template)
        rules.pages_learned += 1
        return rules

    def _forget_shapes(self, source: str, template: str) -> None:
        """Drop the positional readers of a template whose rules changed or were replaced: a reader returns
        the texts of the rules it was made for, in their order (the stored rules of a source, loaded while its
        first pages were already being learned, list the same attributes in another order)."""
        for key, shapes in self.shapes.items():
            if key[0] == source:
                shapes[:] = [(t, r) for t, r in shapes if t != template]

    def read_by_position(
        self, source: str, root: etree._Element, role: str = ""
    ) -> tuple[str, TemplateRules, tuple[str, ...]] | None:
        """(template, rules, the rules' texts) when one of ``source``'s page shapes fits ``root``, else None.

        A new reader's first reads (:data:`~journals.extraction.positions.AUDITED_FIRST_READS`), then one read in
        :data:`~journals.extraction.positions.AUDIT_EVERY`, are checked against the rules' XPath evaluation; a
        reader that disagrees is dropped and the page is left to the rules.
        """
        shapes = self.shapes.get((source, role))
        if not shapes:
            return None
        for at, (template, reader) in enumerate(shapes):
            texts = reader.read(root)
            if texts is None:
                continue
            if at:
                shapes.insert(0, shapes.pop(at))
            rules = self.templates[source][template]
            stats = self.position_stats
            stats.reads += 1
            if reader.unaudited or stats.reads % AUDIT_EVERY == 0:
                reader.unaudited = max(reader.unaudited - 1, 0)
                stats.audits += 1
                if rules.apply(root) != list(texts):  # the audit only: no copy on the other reads
                    stats.disagreements += 1
                    shapes.pop(0)
                    return None
            return template, rules, texts
        return None

    def remember_shape(self, source: str, template: str, root: etree._Element, role: str = "") -> bool:
        """Give ``root``'s page shape a positional reader, if the template's trusted rules read it right;
        True when a reader was added."""
        rules = self.get(source, template)
        if rules is None or rules.pages_learned < LEARNING_PAGES or not rules.xpaths:
            return False
        shapes = self.shapes.setdefault((source, role), [])
        if sum(t == template for t, _ in shapes) >= READERS_PER_TEMPLATE:
            return False
        reader = compile_reader(root, rules.xpaths, *signature_parents(root))
        if reader is None or list(reader.read(root) or ()) != rules.apply(root):
            return False
        shapes.insert(0, (template, reader))
        return True

    def take_changed(self) -> dict[tuple[str, str], dict[str, str]]:
        """The trusted rules changed since the last call (to save), forgetting them.

        A template still learning (fewer than :data:`LEARNING_PAGES` pages) is kept back: stored rules are
        trusted alone when loaded, so saving half-learned ones would let a crawl killed early teach the next one
        a template without its rarer rows (found by the kill-and-resume test).
        """
        ready = sorted(k for k in self.changed if self.templates[k[0]][k[1]].pages_learned >= LEARNING_PAGES)
        self.changed.difference_update(ready)
        return {k: dict(self.templates[k[0]][k[1]].xpaths) for k in ready}


@lru_cache(maxsize=1)
def _attribute_types() -> dict[str, str]:
    return {a.name: a.type for a in load_attributes()}

