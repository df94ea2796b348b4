"""When two records of one source are one journal, and under which URL that journal is stored.

A site may link one journal under many URLs (a session id in every link, a tracking parameter, two letters of
its A–Z list). Within one source, a journal is identified by its title *and* an ISSN: two records of the source
with the same title and a shared ISSN (print or electronic, in either role: an ISSN names one serial whatever
the label the page gives it) are one journal, and so are two records found at one *place* of the site
(:func:`locator`: the URL without its scheme, port or ``www.``), so that a journal keeps its row when the site
comes back on another port (the sandbox gets a new one every run) or switches between ``http`` and ``https``.
A title alone is not an identity (a site may list a journal and its namesake, "Annals of Surgery" of two
societies), nor an ISSN alone (a site may show a series' ISSN on each of its sections). A record with no title or
no valid ISSN has no identity: it is told apart by its place only.

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
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import urlsplit

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


def locator(url: str) -> str:
    """Where ``url`` points within its site, whatever the moment's scheme and port: the host name lower-cased and
    without ``www.``, then the path, query and fragment as they are (``https://www.Site.org:8443/j/x?a=1`` →
    ``site.org/j/x?a=1``). A text that is no absolute URL is its own locator.

    The host name stays: a source may list journals on sister hosts, and two of them may share a path (every
    journal at ``/`` of its own subdomain). The fragment stays too: a hash route is a page of its own.
    """
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:  # a port out of range, a bracketed host that is no address
        return url
    if not parts.scheme or not parts.netloc or host is None:
        return url
    host = host.removeprefix("www.")
    rest = url[url.index(parts.netloc, len(parts.scheme)) + len(parts.netloc) :]
    return f"{host}{rest or '/'}"


def url_key(source: str, url: str) -> str:
    """The key of the place (:func:`locator`) of a URL of ``source`` a journal was found under: it leads to the
    URL the journal is stored under, across runs, ports and schemes."""
    return _digest("url", source, locator(url))


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
    moves: dict[tuple[str, str], str] = field(default_factory=dict)
    """``(source, stored URL)`` → the URL the journal is stored under from now on: the same place found under
    another scheme or port (the latest URL is the one that works). Keys of the stored URL move with it."""

    def duplicates(self, records: Sequence[KeyedRecord]) -> list[tuple[int, str]]:
        """``(position, stored URL)`` of each record stored under another URL than its own."""
        return [(n, url) for n, (record, url) in enumerate(zip(records, self.urls, strict=True)) if url != record.url]


def resolve(records: Sequence[KeyedRecord], claims: Mapping[str, Claim]) -> Resolution:
    """Decide, in order, the URL each record is stored under (a URL of its own source: keys carry the source).

    A record with an identity goes to the oldest journal holding one of its keys, else to the journal stored at
    its place (its alias, when that alias leads to the same place), else to its own URL, and its unclaimed keys
    are claimed for that URL, so a later record of the batch with the same identity follows it ("keep the first
    URL stored"). A record with no identity (no ISSN or title read) follows the alias of its place. Every record
    leaves the alias of its place leading where it went, which a later record (a re-crawl on another port, a
    page whose ISSN was not read this time) follows. A journal found at its own place under another URL (scheme
    or port) moves to that URL (:attr:`Resolution.moves`). ``claims`` holds what the database has of the
    records' keys, identity and alias alike.
    """
    known = dict(claims)
    source_of = {key: record.source for record in records for key in (*record.identity, record.alias)}
    next_order = max((claim.order for claim in known.values()), default=0) + 1
    resolution = Resolution(urls=[])
    for record in records:
        alias = known.get(record.alias)
        held = [known[key] for key in record.identity if key in known]
        if held:
            url = min(held, key=lambda claim: claim.order).url
        elif alias is not None and (not record.identity or locator(alias.url) == locator(record.url)):
            url = alias.url
        else:
            url = record.url
        if url != record.url and locator(url) == locator(record.url):
            _move(known, source_of, record.source, url, record.url)
            _record_move(resolution.moves, record.source, url, record.url)
            url = record.url
        for key in record.identity:
            if key not in known:
                known[key] = Claim(url, next_order)
                resolution.new_claims[key] = url
                next_order += 1
        alias = known.get(record.alias)
        if alias is None or alias.url != url:
            known[record.alias] = Claim(url, alias.order if alias is not None else next_order)
            resolution.aliases[record.alias] = url
            next_order += 1
        resolution.urls.append(url)
    for n, (record, url) in enumerate(zip(records, resolution.urls, strict=True)):
        resolution.urls[n] = resolution.moves.get((record.source, url), url)
    for key in resolution.new_claims:
        resolution.new_claims[key] = known[key].url
    for key in resolution.aliases:
        resolution.aliases[key] = known[key].url
    return resolution


def _move(known: dict[str, Claim], source_of: Mapping[str, str], source: str, old: str, new: str) -> None:
    """Point every claim of ``source`` on ``old`` to ``new``, keeping its age."""
    by_url: dict[str, list[str]] = defaultdict(list)
    for key, claim in known.items():
        by_url[claim.url].append(key)
    for key in by_url.get(old, ()):
        if source_of.get(key) == source:
            known[key] = Claim(new, known[key].order)


def _record_move(moves: dict[tuple[str, str], str], source: str, old: str, new: str) -> None:
    """Add the move ``old`` → ``new`` of ``source``, every earlier move to ``old`` now ending at ``new`` and none
    leading back to where it started (a journal seen under ``http`` then ``https`` then ``http`` again)."""
    for (moved_source, start), end in list(moves.items()):
        if moved_source == source and end == old:
            moves[source, start] = new
    moves.pop((source, new), None)
    moves[source, old] = new
    for (moved_source, start), end in list(moves.items()):
        if start == end:
            del moves[moved_source, start]
