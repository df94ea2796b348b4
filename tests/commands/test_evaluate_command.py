"""``scrapy evaluate``: the paper's Table 3 from items and truth; the pure scoring underneath."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from journals.extraction.evaluation import evaluate
from tests.conftest import run_scrapy

TRUTH = {
    "sites": {
        "pub": {
            "journals": [
                {"url": "u1", "values": {"title": "A", "issn": "0941-0325", "impact_factor": 4.117, "sjr": None}},
                {"url": "u2", "values": {"title": "B", "issn": None, "impact_factor": 1.5, "sjr": None}},
                {"url": "u3", "values": {"title": "C", "issn": "0389-813X", "impact_factor": None, "sjr": None}},
            ]
        }
    }
}
ITEMS = [
    {"source": "pub", "url": "u1", "title": "a ", "issn": "0941-0325", "impact_factor": 4.1170000001},
    {"source": "pub", "url": "u2", "title": "B", "issn": "0389-813X", "impact_factor": 1.6},
    {"source": "pub", "url": "u9", "title": "Z"},
]


def test_scoring_counts_tp_fp_fn_and_coverage() -> None:
    report = evaluate(TRUTH, ITEMS)
    score = report.sites["pub"]
    assert (score.matched, score.journals, score.extra_items) == (2, 3, 1)
    assert (score.cells["title"].tp, score.cells["title"].fp, score.cells["title"].fn) == (2, 1, 1)
    issn = score.cells["issn"]
    assert (issn.tp, issn.fp, issn.fn) == (1, 1, 1)
    impact = score.cells["impact_factor"]
    assert (impact.tp, impact.fp, impact.fn) == (1, 1, 1)
    assert impact.precision == impact.recall == impact.f1 == pytest.approx(0.5)
    assert "sjr" not in score.cells
    assert report.coverage == pytest.approx(2 / 3)


def test_evaluate_command_reads_jsonl_and_csv(tmp_path: Path) -> None:
    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps(TRUTH), encoding="utf-8")
    jsonl = tmp_path / "items.jsonl"
    jsonl.write_text("".join(json.dumps(i) + "\n" for i in ITEMS), encoding="utf-8")
    table = tmp_path / "items.csv"
    with table.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, ["source", "url", "title", "issn", "impact_factor", "attributes"])
        writer.writeheader()
        writer.writerows({**i, "attributes": "{}"} for i in ITEMS)
    outputs = []
    for items in (jsonl, table):
        result = run_scrapy("evaluate", "--truth", str(truth), str(items))
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    assert "impact_factor" in outputs[0]
    assert "macro F1" in outputs[0]
    assert "2/3" in outputs[0]


def test_evaluate_command_needs_items() -> None:
    result = run_scrapy("evaluate", "--truth", "/nonexistent.json")
    assert result.returncode != 0


def test_a_site_the_crawl_never_visited_is_left_out_and_named(tmp_path: Path) -> None:
    truth = tmp_path / "truth.json"
    never = {"journals": [{"url": "v1", "values": {"title": "V", "issn": None, "impact_factor": 2.0, "sjr": None}}]}
    truth.write_text(json.dumps({"sites": {**TRUTH["sites"], "never": never}}), encoding="utf-8")
    items = tmp_path / "items.jsonl"
    items.write_text("".join(json.dumps(i) + "\n" for i in ITEMS), encoding="utf-8")
    alone = run_scrapy("evaluate", "--truth", str(truth), str(items))
    assert alone.returncode == 0, alone.stderr
    assert "coverage never" not in alone.stdout and "coverage pub" in alone.stdout
    assert "not crawled (no item from them), left out: never; name one with --site to score it" in alone.stdout
    named = run_scrapy("evaluate", "--truth", str(truth), str(items), "--site", "never", "--site", "pub")
    assert "coverage never      0/1" in named.stdout and "left out" not in named.stdout
