"""``-O`` to a file that cannot be written (its folder is a file, or a folder that refuses files such as
``/proc``): ``scrapy crawl`` and ``scrapy integrate`` refuse it in one line with a non-zero exit, before any page is
fetched or any work done."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import RunningSandbox, run_scrapy

from journals.exporters import feed_path_problem, local_feed_path


def unwritable_feeds(tmp_path: Path) -> list[tuple[str, str]]:
    """(feed path, what the one line says): a parent that is a file, a deeper one, and two kernel folders."""
    (tmp_path / "plain-file").write_text("in the way", encoding="utf-8")
    return [
        (str(tmp_path / "plain-file" / "journals.csv"), "plain-file is a file, not a folder"),
        (str(tmp_path / "plain-file" / "deeper" / "journals.json"), "plain-file is a file, not a folder"),
        ("/proc/journals.csv", "no file can be created in /proc"),
        ("/sys/journals.jsonl", "no file can be created in /sys"),
    ]


@pytest.mark.parametrize("case", range(4))
def test_crawl_refuses_a_feed_it_cannot_write_before_fetching_anything(
    sandbox: RunningSandbox, tmp_path: Path, case: int
) -> None:
    feed, reason = unwritable_feeds(tmp_path)[case]
    database = tmp_path / "journals.db"
    result = run_scrapy(
        "crawl", "publisher", "-a", f"start_url={sandbox.start_url('openaccess')}", "-O", feed,
        "-s", f"DATABASE_URL=sqlite:///{database}",
    )  # fmt: skip
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and f"error: cannot write the feed {feed}: " in errors[0] and reason in errors[0]
    assert "Traceback" not in result.stderr
    assert "Spider opened" not in result.stderr and not database.exists()


def test_integrate_refuses_an_export_it_cannot_write_before_integrating(tmp_path: Path) -> None:
    for feed, reason in unwritable_feeds(tmp_path):
        result = run_scrapy("integrate", "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'absent.db'}", "-O", feed)
        assert result.returncode != 0
        assert f"error: cannot write -O {feed}: " in result.stderr and reason in result.stderr
        assert "Traceback" not in result.stderr


def test_a_writable_feed_passes_and_its_missing_folders_are_made(tmp_path: Path) -> None:
    feed = tmp_path / "new" / "folder" / "journals.csv"
    assert feed_path_problem(feed) is None
    assert feed.parent.is_dir() and list(feed.parent.iterdir()) == []  # the probe file is gone
    assert feed_path_problem(tmp_path) == f"{tmp_path} is a folder, not a file"


def test_only_local_feed_uris_are_checked() -> None:
    assert local_feed_path("journals.csv") == Path("journals.csv")
    assert local_feed_path("file:///tmp/a%20b.json") == Path("/tmp/a b.json")
    assert local_feed_path("s3://bucket/journals.csv") is None
    assert local_feed_path("journals-%(time)s.csv") is None
