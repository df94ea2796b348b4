"""Journal entries chosen by what they are, on hand-written pages in the shapes real publishers use."""

from urllib.parse import urlsplit

from hypothesis import given, settings
from hypothesis import strategies as st

from journals.pages.entries import (
    NOT_JOURNAL_DIRECTORY,
    ListingMemory,
    ScoreMemo,
    _not_journal_directory,
    anchor_score,
    find_journal_list,
    tracker_target,
)
from journals.pages.navigation import Anchor, page_links

SITE = "http://pub.example/journals"

SUBJECT_MENU = "".join(
    f'<li><a href="/subjects/{s.lower()}">{s} and Related Fields of Study</a></li>'
    for s in ("Biology", "Chemistry", "Medicine", "Physics", "Engineering", "Economics", "History", "Law")
)


def _entries(page: str, url: str = SITE, memory: ListingMemory | None = None) -> list[str]:
    found = find_journal_list(page_links(page, url).content, memory)
    return [a.text for a in found.anchors] if found is not None else []


def test_a_subject_menu_heavier_than_the_list_is_not_the_list() -> None:
    page = (
        f'<html><body><div class="menu"><ul>{SUBJECT_MENU}</ul></div>'
        '<div class="content"><ul><li><a href="/journal/xen">Xenobiology</a></li>'
        '<li><a href="/journal/xjr">Xray Journal of Radiology</a></li></ul></div></body></html>'
    )
    assert _entries(page) == ["Xenobiology", "Xray Journal of Radiology"]


def test_a_most_read_sidebar_and_news_are_not_journals() -> None:
    headlines = "".join(
        f'<li><a href="/article/{n}">Scientists find that a common protein folds in an unexpected way in cells '
        f"under stress number {n}</a></li>"
        for n in range(8)
    )
    news = "".join(f'<li><a href="/news/{n}">Society meeting report, 12 March 2024</a></li>' for n in range(6))
    page = (
        f'<html><body><div class="main"><ul><li><a href="/j/yeast">Yeast Research</a></li></ul></div>'
        f'<div class="most-read"><ul>{headlines}</ul></div><div class="news"><ul>{news}</ul></div></body></html>'
    )
    assert _entries(page) == ["Yeast Research"]


def test_a_table_row_per_journal_keeps_the_name_column_only() -> None:
    journals = [("ai", "AI"), ("c", "C"), ("acoustics", "Acoustics"), ("agronomy", "Agronomy"), ("j", "J")]
    journals += [("jcm", "Journal of Clinical Medicine"), ("life", "Life"), ("bioengineering", "Bioengineering")]
    rows = "".join(
        f'<tr><td>{n}.</td><td class="name"><a href="/journal/{code}"><img alt="" src="/{code}.png">'
        f"<div>{name}</div></a></td><td>2076-0825</td><td><a href=\"/journal/{code}/stats\">2.3</a></td>"
        f'<td><a href="/search?journal={code}">82</a></td><td><a href="/rss/journal/{code}">rss_feed</a></td></tr>'
        for n, (code, name) in enumerate(journals, 1)
    )
    links = page_links(f"<html><body><table>{rows}</table></body></html>", "https://www.mdpi.example/about/journals")
    assert links.letters == [], "journals called AI, C and J in a table are not an A–Z index"
    assert links.pages == [], "a count linking to a search is not a page number"
    found = find_journal_list(links.content)
    assert found is not None
    assert [a.url.rsplit("/", 1)[1] for a in found.anchors] == [code for code, _ in journals]


def test_a_list_in_subject_boxes_inside_nav_with_classes_per_colour() -> None:
    boxes = "".join(
        f'<div class="card {colour}"><h6>{subject} Journals List</h6><nav class="nav">'
        + "".join(
            f'<a class="nav-link {colour}-before" href="https://pub.example/{subject.lower()}-{n}.php">'
            f"Journal of {subject} Topic {n} <em>Open Access Journal</em></a>"
            for n in range(4)
        )
        + "</nav></div>"
        for colour, subject in (("red", "Chemistry"), ("blue", "Medicine"), ("green", "Physics"))
    )
    page = f'<html><body><header><nav><a href="/">Home</a><a href="/about">About us</a></nav></header>{boxes}</body>'
    assert len(_entries(page, "https://pub.example/open-access-journals-list.php")) == 12


def test_image_only_links_are_read_by_their_alt_text() -> None:
    tiles = "".join(
        f'<div class="tile"><a href="/journal/{c}"><img src="/{c}.png" alt="{t}"></a></div>'
        for c, t in (("acr", "Acta Radiologica"), ("bjs", "British Journal of Surgery"), ("cel", "Cell Letters"))
    )
    assert _entries(f"<html><body>{tiles}</body></html>") == [
        "Acta Radiologica",
        "British Journal of Surgery",
        "Cell Letters",
    ]


def test_hidden_text_is_not_part_of_an_anchor() -> None:
    page = (
        '<html><body><ul><li><a href="/journal/a">Annals of Botany<span class="sr-only"> (opens in new window)'
        '</span><span style="display: none">decoy</span></a></li></ul></body></html>'
    )
    assert _entries(page) == ["Annals of Botany"]


def test_script_letters_are_not_followed_and_the_list_in_the_page_is_read() -> None:
    letters = "".join(f'<a href="#" onclick="show(\'{c}\')">{c}</a> ' for c in "ABCDEFG")
    journals = "".join(f'<li><a href="/journal/{c.lower()}">{c}-Journal of Things</a></li>' for c in "ABCDEFG")
    links = page_links(f"<html><body><div>{letters}</div><ul>{journals}</ul></body></html>", SITE)
    assert links.letters == []
    assert len(_entries(f"<html><body><div>{letters}</div><ul>{journals}</ul></body></html>")) == 7


def test_pagination_in_a_nav_and_near_the_page() -> None:
    page = (
        '<html><body><ul><li><a href="/journal/a">Acta A</a></li></ul><nav aria-label="pagination">'
        '<a href="/journals?page=2">2</a> <a href="/journals?page=3">3</a> <a href="/journals?page=2">Next</a></nav>'
        '<footer><a href="/journals?page=9">9</a></footer></body></html>'
    )
    assert {a.url for a in page_links(page, SITE).pages} == {SITE + "?page=2", SITE + "?page=3"}


def test_memory_prefers_the_lists_shape_and_drops_repeated_chrome() -> None:
    sidebar = "".join(
        f'<li><a href="/j/pop{n}">Popular Journal of Everything Number {n}</a></li>' for n in range(6)
    )

    def letter_page(entries: list[str]) -> str:
        items = "".join(f'<li><a href="/journal/{e.lower()}">{e}</a></li>' for e in entries)
        return f'<html><body><ul class="az-list">{items}</ul><aside><ul>{sidebar}</ul></aside></body></html>'

    memory = ListingMemory()
    long_letter = [f"Zoology{n}" for n in range(8)]
    assert _entries(letter_page(long_letter), memory=memory) == long_letter
    _entries(letter_page(["Yak"] * 1), memory=memory)
    assert _entries(letter_page(["Xeno"]), memory=memory) == ["Xeno"]
    assert memory.is_chrome(frozenset(f"http://pub.example/j/pop{n}" for n in range(6)))


def test_anchor_scores_say_what_looks_like_a_journal() -> None:
    def score(text: str, url: str = "http://pub.example/journal/x") -> float:
        return anchor_score(Anchor(url=url, text=text, chrome="", group="", shape="", record_text=""))

    assert score("Journal of Molecular Liquids") > score("Molecular Liquids") > 0
    assert score("Sign in") == score("") == score("2.3") == -1.0
    assert score("Journal of Medicine", "http://pub.example/subjects/medicine") < score("Journal of Medicine")
    assert score("Meeting report, 12 March 2024") < 0


def test_on_a_letters_page_the_group_whose_titles_start_with_the_letter_is_the_list() -> None:
    fields = ["Chemistry", "Physics", "Medicine", "Biology", "Economics", "History", "Geology", "Ecology"]
    menu = "".join(f'<li><a href="/{f.lower()}">{f}</a></li>' for f in fields)
    page = (
        f'<html><body><div class="fields"><ul>{menu}</ul></div><div class="list"><ul>'
        '<li><a href="/xeno">Xenobiology</a></li><li><a href="/xray">The Xray Quarterly</a></li></ul></div></body></html>'
    )
    links = page_links(page, SITE)
    found = find_journal_list(links.content, letter="X")
    assert found is not None
    assert [a.text for a in found.anchors] == ["Xenobiology", "The Xray Quarterly"]
    found = find_journal_list(links.content)
    assert found is not None and found.anchors[0].text == "Chemistry", "one page alone cannot tell a field menu"


def test_information_links_and_journal_categories_are_menus() -> None:
    def score(text: str) -> float:
        return anchor_score(Anchor(url="http://pub.example/x", text=text, chrome="", group="", shape=""))

    assert score("Information for librarians") == -1.0
    assert score("Chemistry Journals") < score("Journal of Chemistry")


def test_a_journals_own_slug_may_hold_menu_words_a_directory_may_not() -> None:
    def score(url: str) -> float:
        return anchor_score(Anchor(url=url, text="Topics in Catalysis", chrome="", group="", shape=""))

    assert score("http://pub.example/journal/topics-in-catalysis") > 0
    assert score("http://pub.example/toc/ttca20/current") > 0, "a journal's current issue is its home on some sites"
    assert score("http://pub.example/topics/catalysis") < 0
    assert score("http://pub.example/about.php") < 0


def test_anchors_past_the_cap_are_not_scored_and_are_counted() -> None:
    """The cap is applied where the page is read (``page_links``); the list is found among the anchors read."""
    items = "".join(f'<li><a href="/journal/j{n}">Journal of Things {n}</a></li>' for n in range(30))
    page = f'<html><body><ul class="az-list">{items}</ul></body></html>'
    capped = page_links(page, SITE, max_anchors=10)
    found = find_journal_list(capped.content)
    assert found is not None
    assert [a.url for a in found.anchors] == [f"http://pub.example/journal/j{n}" for n in range(10)]
    assert capped.truncated_anchors == 20
    links = page_links(page, SITE)
    whole = find_journal_list(links.content)
    assert whole is not None and len(whole.anchors) == 30 and links.truncated_anchors == 0


def test_memory_keeps_a_key_per_group_not_its_links() -> None:
    memory = ListingMemory()
    page = "".join(f'<li><a href="/journal/j{n}">Journal of Things {n}</a></li>' for n in range(200))
    for _ in range(2):
        _entries(f"<html><body><ul>{page}</ul></body></html>", memory=memory)
    assert all(not isinstance(part, str) for key in memory.seen_groups for part in key)
    assert memory.is_chrome(f"http://pub.example/journal/j{n}" for n in range(200))
    assert not memory.is_chrome(f"http://pub.example/journal/j{n}" for n in range(199))


NAMES = ("Acoustics Letters", "Botany Review", "Cell Reports East", "Dairy Science", "Ecology Annals", "Fluid Flow")


def test_a_rows_issue_submission_and_service_links_are_not_journals() -> None:
    rows = "".join(
        f'<tr><td><a href="/journal/j{n}">{name}</a></td><td><a href="/journal/j{n}/issue/latest">Newest Issue</a>'
        f' <a href="/journal/j{n}/submit">Send us your work</a> <a href="/action/services?j=j{n}">Reader Care</a>'
        f"</td></tr>"
        for n, name in enumerate(NAMES)
    )
    page = f"<html><body><table><tbody>{rows}</tbody></table></body></html>"
    assert _entries(page) == list(NAMES)


def test_cards_whose_every_link_reads_the_same_keep_their_entries() -> None:
    cards = "".join(
        f'<div class="card"><h3>{name}</h3><a class="go" href="/journal/j{n}">Visit journal</a></div>'
        for n, name in enumerate(NAMES)
    )
    assert len(_entries(f"<html><body>{cards}</body></html>")) == len(NAMES)


def test_links_below_a_directory_are_journals_not_its_sub_pages() -> None:
    names = [f"{name} {volume}" for volume in ("East", "West", "North") for name in NAMES]
    links = "".join(f'<li><a href="/journals/j{n}">{name}</a></li>' for n, name in enumerate(names))
    page = f'<html><body><ul><li><a href="/journals">Journals</a></li>{links}</ul></body></html>'
    assert set(names) <= set(_entries(page))


def test_a_menu_through_a_click_tracker_is_judged_by_its_destination() -> None:
    assert tracker_target(urlsplit("https://pubs.example/action/clickThrough?id=7&url=%2Fpage%2Fbooks%2Findex.html")) == (
        "/page/books/index.html"
    )
    assert tracker_target(urlsplit("https://pubs.example/login?next=%2Fjournal%2Fa")) is None
    direct = Anchor(url="https://pubs.example/page/books/index.html", text="Chemistry Books", chrome="", group="g")
    tracked = Anchor(
        url="https://pubs.example/action/clickThrough?id=7&url=%2Fpage%2Fbooks%2Findex.html",
        text="Chemistry Books",
        chrome="",
        group="g",
    )
    assert anchor_score(tracked) == anchor_score(direct) < 0.5


def test_a_menus_journals_link_above_its_letters_is_no_row_of_them() -> None:
    menu = "".join(f'<li><a href="/journals/{c}">{c} Journals Index</a></li>' for c in "ABCDEF")
    page = f'<html><body><ul class="menu"><li><a href="/journals">Journals</a></li>{menu}</ul></body></html>'
    assert "Journals" not in _entries(page) or len(_entries(page)) > 1


def test_a_pages_memo_scores_as_scoring_each_anchor_afresh() -> None:
    """A page's recurring texts and rows are read once (:class:`ScoreMemo`): the scores are the same."""
    texts = ["Acta Botanica", "RSS", "2.3", "Journal of Cells", "Latest issue", "Home", "Vol. 3, Issue 2"]
    paths = ["/journal/acta", "/news/1", "/rss/acta", "/j/cells?issue=3", "/x.html"]
    rows = ["", "Acta Botanica ISSN 1234-5678", "Journal of Cells RSS", "plain"]
    anchors = [
        Anchor(url=f"http://pub.example{path}", text=text, chrome="", group="", shape="", record_text=row)
        for text in texts
        for path in paths
        for row in rows
    ]
    memo = ScoreMemo()
    assert [anchor_score(a, None, memo) for a in anchors] == [anchor_score(a) for a in anchors]
    assert len(memo.texts) == len(texts) and len(memo.rows) == len(rows) - 1


SEGMENTS = st.sampled_from(["news", "NEWS", "topic", "topics", "topicsx", "special-issue", "special_issues", "ſtats",
                            "Pdf", "journal", "acta", "", " news", "news ", "\n", "news\n", "ab"])  # fmt: skip


@settings(max_examples=500, deadline=None, database=None)
@given(st.lists(SEGMENTS, max_size=5), st.booleans())
def test_a_path_is_judged_by_its_segments_as_the_pattern_judges_it(segments: list[str], leading: bool) -> None:
    path = ("/" if leading else "") + "/".join(segments)
    memo = ScoreMemo()
    expected = NOT_JOURNAL_DIRECTORY.search(path) is not None
    assert _not_journal_directory(path, memo) == expected
    assert _not_journal_directory(path, memo) == expected  # its segments judged already
    assert _not_journal_directory(path, None) == expected
