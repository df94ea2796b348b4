from journals.integration.candidates import CachedJournalPage, candidate_attributes
from journals.integration.evaluation import label_vocabulary
from journals.sandbox.web import SandboxWeb
from journals.vocabulary import label_key


def pages(site, count=30):
    web = SandboxWeb(seed=3, size=200)
    templates = web.sites[site]
    return [
        CachedJournalPage(f"{site}|{i}", site, f"http://x/{site}/{i}", templates.journal_home(i))
        for i in templates.site.journal_indices[:count]
    ], web


def test_metricsdb_rules_are_the_varying_cells_of_its_one_template():
    found, web = pages("metricsdb")
    titles = {p.record_key: web.relation.titles[int(p.record_key.split("|")[1])] for p in found}
    attributes = candidate_attributes(found, label_vocabulary(), titles)
    rules = {a.rule: a for a in attributes}
    cells = [f"/html/body/main/table/tr/td[{n}]/text()[1]" for n in range(1, 6)]
    assert set(cells) <= set(rules)
    assert rules[cells[0]].label == "title"
    assert {rules[cell].kind for cell in cells[2:]} == {"number"}
    assert len({a.unit for a in attributes}) == 1
    # The advertisement and the footer never vary: they are template text, not rules.
    assert not any("Advertisement" in o.text for a in attributes for o in a.values.values())


def test_label_relative_rules_and_affixes_on_a_labelled_site():
    found, _ = pages("springer", 40)
    hop_pages = []
    web = SandboxWeb(seed=3, size=200)
    for p in found:
        index = int(p.record_key.split("|")[1])
        hop_pages.append(
            CachedJournalPage(
                p.record_key, "springer", p.url + "/metrics", web.sites["springer"].journal_hop(index), "/metrics"
            )
        )
    attributes = candidate_attributes(hop_pages, label_vocabulary())
    labelled = {a.label: a for a in attributes if a.rule.startswith("//") and a.label}
    assert "impact_factor" in labelled
    impact = labelled["impact_factor"]
    assert impact.year == 2024
    assert impact.kind == "number"
    assert label_key("Impact Factor (2024):") == "impact factor"
