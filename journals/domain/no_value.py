"""The words a site writes where it has no value ("n/a", "TBA", a dash…): the attribute is shown, its value is null.

The extraction reads them on pages (whole, or leading a text: "n/a (2024)"), the integration in its value vectors.
"""

from __future__ import annotations

import re

from journals.domain.text import clean

NO_VALUE_WORDS = ("n/a", "na", "n.a.", "-", "–", "—", "none", "null", "nil", "tba", "tbd", "not available", "vacant")
"""Every way of writing "no value" the project knows, compared case-insensitively."""
AROUND = " :.;,"
"""What may sit around a no-value word ("n/a:", "None.") and is ignored when comparing."""
NO_VALUE_KEYS = frozenset(word.strip(AROUND).casefold() for word in NO_VALUE_WORDS)
"""The words as compared: stripped of :data:`AROUND` and case-folded (``n.a.`` is compared as ``n.a``)."""
NO_VALUE_START = re.compile(
    r"^\W*("
    + "|".join(re.escape(w) for w in sorted((w for w in NO_VALUE_WORDS if w[0].isalpha()), key=len, reverse=True))
    + r")(?!\w)\W*",
    re.IGNORECASE,
)
"""A text that opens with a no-value word ("n/a (2024)", "TBA – see website"); group 1 is the word. Dashes are
left out: a leading dash is a minus sign or a separator as often as no value."""


def is_missing(text: str | None) -> bool:
    """Whether ``text`` holds no value at all: none, blank, or a no-value word."""
    return text is None or not text.strip() or is_no_value(text)


def is_no_value(text: str) -> bool:
    """Whether ``text`` is, whole, a way of writing no value (spaces collapsed, :data:`AROUND` ignored, any case)."""
    return " ".join(text.split()).strip(AROUND).casefold() in NO_VALUE_KEYS


def is_null_text(text: str) -> bool:
    """Whether ``text`` is how sites write a missing value ("n/a", "TBA", a dash…: :data:`NO_VALUE_WORDS`)."""
    return is_null_cleaned(clean(text))


def is_null_cleaned(cleaned: str) -> bool:
    """:func:`is_null_text` of a text already :func:`clean` (cleaning twice changes nothing)."""
    return cleaned.strip(AROUND).casefold() in NO_VALUE_KEYS
