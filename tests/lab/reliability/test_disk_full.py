"""A full disk under the database, then a read-only one: a clear error, a sound database (``PRAGMA
integrity_check``), and once there is room again a ``JOBDIR`` resume completes the crawl."""

from pathlib import Path

from reliability_fixtures import workspace_fixture  # noqa: F401 (a fixture)

from lab.reliability.scenarios import Workspace, disk_full


def test_full_then_read_only_disk_gives_a_clear_error_and_a_sound_database(
    workspace: Workspace, tmp_path: Path
) -> None:
    outcome = disk_full(workspace, tmp_path, size_kb=512)
    assert outcome.held, outcome
    assert outcome.figures["finish_reason"] == "database_error"
    assert outcome.figures["integrity_check_when_full"] == "ok"
    assert outcome.figures["resume_finish_reason"] == "finished"
    assert outcome.figures["integrity_check_after_resume"] == "ok"
    assert outcome.figures["read_only_exit_code"] != 0
