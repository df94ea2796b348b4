"""``scrapy crawl`` refuses a ``DATABASE_URL`` it cannot use with one line and exit status 2, before anything starts:
an in-memory SQLite database (whose rows would vanish), a port out of range, a query parameter of the wrong type."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from conftest import run_scrapy
from scrapy.exceptions import UsageError
from scrapy.settings import Settings

from journals.commands.crawl import Command
from settings import default

IN_MEMORY = "an in-memory SQLite database is private to each connection and thread"


def test_an_in_memory_database_ends_the_crawl_with_one_line_and_status_2(tmp_path: Path) -> None:
    feed = tmp_path / "x.jsonl"
    result = run_scrapy(
        "crawl", "publisher", "-a", "start_url=http://127.0.0.1:9/", "-s", "DATABASE_URL=sqlite:///", "-O", str(feed)
    )
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and f"error: cannot use DATABASE_URL sqlite:///: {IN_MEMORY}" in errors[0]
    assert "Traceback" not in result.stderr
    assert not feed.exists()


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("sqlite:///", IN_MEMORY),
        ("sqlite:///{tmp}/j.db?timeout=abc", "query parameter timeout must be a number ≥ 0, got 'abc'"),
        ("postgresql://u@127.0.0.1:99999/db", "port 99999 is out of range: it must be an integer from 1 to 65535"),
        ("postgresql://u@127.0.0.1/db?connect_timeout=abc", "query parameter connect_timeout must be an integer ≥ 0"),
    ],
)
def test_the_crawl_command_refuses_each_unusable_url_as_a_usage_error(
    url: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same check through the command's own ``run``: a ``UsageError`` is what Scrapy prints as one line and
    exit status 2 (shown above for one URL)."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    command = Command()
    command.settings = Settings()
    command.settings.setmodule(default)
    command.settings.set("DATABASE_URL", url.format(tmp=tmp_path), priority="cmdline")
    with pytest.raises(UsageError) as raised:
        command.run(["publisher"], argparse.Namespace(spargs={"start_url": "http://127.0.0.1:9/"}))
    assert message in str(raised.value) and "\n" not in str(raised.value)
    assert not raised.value.print_help
    assert list(tmp_path.iterdir()) == []
