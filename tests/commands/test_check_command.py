"""``scrapy check``: with no contracts to run, the spider that crawls any site is checked on a sandbox site whose
journals are known, and the real publishers' spiders are said to be unchecked, rather than "0 contracts, OK"."""

from __future__ import annotations

from conftest import run_scrapy


def test_check_crawls_the_sandbox_with_the_publisher_spider() -> None:
    result = run_scrapy("check")
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert "publisher: crawled the sandbox's openaccess site: 33 of 33 journals found with their title: OK" in lines
    assert "elsevier: not checked (no contracts; a real publisher's site is not crawled by a check)" in lines
    assert "Ran 0 contracts" not in result.stdout + result.stderr


def test_check_lists_no_contracts_as_scrapy_does() -> None:
    result = run_scrapy("check", "--list")
    assert result.returncode == 0 and "publisher" not in result.stdout
