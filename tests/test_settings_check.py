"""Every project setting has one home: its default in ``settings/default.py``, its rule in
:data:`~journals.settings_check.SETTING_RULES`, and components that read it with no default of their own."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from scrapy.settings import default_settings as scrapy_defaults

import journals
from journals.pages.rendering_state import RENDER_MODES
from journals.settings_check import SETTING_RULES, SettingRule, settings_problems
from settings import default

PACKAGE_DIR = Path(journals.__file__).resolve().parent
READ = re.compile(r"settings\.get\w*\(\s*\"([A-Z][A-Z0-9_]*)\"(\s*,)?")
def _reads() -> list[tuple[Path, str, bool]]:
    """Each read of a setting by name in the package (the sandbox aside): file, name, whether a default is passed."""
    found = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        if "sandbox" in path.relative_to(PACKAGE_DIR).parts:
            continue
        found.extend((path, match[1], bool(match[2])) for match in READ.finditer(path.read_text(encoding="utf-8")))
    return found


def _is_project_setting(name: str) -> bool:
    return not hasattr(scrapy_defaults, name)


def test_every_project_setting_read_has_a_rule():
    read = {name for _, name, _ in _reads() if _is_project_setting(name)}
    assert read, "the walk found no read"
    assert read - SETTING_RULES.keys() == set()


ADD_ON_PREFIXES = ("PLAYWRIGHT_",)
"""Settings of the add-ons the project configures (scrapy-playwright's), which hold them to their own rules."""


def test_every_project_setting_of_the_defaults_has_a_rule():
    """What ``settings/default.py`` sets that neither Scrapy nor an add-on knows is a project setting: it has a rule."""
    tree = ast.parse((PACKAGE_DIR.parent / "settings" / "default.py").read_text(encoding="utf-8"))
    assigned = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id.isupper()
    }
    assert {"MDR_THRESHOLD", "RENDER_PAGES", "CRAWL_MAX_INDEX_DEPTH"} <= assigned
    project = {name for name in assigned if _is_project_setting(name) and not name.startswith(ADD_ON_PREFIXES)}
    assert project - SETTING_RULES.keys() == set()


def test_every_rule_has_its_default_in_settings_default():
    assert {name for name in SETTING_RULES if not hasattr(default, name)} == set()


def test_no_component_passes_a_default_of_its_own_for_a_project_setting():
    second_defaults = {
        f"{path.relative_to(PACKAGE_DIR)}: {name}"
        for path, name, defaulted in _reads()
        if defaulted and _is_project_setting(name)
    }
    assert second_defaults == set()


def test_the_defaults_pass_their_rules():
    values = {name: getattr(default, name) for name in dir(default) if name.isupper()}
    assert list(settings_problems(values)) == []


def test_mdr_threshold_is_written_once():
    """The value lives in ``journals.mdr.mining``; the setting takes it; nothing else writes 0.3."""
    from journals.mdr.mining import DEFAULT_THRESHOLD

    assert default.MDR_THRESHOLD == DEFAULT_THRESHOLD
    for path in (PACKAGE_DIR / "pipelines" / "mdr.py", PACKAGE_DIR / "commands" / "mdr.py"):
        assert "0.3" not in path.read_text(encoding="utf-8")


def test_render_pages_choices_are_the_spiders_modes():
    assert SETTING_RULES["RENDER_PAGES"].choices == RENDER_MODES


@pytest.mark.parametrize(
    ("rule", "good", "bad"),
    [
        (SettingRule("choice", choices=("auto", "never")), "auto", "always"),
        (SettingRule("text"), "sqlite:///j.db", 3),
        (SettingRule("mapping"), '{"a": 1}', "[1]"),
        (SettingRule("mapping"), {"a": 1}, "a=1"),
        (SettingRule("list"), "http://a/,http://b/", [1]),
        (SettingRule("list"), ["http://a/"], None),
    ],
)
def test_the_new_kinds(rule, good, bad):
    assert rule.accepts(good)
    assert not rule.accepts(bad)
    assert rule.describe()


def test_a_bad_render_mode_is_refused_with_one_line():
    assert list(settings_problems({"RENDER_PAGES": "always"})) == [
        "setting RENDER_PAGES must be one of auto, browser, never, got 'always'"
    ]
