"""When two records of one source are one journal, and under which URL that journal is stored.

A site may link one journal under many URLs (a session id in every link, a tracking parameter, two letters of
its A–Z list). Within one source, a journal is identified by its title *and* an ISSN: two records of the source
with the same title and a shared ISSN (print or electronic, in either role: an ISSN names one serial whatever
the label the page gives it) are one journal. A title alone is not an identity (a site may list a journal and
its namesake, "Annals of Surgery" of two societies), nor an ISSN alone (a site may show a series' ISSN on each
of its sections). A record with no title or no valid ISSN has no identity: it is told apart by its URL only.

Titles compare after Unicode NFKC, case folding and collapsing white space, nothing more: within one source the
same journal's title comes from one database through one template, so only case (an upper-case heading) and
spacing (line breaks in the markup) differ, and punctuation stays significant ("Part A" / "Part-A" are two
records the site chose to spell apart). Cross-source linkage, which must be lenient, is
:mod:`journals.integration.linkage`'s job.

Our own code, because the ecosystem tells requests apart, not records: ``w3lib.url.canonicalize_url`` and
Scrapy's duplicate filter catch the URL variants a rule knows (the spider's job), while two URLs of one journal
may differ in ways no rule lists (a session id under a name nobody listed); only what the pages say is left.

Pure code: the keys are digests, so that any title or URL (megabytes, NUL bytes) fits one indexed column, and
:func:`resolve` decides per record the URL it is stored under from the keys already claimed.
:mod:`journals.store.journal_keys` keeps the claims in the database.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from journals.domain.issn import parse_issn
from journals.domain.text import clean

KEY_HEX_DIGITS = 32
"""A key is the first 128 bits of a SHA-256, in hex: collisions need about 2**64 keys, and the index stays small."""


def title_key(title: str | None) -> str | None:
    """``title`` as compared: :func:`~journals.domain.text.clean` (NFKC, white space collapsed), case folded;
    None when nothing is left."""
    if not isinstance(title, str):
        return None
    return clean(title).casefold() or None


def issn_form(issn: str | None) -> str | None:
    """A valid ISSN as ``NNNN-NNNC`` (``15384357`` and a lower-case ``x`` accepted), read as the extraction reads
    one (:func:`~journals.domain.issn.parse_issn`); None when invalid."""
    if not isinstance(issn, str) or (parsed := parse_issn(issn)) is None or parsed.value is None:
        return None
    return str(parsed.value)


def identity_keys(source: str, title: str | None, issns: Iterable[str | None]) -> tuple[str, ...]:
    """One key per valid ISSN of a record of ``source``, each with its title; none without a title or a valid
    ISSN. Keys of two sources never meet: a title and ISSN identify a journal within one source only."""
    compared = title_key(title)
    if compared is None:
        return ()
    valid = sorted({form for issn in issns if (form := issn_form(issn)) is not None})
    return tuple(_digest("issn", source, issn, compared) for issn in valid)


def url_key(source: str, url: str) -> str:
    """The key of a URL of ``source`` a journal was found under (an alias of the URL it is stored under)."""
    return _digest("url", source, url)


def _digest(kind: str, *parts: str) -> str:
    """SHA-256 of the parts (:data:`KEY_HEX_DIGITS` of its hex), each prefixed by its length (so no part can
    forge the boundary of the next), hashed as UTF-8 with ``surrogatepass`` whatever they hold."""
    text = "".join(f"{len(part)}:{part}" for part in (kind, *parts))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:KEY_HEX_DIGITS]


@dataclass(frozen=True)
class KeyedRecord:
    """One record of a source as :func:`resolve` sees it."""

    source: str
    url: str
    """The URL the record was found under."""
    identity: tuple[str, ...] = ()
    """Its :func:`identity_keys` (empty: no identity, so only an alias of its URL can redirect it)."""

    @cached_property
    def alias(self) -> str:
        """The :func:`url_key` of its URL."""
        return url_key(self.source, self.url)


@dataclass(frozen=True)
class Claim:
    """A key taken by a journal: the URL the journal is stored under, and the claim's age."""

    url: str
    order: int
    """Lower is older (the id of the journal row it leads to); among several journals a record names, the
    oldest wins."""


@dataclass
class Resolution:
    """Where each record of a batch goes, and what that changes in the claims."""

    urls: list[str]
    """Per record, in order, the URL of the journal row it is stored under."""
    new_claims: dict[str, str] = field(default_factory=dict)
    """Identity keys no journal held yet → the URL that takes them."""
    aliases: dict[str, str] = field(default_factory=dict)
    """Alias keys to write or rewrite → the URL they now lead to."""
    stale_aliases: set[str] = field(default_factory=set)
    """Alias keys to delete: their URL is now a journal's own (its record resolved to itself)."""

    def duplicates(self, records: Sequence[KeyedRecord]) -> list[tuple[int, str]]:
        """``(position, stored URL)`` of each record stored under another URL than its own."""
        return [(n, url) for n, (record, url) in enumerate(zip(records, self.urls, strict=True)) if url != record.url]


def resolve(records: Sequence[KeyedRecord], claims: Mapping[str, Claim]) -> Resolution:
    """Decide, in order, the URL each record is stored under (a URL of its own source: keys carry the source).

    A record with an identity goes to the oldest journal holding one of its keys, else to its own URL, and its
    unclaimed keys are claimed for that URL, so a later record of the batch with the same identity follows it
    ("keep the first URL stored"). A record stored under another URL leaves an alias of its URL, which a later
    record with no identity (a re-crawl's unchanged page, a page whose ISSN was not read this time) follows.
    ``claims`` holds what the database has of the records' keys, identity and alias alike.
    """
    known = dict(claims)
    next_order = max((claim.order for claim in known.values()), default=0) + 1
    resolution = Resolution(urls=[])
    for record in records:
        if record.identity:
            held = [known[key] for key in record.identity if key in known]
            url = min(held, key=lambda claim: claim.order).url if held else record.url
            for key in record.identity:
                if key not in known:
                    known[key] = Claim(url, next_order)
                    resolution.new_claims[key] = url
                    next_order += 1
            alias = known.get(record.alias)
            if url != record.url and (alias is None or alias.url != url):
                known[record.alias] = Claim(url, next_order)
                resolution.aliases[record.alias] = url
                resolution.stale_aliases.discard(record.alias)
                next_order += 1
            elif url == record.url and alias is not None:
                del known[record.alias]
                resolution.aliases.pop(record.alias, None)
                resolution.stale_aliases.add(record.alias)
        else:
            alias = known.get(record.alias)
            url = alias.url if alias is not None else record.url
        resolution.urls.append(url)
    return resolution
