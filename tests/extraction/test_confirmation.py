"""A page the list promised as a journal's is stored only when something on it confirms it."""

from __future__ import annotations

from journals.extraction import LearnedRules, extract_journal
from journals.extraction.confirmation import confirmation, same_name, slug_key
from journals.extraction.titles import name_key
from journals.items import FetchedPage


def _evidence(body: str, entry: str, url: str = "https://pubs.example/journal/x", head: str = "") -> str | None:
    html = f"<html><head>{head}</head><body>{body}</body></html>"
    extraction = extract_journal([FetchedPage(url=url, html=html, role="home")], LearnedRules(), listing_title=entry)
    return confirmation(extraction, extraction.title_candidates, entry, url)


def test_an_issn_or_a_metric_confirms_a_journal_page() -> None:
    assert _evidence("<main><h1>Rocks</h1><p>ISSN 2050-084X</p></main>", "Rock Letters") == "identifier"
    assert _evidence("<main><h1>Rocks</h1><p>Impact Factor: 4.1</p></main>", "Rocks") == "metric"


def test_a_title_matching_the_entry_confirms_a_bare_page() -> None:
    page = "<main><h1>Nature Chemistry - Current issue : January 2011</h1><p>Articles.</p></main>"
    assert _evidence(page, "Nature Chemistry", head="<title>Home : Nature Chemistry</title>") == "title"


def test_a_books_page_or_an_issue_link_reached_from_a_list_confirms_nothing() -> None:
    books = "<main><h1>Books</h1><ul><li>Organic Syntheses, 2nd edition</li></ul></main>"
    assert _evidence(books, "Books", url="https://pubs.example/page/books/index.html") is None
    issue = "<main><h1>current</h1><p>Replay stub.</p></main>"
    assert _evidence(issue, "Latest Issue", url="https://pubs.example/toc/jacsat/current") is None


def test_an_address_spelling_the_entry_confirms_it() -> None:
    assert slug_key("https://p.example/journal/accounts-of-chemical-research.html") == "accounts of chemical research"
    page = "<main><p>Welcome.</p></main>"
    assert _evidence(page, "Accounts of Chemical Research", url="https://p.example/j/accounts-chemical-research") == (
        "address"
    )


def test_names_match_by_words_initials_or_near_spelling() -> None:
    assert same_name("nature chemistry", "home nature chemistry")
    assert same_name("journal of applied crystallography", "jac")
    assert same_name("annals of geophysics", "annals of geophysic")
    assert not same_name("latest issue", "journal of rocks")
    assert not same_name("books", "acs books and more")


def test_an_address_with_the_names_initials_or_without_its_generic_words_spells_it() -> None:
    assert same_name("advances in alzheimer s disease", "aad") is False  # keys are made by name_key
    assert same_name(name_key("Advances in Alzheimer's Disease"), "aad")
    assert same_name(name_key("Advances in Microbiology"), "aim")
    assert same_name(name_key("Angiology: Open Access"), slug_key("https://p.example/angiology.html"))
    assert not same_name(name_key("Chemistry Books"), slug_key("https://p.example/books.html"))


def test_a_featured_articles_page_is_no_journal_though_its_heading_is_its_entry() -> None:
    entry = "Machine learning for Economics: a systematic review and meta-analysis of 3345 studies"
    page = f"<main><h1>{entry}</h1><p>Abstract. We review studies.</p></main>"
    assert _evidence(page, entry, url="https://pubs.example/doi/10.1021/x.20c1001") is None


def test_a_news_headline_is_no_journal_though_its_page_repeats_it() -> None:
    entry = "3 of our journals receive their first Journal Impact Factor in 2024"
    page = f"<main><h1>{entry}</h1><p>Good news.</p></main>"
    assert _evidence(page, entry, url="https://pubs.example/news/1-3-of-our-journals") is None
