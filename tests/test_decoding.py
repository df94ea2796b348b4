"""Decoding pages whose charset is missing, wrong or signalled by a BOM."""

from journals.decoding import decode_html, looks_binary

TITLE = "<html><body><h1>Zeitschrift für Optik – Straße</h1></body></html>"


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
    assert looks_binary(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert looks_binary(bytes(range(0, 8)) * 100)
    assert not looks_binary(TITLE.encode())
    assert not looks_binary(b"")
