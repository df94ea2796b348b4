"""Decode a page's bytes to text when its declared charset is missing or wrong, and tell text from binary.

Scrapy's own inference (w3lib) trusts a declared charset even when the bytes are not valid in it, and without a
declaration it can pick an encoding that turns ``für`` into ``f³r``. Publisher pages are often Latin-1 or
Windows-1252 mislabelled as UTF-8, so the order here is: BOM, then UTF-16 recognised by its NUL bytes, then a
declared encoding the bytes are *valid* in, then UTF-8, then the charset a detector guesses when its text reads as
one non-Latin script (:mod:`journals.pages.charsets`: a Shift_JIS or windows-1251 page that declares nothing), then
Windows-1252, then Latin-1 (which never fails).

Scrapy's ``binary_is_text`` (used by ``responsetypes``) calls a body binary for a single control byte, and one NUL
in an HTML comment would drop a whole listing; :func:`looks_binary` asks instead whether the body is *mostly* not
text. The decoded text is then cleaned of the characters lxml refuses, so that every parser downstream accepts it.
"""

from __future__ import annotations

import codecs
import functools
import re
from typing import NamedTuple

from w3lib.encoding import html_body_declared_encoding, http_content_type_encoding, read_bom, resolve_encoding

from journals.pages.charsets import guessed_encoding

LAST_RESORT_ENCODINGS = ("cp1252", "latin-1")
"""Tried after UTF-8 and the detector's guess: Western pages are the commonest undeclared ones."""

SNIFF_BYTES = 4096
"""How much of a body's head is looked at to tell binary from text and to recognise UTF-16."""

BINARY_SIGNATURES = (
    b"\x89PNG\r\n\x1a\n",
    b"GIF87a",
    b"GIF89a",
    b"\xff\xd8\xff",  # JPEG
    b"%PDF-",
    b"%!PS-Adobe-",
    b"\x1f\x8b\x08",  # gzip
    b"PK\x03\x04",  # zip, and the office formats built on it
    b"Rar!\x1a\x07",
    b"7z\xbc\xaf\x27\x1c",
    b"\xfd7zXZ\x00",
    b"\x28\xb5\x2f\xfd",  # zstd
    b"wOFF",
    b"wOF2",
    b"OggS\x00",
    b"\x1a\x45\xdf\xa3",  # Matroska, WebM
    b"\x00\x00\x01\x00",  # ICO
    b"\x7fELF",
)
"""Starts of file formats that are never HTML (from the WHATWG MIME Sniffing Standard's pattern tables and the
formats' own specifications). A body served as HTML that starts with one is binary whatever follows."""

BINARY_DATA_BYTES = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)])
"""The WHATWG MIME Sniffing Standard's "binary data bytes": control bytes that text does not contain (tab, line
feed, form feed, carriage return and escape are text). Uniformly random bytes, such as compressed data, are
27/256 ≈ 10.5 % of them."""

MOSTLY_BINARY_SHARE = 0.25
"""A head with at least this share of binary data bytes is binary, even if it is valid UTF-8."""

NOISY_BINARY_SHARE = 0.05
"""A head with at least this share of binary data bytes that is not valid UTF-8 either is binary (compressed or
encrypted data); below it, a few stray control bytes in a text page are only noise."""

UTF16_NUL_SHARE = 0.4
"""UTF-16 without a BOM: at least this share of the bytes at odd (little endian) or even (big endian) offsets are
NUL, as the high bytes of the ASCII markup every HTML page is full of."""

LXML_REFUSED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Characters lxml refuses in a string ("All strings must be XML compatible"): removed from decoded text, but
vertical tab and form feed, white space in HTML, which become spaces."""

LXML_REFUSED_BYTES = bytes([*range(0x00, 0x09), *range(0x0E, 0x20)])
"""The refused control characters but vertical tab and form feed, as bytes (in encodings that keep them as bytes)."""

SPACES_FOR_BYTES = bytes.maketrans(b"\x0b\x0c", b"  ")
"""Vertical tab and form feed bytes to spaces."""

_CLEANED_BYTES = tuple(bytes([byte]) for byte in LXML_REFUSED_BYTES + b"\x0b\x0c")
"""Each byte the cleaning removes or replaces, alone: searched for one by one (``memchr``)."""


def _strict(body: bytes, encoding: str | None) -> str | None:
    if not encoding:
        return None
    try:
        return body.decode(resolve_encoding(encoding) or encoding)
    except (UnicodeDecodeError, LookupError):
        return None


class DecodedHtml(NamedTuple):
    """An HTML body decoded (:func:`decode_html_body`)."""

    text: str
    """The text, without the characters lxml refuses."""
    encoding: str
    """The encoding it was decoded with."""
    utf8: bytes | None
    """The body itself when ``text`` is exactly its UTF-8 (no byte-order mark, nothing removed): what a parser of
    UTF-8 reads as it would read the text, without encoding the text again. None otherwise."""


def decode_html(body: bytes, content_type: str | None = None) -> tuple[str, str]:
    """The text of an HTML body and the encoding used, choosing the first encoding the bytes are valid in.

    The text holds no character that lxml refuses: NUL and the C0 control characters other than tab, line feed and
    carriage return are removed (vertical tab and form feed become spaces), as are U+FFFE and U+FFFF.
    """
    decoded = decode_html_body(body, content_type)
    return decoded.text, decoded.encoding


def decode_html_body(body: bytes, content_type: str | None = None) -> DecodedHtml:
    """:func:`decode_html`, also saying when the text is the body's UTF-8 byte for byte."""
    text, encoding = _decode(body, content_type)
    if not _keeps_control_bytes(encoding):
        return DecodedHtml(xml_compatible(text), encoding, None)
    untouched = True
    # Searching and cleaning the bytes is several times faster than a regex over the text (docs/ARCHITECTURE.md,
    # "Measurements behind the design"); dropping standalone control bytes keeps them valid.
    # One memchr per byte value finds none in a clean page three times faster than deleting them all would.
    if any(byte in body for byte in _CLEANED_BYTES):
        untouched = False
        bom = read_bom(body)[1] or b""
        text = body[len(bom) :].translate(SPACES_FOR_BYTES, LXML_REFUSED_BYTES).decode(encoding, errors="replace")
    if "\ufffe" in text or "\uffff" in text:  # from UTF-8 only; a quick look in a text of Latin-1 characters
        untouched = False
        text = text.replace("\ufffe", "").replace("\uffff", "")
    same_bytes = untouched and encoding == "utf-8" and not read_bom(body)[1]
    return DecodedHtml(text, encoding, body if same_bytes else None)


def declared_encoding(body: bytes, content_type: str | None = None) -> str | None:
    """The codec name the page declares (its ``Content-Type`` header, else its ``<meta>``), None when it declares
    none or an unknown one: what Scrapy's ``TextResponse`` would decode with, found without decoding the page."""
    return next(filter(None, _declared_encodings(body, content_type)), None)


def _declared_encodings(body: bytes, content_type: str | None) -> tuple[str | None, str | None]:
    """The codec names the ``Content-Type`` header and the page's ``<meta>`` declare, in that order (w3lib resolves
    each label to Python's codec name; None for none or an unknown one)."""
    return http_content_type_encoding(content_type or ""), html_body_declared_encoding(body)


def _decode(body: bytes, content_type: str | None) -> tuple[str, str]:
    bom_encoding, bom = read_bom(body)
    if bom_encoding and bom:
        return body[len(bom) :].decode(bom_encoding, errors="replace"), bom_encoding
    utf16 = utf16_without_bom(body[:SNIFF_BYTES])
    if utf16:
        return body.decode(utf16, errors="replace"), utf16
    for encoding in (*filter(None, _declared_encodings(body, content_type)), "utf-8"):
        text = _strict(body, encoding)
        if text is not None:
            return text, codecs.lookup(resolve_encoding(encoding) or encoding).name
    guessed = guessed_encoding(body)
    for encoding in (*filter(None, [guessed]), *LAST_RESORT_ENCODINGS):
        text = _strict(body, encoding)
        if text is not None:
            return text, codecs.lookup(encoding).name
    return body.decode("latin-1"), "latin-1"  # pragma: no cover - latin-1 decodes every byte string


@functools.lru_cache(maxsize=64)
def _keeps_control_bytes(encoding: str) -> bool:
    """Whether ``encoding`` decodes each byte below 0x20 to itself and nothing else to a character lxml refuses:
    UTF-8 (but for U+FFFE and U+FFFF) and the single-byte ASCII supersets, but not UTF-16 or multi-byte CJK."""
    try:
        every_byte = bytes(range(256)).decode(encoding, errors="replace")
    except LookupError:
        return False
    if len(every_byte) != 256:  # a multi-byte encoding: sequences can decode to anything
        return False
    return all(
        (char == chr(byte)) if byte < 0x20 else LXML_REFUSED.match(char) is None for byte, char in enumerate(every_byte)
    )


def xml_compatible(text: str) -> str:
    """``text`` without the characters lxml refuses; form feed and vertical tab become spaces."""
    return LXML_REFUSED.sub(_space_or_nothing, text)


def _space_or_nothing(refused: re.Match[str]) -> str:
    return " " if refused.group() in "\x0b\x0c" else ""


def utf16_without_bom(head: bytes) -> str | None:
    """``"utf-16-le"`` or ``"utf-16-be"`` when ``head`` is HTML in UTF-16 without a BOM, else None.

    Recognised by the NUL high bytes of its ASCII characters on one side only, by decoding without error, and by
    holding markup (a ``<``).
    """
    head = head[: len(head) // 2 * 2]
    if len(head) < 4:
        return None
    even_nuls = head[0::2].count(0) / (len(head) / 2)
    odd_nuls = head[1::2].count(0) / (len(head) / 2)
    if odd_nuls >= UTF16_NUL_SHARE and even_nuls < odd_nuls / 8:
        encoding = "utf-16-le"
    elif even_nuls >= UTF16_NUL_SHARE and odd_nuls < even_nuls / 8:
        encoding = "utf-16-be"
    else:
        return None
    try:
        text = codecs.getincrementaldecoder(encoding)().decode(head, final=False)
    except UnicodeDecodeError:
        return None
    return encoding if "<" in text else None


def looks_binary(body: bytes, sample_size: int = SNIFF_BYTES) -> bool:
    """Whether a body served as HTML is really binary: mostly not text in its head.

    Binary: it starts with the signature of a binary format (:data:`BINARY_SIGNATURES`), or at least a quarter of
    its head is binary data bytes (NUL and other control bytes text does not hold), or at least 5 % of it is and
    the head is not valid UTF-8 either. A text page with a stray NUL or a few control bytes is text; so is UTF-16
    with or without a BOM.
    """
    sample = body[:sample_size]
    if not sample:
        return False
    if sample.startswith(BINARY_SIGNATURES):
        return True
    if read_bom(sample)[0] or utf16_without_bom(sample):
        return False
    share = (len(sample) - len(sample.translate(None, BINARY_DATA_BYTES))) / len(sample)
    if share >= MOSTLY_BINARY_SHARE:
        return True
    return share >= NOISY_BINARY_SHARE and not _valid_utf8_head(sample)


def _valid_utf8_head(head: bytes) -> bool:
    """Whether ``head`` is valid UTF-8, allowing a character cut at its end."""
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return True
