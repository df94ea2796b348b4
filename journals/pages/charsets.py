"""Guess the charset of a page that declares none (or a wrong one) and is not UTF-8: a Shift_JIS or windows-1251
journal page read as Windows-1252 would store its title as mojibake.

The guess is charset-normalizer's, made on the page's non-ASCII text alone: on a whole page, whose markup and
English chrome are ASCII, its samples miss the few bytes that tell (a windows-1251 title on a 4 kB page came out
as the Ukrainian DOS code page). A guess is taken only when the text it decodes reads as one writing system other
than Latin (:func:`reads_as_one_script`): the detector mistakes plain Western text for Baltic, Central European or
even Chinese encodings, and the distinction between Western code pages cannot be told from a few accented letters,
so Latin-script text is left to the caller's Windows-1252.
"""

from __future__ import annotations

import codecs
import itertools
import re
import unicodedata
from collections import Counter

from charset_normalizer import from_bytes

SCANNED_BYTES = 2 * 1024 * 1024
"""How much of a body is searched for non-ASCII text (the first 2 MB: a page's own text comes early)."""
SAMPLE_BYTES = 32 * 1024
"""How much non-ASCII text is handed to the detector and judged."""
WEB_ENCODINGS = frozenset(
    codecs.lookup(name).name
    for name in (
        # The legacy encodings of the WHATWG Encoding Standard (those browsers decode), under the names the
        # detector gives them: Windows' supersets and the JIS X 0213 forms of the East Asian ones among them.
        "cp866", "iso8859-2", "iso8859-3", "iso8859-4", "iso8859-5", "iso8859-6", "iso8859-7", "iso8859-8",
        "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-15", "iso8859-16", "koi8-r", "koi8-u", "mac-roman",
        "mac-cyrillic", "cp874", "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257",
        "cp1258", "gbk", "gb2312", "gb18030", "big5", "big5hkscs", "cp950", "euc-jp", "euc-jis-2004",
        "euc-jisx0213", "iso2022-jp", "shift-jis", "shift-jis-2004", "shift-jisx0213", "cp932", "euc-kr", "cp949",
    )
)  # fmt: skip
"""The encodings a guess may name: a page in one browsers cannot read (Korean Johab, the Mac's Greek, DOS code
pages but Russian's) is no page of the web, and the detector's short-sample guesses often name them."""
WEB_NAMES = {"cp1125": "cp866"}
"""A guess named by an encoding the web does not use but whose letters are a web encoding's: the Ukrainian DOS
code page is Russian DOS (IBM866) with a few letters of its own."""

ONE_SCRIPT_SHARE = 0.9
"""Share of the non-ASCII letters that must belong to the text's main script."""
FEWEST_LETTERS = 6
"""Non-ASCII letters a text must hold for a guess to be judged at all: a lone "é" reads as a Cyrillic "щ"."""
MOST_SYMBOLS_SHARE = 0.05
"""Largest share of the non-ASCII characters that may be symbols, controls or unassigned (mojibake is full of
box-drawing characters, currency signs and the like)."""
MOST_MIXED_WORDS_SHARE = 0.2
"""Largest share of the words holding non-ASCII letters that may mix them with ASCII letters: real Cyrillic or Greek
words are written in their script alone, while a Western text misread puts a stray letter inside Latin words
("fьr", "Universitдt")."""

_TEXT_WITH_HIGH_BYTES = re.compile(rb"[^<>]*[\x80-\xff][^<>]*")
_WORD = re.compile(r"[^\W\d_]+")

SCRIPT_GROUPS = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "FULLWIDTH": "CJK", "IDEOGRAPHIC": "CJK"}
"""Scripts written together, named as one: Japanese mixes kanji, hiragana and katakana in one sentence."""
UNLIKELY_SCRIPTS = frozenset({"LATIN", "HALFWIDTH", "HANGUL LETTER"})
"""Main scripts a guess is never taken for: Latin (left to Windows-1252), the half-width katakana that capital
Cyrillic letters become in Shift_JIS, and the lone Hangul letters (jamo) that other CJK bytes become in EUC-KR;
real text writes Korean in syllables and Japanese in full-width kana."""
MOST_CAPITALS_INSIDE_SHARE = 0.1
"""Largest share of the words of a cased script (Cyrillic, Greek) that may hold a capital after a small letter
("БкпхуфйкЮ": Greek read as Cyrillic)."""


def guessed_encoding(body: bytes) -> str | None:
    """The codec name of a body that is neither UTF-8 nor valid in its declared charset, when its non-ASCII text
    decodes to one non-Latin script in a guess of the detector; None otherwise (the caller's fallback decides)."""
    sample = non_ascii_text(body)
    if not sample:
        return None
    readable: list[tuple[int, float, str]] = []
    for match in from_bytes(sample):
        try:
            encoding = codecs.lookup(WEB_NAMES.get(match.encoding, match.encoding)).name
            if encoding not in WEB_ENCODINGS:
                continue
            text = sample.decode(encoding)
            body.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            continue
        if reads_as_one_script(text):
            readable.append((-symbols_in(text), match.coherence, encoding))
    # A single-byte code page reads any other's letters as letters of its own script: the fewest symbols, then the
    # detector's language coherence (how far the letters' frequencies are its language's) tell them apart; ties
    # keep the detector's order.
    return max(readable, key=lambda guess: guess[:2])[2] if readable else None


def non_ascii_text(body: bytes) -> bytes:
    """The runs of a body's text (between tags) that hold a non-ASCII byte, one a line, up to
    :data:`SAMPLE_BYTES`."""
    runs: list[bytes] = []
    size = 0
    for match in _TEXT_WITH_HIGH_BYTES.finditer(body, 0, SCANNED_BYTES):
        run = match.group().strip()
        runs.append(run)
        size += len(run) + 1
        if size >= SAMPLE_BYTES:
            break
    return b"\n".join(runs)[:SAMPLE_BYTES]


def script_of(char: str) -> str:
    """The writing system of a letter, from its Unicode name (``CYRILLIC``, ``GREEK``, ``LATIN``; ``CJK`` for
    Chinese, Japanese and their width forms; ``HANGUL``…)."""
    name = unicodedata.name(char, "")
    if name.startswith("HANGUL LETTER"):
        return "HANGUL LETTER"
    first = name.split(" ", 1)[0].split("-", 1)[0]  # KATAKANA-HIRAGANA PROLONGED SOUND MARK is Japanese
    return SCRIPT_GROUPS.get(first, first)


def symbols_in(text: str) -> int:
    """The non-ASCII symbols, controls and unassigned characters of ``text``: what a wrong code page makes of
    letters (``∆урнал``)."""
    return sum(unicodedata.category(char)[0] in "SC" for char in text if ord(char) > 0x7F)


def reads_as_one_script(text: str) -> bool:
    """Whether the non-ASCII part of ``text`` reads as words of one writing system other than Latin: letters
    (punctuation allowed, hardly a symbol), nine in ten of one script, written apart from ASCII letters."""
    non_ascii = [char for char in text if ord(char) > 0x7F and not char.isspace()]
    if not non_ascii:
        return False
    categories = [unicodedata.category(char) for char in non_ascii]
    symbols = sum(category[0] in "SC" for category in categories)
    if symbols > MOST_SYMBOLS_SHARE * len(non_ascii):
        return False
    letters = [char for char, category in zip(non_ascii, categories, strict=True) if category[0] in "LM"]
    if len(letters) < FEWEST_LETTERS:
        return False
    scripts = Counter(script_of(char) for char in letters)
    script, count = scripts.most_common(1)[0]
    if script in UNLIKELY_SCRIPTS or count < ONE_SCRIPT_SHARE * scripts.total():
        return False
    words = [word for word in _WORD.findall(text) if not word.isascii()]
    mixed = sum(any(char.isascii() for char in word) for word in words)
    capitals_inside = sum(any(a.islower() and b.isupper() for a, b in itertools.pairwise(word)) for word in words)
    return mixed <= MOST_MIXED_WORDS_SHARE * len(words) and capitals_inside <= MOST_CAPITALS_INSIDE_SHARE * len(words)
