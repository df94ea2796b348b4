"""Benchmark: extraction per page on a learned template against lxml's own parse of that page.

The paper's speed-up is that once a template's XPaths are known, a page costs a lookup, not a search. The
bar (issue 3): extraction on a learned template costs at most half of parsing the page with lxml.
"""

from __future__ import annotations

import time

from lxml import etree

from journals.extraction.extract import extract_page
from journals.extraction.templates import LearnedRules
from journals.items import FetchedPage
from journals.pages.parsed import UTF8_PARSER, ParsedPage
from journals.sandbox.sources import PUBLISHER_NAMES
from journals.sandbox.web import SandboxWeb


def sample_pages(seed: int = 1, size: int = 2000, per_site: int = 60) -> list[tuple[str, FetchedPage]]:
    """(source, page) for the home and metrics pages of ``per_site`` journals of each publisher."""
    web = SandboxWeb(seed, size)
    pages = []
    for name in PUBLISHER_NAMES:
        templates = web.sites[name]
        for index in templates.site.journal_indices[:per_site]:
            path = templates.journal_path(index)
            pages.append((name, FetchedPage(url=path, html=web.respond(path).body.decode(), role="home")))
            if hop := templates.hop_path(index):
                pages.append((name, FetchedPage(url=hop, html=web.respond(hop).body.decode(), role="metrics")))
    return pages


def with_chrome(html: str, kilobytes: int, salt: int = 0) -> str:
    """``html`` grown to about ``kilobytes`` kB the way real publisher pages are: inline styles and scripts in the
    head, a mega-menu header, a cookie banner, a link-heavy footer, modal dialogs and tracking scripts. The
    journal's own content is left as it is; all the chrome sits where the extraction never looks for values."""
    unit = kilobytes * 1024 // 8
    rules = "".join(f".c{salt}-{i}{{margin:{i % 7}px;color:#{i * 40503 % 0xFFFFFF:06x}}}" for i in range(unit // 40))
    config = ",".join(f'"k{i}":"{i * 40503 % 100000:05d}"' for i in range(unit // 16))
    head = (
        '<meta name="viewport" content="width=device-width"><meta name="description" content="Journal home">'
        '<link rel="stylesheet" href="/static/site.css"><link rel="preconnect" href="https://cdn.example.org">'
        f"<style>{rules}</style><script>window.config={{{config}}};</script>"
        f"<script>{'function f(a){return a&&a.length?a[0]:null};' * (unit // 48)}</script>"
    )
    menu = "".join(
        f'<li class="menu-item"><a href="/subjects/{i}">Subject area {i}</a><div class="submenu"><ul>'
        + "".join(f'<li><a href="/subjects/{i}/{j}">Topic {i}.{j}</a></li>' for j in range(8))
        + "</ul></div></li>"
        for i in range(max(1, unit // 520))
    )
    top = (
        f'<header class="site-header"><div class="brand"><a href="/">Publisher</a></div><nav class="mega-menu">'
        f'<ul class="menu">{menu}</ul></nav><form class="search"><input name="q"><button>Search</button></form>'
        "</header>"
    )
    links = "".join(f'<li><a href="/info/{i}">Information page {i}</a></li>' for i in range(unit // 48))
    bottom = (
        '<div class="cookie-banner" role="dialog"><p>We use cookies to improve your experience.</p><button>Accept'
        '</button></div><footer class="site-footer"><ul class="links">'
        f"{links}</ul><p>Copyright, licensing and accessibility statements.</p></footer>"
        + "".join(f'<div class="modal" id="m{i}"><p>Sign in</p><form><input></form></div>' for i in range(5))
        + "<script>"
        + "track('pageview',{id:1});" * (unit // 24)
        + "</script>"
    )
    html = html.replace("</head>", head + "</head>", 1)
    at = html.index(">", html.index("<body")) + 1
    html = html[:at] + top + html[at:]
    return html.replace("</body>", bottom + "</body>", 1)


CHROME_KILOBYTES = (50, 100, 200, 300)
"""Page sizes of the realistic variant, cycled over the pages (real publisher pages: 50–300 kB)."""


def bench_extraction(repeats: int = 7, chrome: bool = False) -> dict[str, float]:
    """Seconds per page to parse and to extract on learned templates, and their ratio.

    Each page is parsed and then extracted from that fresh tree, as the crawl does it, both timed; a page's
    time is its best of ``repeats`` (a busy machine only ever adds time), and the ratio is that of the sums.
    Timing all parses and then all extractions instead would extract from trees 600 parses old, evicted from
    the CPU's caches, which no crawl does (that way the ratio reads 20–30 % higher). Pages whose learned rules
    miss (a null row left out) are re-learned on every run; they are counted in ``relearned_share`` and timed
    like the others, so the ratio is that of a real crawl's pages. ``chrome=True`` grows each page to a real
    publisher page's size (:func:`with_chrome`, 50–300 kB) before anything is learned or timed.
    """
    pages = sample_pages()
    if chrome:
        pages = [
            (
                source,
                FetchedPage(url=page.url, html=with_chrome(page.html, CHROME_KILOBYTES[i % 4], i % 3), role=page.role),
            )
            for i, (source, page) in enumerate(pages)
        ]
    learned_rules = LearnedRules()
    encoded = [(source, page, page.html.encode()) for source, page in pages]
    for _ in range(4):
        for source, page, body in encoded:
            extract_page(page, source, learned_rules, parsed=_parsed(page, body))
    relearned = 0
    parse = [float("inf")] * len(encoded)
    extract = [float("inf")] * len(encoded)
    clock = time.perf_counter
    for _ in range(repeats):
        relearned = 0
        for i, (source, page, body) in enumerate(encoded):
            start = clock()
            document = _parsed(page, body)
            parsed = clock()
            relearned += extract_page(page, source, learned_rules, parsed=document).learned  # type: ignore[union-attr]
            done = clock()
            parse[i] = min(parse[i], parsed - start)
            extract[i] = min(extract[i], done - parsed)
    return {
        "pages": float(len(pages)),
        "bytes_per_page": sum(len(body) for _, _, body in encoded) / len(pages),
        "parse_seconds_per_page": sum(parse) / len(pages),
        "extract_seconds_per_page": sum(extract) / len(pages),
        "ratio": sum(extract) / sum(parse),
        "relearned_share": relearned / len(pages),
    }


def _parsed(page: FetchedPage, body: bytes) -> ParsedPage:
    """The page parsed from its UTF-8 bytes, as :class:`ParsedPage` parses its text (the encoding not timed)."""
    document = ParsedPage(page.url, page.html)
    document.tree = etree.fromstring(body, UTF8_PARSER)
    return document


if __name__ == "__main__":
    for label, chrome in (("sandbox pages (about 1.2 kB)", False), ("with realistic chrome (50-300 kB)", True)):
        print(label)
        for key, value in bench_extraction(chrome=chrome).items():
            print(f"  {key:<26} {value:.6g}")
