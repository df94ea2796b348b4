"""Recent listing pages: bounded by characters, the latest always kept."""

from __future__ import annotations

from journals.pages.listings import RecentListings


def test_the_oldest_pages_go_first_beyond_the_bound() -> None:
    listings = RecentListings(max_chars=10)
    listings.keep("a", "aaaa")
    listings.keep("b", "bbbb")
    assert listings.get("a") == "aaaa"  # now the most recent
    listings.keep("c", "cccc")
    assert listings.get("b") is None
    assert (listings.get("a"), listings.get("c"), len(listings)) == ("aaaa", "cccc", 2)


def test_a_page_larger_than_the_bound_is_kept_alone() -> None:
    listings = RecentListings(max_chars=10)
    listings.keep("a", "aa")
    listings.keep("big", "x" * 100)
    assert (listings.get("a"), len(listings)) == (None, 1)
    listings.keep("big", "y")
    listings.keep("a", "aa")
    assert (listings.get("big"), listings.get("a")) == ("y", "aa")
