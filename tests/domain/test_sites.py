"""The site registry: its sites, their kinds, and the lists the Makefile, the sandbox and the runners read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from journals.domain import sites
from journals.domain.sites import KINDS, load_sites, real_sites, site, site_names
from journals.integration.evaluation import LABEL_LESS
from journals.sandbox.relation import PUBLISHERS
from journals.sandbox.sources import SITE_SPECS
from lab.crawlrun import SANDBOX_SOURCES

ROOT = Path(__file__).resolve().parents[2]


def test_every_site_has_a_known_kind_and_real_publishers_a_start_url() -> None:
    assert all(s.kind in KINDS for s in load_sites())
    assert len(set(site_names())) == len(load_sites())
    assert {s.name for s in real_sites()} == set(site_names("publisher"))
    assert all(s.start_url and s.start_url.startswith("https://") and s.allowed_hosts for s in real_sites())
    assert site("metricsdb").labelled is False and site("elsevier").labelled is True


def test_the_sandbox_and_the_runners_read_the_registry() -> None:
    assert tuple(spec.name for spec in SITE_SPECS) == site_names()
    assert all(spec.kind == site(spec.name).kind for spec in SITE_SPECS)
    assert site_names("publisher") == PUBLISHERS
    assert site_names("publisher", "aggregator") == SANDBOX_SOURCES
    assert LABEL_LESS == ("metricsdb",)


def test_the_command_line_prints_the_makefiles_lists_without_the_venv() -> None:
    def names(*args: str) -> list[str]:
        command = [sys.executable, "-S", "-m", "journals.domain.sites", *args]  # -S: no site-packages
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()

    assert names() == list(site_names())
    assert names("--kind", "heldout") == ["heldout"]
    assert names("--kind", "scripted") == ["scriptlist", "scriptapp"]
    crawled = names("--kind", "publisher", "--kind", "aggregator", "--kind", "realweb")
    assert "heldout" not in crawled and "metricsdb" in crawled and not set(crawled) & set(site_names("scripted"))
    assert names("--labelled") == [s.name for s in load_sites() if s.labelled]


def test_a_site_may_ask_for_every_page_rendered_and_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    def registry(render: str) -> bytes:
        entry = {"kind": "publisher", "start_url": "https://app.example/journals", "render": render}
        return json.dumps({"app": entry, "plain": {"kind": "publisher", "start_url": "https://p.example/"}}).encode()

    monkeypatch.setattr(sites.pkgutil, "get_data", lambda package, name: registry("browser"))
    load_sites.cache_clear()
    try:
        assert [(s.name, s.render) for s in load_sites()] == [("app", "browser"), ("plain", "auto")]
        monkeypatch.setattr(sites.pkgutil, "get_data", lambda package, name: registry("sometimes"))
        load_sites.cache_clear()
        with pytest.raises(ValueError, match="render 'sometimes'"):
            load_sites()
    finally:
        monkeypatch.undo()
        load_sites.cache_clear()
    assert all(s.render == "auto" for s in load_sites()), "no site of the registry asks for a browser yet"
