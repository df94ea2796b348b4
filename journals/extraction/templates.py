"""Page templates and the XPath rules learned per (source, template, attribute).

A template is recognised from the page's structure, not its URL: the path of the title's ``<h1>`` and the
tags and classes of the content region's children. Rows left out (a null value) or reordered do not change
it; another layout (a table instead of a definition list, metrics in prose) does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from lxml import etree

from journals.extraction.content import first_h1, title_region
from journals.extraction.xpaths import reads_last
from journals.vocabulary import load_attributes

SEPARATOR = "\u241f"
"""Joins the values of one template's rules in the single XPath evaluation that reads them all."""


SIGNATURE_LEVELS = 2
"""How many of the title's ancestors contribute the tags of their children to a page's signature."""


def template_signature(root: etree._Element) -> str:
    """A short hex digest naming the page's template.

    It is made of the title's path and, for the title's parent and the ancestors above it, the tags and
    classes of their children, runs of equal siblings written once ("p+"): a row left out does not change it.
    """
    h1 = first_h1(root)
    if h1 is None:
        region = title_region(root, None)
        parts = ["-", *_children(region)]
    else:
        parts = [root.getroottree().getpath(h1)]
        for level, ancestor in enumerate(h1.iterancestors()):
            if level == SIGNATURE_LEVELS:
                break
            parts.append("/")
            parts.extend(_children(ancestor))
    return _digest("|".join(parts))


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


@dataclass
class TemplateRules:
    """The rules of one template: attribute → XPath expression, read in one XPath evaluation."""

    xpaths: dict[str, str]
    pages_learned: int = 0
    """How many pages of the template the rules were learned or confirmed on."""
    _compiled: etree.XPath | None = field(default=None, repr=False)
    _readers: tuple[tuple[str, str, bool], ...] = field(default=(), repr=False)

    def update(self, xpaths: Mapping[str, str]) -> bool:
        """Add or replace rules; True when anything changed."""
        changed = any(self.xpaths.get(k) != v for k, v in xpaths.items())
        if changed:
            self.xpaths.update(xpaths)
            self._compiled = None
        return changed

    @property
    def readers(self) -> tuple[tuple[str, str, bool], ...]:
        """(attribute, value type, reads the last value) per rule, in the order :meth:`apply` returns texts."""
        self._compile()
        return self._readers

    def _compile(self) -> None:
        if self._compiled is not None or not self.xpaths:
            return
        types = {a.name: a.type for a in load_attributes()}
        self._readers = tuple((name, types[name], reads_last(xpath)) for name, xpath in self.xpaths.items())
        joined = f", '{SEPARATOR}', ".join(self.xpaths.values())
        self._compiled = etree.XPath(f"concat({joined}, '')")

    def apply(self, root: etree._Element) -> list[str]:
        """The text each rule yields on ``root`` (``""`` where it finds nothing), in :attr:`readers` order."""
        self._compile()
        if self._compiled is None:
            return []
        return str(self._compiled(root)).split(SEPARATOR)


@dataclass
class LearnedRules:
    """Every source's learned templates, and which changed since they were last saved."""

    templates: dict[str, dict[str, TemplateRules]] = field(default_factory=dict)
    changed: set[tuple[str, str]] = field(default_factory=set)

    def load(self, source: str, stored: Mapping[str, Mapping[str, str]]) -> None:
        """Adopt rules stored for ``source`` (template → attribute → XPath), as learned on earlier crawls."""
        mine = self.templates.setdefault(source, {})
        for template, xpaths in stored.items():
            mine[template] = TemplateRules(dict(xpaths), pages_learned=LEARNING_PAGES)

    def get(self, source: str, template: str) -> TemplateRules | None:
        """The rules of ``template`` on ``source``, if learned."""
        return self.templates.get(source, {}).get(template)

    def learn(self, source: str, template: str, xpaths: Mapping[str, str]) -> TemplateRules:
        """Merge rules learned on one more page of ``template``."""
        rules = self.templates.setdefault(source, {}).get(template)
        if rules is None:
            rules = self.templates[source][template] = TemplateRules({})
        if rules.update(xpaths):
            self.changed.add((source, template))
        rules.pages_learned += 1
        return rules

    def take_changed(self) -> dict[tuple[str, str], dict[str, str]]:
        """The trusted rules changed since the last call (to save), forgetting them.

        A template still learning (fewer than :data:`LEARNING_PAGES` pages) is kept back: stored rules are
        trusted alone when loaded, so saving half-learned ones would let a crawl killed early teach the next one
        a template without its rarer rows (found by the kill-and-resume test).
        """
        ready = sorted(k for k in self.changed if self.templates[k[0]][k[1]].pages_learned >= LEARNING_PAGES)
        self.changed.difference_update(ready)
        return {k: dict(self.templates[k[0]][k[1]].xpaths) for k in ready}


LEARNING_PAGES = 5
"""Pages of a new template learned from before its rules are trusted alone: one page may lack a row."""
