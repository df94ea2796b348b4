"""The journal's identity where pages show it outside their content: a copyright line, a footer's ISSN.

A publisher is often named only by the page's copyright line ("© 2020 Springer Nature Limited", "Copyright ©
2012 Elsevier B.V. All rights reserved"), and an ISSN only in the footer ("Nature ISSN 1476-4687 (online)").
Footers also list sister journals ("PeerJ ISSN: 2167-8359 · PeerJ Comput. Sci. ISSN: 2376-5992"): an ISSN there
is this journal's only when it follows the journal's own name, or when the footers make one statement only.
An article's own copyright ("© 2019 Zhang et al.") names its authors, not a publisher, and a bare brand ("© 2026
Elsevier") names the site, which may host other publishers' journals: a copyright line names the publisher when
it gives an organisation's legal or institutional name ("Limited", "B.V.", "Press", "Society": the vocabulary's
``organisation_words``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from lxml import etree

from journals.domain.issn import normalise, valid_matches
from journals.domain.parsed import Parsed
from journals.domain.text import clean
from journals.extraction.content import TextNode, page_text_nodes, visible_strings
from journals.extraction.labels import default_matcher
from journals.extraction.locate import Candidate
from journals.extraction.values import parse_organisation
from journals.extraction.xpaths import rule_parts
from journals.vocabulary import extraction_phrases, normalise_label

COPYRIGHT_MARK = re.compile(r"©|\(c\)(?=\s*(?:19|20)\d\d)|\bcopyright\b(?=\s*(?:[:©]|\(c\)|(?:19|20)\d\d))", re.I)
"""A copyright line's mark: ©, "(c) 2020", or the word before ©, a colon or a year ("Copyright 2012")."""
COPYRIGHT_LOOKAHEAD = 3
"""Text nodes after the mark where the holder may sit ("© <time>2019</time> eLife Sciences…")."""
FOOTERS = etree.XPath(
    "//footer | //*[@role='contentinfo'] | //*[contains(translate(@class, 'FOTER', 'foter'), 'footer')"
    " or contains(translate(@id, 'FOTER', 'foter'), 'footer') or contains(translate(@id, 'COPYRIGHT',"
    " 'copyright'), 'copyright') or contains(translate(@class, 'COPYRIGHT', 'copyright'), 'copyright')]"
)
"""The page's footers, by tag, ARIA role, class or id."""
_QUALIFIER = re.compile(r"^\s*[(\[]\s*(print|online|electronic|e-?version|web)\s*[)\]]", re.IGNORECASE)


PLATFORM_DEFAULT = re.compile(r"\bunless\s+otherwise\s+(?:stated|noted|indicated|specified)\b", re.IGNORECASE)
"""A copyright line that holds "unless otherwise stated" is a hosting platform's default for every page it serves
("© BioMed Central Ltd unless otherwise stated"), not the journal's publisher."""


def copyright_candidate(root: etree._Element) -> Candidate | None:
    """The page's copyright line that names an organisation, as a publisher candidate (footers first)."""
    footers = set(FOOTERS(root))
    body = root.find("body")
    nodes = page_text_nodes(body if body is not None else root)
    found: list[tuple[bool, Candidate]] = []
    for i, node in enumerate(nodes):
        mark = COPYRIGHT_MARK.search(node.text)
        if mark is None:
            continue
        candidate = _holder(nodes, i, mark)
        if candidate is not None:
            in_footer = any(a in footers for a in (node.owner, *node.owner.iterancestors()))
            found.append((not in_footer, candidate))
    return min(found, key=lambda f: (f[0], f[1].position))[1] if found else None


@cache
def _organisation_word() -> re.Pattern[str]:
    words = sorted(extraction_phrases()["organisation_words"], key=len, reverse=True)
    return re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, words))})(?!\w)", re.IGNORECASE)


def _organisation(text: str) -> Parsed | None:
    """The organisation a copyright line names by its legal or institutional name, else None."""
    parsed = parse_organisation(text)
    if parsed is None or parsed.value is None or not _organisation_word().search(str(parsed.value)):
        return None
    return parsed


def _holder(nodes: list[TextNode], i: int, mark: re.Match[str]) -> Candidate | None:
    """The organisation after ``mark``: in the same text node, else in the next ones (after a year alone)."""
    node = nodes[i]
    label = mark[0]
    if PLATFORM_DEFAULT.search(node.text[mark.end() :]):
        return None
    parsed = _organisation(node.text[mark.end() :])
    if parsed is not None:
        return Candidate("publisher", parsed, node, label, node, "after", i)
    if node.text[mark.end() :].strip(" ©:,") and not _only_years(node.text[mark.end() :]):
        return None
    for j in range(i + 1, min(len(nodes), i + 1 + COPYRIGHT_LOOKAHEAD)):
        text = nodes[j].text
        if _only_years(text):
            continue
        parsed = _organisation(text)
        return Candidate("publisher", parsed, node, label, nodes[j], "node", i) if parsed is not None else None
    return None


def _only_years(text: str) -> bool:
    return re.fullmatch(r"[\s©:,]*(?:(?:19|20)\d\d[\s,–-]*)*", text) is not None


def is_copyright_rule(xpath: str) -> bool:
    """Whether a rule reads a copyright line (its label is a copyright mark): a fallback a labelled
    "Publisher" row replaces, and never replaces."""
    parts = rule_parts(xpath)
    return parts is not None and COPYRIGHT_MARK.fullmatch(parts.test[1]) is not None


@dataclass(frozen=True)
class IssnStatement:
    """One ISSN a footer gives, the name written before it, and whether it is the print or the online one."""

    name: str
    attribute: str
    issn: str


def footer_issns(root: etree._Element, title: str | None) -> dict[str, str]:
    """The journal's own ISSNs from the page's footers: attribute (``issn``/``eissn``) → ``NNNN-NNNC``.

    The statements whose name ends with ``title`` win; without such a name, the footers' ISSNs are taken only
    when they are one journal's (one name, or none): a list of sister journals gives nothing.
    """
    regions = list(FOOTERS(root))
    chosen = set(regions)
    statements: list[IssnStatement] = []
    for region in regions:
        if not any(a in chosen for a in region.iterancestors()):
            text = clean(" ".join(visible_strings(region)))
            statements.extend(_statements(text))
    if not statements:
        return {}
    groups: list[list[IssnStatement]] = []
    for statement in statements:
        if statement.name or not groups:
            groups.append([])
        groups[-1].append(statement)
    wanted = normalise_label(title or "")
    own = [g for g in groups if wanted and re.search(rf"(?:^|\s){re.escape(wanted)}$", normalise_label(g[0].name))]
    if not own:
        own = groups if len(groups) == 1 else []
    result: dict[str, str] = {}
    for statement in own[0] if own else []:
        result.setdefault(statement.attribute, statement.issn)
    return result


def _statements(text: str) -> list[IssnStatement]:
    """The ISSN statements of a footer's text, each with the text before its label since the previous one."""
    labels = [h for h in default_matcher().embedded(text) if h.attribute in ("issn", "eissn")]
    statements: list[IssnStatement] = []
    previous_end = 0
    for match in valid_matches(text):
        before = [h for h in labels if previous_end <= h.start and h.end <= match.start() and not h.bracketed]
        qualifier = _QUALIFIER.match(text[match.end() :])
        if not before and qualifier is None:
            continue
        name_end = before[0].start if before else match.start()
        if qualifier is not None:
            attribute = "issn" if qualifier[1].lower() == "print" else "eissn"
        else:
            attribute = before[-1].attribute
        issn = normalise(match)
        statements.append(IssnStatement(text[previous_end:name_end].strip(" :;,|·/-–"), attribute, issn))
        previous_end = match.end() + (qualifier.end() if qualifier else 0)
    return statements
