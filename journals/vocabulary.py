"""The domain vocabulary: attributes, their value types and labels, read once from ``settings/vocabulary.json``.

This module is the one place the rest of the project learns which attributes exist; it imports neither Scrapy
nor the database.
"""

from __future__ import annotations

import json
import pkgutil
import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from journals.domain.numbers import YEAR_IN_BRACKETS, drop_years_beside_label

LABEL_MARKS = dict.fromkeys(map(ord, "™®©℠*"), None)
"""Trademark and footnote marks a label may carry (a :meth:`str.translate` table deleting them)."""
_LABEL_MARK_CHARACTERS = "".join(map(chr, LABEL_MARKS))
_LABEL_MARK = re.compile(f"[{re.escape(_LABEL_MARK_CHARACTERS)}]")
"""Any of :data:`LABEL_MARKS`: deleted by a search in C (a translation looks each character of a text that is not
ASCII up in the table, some hundred times as long on a page's text)."""
_WORD = re.compile(r"\w+")
"""A word of a label: what is left between its runs of other characters (no word character is a space)."""


@dataclass(frozen=True)
class Attribute:
    """One attribute of a journal: its name, value type, whether it is a ``JournalItem`` field, its labels."""

    name: str
    type: str
    core: bool
    labels: tuple[str, ...]


@cache
def load_attributes() -> tuple[Attribute, ...]:
    """Every attribute of the vocabulary, in the order of ``settings/vocabulary.json``."""
    raw = pkgutil.get_data("settings", "vocabulary.json")
    if raw is None:  # pragma: no cover - only when the package data is missing from an install
        raise RuntimeError("settings/vocabulary.json is missing from the installed package")
    return tuple(
        Attribute(name=a["name"], type=a["type"], core=a["core"], labels=tuple(a["labels"]))
        for a in json.loads(raw)["attributes"]
    )


def attribute_names() -> tuple[str, ...]:
    """Names of every attribute, core ones first as in the vocabulary file."""
    return tuple(a.name for a in load_attributes())


def core_attribute_names() -> tuple[str, ...]:
    """Names of the attributes that are ``JournalItem`` fields."""
    return tuple(a.name for a in load_attributes() if a.core)


def metric_names() -> tuple[str, ...]:
    """The journal metrics: the ``JournalItem`` fields whose values are numbers (impact factors, CiteScore, SJR,
    SNIP), in the vocabulary's order."""
    return tuple(a.name for a in load_attributes() if a.core and a.type == "number")


def attribute(name: str) -> Attribute:
    """The attribute called ``name``; ``KeyError`` when the vocabulary has none."""
    for a in load_attributes():
        if a.name == name:
            return a
    raise KeyError(name)


def normalise_label(text: str) -> str:
    """``text`` as labels are compared, on pages and in this vocabulary alike: trademark marks and punctuation
    dropped, case-folded, spaces collapsed ("Journal Impact Factor™:" → "journal impact factor"). A year in
    brackets stays ("Impact Factor (2024)" and "Impact Factor (2023)" are two rows): see :func:`label_key`."""
    if any(mark in text for mark in _LABEL_MARK_CHARACTERS):
        text = _LABEL_MARK.sub("", text)
    return " ".join(_WORD.findall(unicodedata.normalize("NFKC", text).casefold()))


def label_key(text: str) -> str:
    """A label's text as looked up among the vocabulary's labels: :func:`normalise_label` of it without its year,
    in brackets or bare at either end ("Impact Factor (2024):", "Impact Factor 2024:", "2023 CiteScore" →
    "impact factor", "citescore")."""
    return normalise_label(drop_years_beside_label(YEAR_IN_BRACKETS.sub(" ", text)))


@cache
def extraction_phrases() -> dict[str, tuple[str, ...]]:
    """The ``extraction`` section of the vocabulary: phrase lists by name (``platforms``, ``decoy_headings``…)."""
    raw = pkgutil.get_data("settings", "vocabulary.json")
    if raw is None:  # pragma: no cover - only when the package data is missing from an install
        raise RuntimeError("settings/vocabulary.json is missing from the installed package")
    section = json.loads(raw)["extraction"]
    return {name: tuple(phrases) for name, phrases in section.items() if not name.startswith("_")}
