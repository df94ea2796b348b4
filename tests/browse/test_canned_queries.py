"""The canned queries of ``scrapy browse`` (``settings/datasette.json``), asked through a real Datasette: a value
they can read (``IF``, ``true``) is read, one they cannot is said in the first row, never silently ignored."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request

import pytest
from browser import browse_server
from conftest import PROJECT_ROOT, run_scrapy

from journals.items import JournalItem
from journals.store import create_schema, engine_from_url, write_journals

JOURNALS = [
    ("Open Rocks", {"impact_factor": 4.5, "citescore": 6.1}, {"open_access": True, "subject": "Geology"}),
    ("Closed Rocks", {"impact_factor": 3.2, "citescore": 2.0}, {"open_access": False, "subject": "Geology"}),
    ("Open Sand", {"impact_factor": 1.1}, {"open_access": True, "subject": "Geology"}),
]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    """A small integrated database served by ``scrapy browse``; yields the base URL of its database."""
    folder = tmp_path_factory.mktemp("canned")
    database = folder / "journals.db"
    engine = engine_from_url(f"sqlite:///{database}")
    create_schema(engine)
    items = [
        JournalItem(source="rocks", url=f"http://127.0.0.1:9/j/{i}", title=title, attributes=attributes, **metrics)
        for i, (title, metrics, attributes) in enumerate(JOURNALS)
    ]
    write_journals(engine, items)
    engine.dispose()
    setting = f"DATABASE_URL=sqlite:///{database}"
    assert run_scrapy("integrate", "-s", setting).returncode == 0
    with browse_server(PROJECT_ROOT, database, folder / "browse.log") as base_url:
        yield f"{base_url}/{database.stem}"


def ask(base: str, query: str, **params: str) -> list[dict[str, object]]:
    url = f"{base}/{query}.json?_shape=array&" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def by_metric(base: str, **params: str) -> list[dict[str, object]]:
    asked = {"subject": "", "open_access": "", "metric": "", "min_value": "", "max_value": ""} | params
    return ask(base, "journals_by_subject_and_metric", **asked)


def test_the_values_a_researcher_types_are_read(served: str) -> None:
    assert [r["Title"] for r in by_metric(served, open_access="true", metric="IF", min_value="3")] == ["Open Rocks"]
    assert [r["Title"] for r in by_metric(served, open_access="yes", metric="citescore")] == ["Open Rocks", "Open Sand"]
    assert [r["Metric"] for r in by_metric(served, metric="CiteScore", min_value="1")] == [6.1, 2.0]
    assert {r["Title"] for r in by_metric(served, open_access="No")} == {"Closed Rocks"}


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"metric": "impact"}, "No journals: metric 'impact' is none of impact_factor"),
        ({"open_access": "maybe"}, "No journals: open_access 'maybe' is neither yes nor no"),
        ({"min_value": "three"}, "No journals: min_value and max_value must be numbers"),
    ],
)
def test_a_value_a_query_cannot_read_is_said_not_ignored(served: str, params: dict[str, str], message: str) -> None:
    rows = by_metric(served, **params)
    assert len(rows) == 1 and str(rows[0]["Title"]).startswith(message)


def test_an_unknown_attribute_is_said_and_a_known_one_answered(served: str) -> None:
    missing = ask(served, "journals_missing_metric", attribute="citescore")
    assert [r["Journal"] for r in missing] == ["Open Sand"]
    unknown = ask(served, "journals_missing_metric", attribute="cite score")
    assert len(unknown) == 1 and str(unknown[0]["Journal"]).startswith("No journals: attribute 'cite score' is none")
    conflicts = ask(served, "conflicts", attribute="colour")
    assert len(conflicts) == 1 and str(conflicts[0]["Journal"]).startswith("No conflicts: attribute 'colour'")
    assert ask(served, "conflicts", attribute="") == []
