"""The script-built sandbox sites (issue 16) in Debian's Chromium: what their scripts write is what the truth says.

A ``scriptlist`` letter page lists its journals and a Next link once rendered; a click on a ``scriptapp`` letter (a
button or a ``javascript:`` anchor) shows that letter's journals; a ``scriptapp`` journal page shows its metric
labels and values."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from browser import in_chromium

from journals.sandbox.server import SandboxServer
from journals.sandbox.sources import letter_of
from journals.sandbox.truth import site_truth
from journals.sandbox.web import SandboxWeb

if TYPE_CHECKING:
    from playwright.sync_api import Page

ANCHORS = "nodes => nodes.map(a => [a.textContent, a.getAttribute('href')])"
ROWS = "rows => rows.map(tr => [tr.querySelector('th').textContent, tr.querySelector('td').textContent])"


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, dict[str, Any]]]:
    """The sandbox on a free port of 127.0.0.1, and the truth of its two scripted sites."""
    web = SandboxWeb(seed=1, size=2000)
    server = SandboxServer(web, port=0)
    server.start_in_thread()
    yield server.base_url, {name: site_truth(web, name, server.base_url) for name in ("scriptlist", "scriptapp")}
    server.shutdown()
    server.server_close()


def test_chromium_sees_what_the_scripts_write(served: tuple[str, dict[str, Any]]) -> None:
    base, truth = served
    listing = truth["scriptlist"]["listing_pages"]
    letter = max("ABCDEFGHIJKLMNOPQRSTUVWXYZ", key=lambda c: len(listing.get(f"{base}/scriptlist/journals/{c}?page=2", [])))
    first, second = f"{base}/scriptlist/journals/{letter}", f"{base}/scriptlist/journals/{letter}?page=2"
    app_journals = truth["scriptapp"]["journals"]
    by_letter = {
        c: [(j["values"]["title"], j["url"]) for j in app_journals if letter_of(j["values"]["title"]) == c]
        for c in ("A", "B")
    }
    shown = ("issn", "eissn", "impact_factor", "five_year_impact_factor", "citescore", "editor_in_chief")
    journal = next(j for j in app_journals if all(j["values"][name] is not None for name in shown))

    def read(page: Page) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        page.goto(first)
        page.wait_for_selector("#app[data-state=ready]")
        seen["list"] = page.locator("#app ul li a").evaluate_all(ANCHORS)
        seen["next"] = page.locator("#app a[rel=next]").get_attribute("href")
        page.click("#app a[rel=next]")
        page.wait_for_url(second)
        page.wait_for_selector("#app[data-state=ready]")
        seen["list2"] = page.locator("#app ul li a").evaluate_all(ANCHORS)

        page.goto(f"{base}/scriptapp/")
        seen["before"] = page.locator("#results").inner_html()
        for control in ("button[data-letter=B]", "a[data-letter=A]"):
            page.click(control)
            shown = control.split("=")[1].rstrip("]")
            page.wait_for_selector(f"#results[data-letter={shown}]:not([aria-busy])")
            seen[shown] = page.locator("#results li a").evaluate_all(ANCHORS)

        page.goto(journal["url"])
        page.wait_for_selector("#root[data-state=ready]")
        seen["rows"] = page.locator("#root tr").evaluate_all(ROWS)
        return seen

    seen = in_chromium(read)
    assert seen["list"] == [[r["title"], r["url"].removeprefix(base)] for r in listing[first]]
    assert seen["next"] == second.removeprefix(base)
    assert seen["list2"] == [[r["title"], r["url"].removeprefix(base)] for r in listing[second]]
    assert seen["before"] == ""
    for shown in ("A", "B"):
        assert [(title, base + href) for title, href in seen[shown]] == by_letter[shown]
    values = journal["values"]
    assert dict(seen["rows"]) == {
        "Print ISSN": values["issn"],
        "Online ISSN": values["eissn"],
        "Impact Factor (2024)": f"{values['impact_factor']:.3f}",
        "5-Year Impact Factor": f"{values['five_year_impact_factor']:.3f}",
        "CiteScore": f"{values['citescore']:.1f}",
        "Editor-in-Chief": values["editor_in_chief"],
    }
