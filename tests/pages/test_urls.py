"""``join_url`` and ``split_url`` answer what ``urljoin`` and ``urlsplit`` answer, errors included."""

from collections.abc import Callable
from urllib.parse import SplitResult, urljoin, urlsplit

from hypothesis import given, settings
from hypothesis import strategies as st

from journals.pages.urls import host_of, join_url, split_url

PIECES = [
    "/", "//", "a", "b.html", "..", ".", "?", "?q=1", "#", "#f", "#!/r", ";p", "\t", "\n", " ", "http://", "https://",
    "HTTP://", "x.org", "[::1]", "[", "é", "ü.de", "%20", ":80", "//y.org", "&", "=", "mailto:", "@",
]  # fmt: skip
"""Pieces URLs are made of, the ones the standard functions treat specially among them."""
BASES = [
    "https://www.x.org/a/b.html", "http://x.org", "http://x.org/a/?q=1", "https://x.org/a/b/", "http://u@h/a;b?c#d",
    "ftp://x/y", "file:///tmp/x.html", "",
]  # fmt: skip

urls = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map("".join)


def _answer(function: Callable[..., object], *args: str) -> object:
    try:
        return function(*args)
    except ValueError:
        return ValueError


def _origin(base: str) -> str:
    parts = urlsplit(base)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""


@settings(max_examples=2000, deadline=None, database=None)
@given(st.sampled_from(BASES), urls)
def test_join_url_is_urljoin(base: str, href: str) -> None:
    assert _answer(join_url, base, _origin(base), href) == _answer(urljoin, base, href)


@settings(max_examples=2000, deadline=None, database=None)
@given(urls)
def test_split_url_is_urlsplit(url: str) -> None:
    assert _answer(split_url, url) == _answer(urlsplit, url)


def test_plain_links_are_answered_as_urljoin_answers_them() -> None:
    base, origin = "https://www.x.org/journals/a-z", "https://www.x.org"
    assert join_url(base, origin, "/journal/acta?id=3") == "https://www.x.org/journal/acta?id=3"
    assert join_url(base, origin, "https://other.org/j/acta#top") == "https://other.org/j/acta#top"
    assert join_url(base, origin, "https://other.org/j/acta?") == "https://other.org/j/acta"
    assert join_url(base, origin, "/a/../b") == "https://www.x.org/b"
    assert split_url("https://www.x.org/j/a?x=1#f") == ("https", "www.x.org", "/j/a", "x=1", "f")


@settings(max_examples=1000, deadline=None, database=None)
@given(urls)
def test_host_of_is_the_hostname(url: str) -> None:
    parts = _answer(urlsplit, url)
    if parts is not ValueError:
        assert isinstance(parts, SplitResult)
        assert _answer(host_of, parts) == _answer(lambda p: p.hostname or "", parts)
