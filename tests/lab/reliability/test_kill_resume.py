"""``kill -9`` of a crawl, then a resume with the same ``JOBDIR``: the database equals that of an uninterrupted
crawl, no journal lost, none twice (:mod:`journals.spidermiddlewares.resume`).

The first test kills only once Scrapy's duplicate filter has reached the disk (its file is written through a
buffer, so 70 % of the pages did not always mean it had: CI once killed before): there a plain ``JOBDIR`` resume
filters out the start page and loses every journal not stored (36 of 156 at 80 %, measured). Before that, a
plain resume happens to crawl everything again; ``make reliability`` draws its kill points at random.
"""

import shutil
from datetime import datetime

from reliability_fixtures import workspace_fixture  # noqa: F401 (a fixture)
from sqlalchemy import create_engine, select

from journals.spidermiddlewares.resume import read_job_state
from journals.store.models import Journal
from lab.reliability.scenarios import Workspace, kill_and_resume


def test_killed_crawl_resumes_to_the_uninterrupted_database(workspace: Workspace) -> None:
    outcome = kill_and_resume(workspace, "kill", [0.7], seen_on_disk=True)
    assert outcome.held, outcome
    assert outcome.figures["requests_seen_bytes_at_kills"][0] > 0
    assert outcome.figures["journals_lost"] == 0
    # JOBDIR pickles every request to disk (each names its listing page by URL; none carries a page).
    assert outcome.figures["resume_requests_on_disk"] > 0
    assert outcome.figures["resume_requests_in_memory"] == 0


def test_crawl_killed_twice_resumes_to_the_uninterrupted_database(workspace: Workspace) -> None:
    outcome = kill_and_resume(workspace, "killtwice", [0.6, 0.85])
    assert outcome.held, outcome
    state = read_job_state(workspace.folder / "killtwice.job")
    assert state is not None
    assert state["finish_reason"] == "finished"


def test_a_repair_skips_only_journals_this_job_stored(workspace: Workspace) -> None:
    """Journals an older crawl stored are crawled again by the job, not skipped as done."""
    shutil.copy(workspace.folder / "baseline.db", workspace.folder / "refresh.db")
    outcome = kill_and_resume(workspace, "refresh", [0.75])
    assert outcome.held, outcome
    state = read_job_state(workspace.folder / "refresh.job")
    assert state is not None
    job_started = datetime.fromisoformat(state["started_at"])
    engine = create_engine(f"sqlite:///{workspace.folder / 'refresh.db'}")
    with engine.connect() as conn:
        crawled = conn.execute(select(Journal.crawled_at)).scalars().all()
    engine.dispose()
    assert crawled
    assert min(crawled) >= job_started
