"""Stable keys: ISSN-L when an ISSN is known, an id otherwise, the same key for the same journal crawl after crawl."""

from __future__ import annotations

from journals.table.keys import ID_PREFIX, KeyClaim, KnownKey, assign_keys


def claim(issn=None, eissn=None, title="Annals of Things", issns=()):
    return KeyClaim(issn=issn, eissn=eissn, issns=frozenset(issns), title=title)


def keys(claims, known=()):
    return [entry.key for entry in assign_keys(claims, list(known))]


def test_the_print_issn_is_the_key_else_the_electronic_one_else_an_id():
    found = keys([claim("0140-6736", "1474-547X"), claim(None, "1474-547X", "B"), claim(title="C")])
    assert found[:2] == ["0140-6736", "1474-547X"]
    assert found[2].startswith(ID_PREFIX) and len(found[2]) == 11


def test_an_invalid_issn_is_no_key():
    assert keys([claim("0140-6737", title="A")])[0].startswith(ID_PREFIX)


def test_a_journal_keeps_its_key_when_a_crawl_misses_its_print_issn():
    first = assign_keys([claim("0140-6736", "1474-547X")], [])
    assert keys([claim(None, "1474-547X")], first) == ["0140-6736"]


def test_a_journal_keyed_by_its_title_keeps_its_id_when_an_issn_appears():
    first = assign_keys([claim(title="Ethics Letters")], [])
    again = assign_keys([claim("0140-6736", title="ETHICS  letters")], first)
    assert again[0].key == first[0].key
    assert again[0].issns == {"0140-6736"}


def test_the_same_id_run_after_run_without_a_registry():
    assert keys([claim(title="Ethics Letters")]) == keys([claim(title="Ethics Letters")])


def test_two_journals_never_share_a_key():
    found = keys([claim(title="Namesake"), claim(title="Namesake"), claim("0140-6736"), claim("0140-6736")])
    assert len(set(found)) == 4


def test_a_namesake_with_another_issn_is_another_journal():
    first = assign_keys([claim("0140-6736", title="Annals of Surgery")], [])
    assert keys([claim("0959-8138", title="Annals of Surgery")], first) == ["0959-8138"]


def test_a_new_journal_never_takes_a_key_given_before():
    known = [KnownKey("0140-6736", frozenset({"0140-6736"}), "old")]
    # Another journal shows the ISSN as its print one, but the known key's journal shows it too and claims it.
    found = keys([claim("0140-6736", title="old"), claim("0140-6736", title="new")], known)
    assert found[0] == "0140-6736" and found[1] != "0140-6736"
