"""The saved pages' manifest and the loose URL key they are compared and served by."""

from __future__ import annotations

import json
import os

import pytest

from journals.replay.pages import (
    REAL_PAGES_ENV,
    load_saved_pages,
    resolve_corpus,
    resolve_manifest,
    url_key,
    usable_url,
)


def test_url_key_ignores_scheme_fragment_default_port_and_trailing_slash():
    assert url_key("https://www.MDPI.com/journal/ai/") == url_key("http://www.mdpi.com:80/journal/ai#about")
    assert url_key("https://www.mdpi.com:443/journal/ai") == "www.mdpi.com/journal/ai"
    assert url_key("https://h.org/p?id=1") != url_key("https://h.org/p?id=2")
    assert url_key("https://h.org:8443/p") == "h.org:8443/p"
    assert url_key("https://h.org/journal/ai") != url_key("https://h.org/journal/aim")


def test_usable_url_takes_the_url_before_a_remark():
    assert usable_url("http://www.springerlink.com/content/1000-9116 (issue 21/6)") == (
        "http://www.springerlink.com/content/1000-9116"
    )
    assert usable_url(None) is None
    assert usable_url("see the file name") is None


def test_manifest_from_folder_file_or_environment(tmp_path, monkeypatch):
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "l.html").write_text("<ul><li><a href='j/1'>J</a></li></ul>", encoding="utf-8")
    entries = [
        {"file": "pages/l.html", "kind": "list", "url": "https://p.org/all/", "expected_journals": [
            {"title": "J", "link": "j/1"}, {"title": "K", "link": "https://q.org/k"}]},
        {"file": "pages/l.html", "kind": "journal", "url": None, "expected": {"issn": None}},
    ]  # fmt: skip
    (tmp_path / "manifest.json").write_text(json.dumps(entries), encoding="utf-8")
    monkeypatch.setenv(REAL_PAGES_ENV, str(tmp_path))
    assert resolve_manifest() == tmp_path / "manifest.json"
    pages = load_saved_pages(tmp_path / "manifest.json")
    assert [page.kind for page in pages] == ["list", "journal"]
    assert pages[0].expected_links() == ["https://p.org/all/j/1", "https://q.org/k"]
    assert pages[0].html().startswith("<ul>")
    assert pages[1].url is None
    assert pages[1].expected == {"issn": None}
    with pytest.raises(FileNotFoundError):
        resolve_manifest(tmp_path / "pages")


def test_a_corpus_of_several_folders_reads_them_all_as_one(tmp_path, monkeypatch):
    for folder, name in (("real", "a"), ("real-2", "b")):
        (tmp_path / folder / "pages").mkdir(parents=True)
        (tmp_path / folder / "pages" / f"{name}.html").write_text("<p>x</p>", encoding="utf-8")
        entries = [{"file": f"pages/{name}.html", "kind": "journal", "url": f"https://p.org/{name}"}]
        (tmp_path / folder / "manifest.json").write_text(json.dumps(entries), encoding="utf-8")
    monkeypatch.setenv(REAL_PAGES_ENV, f"{tmp_path / 'real'}{os.pathsep}{tmp_path / 'real-2'}")
    assert [page.name for page in load_saved_pages()] == ["a", "b"]
    assert resolve_corpus() == [tmp_path / "real" / "manifest.json", tmp_path / "real-2" / "manifest.json"]
    with pytest.raises(FileNotFoundError):
        load_saved_pages(f"{tmp_path / 'real'}{os.pathsep}{tmp_path / 'missing'}")


def test_the_default_corpus_holds_both_handed_over_folders():
    assert [manifest.parent.name for manifest in resolve_corpus()] == ["real", "real-2"]
