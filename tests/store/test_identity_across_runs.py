"""The main job run twice, as `make crawl` runs it on a sandbox that gets a new port every time, into one database:
the same journals, once each, under the same keys, in the journals table and after ``scrapy integrate``."""

from __future__ import annotations

from pathlib import Path

from conftest import RunningSandbox, run_scrapy, serve_sandbox
from sqlalchemy import select

from journals.domain.sites import site_names
from journals.journal_identity import locator
from journals.store import engine_from_url
from journals.store.models import IntegratedMember, Journal, JournalKey, Source

JOURNALS = 200
SOURCES = site_names("publisher", "aggregator", "realweb")


def crawl_and_integrate(sandbox: RunningSandbox, database: str, feed: Path) -> None:
    """`make crawl`'s crawl of every source of the sandbox, then ``scrapy integrate``, both as a user runs them."""
    starts = ",".join(sandbox.start_url(source) for source in SOURCES)
    crawl = run_scrapy("crawl", "publisher", "-a", f"start_urls={starts}", "-O", str(feed), "-s", database)
    assert crawl.returncode == 0, crawl.stderr[-3000:]
    integrate = run_scrapy("integrate", "-s", database)
    assert integrate.returncode == 0, integrate.stderr[-3000:]


def table(url: str) -> tuple[list[tuple[int, str, str, str]], set[frozenset[int]], set[str]]:
    """The journal rows as ``(id, source, place, url)``, the integrated journals as sets of journal ids, and the
    URLs the identity and alias keys lead to."""
    engine = engine_from_url(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(Journal.id, Source.name, Journal.url).join(Source).order_by(Journal.id)).all()
            members: dict[int, set[int]] = {}
            for integrated, journal in conn.execute(
                select(IntegratedMember.integrated_journal_id, IntegratedMember.journal_id)
            ):
                members.setdefault(integrated, set()).add(journal)
            keys = set(conn.execute(select(JournalKey.url)).scalars())
    finally:
        engine.dispose()
    return [(i, source, locator(u), u) for i, source, u in rows], {frozenset(m) for m in members.values()}, keys


def test_two_runs_on_two_ports_find_the_same_journals_once_each_under_the_same_keys(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'journals.db'}"
    database = f"DATABASE_URL={url}"
    runs = []
    for _ in range(2):
        sandbox = serve_sandbox(1, JOURNALS)
        try:
            crawl_and_integrate(sandbox, database, tmp_path / "journals.csv")
        finally:
            sandbox.server.shutdown()
            sandbox.server.server_close()
        runs.append((sandbox.base_url, table(url)))
    (first_origin, (first, first_groups, _)), (second_origin, (second, second_groups, keys)) = runs
    assert first_origin != second_origin
    assert len({(source, place) for _, source, place, _ in second}) == len(second)  # once each
    assert [row[:3] for row in second] == [row[:3] for row in first]  # same ids, sources and places
    assert all(row[3].startswith(second_origin) for row in second)  # under the URLs that work now
    assert keys <= {row[3] for row in second}  # no key left on the old port
    assert len(first_groups) == JOURNALS  # every journal of the world, once
    assert second_groups == first_groups
