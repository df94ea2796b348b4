"""The project's own settings, each with its type and range, checked before a crawl starts.

Scrapy reads a setting only when a component is built, inside the crawl, and ``getint("abc")`` then ends in a
traceback. ``scrapy crawl`` calls :func:`settings_problems` first and refuses a bad value with one line naming
the setting, what it must be and what it got.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

_TRUE, _FALSE = frozenset({"1", "True", "true"}), frozenset({"0", "False", "false"})


@dataclass(frozen=True)
class SettingRule:
    """What a setting's value must be: a kind (``integer``, ``number``, ``boolean``, ``choice``, ``text`` or
    ``mapping``, ``list``) and its bounds or choices."""

    kind: str
    minimum: float | None = None
    """Least value allowed (inclusive)."""
    maximum: float | None = None
    """Greatest value allowed (inclusive)."""
    positive: bool = False
    """Whether the value must be above zero (a period or a delay of 0 would spin)."""
    choices: tuple[str, ...] = ()
    """The values a ``choice`` may take."""

    def describe(self) -> str:
        """What the value must be, in words: "an integer ≥ 1", "a number from 0 to 1"…"""
        article = "an" if self.kind == "integer" else "a"
        if self.kind == "boolean":
            return "a boolean (True, False, 1 or 0)"
        if self.kind == "choice":
            return f"one of {', '.join(self.choices)}"
        if self.kind == "text":
            return "a text"
        if self.kind == "mapping":
            return "a mapping (a dict, or its JSON object as text)"
        if self.kind == "list":
            return "a list of texts, or one comma-separated text"
        if self.positive:
            return f"{article} {self.kind} > 0"
        if self.minimum is not None and self.maximum is not None:
            return f"{article} {self.kind} from {self.minimum:g} to {self.maximum:g}"
        if self.minimum is not None:
            return f"{article} {self.kind} ≥ {self.minimum:g}"
        return f"{article} {self.kind}"

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` (as given in a settings module or as ``-s NAME=text``) is of the kind and in range."""
        if self.kind == "choice":
            return value in self.choices
        if self.kind == "text":
            return isinstance(value, str)
        if self.kind == "mapping":
            return _is_mapping(value)
        if self.kind == "list":
            return isinstance(value, str) or (
                isinstance(value, list | tuple) and all(isinstance(item, str) for item in value)
            )
        number = _as_number(self.kind, value)
        if number is None:
            return False
        if self.kind == "boolean":
            return True
        return (
            (not self.positive or number > 0)
            and (self.minimum is None or number >= self.minimum)
            and (self.maximum is None or number <= self.maximum)
        )


def _as_number(kind: str, value: Any) -> float | None:
    """``value`` read as Scrapy's ``getint``/``getfloat``/``getbool`` would, None when they would fail."""
    if kind == "boolean":
        if isinstance(value, bool) or value in (0, 1):
            return float(value)
        text = str(value).strip()
        return 1.0 if text in _TRUE else 0.0 if text in _FALSE else None
    if isinstance(value, bool):
        return None
    try:
        number = int(value) if kind == "integer" else float(value)
    except (TypeError, ValueError):
        return None
    return float(number) if math.isfinite(number) else None


def _is_mapping(value: Any) -> bool:
    """Whether ``value`` is one Scrapy's ``getdict`` reads: a mapping, or the text of a JSON object."""
    if isinstance(value, Mapping):
        return True
    if not isinstance(value, str):
        return False
    try:
        return isinstance(json.loads(value), dict)
    except ValueError:
        return False


INTEGER_AT_LEAST_1 = SettingRule("integer", minimum=1)
TEXT = SettingRule("text")
BOOLEAN = SettingRule("boolean")
MAPPING = SettingRule("mapping")
FRACTION = SettingRule("number", minimum=0, maximum=1)

SETTING_RULES: dict[str, SettingRule] = {
    "DATABASE_BATCH_SIZE": INTEGER_AT_LEAST_1,
    "DATABASE_WRITE_ATTEMPTS": INTEGER_AT_LEAST_1,
    "DATABASE_RETRY_DELAY": SettingRule("number", minimum=0),
    "MDR_MAX_NODE_LENGTH": INTEGER_AT_LEAST_1,
    "MDR_THRESHOLD": FRACTION,
    "MDR_MAIN_REGIONS": SettingRule("integer", minimum=0),
    "MDR_LISTING_CACHE_SIZE": SettingRule("integer", minimum=0),
    "PROGRESS_ENABLED": SettingRule("boolean"),
    "PROGRESS_INTERVAL": SettingRule("number", positive=True),
    "EXTRACTION_RULES_PERSIST": SettingRule("boolean"),
    "EXTRACTION_PROCESS": SettingRule("boolean"),
    "EXTRACT_UNCHANGED_PAGES": SettingRule("boolean"),
    "FRONTIER_TTL_SECS": INTEGER_AT_LEAST_1,
    "FRONTIER_HEARTBEAT_SECS": SettingRule("number", positive=True),
    "FRONTIER_WORKER_TIMEOUT_SECS": SettingRule("number", positive=True),
    "CRAWL_MAX_PAGES_PER_SITE": INTEGER_AT_LEAST_1,
    "CRAWL_MAX_INDEX_DEPTH": INTEGER_AT_LEAST_1,
    "CRAWL_MAX_LISTING_PAGES": INTEGER_AT_LEAST_1,
    "LISTING_MEMORY_CHARS": SettingRule("integer", minimum=0),
    "PARSED_PAGES_CHARS": SettingRule("integer", minimum=0),
    "MAX_ANCHORS_PER_PAGE": INTEGER_AT_LEAST_1,
    "GC_YOUNG_THRESHOLD": INTEGER_AT_LEAST_1,
    "MDR_MAX_NODES": INTEGER_AT_LEAST_1,
    "ROBOTSTXT_MAX_BYTES": INTEGER_AT_LEAST_1,
    "FIRST_CONTACT_TIMEOUT": SettingRule("number", positive=True),
    "RATE_LIMIT_RETRY_TIMES": SettingRule("integer", minimum=0),
    "RATE_LIMIT_MAX_DELAY": SettingRule("number", positive=True),
    "RATE_LIMIT_START_DELAY": SettingRule("number", positive=True),
    "RATE_LIMIT_DECAY": SettingRule("number", positive=True, maximum=1),
    "FOLLOW_LISTED_JOURNAL_HOSTS": SettingRule("boolean"),
    "HEALTH_ENABLED": SettingRule("boolean"),
    "HEALTH_COVERAGE_MARGIN": FRACTION,
    "HEALTH_COMPLETENESS_MARGIN": FRACTION,
    "HEALTH_MAX_INVALID_ITEMS": FRACTION,
    "HEALTH_MAX_ERROR_RATE": FRACTION,
    "HEALTH_PREVIOUS_CRAWL_HOURS": SettingRule("number", positive=True),
    "CONFIRM_JOURNAL_PAGES": BOOLEAN,
    "CRAWL_RUNS_ENABLED": BOOLEAN,
    "REACTOR_LAG_ENABLED": BOOLEAN,
    "REACTOR_LAG_INTERVAL": SettingRule("number", positive=True),
    "RENDER_PAGES": SettingRule("choice", choices=("auto", "browser", "never")),
    "RENDER_TIMEOUT": SettingRule("number", positive=True),
    "DATABASE_URL": TEXT,
    "DATABASE_UNSAVED_DIR": TEXT,
    "PUBLIC_SITE_SETTINGS": MAPPING,
    "FUSED_SPIDER_MIDDLEWARES": MAPPING,
    "FUSED_DOWNLOADER_MIDDLEWARES": MAPPING,
    "FRONTIER_LEASE_SECS": SettingRule("number", positive=True),
    "CRAWL_ID": TEXT,
    "CRAWL_SCHEDULE": MAPPING,
    "SCHEDULE_JOB_SETTINGS": MAPPING,
    "SCHEDULE_POLL_SECS": SettingRule("number", positive=True),
    "SCHEDULE_STATE_FILE": TEXT,
    "SCRAPYD_PROJECT": TEXT,
    "SCRAPYD_URLS": SettingRule("list"),
}
"""Every project setting: its kind and range. Settings left unset are not checked."""


def settings_problems(settings: Mapping[str, Any], rules: Mapping[str, SettingRule] = SETTING_RULES) -> Iterator[str]:
    """One line per setting whose value breaks its rule, e.g. ``setting MDR_THRESHOLD must be a number from
    0 to 1, got '2'``."""
    for name, rule in rules.items():
        value = settings.get(name)
        if value is not None and not rule.accepts(value):
            yield f"setting {name} must be {rule.describe()}, got {value!r}"
