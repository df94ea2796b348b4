"""robots.txt read as RFC 9309 says (:mod:`journals.downloadermiddlewares.robotstxt`): what a status means, how far a body is read. The
crawls of sites whose robots.txt cannot be read are in ``tests/lab/reliability/test_rules_crawl.py``."""

from __future__ import annotations

import gzip
import zlib

import pytest
from protego import Protego

from journals.downloadermiddlewares.robotstxt import DISALLOW_ALL, decompressed_prefix, first_lines, robots_verdict
from lab.reliability.rules import oversized_robots


@pytest.mark.parametrize(
    ("status", "verdict"),
    [
        *[(200, "read"), (404, "unavailable"), (403, "unavailable"), (410, "unavailable"), (301, "unavailable")],
        *[(429, "unreachable"), (500, "unreachable"), (503, "unreachable"), (504, "unreachable")],
    ],
)
def test_a_status_means_what_rfc_9309_says(status: int, verdict: str) -> None:
    assert robots_verdict(status) == verdict


def test_an_unreachable_robots_txt_disallows_everything() -> None:
    assert not Protego.parse(DISALLOW_ALL.decode()).can_fetch("http://x.org/journals", "journals")


def test_a_long_robots_txt_is_read_on_its_first_full_lines() -> None:
    body = oversized_robots(2_000_000)
    head = first_lines(body, 500 * 1024)
    assert len(head) <= 500 * 1024 and head.endswith(b"\n")
    assert not Protego.parse(head.decode()).can_fetch("http://x.org/journals", "journals")
    assert first_lines(b"User-agent: *\n", 100) == b"User-agent: *\n"


def test_a_gzip_bomb_is_decompressed_no_further_than_the_limit() -> None:
    bomb = gzip.compress(oversized_robots(20_000_000))
    head = decompressed_prefix(bomb, b"gzip", 500 * 1024)
    assert head is not None and 500 * 1024 <= len(head) <= 500 * 1024 + 1
    assert head.startswith(b"User-agent: *\nDisallow: /\n")


def test_a_truncated_or_deflated_body_gives_what_it_holds() -> None:
    text = b"User-agent: *\nDisallow: /private\n" * 100
    truncated = decompressed_prefix(gzip.compress(text)[: len(gzip.compress(text)) // 2], b"gzip", 10_000)
    assert truncated and text.startswith(truncated)
    assert decompressed_prefix(zlib.compress(text), b"deflate", 10_000) == text
    raw = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    assert decompressed_prefix(raw.compress(text) + raw.flush(), b"deflate", 10_000) == text
    assert decompressed_prefix(b"not gzip", b"gzip", 100) == b""
    assert decompressed_prefix(text, b"br", 100) is None
