"""A page that declares no charset and is not UTF-8: its charset guessed when its text reads as one non-Latin
script, Windows-1252 otherwise (:mod:`journals.pages.charsets`, through :func:`journals.pages.decoding.decode_html`)."""

from __future__ import annotations

import pytest

from journals.pages.charsets import guessed_encoding, reads_as_one_script
from journals.pages.decoding import decode_html

CHROME = (
    "<!DOCTYPE html><html><head><title>{title} | Portal</title></head><body><header><a href='/'>Portal</a>"
    "<nav><a href='/authors'>For authors</a> <a href='/about'>About</a></nav></header><main><h1>{title}</h1>"
    "<table><tr><th>Impact Factor</th><td>3.580</td></tr><tr><th>ISSN</th><td>0294-7854</td></tr></table>"
    "<p>{title} is an open access journal.</p></main><footer>Terms of use. Privacy.</footer></body></html>"
)
"""A journal page as sites make them: English chrome and markup around a title in the journal's own script."""

NON_LATIN = [
    ("shift_jis", "音響学と産科学の進歩"),
    ("shift_jis", "テクノロジー・レビュー"),
    ("cp1251", "Журнал прикладной химии"),
    ("cp1251", "ВОПРОСЫ ЭКОНОМИКИ"),
    ("euc_jp", "日本音響学会誌"),
    ("euc_kr", "한국물리학회지"),
    ("gb18030", "中国科学：数学"),
    ("big5", "臺灣醫學雜誌"),
    ("koi8_r", "Известия РАН. Серия физическая"),
    ("iso8859_5", "Вестник акустики и акушерства"),
    ("cp1253", "Επιθεώρηση Κοινωνικών Ερευνών"),
    ("iso8859_7", "Πρόοδοι στην Ακουστική"),
    ("cp1256", "مجلة العلوم"),
    ("cp874", "ความก้าวหน้าทางอะคูสติก"),
]
WESTERN = [
    "Fortschritte der Akustik für Geburtshilfe",
    "Revue française d’économie — «Études»",
    "Ärztliche Zeitschrift für Öffentliche Gesundheit",
    "Revista Española de Cardiología",
    "Acta Ortopédica São Paulo",
    "Tidskrift för Svenska Läkare",
]


@pytest.mark.parametrize(("encoding", "title"), NON_LATIN)
def test_an_undeclared_legacy_charset_is_detected(encoding: str, title: str) -> None:
    body = CHROME.format(title=title).encode(encoding)
    text, _ = decode_html(body, "text/html")
    assert text.count(title) == 3


@pytest.mark.parametrize("title", WESTERN)
def test_undeclared_western_text_stays_windows_1252(title: str) -> None:
    body = CHROME.format(title=title).encode("cp1252")
    assert decode_html(body, "text/html") == (CHROME.format(title=title), "cp1252")


def test_a_wrong_declaration_is_not_trusted_and_the_charset_still_found() -> None:
    body = CHROME.format(title="Вестник физики").encode("cp1251")
    assert "Вестник физики" in decode_html(body, "text/html; charset=utf-8")[0]


def test_ascii_and_utf8_pages_need_no_guess() -> None:
    assert guessed_encoding(b"<html><body>plain</body></html>") is None
    assert decode_html(CHROME.format(title="Журнал").encode(), "text/html")[1] == "utf-8"


def test_mojibake_does_not_read_as_one_script() -> None:
    assert reads_as_one_script("Журнал прикладной химии")
    assert reads_as_one_script("日本物理学会誌 is a journal")
    assert not reads_as_one_script("Universitдt fьr Physik")  # German read as windows-1251: letters inside words
    assert not reads_as_one_script("Рсьпдпй уфзн БкпхуфйкЮ")  # Greek read as windows-1251: capitals inside words
    assert not reads_as_one_script("ﾂ環ｩ ﾆ崘ﾆ")  # half-width katakana: what capital Cyrillic becomes in Shift_JIS
    assert not reads_as_one_script("Fortschritte für Akustik")  # Latin: left to Windows-1252
    assert not reads_as_one_script("plain ASCII")


def test_a_few_accented_letters_are_too_little_to_guess_from() -> None:
    assert decode_html("é".encode("latin-1"), "text/html") == ("é", "cp1252")
    assert decode_html("<p>Café à Genève</p>".encode("latin-1"), "text/html")[0] == "<p>Café à Genève</p>"
