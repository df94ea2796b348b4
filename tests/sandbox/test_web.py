"""The sandbox web: every journal in the truth is served, hard cases are present, bad paths 404."""

import html
import json
from urllib.parse import urlsplit

import pytest

from journals.sandbox.truth import world_truth
from journals.sandbox.web import SandboxWeb

BASE = "http://127.0.0.1:1"
SHELLS = ("spa", "hashbang")
"""Sites whose every page is one empty shell: the journal is named only by what its script fetches (checked in
tests/sandbox/test_unseen_scripts.py and tests/sandbox/test_unseen_scripts2.py)."""


@pytest.fixture(scope="module")
def web() -> SandboxWeb:
    return SandboxWeb(seed=5, size=400)


def get(web: SandboxWeb, url: str):
    parts = urlsplit(url)
    return web.respond(parts.path, parts.query, "127.0.0.1:1")


def test_every_truth_page_is_served(web: SandboxWeb) -> None:
    truth = world_truth(web, BASE)
    assert set(truth["sites"]) >= {"elsevier", "wiley", "nature", "bmj", "oxford", "springer"}
    for name, site in truth["sites"].items():
        assert site["journals"], "every site lists journals"
        for journal in site["journals"]:
            page = get(web, journal["url"])
            assert page.status == 200
            title, body = journal["values"]["title"], page.body.decode()
            # in the HTML, or in the page's data as JSON (a Next.js-like page's __NEXT_DATA__)
            in_page = html.escape(title) in body or json.dumps(title, ensure_ascii=False) in body
            assert in_page or name in SHELLS, (name, journal["url"])
            if journal["metrics_url"]:
                assert get(web, journal["metrics_url"]).status == 200


def test_several_templates_per_publisher(web: SandboxWeb) -> None:
    for name in ("elsevier", "nature", "bmj"):
        templates = web.sites[name]
        hops = {templates.hop_path(i) is None for i in templates.site.journal_indices}
        assert hops == {True, False}, name


def test_hard_cases_present(web: SandboxWeb) -> None:
    bodies = "".join(
        get(web, BASE + t.journal_path(i)).body.decode()
        + (get(web, BASE + t.hop_path(i)).body.decode() if t.hop_path(i) else "")
        for t in web.sites.values()
        for i in t.site.journal_indices[:30]
    )
    assert "Impact Factor is" in bodies  # metrics in running text
    assert '<span class="label">2-year impact factor</span>' in bodies  # value before label
    assert "Featured journal" in bodies  # decoy
    assert "Print ISSN:" in bodies and " | Online ISSN:" in bodies  # one text node
    assert "(2024)</dd>" in bodies and "," in bodies


def test_robots_redirects_and_missing_pages(web: SandboxWeb) -> None:
    assert "Disallow: /*/search" in web.respond("/robots.txt").body.decode()
    assert web.respond("/nope/").status == 404
    assert web.respond("/elsevier/journal/no-such-journal").status == 404
    templates = web.sites["elsevier"]
    index = next(i for i in templates.site.journal_indices if i % 10 == 3)
    moved = web.respond(templates.journal_href(index))
    assert moved.status == 301 and moved.headers["Location"] == templates.journal_path(index)


def test_aggregators_overlap_publishers_with_conflicts(web: SandboxWeb) -> None:
    truth = world_truth(web, BASE)
    by_id = {}
    for name in ("elsevier", "wiley", "nature", "bmj", "oxford", "springer"):
        for journal in truth["sites"][name]["journals"]:
            by_id[journal["journal_id"]] = journal["values"]
    metricsdb = truth["sites"]["metricsdb"]["journals"]
    shared = [j for j in metricsdb if j["journal_id"] in by_id]
    assert len(shared) > 100
    conflicts = [
        j for j in shared
        if None not in (j["values"]["impact_factor"], by_id[j["journal_id"]]["impact_factor"])
        and j["values"]["impact_factor"] != by_id[j["journal_id"]]["impact_factor"]
    ]
    assert conflicts, "the error operator makes sources disagree"
