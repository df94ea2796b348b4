"""``scrapy export``: the journals table from the database. The bar: the main job run twice against a sandbox that
gets a new port each time finds in the table exactly the world's journals, once each, under the same keys."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from conftest import run_scrapy, serve_sandbox
from scrapy.settings import Settings

from journals.commands.export import write_rows
from journals.domain.sites import site_names
from journals.sandbox.truth import world_truth
from journals.sandbox.web import SandboxWeb
from journals.table.columns import table_columns
from settings import default

JOURNALS = 200
SOURCES = site_names("publisher", "aggregator", "realweb")


def main_job(database: str, folder: Path) -> tuple[list[dict[str, str]], list[dict[str, object]], str]:
    """`make crawl`'s job on a fresh sandbox: crawl every source, then export the table to CSV and JSON; returns
    both files' rows and the sandbox's origin."""
    sandbox = serve_sandbox(1, JOURNALS)
    try:
        starts = ",".join(sandbox.start_url(source) for source in SOURCES)
        crawl = run_scrapy(
            "crawl",
            "publisher",
            "-a",
            f"start_urls={starts}",
            "-O",
            str(folder / "journals-sources.csv"),
            "-s",
            database,
        )
        assert crawl.returncode == 0, crawl.stderr[-3000:]
    finally:
        sandbox.server.shutdown()
        sandbox.server.server_close()
    export = run_scrapy("export", str(folder / "journals.csv"), str(folder / "journals.json"), "-s", database)
    assert export.returncode == 0, export.stderr[-3000:]
    assert f"journals table: {JOURNALS} journals" in export.stdout
    with (folder / "journals.csv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    return rows, json.loads((folder / "journals.json").read_text(encoding="utf-8")), sandbox.base_url


def test_the_main_job_twice_finds_the_worlds_journals_once_each_under_the_same_keys(tmp_path: Path) -> None:
    database = f"DATABASE_URL=sqlite:///{tmp_path / 'journals.db'}"
    world = world_truth(SandboxWeb(seed=1, size=JOURNALS), "http://127.0.0.1")["relation"]
    titles = sorted(journal["title"] for journal in world)
    issns = {journal["issn"] for journal in world} | {journal["eissn"] for journal in world}
    runs = [main_job(database, tmp_path) for _ in range(2)]
    assert runs[0][2] != runs[1][2]  # two ports
    for rows, items, _ in runs:
        assert sorted(row["title"] for row in rows) == titles  # the world's journals, once each
        assert len({row["key"] for row in rows}) == len(rows) == JOURNALS
        assert sum(row["key"] in issns for row in rows) >= 0.98 * JOURNALS  # ISSN-Ls, an id only where none was read
        assert list(rows[0]) == list(table_columns())
        assert [item["key"] for item in items] == [row["key"] for row in rows]
        assert not list(tmp_path.glob("*.tmp"))
    first, second = ({row["title"]: row["key"] for row in rows} for rows, _, _ in runs)
    assert first == second  # the same keys


def test_a_stopped_export_leaves_the_previous_file_whole(tmp_path: Path) -> None:
    out = tmp_path / "journals.csv"
    out.write_text("key,title\nprevious,file\n", encoding="utf-8")

    def rows_then_stop():
        yield {"key": "0140-6736", "title": "The Lancet"}
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_rows(rows_then_stop(), out, ("key", "title"), Settings(vars(default)))
    assert out.read_text(encoding="utf-8") == "key,title\nprevious,file\n"
    assert list(tmp_path.iterdir()) == [out]


def test_a_finished_export_replaces_the_file(tmp_path: Path) -> None:
    out = tmp_path / "journals.json"
    out.write_text("[]", encoding="utf-8")
    write_rows(
        [{"key": "0140-6736", "open_access": True, "x": 1}], out, ("key", "open_access"), Settings(vars(default))
    )
    assert json.loads(out.read_text(encoding="utf-8")) == [{"key": "0140-6736", "open_access": True}]


def test_export_refuses_a_missing_database_and_an_unknown_format(tmp_path: Path) -> None:
    missing = run_scrapy("export", str(tmp_path / "t.csv"), "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'none.db'}")
    assert missing.returncode != 0 and "no database at" in missing.stderr
    assert not (tmp_path / "none.db").exists()
    unknown = run_scrapy("export", str(tmp_path / "t.xlsx"), "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'none.db'}")
    assert unknown.returncode != 0 and "no exporter for .xlsx" in unknown.stderr


def test_export_and_changes_refuse_a_file_they_cannot_write_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    database = f"DATABASE_URL=sqlite:///{tmp_path / 'none.db'}"
    for command in (("export", str(tmp_path / "a-file" / "t.csv")), ("changes", "-O", "/proc/t.csv")):
        refused = run_scrapy(*command, "-s", database)
        assert refused.returncode == 2, refused.stderr
        assert "cannot write" in refused.stderr and "Traceback" not in refused.stderr
    assert not (tmp_path / "none.db").exists()
