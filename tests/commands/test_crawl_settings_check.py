"""``scrapy crawl`` refuses a bad value of a project setting with one line naming it, before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_scrapy
from scrapy.settings import Settings

from journals.settings_check import SETTING_RULES, SettingRule, settings_problems
from settings import default


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("DATABASE_BATCH_SIZE=abc", "setting DATABASE_BATCH_SIZE must be an integer ≥ 1, got 'abc'"),
        ("MDR_THRESHOLD=2", "setting MDR_THRESHOLD must be a number from 0 to 1, got '2'"),
        ("PROGRESS_INTERVAL=-1", "setting PROGRESS_INTERVAL must be a number > 0, got '-1'"),
        ("PROGRESS_ENABLED=maybe", "setting PROGRESS_ENABLED must be a boolean (True, False, 1 or 0), got 'maybe'"),
    ],
)
def test_a_bad_setting_is_a_one_line_error(setting: str, message: str, tmp_path: Path) -> None:
    result = run_scrapy(
        "crawl", "publisher", "-a", "start_url=http://127.0.0.1:1/x/", "-s", setting, "-O", str(tmp_path / "x.jsonl")
    )
    assert result.returncode == 2
    assert f"error: {message}" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "x.jsonl").exists()


def test_the_shipped_settings_pass() -> None:
    settings = Settings()
    settings.setmodule(default)
    assert list(settings_problems(settings)) == []


@pytest.mark.parametrize(
    ("rule", "good", "bad"),
    [
        (SETTING_RULES["DATABASE_BATCH_SIZE"], [1, "200", 10**6], [0, "-3", "1.5", "abc", True, [1]]),
        (SETTING_RULES["MDR_THRESHOLD"], [0, "0.3", 1.0], ["nan", "inf", -0.1, "1.01", "x"]),
        (SETTING_RULES["PROGRESS_INTERVAL"], ["0.5", 30], [0, "-1", "nan"]),
        (SETTING_RULES["RATE_LIMIT_DECAY"], ["0.9", 1], [0, "1.5", "-0.1"]),
        (SETTING_RULES["ROBOTSTXT_MAX_BYTES"], [512000, "1"], [0, "-1", "1.5"]),
        (SettingRule("boolean"), [True, False, 0, 1, "True", "false", "1", " 0 "], ["yes", 2, "", "maybe", "TRUE"]),
    ],
)
def test_rules_accept_what_scrapy_reads_and_refuse_the_rest(rule: SettingRule, good: list, bad: list) -> None:
    assert all(rule.accepts(value) for value in good)
    assert not any(rule.accepts(value) for value in bad)
