from journals.integration.linkage import discriminating_tokens, link_records, linked_pairs, titles_may_link
from journals.integration.model import SourceRecord


def rec(key, source, title=None, *issns):
    return SourceRecord(key=key, source=source, title=title, issns=frozenset(issns))


def test_print_and_electronic_issn_seen_together_link_records_that_show_one_each():
    records = [
        rec("a", "wiley", "Ecology Letters", "0028-0836", "1476-4687"),
        rec("b", "metricsdb", "Ecol. Lett.", "0028-0836"),
        rec("c", "scimago", "Ecology Letters (Online)", "1476-4687"),
    ]
    linkage = link_records(records)
    assert len(linkage.clusters) == 1
    assert linkage.counts["issn_links"] == 2


def test_invalid_check_digit_is_ignored():
    linkage = link_records([rec("a", "x", "One", "0028-0837"), rec("b", "y", "Two", "0028-0837")])
    assert len(linkage.clusters) == 2


def test_physical_review_a_never_links_b_and_cell_never_links_cell_reports():
    assert not titles_may_link("Physical Review A", "Physical Review B")
    assert not titles_may_link("Cell", "Cell Reports")
    assert not titles_may_link("Annals of Physics Series 2", "Annals of Physics Series 3")
    assert titles_may_link("Science & Justice", "Science and Justice")
    assert discriminating_tokens("3D Optics") == discriminating_tokens("3d optics")
    linkage = link_records([rec("a", "x", "Physical Review A"), rec("b", "y", "Physical Review B")])
    assert len(linkage.clusters) == 2


def test_fuzzy_title_link_and_at_most_one_record_per_source():
    records = [
        rec("a", "x", "Journal of Applied Ecology"),
        rec("b", "y", "Journal of Applied Ecology."),
        rec("c", "y", "Journal of Applied  Ecology"),
    ]
    linkage = link_records(records)
    assert all(len({k[0] for k in keys}) == len(keys) for keys in linkage.clusters)
    sources = [{r.source for r in records if r.key in keys} for keys in linkage.clusters]
    assert all(len(s) == len(keys) for s, keys in zip(sources, linkage.clusters, strict=True))
    assert linkage.counts["refused_same_source"] >= 1


def test_title_link_refused_between_journals_with_disjoint_full_issn_sets():
    records = [
        rec("a", "x", "Optics", "0028-0836", "1476-4687"),
        rec("b", "y", "Optics", "1050-124X", "0000-0000"),
    ]
    assert len(link_records(records).clusters) == 2


def test_linked_pairs():
    assert linked_pairs([["a", "b", "c"], ["d"]]) == {frozenset(p) for p in (("a", "b"), ("a", "c"), ("b", "c"))}


def test_title_linkage_links_exactly_the_pairs_titles_may_link_accepts_within_a_block():
    # Every pair shares its two alphabetically first title tokens: the block the fuzzy pass compares within.
    pairs = [
        ("Acta Physica XI", "Acta Physica XII"),
        ("Journal of Molecular Liquids", "Journal of Molecular Liquids."),
        ("Science & Justice", "Science and Justice"),
        ("Annals of Physics", "Annals of Physic"),
    ]
    for a, b in pairs:
        linkage = link_records([rec("a", "x", a), rec("b", "y", b)])
        assert (len(linkage.clusters) == 1) == titles_may_link(a, b), (a, b)
    refused = link_records([rec("a", "x", pairs[0][0]), rec("b", "y", pairs[0][1])])
    assert refused.counts["refused_title_guard"] == 1
