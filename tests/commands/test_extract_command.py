"""``scrapy extract``: one page's attribute-value pairs with XPath and method, from a file or a URL."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import RunningSandbox, run_scrapy

PAGE = (
    "<html><head><title>Acta Testica | Site</title></head><body><main><h1>Acta Testica</h1>"
    "<p>Print ISSN: 3372-1653 | Online ISSN: 7877-9537</p><p>The journal's 2024 Impact Factor is 4.117.</p>"
    "</main><aside><p>Impact Factor: 9.999</p></aside></body></html>"
)


def test_extract_a_file_as_json(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    result = run_scrapy("extract", str(page), "--json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["title"]["value"] == "Acta Testica"
    assert found["issn"]["value"] == "3372-1653"
    assert found["eissn"]["value"] == "7877-9537"
    assert found["impact_factor"] == {
        "value": 4.117,
        "raw": "4.117",
        "year": 2024,  # "The journal's 2024 Impact Factor is 4.117."
        "xpath": found["impact_factor"]["xpath"],
        "method": "heuristic",
    }
    assert "Impact Factor" in found["impact_factor"]["xpath"]


def test_extract_a_url_as_a_table(sandbox: RunningSandbox) -> None:
    journal = sandbox.truth["sites"]["oxford"]["journals"][0]
    result = run_scrapy("extract", journal["metrics_url"], "--role", "metrics")
    assert result.returncode == 0, result.stderr
    assert journal["values"]["eissn"] in result.stdout
    assert "heuristic" in result.stdout


def test_extract_reports_unreadable_input() -> None:
    result = run_scrapy("extract", "/nonexistent/page.html")
    assert result.returncode != 0
    assert "cannot read" in result.stderr


def test_extract_refuses_a_binary_file_with_one_line(tmp_path: Path) -> None:
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 40)
    result = run_scrapy("extract", str(pdf))
    assert result.returncode != 0
    assert "is no web page" in result.stderr and "Traceback" not in result.stderr
