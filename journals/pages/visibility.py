"""Whether an element is hidden from a reader by its own markup: the ``hidden`` attribute, ``aria-hidden``, an
inline ``display:none``/``visibility:hidden`` style, or a hiding class name.

Pure: the navigation leaves hidden anchors out and the extraction hidden text, by this one rule.
"""

from __future__ import annotations

import re

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
    attribute, ``aria-hidden="true"``, or a hiding class name."""
    if element.get("hidden") is not None or (element.get("aria-hidden") or "").strip().lower() == "true":
        return True
    style = element.get("style")
    if style and _HIDING_STYLE.search(style):
        return True
    classes = element.get("class")
    return bool(classes) and any(_hiding_class(token.lower()) for token in classes.split())


def _hiding_class(token: str) -> bool:
    if token in HIDING_CLASSES:
        return True
    prefix, _, rest = token.partition("-")
    return bool(rest) and len(prefix) <= 3 and rest in HIDING_CLASSES
