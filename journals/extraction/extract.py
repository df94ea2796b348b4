"""The extraction's entry point: a journal's pages in, each attribute's value and provenance out.

Per page: structured data first; then the learned rules of the page's template, read in one XPath evaluation;
when a rule finds nothing or an invalid value, or the template is new, the page is learned from its labels
(:mod:`journals.extraction.locate`) and the rules are updated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from lxml import etree

from journals.domain.parsed import Parsed
from journals.extraction.content import (
    content_roots,
    first_h1,
    has_hidden_parts,
    in_link,
    page_text_nodes,
    teaser_blocks,
    text_nodes,
)
from journals.extraction.identity import copyright_candidate, footer_issns, is_copyright_rule
from journals.extraction.labels import default_matcher
from journals.extraction.locate import Candidate, Locator
from journals.extraction.metric_years import metric_year
from journals.extraction.structured import SITE_NAME, has_structured_data, is_article_page, structured_values
from journals.extraction.templates import LEARNING_PAGES, LearnedRules, TemplateRules, template_signature
from journals.extraction.titles import TitleCandidate, agreed_title, title_candidates
from journals.extraction.values import is_site_word, parse_value
from journals.extraction.xpaths import element_rule, reads_last, rule_xpath
from journals.extraction.year_tables import latest_year_values
from journals.items import FetchedPage
from journals.pages.parsed import ParsedPage
from journals.vocabulary import Attribute, extraction_phrases, load_attributes, metric_names, normalise_label

PAGE_ORDER = {"home": 0, "metrics": 1}
"""Pages are read in this order; the first page showing a value wins."""


class Found(NamedTuple):
    """One attribute's value and where it came from (a named tuple: one is made per value on every page)."""

    value: object
    """The normalised value; None when the page shows the attribute without a value ("n/a")."""
    raw: str
    url: str
    xpath: str | None
    method: str
    """``structured`` (meta/JSON-LD/microdata), ``rule`` (a learned XPath reused), ``heuristic`` (found by
    its label on this page, rule learned), ``footer`` (a footer's ISSN statement), ``listing`` (the A–Z
    listing's anchor text), ``agreement`` (the title most of the page's places give), ``year_table`` (the latest
    year's column of a metrics table)."""
    year: int | None = None
    """The year a metric is for, when the page writes one with it (:mod:`~journals.extraction.metric_years`)."""

    def provenance(self) -> dict[str, object]:
        """The ``JournalItem.provenance`` entry: raw, url, xpath, extractor, and the metric's year when known."""
        entry: dict[str, object] = {"raw": self.raw, "url": self.url, "xpath": self.xpath, "extractor": self.method}
        if self.year is not None:
            entry["year"] = self.year
        return entry


@dataclass
class PageExtraction:
    """What one page yielded."""

    url: str
    template: str
    values: dict[str, Found] = field(default_factory=dict)
    learned: bool = False


@dataclass
class Extraction:
    """What a journal's pages yielded: per attribute its value (nulls included when shown as "n/a")."""

    values: dict[str, Found] = field(default_factory=dict)
    pages: list[PageExtraction] = field(default_factory=list)
    title_candidates: list[TitleCandidate] = field(default_factory=list)
    """Every name the home page gives its journal (:func:`~journals.extraction.titles.title_candidates`)."""

    def value(self, attribute: str) -> object:
        """The value of ``attribute``, None when absent."""
        found = self.values.get(attribute)
        return found.value if found else None


@cache
def _attributes() -> dict[str, Attribute]:
    return {a.name: a for a in load_attributes()}


@cache
def _locator() -> Locator:
    return Locator(default_matcher(), _attributes())


Regions = Callable[[], Iterable[str]]
"""The XPaths of a page's main (data-rich) regions, asked for only when the page is learned by its labels: MDR
runs on the pages whose labels are searched, not on every page."""


def _no_regions() -> Iterable[str]:
    return ()


def learn_page(root: etree._Element, role: str, regions: Iterable[str] = ()) -> dict[str, tuple[Parsed, str]]:
    """Find every attribute on ``root`` by its labels: attribute → (parsed value, rule XPath).

    A name's label that is a link ("Editors" in a menu) is a menu entry, not a label. On an article's page the
    heading is the article's title, and a bare "Editor" is the article's handling editor: neither is the
    journal's. A publisher no label names is read from the page's copyright line.
    """
    h1 = first_h1(root)
    matcher = default_matcher()
    teasers = teaser_blocks(h1, matcher.mentions)
    nodes = text_nodes(content_roots(root, regions), keep=h1, skip=teasers)
    article = is_article_page(root)
    chosen: dict[str, Candidate] = {}
    for candidate in sorted(_locator().candidates(nodes), key=_preference):
        if _menu_entry(candidate) or (article and _article_editor(candidate)):
            continue
        chosen.setdefault(candidate.attribute, candidate)
    if "publisher" in _attributes() and "publisher" not in chosen and (holder := copyright_candidate(root)):
        chosen["publisher"] = holder
    learned: dict[str, tuple[Parsed, str]] = {}
    if role == "home" and h1 is not None and not article and (heading := _heading(h1)) is not None:
        learned["title"] = heading
    for name, candidate in chosen.items():
        if name == "title":
            continue
        xpath = rule_xpath(candidate)
        if _reproduces(root, name, xpath, candidate.parsed):
            learned[name] = (candidate.parsed, xpath)
    return learned


def _heading(h1: etree._Element) -> tuple[Parsed, str] | None:
    """The title in the page's heading and its rule, the heading's hidden parts left out.

    The rule reads the whole heading when all its text is visible and the title; else the one visible text node
    that holds the whole title ("2D Optics" before "Current issue: Volume 3, Issue 6", or beside a hidden span);
    there is none when the title itself is split around hidden text.
    """
    root = h1.getroottree().getroot()
    parse = _attributes()["title"].type
    visible = page_text_nodes(h1)
    title = parse_value(parse, " ".join(n.text for n in visible))
    if title is None or title.value is None:
        return None
    hidden = has_hidden_parts(h1)
    rule = element_rule(h1)
    if len(visible) > 1 or hidden:
        node = visible[0]
        first = parse_value(parse, node.text)
        if first is not None and first.value == title.value:
            title = first
            path = node.owner.getroottree().getpath(node.owner)
            rule = element_rule(node.owner) if node.leaf else f"normalize-space(({path}/text()[{node.slot}])[1])"
        elif hidden:
            return None
    if not _reproduces(root, "title", rule, title):
        return None  # tag names libxml2 made of broken markup can make no XPath
    return title, rule


def _menu_entry(candidate: Candidate) -> bool:
    """A person's label written as a link: a menu entry ("Editors" → "Editorial Board"), not a label."""
    return _attributes()[candidate.attribute].type == "name" and in_link(candidate.label_node.owner)


@cache
def _article_editor_labels() -> frozenset[str]:
    return frozenset(normalise_label(label) for label in extraction_phrases()["article_editor_labels"])


def _article_editor(candidate: Candidate) -> bool:
    """A bare "Editor" label on an article's page: the article's handling editor, not the editor-in-chief."""
    label = normalise_label(candidate.label_text)
    return candidate.attribute == "editor_in_chief" and label in _article_editor_labels()


def _preference(candidate: Candidate) -> tuple[bool, bool, int]:
    """Values before nulls; a qualifier after its value ("(print)") before a plain label; then page order."""
    return candidate.parsed.value is None, candidate.mode != "before", candidate.position


def _reproduces(root: etree._Element, name: str, xpath: str, parsed: Parsed) -> bool:
    """Whether ``xpath`` yields ``parsed`` again on the page it was learned on."""
    try:
        again = parse_value(_attributes()[name].type, str(root.xpath(xpath)), last=reads_last(xpath))
    except (etree.XPathError, ValueError):  # ValueError: a label with control characters cannot be an XPath literal
        return False
    return again is not None and again.value == parsed.value


def _rule_values(rules: TemplateRules, texts: Iterable[str], page: FetchedPage) -> dict[str, Found] | None:
    """Parse what each rule found; None when a value has the wrong type or most rules found nothing.

    A rule that finds nothing while the others hold means the page leaves that row out (a null value): the
    template is the same, re-learning would find nothing either. The title is checked on every page and kept
    on home pages only.
    """
    values: dict[str, Found] = {}
    missing = 0
    url, home, xpaths = page.url, page.role == "home", rules.xpaths
    for (name, parser, last), text in zip(rules.readers, texts, strict=True):
        if not text:
            missing += 1
            continue
        value = parser(text, last)
        if value is None:
            return None
        if home or name != "title":
            values[name] = Found(value.value, value.raw, url, xpaths[name], "rule")
    return None if missing * 2 > len(rules.readers) else values


def extract_page(
    page: FetchedPage,
    source: str,
    learned_rules: LearnedRules,
    regions: Regions = _no_regions,
    *,
    journal: str | None = None,
    parsed: ParsedPage | None = None,
) -> PageExtraction | None:
    """Extract one page, reusing and updating ``learned_rules``; None when the page cannot be parsed.

    ``parsed`` is the page's parsed form when it was parsed already (a crawl's spider parses each page once), else
    the page's HTML is parsed here. ``journal`` names the journal the page is about (its home page's URL; the
    page's own URL by default). ``regions`` gives the page's main regions when the page is learned by its labels.

    A page shaped like one the rules have read is read by position (:mod:`journals.extraction.positions`);
    any other is named by its template signature and read by the template's rules, or learned. A page of a
    shape the rules had not read yet is also searched by its labels once, for rows the rules miss. A rule that
    reads one value on pages about different journals is a decoy (:meth:`LearnedRules.observe`): its value is
    left out and its template reads the attribute no more.
    """
    document = parsed if parsed is not None else ParsedPage(page.url, page.html)
    root = document.tree
    if root is None:
        return None
    values = rules = None
    learned_rows = searched = False
    if (shaped := learned_rules.read_by_position(source, root, page.role)) is not None:
        template, rules, texts = shaped
        values = _rule_values(rules, texts, page)
    if values is None:
        template = template_signature(root)
        rules = learned_rules.get(source, template)
        if rules is not None and rules.pages_learned >= LEARNING_PAGES:
            values = _rule_values(rules, rules.apply(root), page)
            searched = values is not None and learned_rules.remember_shape(source, template, root, page.role)
    if values is not None and rules is not None and (
        searched or learned_rules.names_an_attribute_missing(source, template, document.text)
    ):
        learned_rows = _add_missed_rows(
            values, page, root, source=source, template=template, learned_rules=learned_rules, regions=regions
        )
        if not learned_rows and not searched:
            learned_rules.searched_in_vain(source, template)
    if values is not None:
        result = PageExtraction(page.url, template, values, learned=learned_rows)
    else:
        decoys = learned_rules.decoy_rules(source, template)
        learned = {name: f for name, f in learn_page(root, page.role, regions()).items() if f[1] not in decoys}
        rules = learned_rules.learn(source, template, _changed_rules(rules, root, learned))
        result = PageExtraction(page.url, template, learned=True)
        for name, (value, xpath) in learned.items():
            result.values[name] = Found(value.value, value.raw, page.url, xpath, "heuristic")
    if (source, template) not in learned_rules.settled:
        read = {name: (found.xpath, found.value, found.raw) for name, found in result.values.items()}
        for name in learned_rules.observe(source, template, read, journal or page.url):
            del result.values[name]
    if has_structured_data(document.text, root):
        _add_structured(page, document, result)
    _add_year_tables(page, document, result)
    _add_metric_years(root, result)
    return result


def _add_metric_years(root: etree._Element, result: PageExtraction) -> None:
    """Give each metric read by a rule or by its label the year written with it."""
    for name in metric_names():
        found = result.values.get(name)
        if found is None or found.year is not None or found.value is None:
            continue
        if (year := metric_year(root, found.xpath)) is not None:
            result.values[name] = found._replace(year=year)


def _add_year_tables(page: FetchedPage, document: ParsedPage, result: PageExtraction) -> None:
    """A metric shown in a table with a column per year is the latest year's (:mod:`~journals.extraction.year_tables`),
    whatever the label's nearest cell or a learned rule read."""
    if document.tree is None or next(document.tree.iter("table"), None) is None:
        return  # no table: nothing to read (a C walk of the tree, before the scans of the text)
    if "<table" not in document.text and "<TABLE" not in document.text:
        return
    for name, latest in latest_year_values(document.tree).items():
        held = result.values.get(name)
        if held is None or held.value != latest.parsed.value:
            result.values[name] = Found(
                latest.parsed.value, latest.parsed.raw, page.url, None, "year_table", latest.year
            )
        elif held.year is None:
            result.values[name] = held._replace(year=latest.year)


def _add_missed_rows(
    values: dict[str, Found],
    page: FetchedPage,
    root: etree._Element,
    *,
    source: str,
    template: str,
    learned_rules: LearnedRules,
    regions: Regions,
) -> bool:
    """Add to ``values`` the rows the template's rules miss on this page (:func:`_rows_the_rules_miss`), learning
    their rules; True when there were some."""
    rules = learned_rules.templates[source][template]
    missed = _rows_the_rules_miss(root, page.role, rules, regions(), learned_rules.decoy_rules(source, template))
    if not missed:
        return False
    learned_rules.learn(source, template, {name: xpath for name, (_, xpath) in missed.items()})
    for name, (value, xpath) in missed.items():
        values[name] = Found(value.value, value.raw, page.url, xpath, "heuristic")
    return True


def _rows_the_rules_miss(
    root: etree._Element, role: str, rules: TemplateRules, regions: Iterable[str], decoys: Iterable[str] = ()
) -> dict[str, tuple[Parsed, str]]:
    """The rows a page shows that its template's rules have no rule for, found by the page's labels.

    A template is trusted after :data:`LEARNING_PAGES` pages; a row those pages all left out (a metric few
    journals have) would otherwise never get a rule, and which rows a template's first pages show depends on
    the crawl's order (a crawl killed and resumed once differed from the uninterrupted one by such a row).
    Asked once per new page shape: a handful of pages per template.
    """
    learned = learn_page(root, role, regions)
    banned = set(decoys)
    return {name: found for name, found in learned.items() if name not in rules.xpaths and found[1] not in banned}


def _changed_rules(
    rules: TemplateRules | None, root: etree._Element, learned: Mapping[str, tuple[Parsed, str]]
) -> dict[str, str]:
    """The rules a learned page brings: those of attributes the template's current rules miss or misread here.

    A rule that reads this page right is kept: the page may be the template's odd one ("eISSN 1234-5679" alone,
    where the other pages say "ISSN … · eISSN …"), and its narrower rule would then miss the value everywhere else.
    A copyright line never replaces a labelled "Publisher" row: a page that leaves the row out shows no publisher.
    """
    current = rules.xpaths if rules is not None else {}
    return {
        name: xpath
        for name, (parsed, xpath) in learned.items()
        if name not in current
        or current[name] == xpath
        or (
            not _reproduces(root, name, current[name], parsed)
            and (is_copyright_rule(current[name]) or not is_copyright_rule(xpath))
        )
    }


def _add_structured(page: FetchedPage, document: ParsedPage, result: PageExtraction) -> None:
    """Structured values win, except ISSNs and publishers: schema.org does not say which ISSN is print and which
    online, so they only fill in an ISSN the labels did not place; a publisher the page shows (a labelled row, a
    copyright line) wins over the meta tags' unless both name the same organisation. On an article's page the
    heading is the article's title; the site's brand (``og:site_name``) names the journal when nothing else does
    and it is neither a platform's nor the publisher's name."""
    attributes = _attributes()
    placed = {f.value for name, f in result.values.items() if attributes[name].type == "issn"}
    root = document.tree
    assert root is not None
    if is_article_page(root) and "title" in result.values and result.values["title"].method != "structured":
        del result.values["title"]
    found = structured_values(document.text, root)
    for name, (raw, where) in found.items():
        if name not in attributes or (name == "title" and page.role != "home"):
            continue
        value = parse_value(attributes[name].type, raw)
        if value is None or value.value is None:
            continue
        shown = result.values.get(name)
        if attributes[name].type == "issn" and (shown is not None or value.value in placed):
            continue
        if (
            name == "publisher"
            and shown is not None
            and shown.value is not None
            and not _same_organisation(str(shown.value), str(value.value))
        ):
            continue
        result.values[name] = Found(value.value, value.raw, page.url, where, "structured")
    if SITE_NAME in found and page.role == "home" and "title" not in result.values:
        raw, where = found[SITE_NAME]
        brand = parse_value(attributes["title"].type, raw)
        publisher = result.values.get("publisher")
        if (
            brand is not None
            and brand.value is not None
            and not is_site_word(raw)
            and (publisher is None or not _same_organisation(str(publisher.value), str(brand.value)))
        ):
            result.values["title"] = Found(brand.value, brand.raw, page.url, where, "structured")


_LEGAL_FORMS = {"ltd": "limited", "inc": "incorporated", "co": "company", "corp": "corporation"}


def _same_organisation(a: str, b: str) -> bool:
    """Whether two names are one organisation's, abbreviations of legal forms aside ("Ltd." and "Limited")."""

    def key(name: str) -> list[str]:
        return [_LEGAL_FORMS.get(word, word) for word in normalise_label(name).split()]

    return key(a) == key(b)


def _add_footer_issns(documents: Iterable[tuple[FetchedPage, ParsedPage]], extraction: Extraction) -> None:
    """The journal's ISSN from its home page's footers, when none of its pages gave one (for the few journals that
    show an ISSN nowhere else)."""
    title = extraction.value("title")
    for page, document in documents:
        if page.role == "home" and (root := document.tree) is not None:
            for name, issn in footer_issns(root, str(title) if title else None).items():
                extraction.values[name] = Found(issn, issn, page.url, None, "footer")
            return


def _agree_on_title(
    documents: Iterable[tuple[FetchedPage, ParsedPage]], extraction: Extraction, listing_title: str | None
) -> None:
    """The title the home page's places agree on (:mod:`journals.extraction.titles`), where it differs from the
    one read: a former title in a meta tag, a section's heading, an address, or none at all. Meta tags outvoted
    on the title name a former journal: their ISSNs go with it."""
    home = next(((page, doc) for page, doc in documents if page.role == "home" and doc.tree is not None), None)
    if home is None:
        return
    page, document = home
    assert document.tree is not None
    held = extraction.values.get("title")
    current = str(held.value) if held is not None and held.value is not None else None
    extraction.title_candidates = title_candidates(document.tree, listing_title)
    agreed = agreed_title(extraction.title_candidates, current)
    if agreed is None and current is not None:
        del extraction.values["title"]  # an address is no title
    elif agreed is not None and agreed != current:
        extraction.values["title"] = Found(agreed, agreed, page.url, None, "agreement")
        if held is not None and held.method == "structured":
            for name in ("issn", "eissn"):  # the meta tags describe the title the page no longer shows
                if (found := extraction.values.get(name)) is not None and found.method == "structured":
                    del extraction.values[name]


RegionFinder = Callable[[ParsedPage], Iterable[str]]
"""The main regions of a parsed page (:class:`journals.mdr.mining.MainRegions` with the crawl's set-up)."""


def extract_journal(
    pages: Iterable[FetchedPage],
    learned_rules: LearnedRules,
    main_regions: Mapping[str, Iterable[str]] | RegionFinder | None = None,
    *,
    source: str = "",
    listing_title: str | None = None,
    parsed: Mapping[str, ParsedPage] | None = None,
) -> Extraction:
    """Extract a journal from its pages (listing pages are skipped): per attribute the first value shown.

    ``parsed`` holds the pages already parsed, by URL (the others are parsed here). ``main_regions`` gives each
    page's main regions: a finder asked only for the pages learned by their labels, or XPaths by page URL.
    """
    extraction = Extraction()
    ordered = sorted((p for p in pages if p.role != "listing"), key=lambda p: PAGE_ORDER.get(p.role, 2))
    known = parsed or {}
    documents = [(page, known.get(page.url) or ParsedPage(page.url, page.html)) for page in ordered]
    journal = ordered[0].url if ordered else ""
    for page, document in documents:
        result = extract_page(
            page, source, learned_rules, _regions_of(main_regions, document), journal=journal, parsed=document
        )
        if result is None:
            continue
        extraction.pages.append(result)
        for name, found in result.values.items():
            held = extraction.values.get(name)
            if held is None or (held.value is None and found.value is not None):
                extraction.values[name] = found
    if "issn" not in extraction.values and "eissn" not in extraction.values:
        _add_footer_issns(documents, extraction)
    _agree_on_title(documents, extraction, listing_title)
    if "title" not in extraction.values and listing_title:
        extraction.values["title"] = Found(listing_title, listing_title, "", None, "listing")
    return extraction


def _regions_of(main_regions: Mapping[str, Iterable[str]] | RegionFinder | None, document: ParsedPage) -> Regions:
    """The :data:`Regions` of one page: found when asked, by the finder or in the mapping."""
    if main_regions is None:
        return _no_regions
    if callable(main_regions):
        finder = main_regions
        return lambda: finder(document)
    regions = main_regions.get(document.url, ())
    return lambda: regions
