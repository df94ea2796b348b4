"""The progress extension in a real crawl: periodic lines per source when the output is not a terminal,
nothing under scrapyd."""

from pathlib import Path

from conftest import RunningSandbox, run_scrapy


def crawl(sandbox: RunningSandbox, tmp_path: Path, env: dict[str, str] | None = None) -> str:
    starts = f"{sandbox.start_url('bmj')},{sandbox.start_url('nature')}"
    result = run_scrapy(
        "crawl",
        "publisher",
        "-a",
        f"start_urls={starts}",
        "-s",
        "PROGRESS_INTERVAL=0.5",
        "-s",
        f"DATABASE_URL=sqlite:///{tmp_path / 'p.db'}",
        "-O",
        str(tmp_path / "p.jsonl"),
        env=env,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stderr


def test_progress_lines_per_source(sandbox: RunningSandbox, tmp_path: Path) -> None:
    log = crawl(sandbox, tmp_path)
    last = {
        source: line
        for line in log.splitlines()
        if "Progress: " in line
        for source in ("bmj", "nature")
        if f"Progress: {source} " in line
    }
    assert set(last) == {"bmj", "nature"}
    journals = {s: len(j["journals"]) for s, j in sandbox.truth["sites"].items()}
    assert f"journals {journals['bmj']:>6}" in last["bmj"]
    assert all("letters 27/27" in line for line in last.values())


def test_silent_under_scrapyd(sandbox: RunningSandbox, tmp_path: Path) -> None:
    assert "Progress: " not in crawl(sandbox, tmp_path, env={"SCRAPY_JOB": "job-1"})
