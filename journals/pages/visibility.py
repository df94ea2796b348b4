"""Whether an element is hidden from a reader by its own markup: the ``hidden`` attribute, ``aria-hidden``, an
inline ``display:none``/``visibility:hidden`` style, or a hiding class name.

Pure: the navigation leaves hidden anchors out and the extraction hidden text, by this one rule.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lxml import etree

HIDING_CLASSES = frozenset(
    {
        "hidden",
        "hide",
        "d-none",
        "sr-only",
        "visually-hidden",
        "visuallyhidden",
        "screen-reader-text",
        "screen-reader-only",
        "invisible",
        "element-invisible",
        "offscreen",
    }
)
"""Class names that hide an element, alone or after a short prefix (``u-visually-hidden``, ``is-hidden``)."""
_HIDING_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)", re.IGNORECASE
)


def is_hidden(element: etree._Element) -> bool:
    """Whether ``element`` itself is hidden: inline ``display:none``/``visibility:hidden``, the ``hidden``
    attribute, ``aria-hidden="true"``, or a hiding class name.

    Asked of nearly every element of a page: its attributes' names are read once (most elements have a class
    alone, or none), and a class attribute's answer is kept by its value (a page's elements share a few hundred)."""
    names = element.keys()
    if not names:
        return False
    if len(names) == 1 and names[0] == "class":
        return _hiding_classes(element.get("class"))
    if "hidden" in names:
        return True
    if "aria-hidden" in names and element.get("aria-hidden").strip().lower() == "true":
        return True
    if "style" in names and _HIDING_STYLE.search(element.get("style")):
        return True
    return "class" in names and _hiding_classes(element.get("class"))


@lru_cache(maxsize=4096)
def _hiding_classes(classes: str) -> bool:
    """Whether a ``class`` attribute's value names a hiding class."""
    return any(_hiding_class(token.lower()) for token in classes.split())


def _hiding_class(token: str) -> bool:
    if token in HIDING_CLASSES:
        return True
    prefix, _, rest = token.partition("-")
    return bool(rest) and len(prefix) <= 3 and rest in HIDING_CLASSES
