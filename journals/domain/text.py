"""Text as every rule compares it: Unicode compatibility forms folded, white space collapsed."""

from __future__ import annotations

import unicodedata


def clean(text: str) -> str:
    """``text`` with Unicode compatibility forms folded and whitespace collapsed."""
    if text.isascii():  # NFKC leaves ASCII as it is
        return " ".join(text.split())
    return " ".join(unicodedata.normalize("NFKC", text).split())
