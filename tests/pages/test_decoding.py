"""Decoding pages whose charset is missing, wrong or signalled by a BOM; telling binary bodies from text."""

import gzip
import random
import zlib

import lxml.html
import pytest

from journals.pages.decoding import decode_html, decode_html_body, looks_binary

TITLE = "<html><body><h1>Zeitschrift für Optik – Straße</h1></body></html>"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"


def test_missing_charset_latin1_and_cp1252() -> None:
    assert decode_html(TITLE.replace("–", "-").encode("latin-1"), "text/html")[0] == TITLE.replace("–", "-")
    assert decode_html(TITLE.encode("cp1252"), "text/html")[0] == TITLE


def test_wrong_declared_charset_is_not_trusted() -> None:
    text, encoding = decode_html(TITLE.encode("cp1252"), "text/html; charset=utf-8")
    assert text == TITLE and encoding == "cp1252"


def test_bom_wins_over_header_and_declared_charset_is_used_when_valid() -> None:
    assert decode_html(b"\xef\xbb\xbf" + TITLE.encode(), "text/html; charset=latin-1") == (TITLE, "utf-8")
    koi8 = '<meta charset="koi8-r"><p>журнал</p>'
    assert decode_html(koi8.encode("koi8-r"), None)[0] == koi8


def test_binary_detection() -> None:
    assert looks_binary(PNG)
    assert looks_binary(bytes(range(0, 8)) * 100)
    assert not looks_binary(TITLE.encode())
    assert not looks_binary(b"")


def listing(*, comment: str = "", extra: str = "") -> str:
    """A small A–Z listing page: a comment near its top, three journal links."""
    links = "".join(f'<li><a href="/journal/{n}">Journal für Optik {n}</a></li>' for n in range(3))
    return f"<!DOCTYPE html><html><head><!-- {comment} --><title>A–Z</title></head><body><ul>{links}</ul>{extra}</body></html>"


def anchors(text: str) -> list[tuple[str, str]]:
    """``(href, text)`` of every anchor, as lxml parses ``text``."""
    return [(a.get("href"), a.text_content()) for a in lxml.html.fromstring(text).iter("a")]


def test_a_nul_in_a_comment_does_not_make_a_listing_binary_and_decodes_to_text_lxml_accepts() -> None:
    body = listing(comment="built\x00by cms").encode("utf-8")
    assert body.index(b"\x00") < 4096
    assert not looks_binary(body)
    text, encoding = decode_html(body, "text/html; charset=utf-8")
    assert encoding == "utf-8" and "\x00" not in text and "builtby cms" in text
    lxml.html.Element("div").text = text  # lxml's strict check: raises "All strings must be XML compatible"
    assert anchors(text) == [(f"/journal/{n}", f"Journal für Optik {n}") for n in range(3)]


def test_a_few_control_bytes_are_removed_and_form_feeds_become_spaces() -> None:
    body = listing(comment="\x01\x02\x1b[0m", extra="<p>Impact\x0cFactor\x0b2.5\x7f</p>").replace(
        '"/journal/1"', '"/journal/\x001"'
    )
    encoded = body.encode("cp1252")
    assert not looks_binary(encoded)
    text, _ = decode_html(encoded, "text/html")
    lxml.html.Element("div").text = text
    assert "Impact Factor 2.5\x7f" in text  # DEL is a character lxml accepts: left alone
    assert "<!-- [0m -->" in text  # the escape byte is gone too: lxml refuses it
    assert [href for href, _ in anchors(text)] == ["/journal/0", "/journal/1", "/journal/2"]  # not /journal/\ufffd1


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(PNG, id="png"),
        pytest.param(b"GIF89a\x01\x00\x01\x00\x80\x00\x00" + bytes(range(256)), id="gif"),
        pytest.param(gzip.compress(listing().encode() * 20), id="gzip"),
        pytest.param(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n" * 50, id="pdf-text-head"),
        pytest.param(zlib.compress(bytes(random.Random(1).randbytes(8000))), id="compressed-no-signature"),
        pytest.param(b"<html>" + b"\x00" * 2000 + b"</html>", id="mostly-nul"),
    ],
)
def test_binary_bodies_are_binary(body: bytes) -> None:
    assert looks_binary(body)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_text_and_decoded_as_utf16(encoding: str) -> None:
    page = listing(comment="Zeitschriften ü ß 日本")
    body = page.encode(encoding)
    assert not body.startswith((b"\xff\xfe", b"\xfe\xff"))
    assert not looks_binary(body)
    assert decode_html(body, "text/html") == (page, encoding)
    assert decode_html(body, "text/html; charset=utf-8") == (page, encoding)  # its NULs are valid UTF-8: not trusted


def test_text_in_any_8bit_encoding_with_a_stray_nul_is_text() -> None:
    for encoding in ("utf-8", "cp1252", "koi8-r"):
        body = listing(comment="\x00 журнал" if encoding == "koi8-r" else "\x00 Straße").encode(
            encoding, "xmlcharrefreplace"
        )
        assert not looks_binary(body), encoding


@pytest.mark.parametrize(
    ("body", "kept"),
    [
        ("<p>Revue d'écologie – ISSN 1234-5679</p>".encode(), True),
        (b"\xef\xbb\xbf<p>with a byte-order mark</p>", False),
        (b"<p>a control \x01 byte</p>", False),
        ("<p>a non-character \ufffe</p>".encode(), False),
        ("<p>café</p>".encode("cp1252"), False),
    ],
)
def test_the_body_is_kept_only_when_the_text_is_its_utf8_byte_for_byte(body, kept):
    decoded = decode_html_body(body, "text/html")
    assert (decoded.utf8 is body) is kept
    if kept:
        assert decoded.utf8 == decoded.text.encode("utf-8")
