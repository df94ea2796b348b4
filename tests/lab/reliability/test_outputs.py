"""The reliability harness's output scenarios (:mod:`lab.reliability.outputs`) find what they look for: held on
the project as it is, for both parameter sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.reliability.outputs import datasette_csv_outcome, unwritable_feed_outcome


@pytest.mark.parametrize("parameters", ["main", "held-out"])
def test_every_unwritable_feed_is_refused_in_one_line_before_any_fetch(tmp_path: Path, parameters: str) -> None:
    outcome = unwritable_feed_outcome(tmp_path, parameters)
    assert outcome.problems == []
    assert outcome.figures == {"commands_refused_in_one_line": 4, "pages_fetched": 0}


@pytest.mark.parametrize("parameters", ["main", "held-out"])
def test_datasettes_csv_exports_are_defused(tmp_path: Path, parameters: str) -> None:
    outcome = datasette_csv_outcome(tmp_path, parameters)
    assert outcome.problems == []
    assert outcome.figures["csv_exports_checked"] == 3
