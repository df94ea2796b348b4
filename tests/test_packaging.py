"""The egg ``scrapyd-deploy`` builds (``setup.py bdist_egg``) ships the product, not the lab."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def test_the_egg_holds_journals_and_settings_and_not_the_lab(tmp_path):
    subprocess.run(
        [
            sys.executable,
            "setup.py",
            "--quiet",
            *("egg_info", "--egg-base", str(tmp_path)),  # every build file under tmp_path, none in the worktree
            *("build", "--build-base", str(tmp_path / "build")),
            *("bdist_egg", "--bdist-dir", str(tmp_path / "bdist"), "--dist-dir", str(tmp_path / "dist")),
        ],
        cwd=PROJECT_ROOT,
        check=True,
        capture_output=True,
    )
    (egg,) = (tmp_path / "dist").glob("*.egg")
    names = zipfile.ZipFile(egg).namelist()
    assert {name.split("/")[0] for name in names} == {"EGG-INFO", "journals", "settings"}
    assert {"journals/spiders/publisher.py", "journals/sandbox/web.py", "settings/vocabulary.json"} <= set(names)
    assert {"journals/sandbox/static/list.js", "journals/sandbox/static/journal.js"} <= set(names)
    assert not [name for name in names if "bench" in name or "fuzz" in name or "reliability" in name]
