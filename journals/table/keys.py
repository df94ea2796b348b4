"""The journals table's stable keys: one per real-world journal, the same from crawl to crawl.

A key is the journal's ISSN-L when it has an ISSN: the ISSN that links its print and electronic editions, which
ISSN's registry usually takes from the print edition, so the print ISSN, else the electronic one. A journal no
source gives an ISSN for gets an id, ``J`` and ten hex digits of its title's digest. A key once given is
remembered with the journal's ISSNs and title (:class:`KnownKey`), and a journal that shares an ISSN with a known
key, or its title when one of the two has no ISSN, takes that key again: a journal whose print ISSN a crawl missed
keeps the key its print ISSN gave it, and one whose ISSN appears later keeps its id.

Pure code: keys in, keys out; :mod:`journals.store.table_io` remembers them.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from journals.journal_identity import issn_form, title_key

ID_PREFIX = "J"
ID_HEX_DIGITS = 10


@dataclass(frozen=True)
class KeyClaim:
    """What a journal of this crawl offers to be known by."""

    issn: str | None
    """Its print ISSN, when known."""
    eissn: str | None
    """Its electronic ISSN, when known."""
    issns: frozenset[str]
    """Every ISSN its sources show (print, electronic, linking)."""
    title: str | None


@dataclass(frozen=True)
class KnownKey:
    """A key given before, with the ISSNs and title (as :func:`~journals.journal_identity.title_key` compares
    titles) of its journal."""

    key: str
    issns: frozenset[str]
    title: str | None


def assign_keys(claims: Sequence[KeyClaim], known: Sequence[KnownKey]) -> list[KnownKey]:
    """The key of each claim, in order, as a :class:`KnownKey` with the ISSNs known so far (the known ones and
    the claim's) and the claim's title: a known key when the claim shares an ISSN with it (or its title, when one
    of the two has no ISSN), else a new one. No two claims get one key."""
    by_issn: dict[str, list[KnownKey]] = defaultdict(list)
    by_title: dict[str, list[KnownKey]] = defaultdict(list)
    for entry in known:
        for issn in entry.issns:
            by_issn[issn].append(entry)
        if entry.title:
            by_title[entry.title].append(entry)
    taken = {entry.key for entry in known}
    used: set[str] = set()
    given: list[KnownKey | None] = [None] * len(claims)
    # Claims with ISSNs first, so that an id never takes a key an ISSN would have matched.
    order = sorted(range(len(claims)), key=lambda n: (not _issns(claims[n]), _preferred(claims[n]) or ""))
    for n in order:
        claim = claims[n]
        issns = _issns(claim)
        title = title_key(claim.title)
        match = _known_entry(issns, title, by_issn, by_title, used)
        key = match.key if match is not None else _new_key(claim, title, taken | used)
        used.add(key)
        given[n] = KnownKey(key, issns | (match.issns if match is not None else frozenset()), title)
    return [found for found in given if found is not None]


def _issns(claim: KeyClaim) -> frozenset[str]:
    """The claim's valid ISSNs, normalised."""
    shown = (claim.issn, claim.eissn, *claim.issns)
    return frozenset(form for issn in shown if (form := issn_form(issn)) is not None)


def _preferred(claim: KeyClaim) -> str | None:
    """The ISSN that stands for the journal: the print ISSN, else the electronic one, else the smallest shown."""
    for issn in (claim.issn, claim.eissn):
        if (form := issn_form(issn)) is not None:
            return form
    return min(_issns(claim), default=None)


def _known_entry(
    issns: frozenset[str],
    title: str | None,
    by_issn: dict[str, list[KnownKey]],
    by_title: dict[str, list[KnownKey]],
    used: set[str],
) -> KnownKey | None:
    """The known key a journal takes again: one sharing an ISSN (the one whose key is one of them first), else
    one of the same title where one of the two has no ISSN; None when there is none, or none left unused."""
    sharing = {entry.key: entry for issn in issns for entry in by_issn.get(issn, ()) if entry.key not in used}
    if sharing:
        return min(sharing.values(), key=lambda entry: (entry.key not in issns, entry.key))
    if title is None:
        return None
    namesakes = [entry for entry in by_title.get(title, ()) if entry.key not in used and not (entry.issns and issns)]
    return min(namesakes, key=lambda entry: entry.key) if namesakes else None


def _new_key(claim: KeyClaim, title: str | None, taken: set[str]) -> str:
    """A key no journal holds: the preferred ISSN when free, else an id from the title's digest."""
    preferred = _preferred(claim)
    if preferred is not None and preferred not in taken:
        return preferred
    for attempt in range(len(taken) + 1):
        seed = f"{title or ''}\x00{preferred or ''}\x00{attempt}"
        key = ID_PREFIX + hashlib.sha256(seed.encode("utf-8", "surrogatepass")).hexdigest()[:ID_HEX_DIGITS].upper()
        if key not in taken:
            return key
    raise AssertionError("unreachable: one of len(taken) + 1 digests is free")
