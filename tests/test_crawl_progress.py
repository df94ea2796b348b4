"""Progress bookkeeping per source."""

from journals.crawl_progress import ProgressBoard


def test_board_counts_letters_pages_journals_and_rate() -> None:
    board = ProgressBoard()
    board.page("wiley", "A", listing=True)
    board.page("wiley", "A", listing=True)
    board.page("wiley", "B", listing=True)
    board.page("wiley", None, listing=False)
    board.source("wiley").journals = 3
    board.page("bmj", "0-9", listing=True)
    lines = board.lines(seconds_since_last=2.0)
    assert lines[0].startswith("bmj") and "letters  1/27" in lines[0]
    assert "letters  2/27" in lines[1] and "listing pages     3" in lines[1] and "journals      3" in lines[1]
    assert "2.0 pages/s" in lines[1]
    assert "0.0 pages/s" in board.lines(seconds_since_last=1.0)[1]


def test_a_source_without_letters_shows_none_rather_than_zero_of_27() -> None:
    board = ProgressBoard()
    board.page("openaccess", None, listing=False)
    board.source("openaccess").journals = 22
    board.page("wiley", "A", listing=True)
    lines = board.lines(seconds_since_last=1.0)
    assert "letters     -  listing pages" in lines[0] and "0/27" not in lines[0]
    assert "letters  1/27  listing pages" in lines[1]


def test_a_source_with_unchanged_journals_says_how_many() -> None:
    board = ProgressBoard()
    board.source("wiley").journals = 5
    board.source("wiley").unchanged = 4
    board.source("bmj").journals = 2
    lines = board.lines(seconds_since_last=1.0)
    assert "unchanged" not in lines[0]
    assert lines[1].endswith("unchanged 4") and "journals      5" in lines[1]
