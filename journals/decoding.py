"""Decode a page's bytes to text when its declared charset is missing or wrong.

Scrapy's own inference (w3lib) trusts a declared charset even when the bytes are not valid in it, and without a
declaration it can pick an encoding that turns ``für`` into ``f³r``. Publisher pages are often Latin-1 or
Windows-1252 mislabelled as UTF-8, so the order here is: BOM, then a declared encoding the bytes are *valid* in,
then UTF-8, then Windows-1252, then Latin-1 (which never fails).
"""

from __future__ import annotations

import codecs

from w3lib.encoding import html_body_declared_encoding, http_content_type_encoding, read_bom, resolve_encoding

FALLBACK_ENCODINGS = ("utf-8", "cp1252", "latin-1")


def _strict(body: bytes, encoding: str | None) -> str | None:
    if not encoding:
        return None
    try:
        return body.decode(resolve_encoding(encoding) or encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def decode_html(body: bytes, content_type: str | None = None) -> tuple[str, str]:
    """The text of an HTML body and the encoding used, choosing the first encoding the bytes are valid in."""
    bom_encoding, bom = read_bom(body)
    if bom_encoding:
        return body[len(bom) :].decode(bom_encoding, errors="replace"), bom_encoding
    declared = [http_content_type_encoding(content_type or ""), html_body_declared_encoding(body)]
    for encoding in (*declared, *FALLBACK_ENCODINGS):
        text = _strict(body, encoding)
        if text is not None:
            return text, codecs.lookup(resolve_encoding(encoding) or encoding).name
    return body.decode("latin-1"), "latin-1"  # pragma: no cover - latin-1 decodes every byte string


def looks_binary(body: bytes, sample_size: int = 4096) -> bool:
    """Whether a body served as HTML is really binary: NUL bytes or mostly control bytes in its head."""
    sample = body[:sample_size]
    if not sample:
        return False
    if b"\x00" in sample:
        return True
    control = sum(1 for byte in sample if byte < 9 or 13 < byte < 32)
    return control / len(sample) > 0.1
