"""``Retry-After`` as :mod:`journals.downloadermiddlewares.ratelimit` reads it. The crawls of rate-limited sites are in
``tests/lab/reliability/test_rules_crawl.py``."""

from __future__ import annotations

from datetime import UTC, datetime

from journals.downloadermiddlewares.ratelimit import retry_after_seconds

NOW = datetime(2026, 12, 4, 12, 0, 0, tzinfo=UTC)


def test_retry_after_in_seconds() -> None:
    assert retry_after_seconds("5", NOW) == 5.0
    assert retry_after_seconds(b" 120 ", NOW) == 120.0


def test_retry_after_as_an_http_date() -> None:
    assert retry_after_seconds("Fri, 04 Dec 2026 12:00:30 GMT", NOW) == 30.0
    assert retry_after_seconds("Fri, 04 Dec 2026 11:00:00 GMT", NOW) == 0.0


def test_no_or_unreadable_retry_after() -> None:
    assert retry_after_seconds(None, NOW) is None
    assert retry_after_seconds("", NOW) is None
    assert retry_after_seconds("soon", NOW) is None
    assert retry_after_seconds("-5", NOW) is None
