"""When two records of one source are one journal: title comparison, identity keys, and the URL each record of a
batch is stored under."""

from __future__ import annotations

from journals.journal_identity import (
    Claim,
    KeyedRecord,
    identity_keys,
    issn_form,
    locator,
    resolve,
    title_key,
    url_key,
)

LANCET = "0140-6736"
BMJ = "0959-8138"


def test_titles_compare_without_case_width_or_spacing_but_with_punctuation():
    assert title_key("  The\u00a0LANCET\n ") == title_key("the lancet") == "the lancet"
    assert title_key("ＡＣＴＡ Physica") == title_key("acta physica")  # full-width letters (NFKC)
    assert title_key("Straße") == title_key("STRASSE")  # case folding, not lower()
    assert title_key("Physical Review A") != title_key("Physical Review: A")
    assert title_key(" \t") is None
    assert title_key(None) is None


def test_issns_are_read_in_one_form_and_only_when_valid():
    assert issn_form(" 0140-6736 ") == issn_form("01406736") == LANCET
    assert issn_form("2049-002x") == "2049-002X"
    assert issn_form("0140-6737") is None  # wrong check digit
    assert issn_form("") is None
    assert issn_form(None) is None


def test_identity_needs_a_title_and_a_valid_issn():
    assert identity_keys("s", "The Lancet", [LANCET, None]) == identity_keys("s", "THE  LANCET", ["01406736"])
    assert len(identity_keys("s", "The Lancet", [LANCET, BMJ])) == 2
    assert identity_keys("s", "The Lancet", [None, "0140-6737"]) == ()
    assert identity_keys("s", None, [LANCET]) == ()
    assert identity_keys("s", "The Lancet", [LANCET]) != identity_keys("s", "BMJ", [LANCET])


def test_keys_are_fixed_size_for_any_text():
    huge = "x\x00\ud800" * 100_000
    assert len(url_key(huge, huge)) == len(identity_keys(huge, huge, [LANCET])[0]) == 32
    assert url_key("s", "a") != identity_keys("s", "a", [LANCET])[0]
    assert url_key("s", "ab") != url_key("sa", "b")  # no part runs into the next


def record(url, title="The Lancet", *issns):
    """A record of source ``s`` at ``url``."""
    return KeyedRecord("s", url, identity_keys("s", title, issns))


def test_a_batch_keeps_the_first_url_of_a_journal():
    records = [record("u1", "The Lancet", LANCET), record("u2", "the lancet", LANCET), record("b", "BMJ", BMJ)]
    resolution = resolve(records, {})
    assert resolution.urls == ["u1", "u1", "b"]
    assert resolution.duplicates(records) == [(1, "u1")]
    assert sorted(resolution.new_claims.values()) == ["b", "u1"]
    assert resolution.aliases == {url_key("s", "u1"): "u1", url_key("s", "u2"): "u1", url_key("s", "b"): "b"}


def test_a_print_issn_matches_the_same_number_given_as_electronic():
    first = KeyedRecord("s", "u1", identity_keys("s", "The Lancet", [LANCET, None]))
    second = KeyedRecord("s", "u2", identity_keys("s", "The Lancet", [None, LANCET]))
    assert resolve([first, second], {}).urls == ["u1", "u1"]


def test_a_stored_claim_wins_and_the_oldest_of_several():
    lancet, bmj = identity_keys("s", "The Lancet", [LANCET]), identity_keys("s", "The Lancet", [BMJ])
    claims = {lancet[0]: Claim("old", 5), bmj[0]: Claim("older", 2)}
    resolution = resolve([record("new", "The Lancet", LANCET, BMJ)], claims)
    assert resolution.urls == ["older"]
    assert resolution.new_claims == {}


def test_a_record_without_identity_follows_an_alias_only():
    claims = {url_key("s", "u2"): Claim("u1", 3)}
    resolution = resolve([KeyedRecord("s", "u2"), KeyedRecord("s", "u3")], claims)
    assert resolution.urls == ["u1", "u3"]
    assert (resolution.new_claims, resolution.aliases) == ({}, {url_key("s", "u3"): "u3"})


def test_an_alias_is_repointed_when_its_url_turns_out_to_be_another_journal():
    claims = {url_key("s", "u2"): Claim("u1", 3)}
    records = [record("u2", "BMJ", BMJ), KeyedRecord("s", "u2")]
    resolution = resolve(records, claims)
    assert resolution.urls == ["u2", "u2"]
    assert resolution.aliases == {url_key("s", "u2"): "u2"}


def test_a_place_is_the_url_without_scheme_port_or_www():
    assert locator("https://www.Site.org:8443/j/x?a=1#/b") == "site.org/j/x?a=1#/b"
    assert locator("http://127.0.0.1:8000/elsevier/journal/x") == locator("http://127.0.0.1:41234/elsevier/journal/x")
    assert locator("http://site.org") == "site.org/"
    assert locator("https://a.site.org/") != locator("https://b.site.org/")  # sister hosts of one source
    assert locator("not a url") == "not a url"
    assert locator("http://[bad/x") == "http://[bad/x"


def test_a_journal_found_on_another_port_keeps_its_row_and_moves_to_the_new_url():
    old, new = "http://127.0.0.1:8000/s/j/acta", "http://127.0.0.1:9000/s/j/acta"
    lancet = identity_keys("s", "The Lancet", [LANCET])
    claims = {url_key("s", old): Claim(old, 1), lancet[0]: Claim(old, 2)}
    for found in (KeyedRecord("s", new), KeyedRecord("s", new, lancet)):
        resolution = resolve([found], claims)
        assert resolution.urls == [new]
        assert resolution.moves == {("s", old): new}
        assert (resolution.aliases, resolution.new_claims) == ({}, {})  # the stored keys move with the row


def test_a_journal_read_with_its_issn_at_last_stays_the_row_of_its_place():
    old, new = "http://h:1/s/j/acta", "http://h:2/s/j/acta"
    resolution = resolve([record(new, "Acta", LANCET)], {url_key("s", old): Claim(old, 1)})
    assert resolution.urls == [new]
    assert resolution.moves == {("s", old): new}
    assert set(resolution.new_claims.values()) == {new}


def test_moves_back_and_forth_in_one_batch_end_where_the_last_record_was_found():
    http, https = "http://h.org/j/acta", "https://h.org/j/acta"
    resolution = resolve([KeyedRecord("s", http), KeyedRecord("s", https), KeyedRecord("s", http)], {})
    assert resolution.urls == [http, http, http]
    assert ("s", http) not in resolution.moves  # a row stored at http stays there
    resolution = resolve([KeyedRecord("s", http), KeyedRecord("s", https)], {})
    assert resolution.urls == [https, https]
    assert resolution.moves == {("s", http): https}


def test_another_source_never_shares_a_key():
    assert identity_keys("s", "The Lancet", [LANCET]) != identity_keys("t", "The Lancet", [LANCET])
    assert url_key("s", "u1") != url_key("t", "u1")


def test_same_title_without_issn_or_same_issn_under_another_title_are_two_journals():
    records = [record("u1", "Annals of Surgery"), record("u2", "Annals of Surgery")]
    assert resolve(records, {}).urls == ["u1", "u2"]
    records = [record("u1", "Journal A", LANCET), record("u2", "Journal B", LANCET)]
    assert resolve(records, {}).urls == ["u1", "u2"]
