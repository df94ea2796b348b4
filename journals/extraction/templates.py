"""Page templates and the XPath rules learned per (source, template, attribute).

A template is recognised from the page's structure, not its URL: the path of the title's ``<h1>`` and the
tags and classes of the content region's children. Rows left out (a null value) or reordered do not change
it; another layout (a table instead of a definition list, metrics in prose) does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from lxml import etree

from journals.extraction.content import first_h1, title_region

SEPARATOR = "\u241f"
"""Joins the values of one template's rules in the single XPath evaluation that reads them all."""


def template_signature(root: etree._Element) -> str:
    """A short hex digest naming the page's template."""
    h1 = first_h1(root)
    region = title_region(root, h1)
    tree = root.getroottree()
    parts = [tree.getpath(h1) if h1 is not None else "-", tree.getpath(region)]
    parts.extend(f"{c.tag}.{c.get('class', '')}" for c in region if isinstance(c.tag, str))
    return hashlib.blake2b("|".join(parts).encode(), digest_size=8).hexdigest()


@dataclass
class TemplateRules:
    """The rules of one template: attribute → XPath expression, read in one XPath evaluation."""

    xpaths: dict[str, str]
    pages_learned: int = 0
    """How many pages of the template the rules were learned or confirmed on."""
    _compiled: etree.XPath | None = field(default=None, repr=False)
    _order: tuple[str, ...] = field(default=(), repr=False)

    def update(self, xpaths: Mapping[str, str]) -> bool:
        """Add or replace rules; True when anything changed."""
        changed = any(self.xpaths.get(k) != v for k, v in xpaths.items())
        if changed:
            self.xpaths.update(xpaths)
            self._compiled = None
        return changed

    def apply(self, root: etree._Element) -> dict[str, str]:
        """The text each rule yields on ``root`` (``""`` where it finds nothing)."""
        if not self.xpaths:
            return {}
        if self._compiled is None:
            self._order = tuple(self.xpaths)
            parts = [self.xpaths[a] for a in self._order]
            joined = f", '{SEPARATOR}', ".join(parts)
            self._compiled = etree.XPath(f"concat({joined}, '')")
        texts = str(self._compiled(root)).split(SEPARATOR)
        return dict(zip(self._order, texts, strict=True))


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
        """The rules changed since the last call (to save), forgetting them."""
        taken = {k: dict(self.templates[k[0]][k[1]].xpaths) for k in sorted(self.changed)}
        self.changed.clear()
        return taken


LEARNING_PAGES = 3
"""Pages of a new template learned from before its rules are trusted alone: one page may lack a row."""
