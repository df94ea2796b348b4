"""``scrapy mdr``: run as a user would, from the project's root."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DATA = PROJECT_ROOT.parent / "shared" / "data" / "mdr"
PAGE = (
    "<html><body><h1>Journals</h1><ul>"
    + "".join(f"<li><a href='/j{n}'>Journal {n}</a> <span>ISSN 1234-567{n}</span></li>" for n in range(4))
    + "</ul></body></html>"
)


def _scrapy_mdr(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(PROJECT_ROOT / ".venv" / "bin" / "scrapy"), "mdr", *args],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60, check=False,
    )


def test_json_is_one_object_of_regions(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    result = _scrapy_mdr(str(page), "--json")
    assert result.returncode == 0, result.stderr
    regions = json.loads(result.stdout)["regions"]
    assert len(regions) == 1
    assert regions[0] == {
        "parent": "/html/body/ul", "k": 1, "start": 0, "count": 4, "score": regions[0]["score"],
        "records": [{"xpaths": [f"/html/body/ul/li[{n + 1}]"], "text": f"Journal {n} ISSN 1234-567{n}"}
                    for n in range(4)],
    }


def test_yelp_page_best_region_has_40_records():
    result = _scrapy_mdr(str(DATA / "scrapinghub-mdr" / "htmlpage0.html"), "--json", "--k", "10",
                         "--threshold", "0.3")
    regions = json.loads(result.stdout)["regions"]
    assert len(regions[0]["records"]) == 40
    assert [region["score"] for region in regions] == sorted((region["score"] for region in regions), reverse=True)


def test_readable_listing_and_file_url(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    result = _scrapy_mdr(page.as_uri())
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Region 1: /html/body/ul k=1 start=0 count=4")
    assert "Journal 3 ISSN 1234-5673" in result.stdout


def test_missing_file_is_a_usage_error(tmp_path):
    result = _scrapy_mdr(str(tmp_path / "missing.html"))
    assert result.returncode == 2
    assert "cannot read" in result.stderr
