"""What a user reads in a plain crawl's log: no warning about what is working as meant (no ``JOBDIR``, a site's
dead links), and no "0/27 letters" for a site that lists its journals without letters."""

from __future__ import annotations

from pathlib import Path

from conftest import RunningSandbox, run_scrapy


def test_a_plain_crawl_warns_of_nothing_that_works_as_meant(sandbox: RunningSandbox, tmp_path: Path) -> None:
    starts = ",".join(sandbox.start_url(site) for site in ("oxford", "bmj", "openaccess"))
    result = run_scrapy(
        "crawl", "publisher", "-a", f"start_urls={starts}", "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'j.db'}",
        "-s", "PROGRESS_INTERVAL=0.5",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    log = result.stderr
    assert "Disabled journals.spidermiddlewares.resume.ResumeMiddleware" not in log
    # oxford and bmj link journals that are gone (404): counted and logged, but as INFO
    gone = [line for line in log.splitlines() if "Page failed (http_404)" in line]
    assert gone and all("] INFO: Page failed" in line for line in gone)
    assert "'journals/failed_pages/http_404': " in log
    progress = [line for line in log.splitlines() if "Progress: openaccess" in line]
    assert progress and all("letters     -" in line for line in progress)
    assert not [line for line in log.splitlines() if "] WARNING: " in line]
