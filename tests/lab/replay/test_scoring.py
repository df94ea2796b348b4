"""eval-real's scoring on small hand-made inputs: list recall and precision, attribute verdicts."""

from __future__ import annotations

import pytest

from lab.replay.scoring import (
    MISSING,
    NONE,
    RIGHT,
    WRONG,
    normalise_name,
    same_organisation,
    score_journal,
    score_list,
    verdict,
)

EXPECTED = [
    "https://www.mdpi.com/journal/ai",
    "https://www.mdpi.com/journal/air",
    "https://www.mdpi.com/journal/alloys",
]


def test_list_recall_counts_requested_journals_loosely():
    requested = [
        "https://www.mdpi.com/robots.txt",
        "https://www.mdpi.com/about/journals",
        "http://www.mdpi.com/journal/ai/",  # other scheme, trailing slash: the same journal
        "https://www.mdpi.com/journal/air#editors",
        "https://www.mdpi.com/journal/aim",  # not expected: a prefix of nothing
    ]
    score = score_list(EXPECTED, requested, ["https://www.mdpi.com/journal/ai", "https://www.mdpi.com/about"])
    assert (score.expected, score.reached) == (3, 2)
    assert score.recall == pytest.approx(2 / 3)
    assert (score.items, score.items_expected) == (2, 1)
    assert score.precision == 0.5
    assert score.requests == 4  # robots.txt left out


def test_list_with_no_items_has_no_precision_and_zero_recall():
    score = score_list(EXPECTED, ["https://www.mdpi.com/about/journals"], [])
    assert score.recall == 0.0
    assert score.precision is None


def test_publisher_rule_drops_the_remark_and_accepts_containment():
    remark = "Springer (footer: Springer, Part of Springer Science+Business Media)"
    assert same_organisation(remark, "Springer")
    assert same_organisation(remark, "Springer Science+Business Media")  # the remark is dropped…
    assert not same_organisation("Springer", "Science Business Media")  # …so this is not Springer's name
    assert same_organisation("PeerJ Inc.", "PeerJ")
    assert same_organisation("Elsevier", "Elsevier B.V.")
    assert not same_organisation("Springer Nature Limited", "Nature Publishing Group")
    assert same_organisation("Springer Nature Limited", "© 2020 Springer Nature Limited")
    assert same_organisation("Public Library of Science", "Library")  # the rule's price: any contiguous part


def test_verdicts_by_type():
    assert verdict("issn", "2050-084X", "2050-084X") == RIGHT
    assert verdict("issn", "2050-084X", "2050-0840") == WRONG
    assert verdict("impact_factor", 4.117, "4.1171") == RIGHT
    assert verdict("impact_factor", 4.117, 4.2) == WRONG
    assert verdict("title", "PLOS ONE", "Plos  One.") == RIGHT
    assert verdict("editor_in_chief", "Jane  Doe", "JANE DOE") == RIGHT
    assert verdict("title", "Nature", "Nature Reviews") == WRONG
    assert verdict("impact_factor", None, 2.5) == WRONG  # a value where the page shows none
    assert verdict("eissn", "1476-4687", None) == MISSING
    assert verdict("sjr", None, None) == NONE


def test_journal_score_counts():
    expected = {"title": "eLife", "issn": "2050-084X", "eissn": None, "impact_factor": None, "publisher": "eLife"}
    found = {"title": "eLife", "issn": "2050-084X", "impact_factor": 7.6, "subject": "biology"}
    score = score_journal(expected, found)
    assert (score.right, score.wrong, score.missing, score.shown) == (2, 1, 1, 3)
    assert score.verdicts["eissn"] == NONE
    assert "subject" not in score.verdicts  # only the manifest's attributes are scored


def test_normalise_name():
    assert normalise_name("  Acta   Seismologica\tSinica ") == "acta seismologica sinica"
    assert normalise_name("eLife—Sciences, Ltd.") == "elife sciences ltd"
