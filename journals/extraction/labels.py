"""Matching page text against the vocabulary's labels: whole text nodes, and labels inside running text.

Labels are compared after normalising case, punctuation, spacing and trademark signs; a whole text node that
misses every label by a typo is caught by rapidfuzz. Inside longer text a label only counts between word
boundaries, and short acronyms ("IF", "OA") only in capitals, so "if" in a sentence is not an impact factor.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from rapidfuzz import fuzz, process

from journals.vocabulary import LABEL_MARKS, Attribute, label_key, load_attributes, normalise_label

FUZZY_CUTOFF = 90.0
"""rapidfuzz ratio (0–100) a whole text node needs to count as a misspelt label."""


_SOURCE_NOTE = re.compile(r"\s*[(\[][^()\[\]]{1,40}[)\]]\W*$")
"""A bracketed note closing a metric label's text, naming the figure's source or edition ("CiteScore (Scopus)"): the
label without it is looked up when the whole text is no label. Only a metric's: a note on an identifier says which
one it is ("ISSN (electronic)" is no print ISSN)."""


@dataclass(frozen=True)
class LabelHit:
    """A label found in a text: the attribute, where it sits, and the label as the page writes it."""

    attribute: str
    start: int
    end: int
    text: str
    bracketed: bool = False
    """The label is wrapped in brackets ("1234-5678 (online)"): it qualifies the value before it."""


SEARCHED_TEXTS_KEPT = 8192
"""Texts whose labels :meth:`LabelMatcher.embedded` keeps: a site's chrome, menus and row labels are the same text
on every page, and a page's learning asks for each of its text nodes more than once."""


class LabelMatcher:
    """Find the vocabulary's labels in text nodes."""

    def __init__(self, attributes: tuple[Attribute, ...]) -> None:
        self.attributes = {a.name: a for a in attributes}
        self.exact: dict[str, str] = {}
        for a in attributes:
            for label in (a.name.replace("_", " "), *a.labels):
                self.exact.setdefault(normalise_label(label), a.name)
        self._choices = [k for k in self.exact if len(k) >= 5]
        labels = sorted({(label, a.name) for a in attributes for label in a.labels}, key=lambda p: (-len(p[0]), p[0]))
        self._embedded_names: list[str] = []
        patterns = []
        for label, name in labels:
            tokens = re.findall(r"\w+", unicodedata.normalize("NFKC", label.translate(LABEL_MARKS)))
            if not tokens:
                continue
            body = r"[\W_]{0,3}".join(re.escape(t) for t in tokens)
            acronym = label.isupper() and len(label) <= 4
            patterns.append(body if acronym else f"(?i:{body})")
            self._embedded_names.append(name)
        self._embedded = re.compile("|".join(f"(?<![\\w])({p})(?![\\w])" for p in patterns))
        self._searched: dict[str, tuple[LabelHit, ...]] = {}
        """The labels of the texts searched lately (:data:`SEARCHED_TEXTS_KEPT`), emptied when full."""

    def nested(self, label: str) -> bool:
        """Whether ``label`` is written inside a longer label ("ISSN" in "eISSN"): ``contains()`` would
        find it there, so a rule must anchor it at the start of its text."""
        key = normalise_label(label).replace(" ", "")
        return any(key in other.replace(" ", "") and key != other.replace(" ", "") for other in self.exact)

    def qualifiers(self, label: str) -> tuple[tuple[str, str], ...]:
        """What the other attributes' labels add around ``label``, lower-cased: (before, after) pairs such as
        ("five-year ", "") for "Impact Factor" or ("", " (online)") and ("e", "") for "ISSN". A rule finding
        ``label`` inside running text must not read a text whose first ``label`` is so qualified: it says the
        longer label."""
        lowered = label.lower()
        name = self.exact.get(normalise_label(label))
        found = set()
        for attribute in self.attributes.values():
            if attribute.name == name:
                continue
            for other in attribute.labels:
                text = other.lower()
                if text != lowered and (text.endswith(lowered) or text.startswith(lowered)):
                    before, _, after = text.partition(lowered)
                    found.add((before, after))
        return tuple(sorted(found))

    def whole(self, text: str) -> str | None:
        """The attribute whose label is the whole of ``text`` (a trailing colon allowed, and a bracketed source note
        when the text without it is a label), else None."""
        key = label_key(text)
        if not key or len(key) > 60:
            return None
        name = self.exact.get(key)
        if name is None and (bare := _SOURCE_NOTE.sub("", text)) != text:
            metric = self.exact.get(label_key(bare))  # "CiteScore (Scopus)", "Impact Factor [JCR]"
            return metric if metric is not None and self.attributes[metric].type == "number" else None
        if name is not None or len(key) < 5 or any(c.isdigit() for c in key if c not in "25"):
            return name
        best = process.extractOne(key, self._choices, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
        return self.exact[best[0]] if best else None

    def embedded(self, text: str) -> list[LabelHit]:
        """Every label inside ``text``, leftmost-longest, not overlapping. A text is searched once: its labels are
        kept for the next time it is asked for (the same page's next pass, the next page's chrome)."""
        hits = self._searched.get(text)
        if hits is None:
            hits = self._search(text)
            if len(self._searched) >= SEARCHED_TEXTS_KEPT:
                self._searched.clear()
            self._searched[text] = hits
        return list(hits)

    def mentions(self, text: str) -> bool:
        """Whether ``text`` holds a label (:meth:`embedded` finds one)."""
        hits = self._searched.get(text)
        return bool(hits) if hits is not None else self._embedded.search(text) is not None

    def _search(self, text: str) -> tuple[LabelHit, ...]:
        hits = []
        for match in self._embedded.finditer(text):
            name = self._embedded_names[match.lastindex - 1]  # type: ignore[operator]
            before = text[: match.start()].rstrip()
            after = text[match.end() :].lstrip()
            bracketed = before.endswith(("(", "[")) and after.startswith((")", "]"))
            hits.append(LabelHit(name, match.start(), match.end(), match[0], bracketed))
        return tuple(hits)


@cache
def default_matcher() -> LabelMatcher:
    """The matcher over ``settings/vocabulary.json``."""
    return LabelMatcher(load_attributes())
