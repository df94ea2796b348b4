"""The trap sites' pages have the shapes claimed, and the spider's own navigation reads them as the trap intends:
letters, "Next" links and journal entries, exactly as on the other sandbox sites."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import pytest
from lxml import html as lxml_html

from journals.pages.entries import find_journal_list
from journals.pages.navigation import PageLinks, page_links
from journals.sandbox.traps import TrapsWeb, traps_truth
from tests.sandbox.trapworld import BASE, OUTSIDE, get


@pytest.fixture(scope="module")
def web() -> TrapsWeb:
    return TrapsWeb(OUTSIDE, seed=1)


@pytest.fixture(scope="module")
def truth(web: TrapsWeb) -> dict:
    return traps_truth(web, BASE)


def text(web: TrapsWeb, url: str) -> str:
    response = get(web, url)
    assert response.status == 200, url
    return response.body.decode()


def links(web: TrapsWeb, url: str) -> PageLinks:
    return page_links(text(web, url), url)


def entries(web: TrapsWeb, url: str, letter: str) -> list[tuple[str, str]]:
    """(title, URL) of the journal list the spider finds on a listing page."""
    found = find_journal_list(links(web, url).content, None, letter)
    return [(a.text, a.url) for a in found.anchors] if found else []


def real_titles(truth: dict, kind: str) -> set[str]:
    return {journal["values"]["title"] for journal in truth["sites"][kind]["journals"]}


def test_escape_entries_leave_the_site_by_302_localhost_meta_refresh_and_direct_links(
    web: TrapsWeb, truth: dict
) -> None:
    site = truth["sites"]["escape"]
    trap = site["trap"]
    letter_url = f"{BASE}/escape/journals/{trap['letter'].lower()}"
    listed = entries(web, letter_url, trap["letter"])
    redirect, localhost, refresh, outside = trap["escaping_entries"]
    assert [url for _, url in listed][-4:] == [redirect, localhost, refresh, outside]
    assert {title for title, _ in listed[:-4]} <= real_titles(truth, "escape")
    assert outside.startswith(OUTSIDE + "/journal/")

    moved = get(web, redirect)
    assert moved.status == 302 and moved.headers["Location"] == OUTSIDE + "/journal/" + redirect.rpartition("/")[2]
    moved = get(web, localhost)
    slug = localhost.rpartition("/")[2]
    assert moved.status == 302 and moved.headers["Location"] == f"http://localhost:1/escape/moved/{slug}"
    page = get(web, f"http://localhost:1/escape/moved/{slug}", host="localhost:1")
    assert page.status == 200 and "Series A-LOCALHOST" in page.body.decode()
    refreshing = lxml_html.fromstring(text(web, refresh))
    assert refreshing.xpath("//meta[@http-equiv='refresh']/@content") == [
        f"0;url={OUTSIDE}/journal/{refresh.rpartition('/')[2]}"
    ]

    start = links(web, site["start_url"])
    outside_letter = [a for a in start.letters if a.text == trap["outside_letter"]]
    assert [a.url for a in outside_letter] == [f"{OUTSIDE}/journals/{trap['outside_letter'].lower()}"]
    hop_journal = next(j for j in site["journals"] if j["url"] == trap["outside_hop_journal"])
    assert hop_journal["metrics_url"] is None
    assert [a.url for a in links(web, hop_journal["url"]).metrics] == [
        f"{OUTSIDE}/journal/{hop_journal['url'].rpartition('/')[2]}/metrics"
    ]
    redirected = next(j for j in site["journals"] if j["url"] == trap["redirected_hop_journal"])
    assert redirected["metrics_url"] is None
    moved = get(web, redirected["url"] + "/metrics")
    assert moved.status == 302 and moved.headers["Location"].startswith(OUTSIDE)
    others = [j for j in site["journals"] if j not in (hop_journal, redirected)]
    assert all(j["metrics_url"].startswith(BASE + "/escape/") for j in others)


def test_endless_next_letter_lists_new_made_up_journals_forever(web: TrapsWeb, truth: dict) -> None:
    trap = truth["sites"]["endless-next"]["trap"]
    letter, url = trap["endless_letter"], trap["endless_letter_url"]
    assert trap["endless_real_pages"] == 2
    first = entries(web, url, letter)
    assert {title for title, _ in first} <= real_titles(truth, "endless-next") and len(first) == 2
    seen: set[str] = set()
    for page_no in (3, 40, 999):
        page_url = f"{url}?page={page_no}"
        listed = entries(web, page_url, letter)
        assert [title.rpartition(", Series ")[2] for title, _ in listed] == [
            f"{letter}-P{page_no}-{k}" for k in (1, 2, 3)
        ]
        assert not {title for title, _ in listed} & (real_titles(truth, "endless-next") | seen)
        seen |= {title for title, _ in listed}
        assert (f"{url}?page={page_no + 1}") in [a.url for a in links(web, page_url).pages]
        title, journal_url = listed[0]
        assert lxml_html.fromstring(text(web, journal_url)).xpath("string(//h1)") == title
        assert title in text(web, journal_url + "/metrics")


def test_endless_next_second_letter_repeats_its_entries_forever(web: TrapsWeb, truth: dict) -> None:
    trap = truth["sites"]["endless-next"]["trap"]
    letter, url = trap["repeat_letter"], trap["repeat_letter_url"]
    assert trap["repeat_real_pages"] == 1
    first = entries(web, url, letter)
    assert first and {title for title, _ in first} <= real_titles(truth, "endless-next")
    for page_no in (2, 9, 500):
        assert entries(web, f"{url}?page={page_no}", letter) == first
        assert f"{url}?page={page_no + 1}" in [a.url for a in links(web, f"{url}?page={page_no}").pages]


def test_session_id_site_puts_a_new_session_in_every_link_of_every_response(web: TrapsWeb, truth: dict) -> None:
    site = truth["sites"]["session-id"]
    letter_url = site["journals"][0]["listing_urls"][0]
    hrefs = [lxml_html.fromstring(text(web, letter_url)).xpath("//a/@href") for _ in range(2)]
    sessions = [set(re.findall(r"(?:jsessionid|sid)=([0-9A-F]+)", " ".join(h))) for h in hrefs]
    assert all(len(s) == 1 for s in sessions) and sessions[0] != sessions[1]
    assert all(";jsessionid=" in href or "sid=" in href for href in hrefs[0])
    found = links(web, letter_url)
    assert found.letters and all(";jsessionid=" in a.url and "sid=" not in a.url for a in found.letters)
    listed = entries(web, letter_url, found.letters[0].text)
    assert listed and all("?sid=" in url and ";jsessionid" not in url for _, url in listed)
    metrics = links(web, listed[0][1]).metrics
    assert ";jsessionid=" in metrics[0].url and "sid=" in metrics[0].url
    # The site ignores the session: the same page under any session id.
    again = get(web, listed[0][1])
    assert again.status == 200 and f"<h1>{listed[0][0]}</h1>" in again.body.decode()


def test_calendar_next_month_shows_the_same_listing_forever(web: TrapsWeb, truth: dict) -> None:
    trap = truth["sites"]["calendar"]["trap"]
    letter = trap["calendar_letters"][0]
    url = f"{BASE}/calendar/journals/{letter.lower()}"
    listed = entries(web, url, letter)
    assert listed and {title for title, _ in listed} <= real_titles(truth, "calendar")
    tree = lxml_html.fromstring(text(web, url))
    assert tree.xpath("//div[@class='events-calendar']//a[text()='Events']/@href") == ["?month=2026-12"]
    assert [a.url for a in links(web, url).pages] == [f"{url}?month=2027-01"]
    for month, following in (("2027-01", "2027-02"), ("2031-12", "2032-01")):
        assert entries(web, f"{url}?month={month}", letter) == listed
        assert [a.url for a in links(web, f"{url}?month={month}").pages] == [f"{url}?month={following}"]
        assert f"?month={month[:5]}" in text(web, f"{url}?month={month}")
    assert get(web, f"{url}?month=2027-13").status == 404


def test_nested_letters_nest_relative_sub_letters_forever(web: TrapsWeb, truth: dict) -> None:
    trap = truth["sites"]["nested-letters"]["trap"]
    letter, url = trap["nested_letter"], trap["nested_letter_url"]
    assert url.endswith(f"/journals/{letter.lower()}/")
    listed = entries(web, url, letter)
    assert {title for title, _ in listed} == {
        j["values"]["title"] for j in truth["sites"]["nested-letters"]["journals"] if j["listing_urls"] == [url]
    }
    page_url = url
    for depth, sub in enumerate("abba", start=2):
        subs = [a for a in links(web, page_url).letters if len(a.text) == 2]
        assert [(a.text, a.url) for a in subs] == [(letter + "a", page_url + "a/"), (letter + "b", page_url + "b/")]
        page_url = urljoin(page_url, f"{sub}/")
        prefix = urlsplit(page_url).path.removeprefix(urlsplit(url).path).replace("/", "")
        made_up = entries(web, page_url, letter)
        assert len(prefix) == depth - 1
        assert [title.rpartition(", Series ")[2] for title, _ in made_up] == [
            f"{letter}-{prefix.upper()}-{k}" for k in (1, 2, 3)
        ]
    other_letter = next(
        j["listing_urls"][0] for j in truth["sites"]["nested-letters"]["journals"] if j["listing_urls"][0] != url
    )
    assert not [a for a in links(web, other_letter).letters if len(a.text) == 2]
    assert get(web, other_letter + "a/").status == 404
