"""The hidden relation: deterministic, unique titles, valid ISSNs."""

from journals.domain.issn import is_valid
from journals.sandbox.relation import JournalRelation


def test_same_seed_same_world_other_seed_other_world() -> None:
    a, b, c = JournalRelation(1, 200), JournalRelation(1, 200), JournalRelation(2, 200)
    assert [a.journal(i) for i in range(200)] == [b.journal(i) for i in range(200)]
    assert a.titles != c.titles


def test_titles_unique_and_issns_valid_and_distinct() -> None:
    relation = JournalRelation(3, 3000)
    assert len({t.casefold() for t in relation.titles}) == 3000
    issns = [(j.issn, j.eissn) for j in relation]
    flat = [x for pair in issns for x in pair]
    assert len(set(flat)) == len(flat)
    assert all(is_valid(issn) for issn in flat)


def test_titles_cover_letters_and_digits() -> None:
    first = {t[0].upper() for t in JournalRelation(1, 2000).titles}
    assert {"A", "Q", "X", "Z"} <= first
    assert any(c.isdigit() for c in first)
