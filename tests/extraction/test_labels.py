"""Label matching: normalisation, near misses, labels inside running text and not inside unrelated words."""

from __future__ import annotations

import pytest

from journals.extraction.labels import default_matcher


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("Impact Factor", "impact_factor"),
        ("Journal Impact Factor™:", "impact_factor"),
        ("Impact Factor (2024)", "impact_factor"),
        ("Five-Year Impact Factor", "five_year_impact_factor"),
        ("ISSN (online)", "eissn"),
        ("Chief Editor", "editor_in_chief"),
        ("Impact Facter", "impact_factor"),
        ("SCImago Journal Rank (SJR)", "sjr"),
    ],
)
def test_whole_node_labels(text: str, attribute: str) -> None:
    assert default_matcher().whole(text) == attribute


@pytest.mark.parametrize("text", ["2D Algebra", "Tomasz Petrov", "4.117", "Latest articles will appear here."])
def test_other_text_is_no_label(text: str) -> None:
    assert default_matcher().whole(text) is None


def test_labels_inside_running_text() -> None:
    hits = default_matcher().embedded("The journal's 2024 Impact Factor is 4.117. Its five-year impact factor is 5.")
    assert [h.attribute for h in hits] == ["impact_factor", "five_year_impact_factor"]


def test_longest_label_wins_and_qualifiers_are_bracketed() -> None:
    hits = default_matcher().embedded("ISSN 3329-4593 (print); 6822-379X (online)")
    assert [(h.attribute, h.bracketed) for h in hits] == [("issn", False), ("issn", True), ("eissn", True)]
    assert [h.text for h in default_matcher().embedded("Print ISSN: x | Online ISSN: y")] == [
        "Print ISSN",
        "Online ISSN",
    ]


def test_a_label_does_not_match_inside_unrelated_words() -> None:
    matcher = default_matcher()
    assert matcher.embedded("if you like the journal, notify us") == []
    assert matcher.embedded("Specification of the offline printer") == []


def test_nested_labels() -> None:
    assert default_matcher().nested("ISSN")
    assert not default_matcher().nested("Online ISSN")


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("Impact Factor 2024:", "impact_factor"),
        ("2023 CiteScore", "citescore"),
        ("SNIP 2024:", "snip"),
        ("CiteScore (Scopus)", "citescore"),
        ("Impact Factor [JCR]:", "impact_factor"),
        ("5-Year Journal Impact Factor", "five_year_impact_factor"),
        ("ISSN (electronic)", "eissn"),
        ("ISSN (something else)", None),
    ],
)
def test_a_year_or_a_source_note_beside_a_metric_label_leaves_it_that_label(text: str, attribute: str | None) -> None:
    """A year says which year's figure it is and a bracketed note where it comes from, neither which attribute; a
    note on an identifier says which identifier it is, so an unknown one makes no label."""
    assert default_matcher().whole(text) == attribute


def test_a_text_searched_again_gives_the_same_labels_and_mentions_agrees() -> None:
    matcher = default_matcher()
    text = "Print ISSN: 1234-5679 | Online ISSN: 2345-6789 and the Impact Factor"
    first = matcher.embedded(text)
    again = matcher.embedded(text)
    assert again == first and again is not first, "each caller gets its own list"
    assert [h.attribute for h in first] == ["issn", "eissn", "impact_factor"]
    assert matcher.mentions(text)
    assert matcher.mentions("Impact Factor of this journal")
    assert not matcher.mentions("if you like the journal, notify us")
