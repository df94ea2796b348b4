"""What a crawl has learned about rendering each source's pages, and the render mode it runs with.

Pure: the state per source and role, the counts that decide, and the one order in which the render mode is chosen.
The glue that reads pages and makes requests from it is :mod:`journals.downloadermiddlewares.rendering_policy`.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

RENDER_MODES = ("auto", "browser", "never")
"""When pages are rendered in the browser: those that need it (detected), every page of the source, none."""
PageRole = Literal["index", "listing", "journal", "metrics"]
"""What a page is to the crawl: a start or browse page, a letter's listing or one of its pages, a journal's home
page, its metrics page. A site builds all pages of one role with one template, so rendering is learned per role."""
SIGNS_WITHOUT_MEANING = 5
"""Pages of a role shown with signs of scripts and their data as served, after which a source's signs on that role
are taken to mean nothing (its pages are read as served, without looking for their data again)."""
PROBES_TO_DECIDE = 2
"""Probes of a role that gain nothing from rendering after which the source's pages of that role are read as
served (one that gains decides at once that they are rendered)."""
PROBE_WAIT_SECONDS = 120
"""Seconds an unfinished page waits for its role's probes to end before it is read as served."""
RENDER_FAILURES_TO_STOP = 3
"""Pages of a source the browser fails on in a row after which the source is no longer rendered (the browser cannot
start or keeps crashing, or the site refuses it; a render that timed out is retried and does not count): each
failed page is fetched as served, and so are the source's pages from then on."""
ProbeWanted = Literal["probe", "browser", "served", "timed_out"]
"""What to do with an unfinished page of an undecided role: probe it, render it, read it as served (decided, or
after waiting :data:`PROBE_WAIT_SECONDS` for the probes in flight: ``timed_out``)."""


def resolve_render_mode(
    argument: str | None, setting: str | None, *, setting_chosen: bool, registry: str | None
) -> str:
    """The crawl's render mode (:data:`RENDER_MODES`), chosen once, first of:

    1. the spider's ``render`` argument (``-a render=``);
    2. the setting ``RENDER_PAGES`` when chosen for this crawl (``setting_chosen``: set above the project's
       defaults, as with ``-s`` or a spider's own settings);
    3. the site registry's entry for the spider's site (``"render": "browser"``), when it has one;
    4. the setting ``RENDER_PAGES`` at the project's default (``auto``).

    The project's default never hides the registry's word, and a choice made for one crawl wins over both.
    ``ValueError`` for a mode not in :data:`RENDER_MODES`."""
    for name, mode in (("-a render", argument), ("RENDER_PAGES", setting), ("the site registry's render", registry)):
        if mode is not None and mode not in RENDER_MODES:
            raise ValueError(f"{name} must be one of {', '.join(RENDER_MODES)}, got {mode!r}")
    if argument:
        return argument
    if setting and setting_chosen:
        return setting
    return registry or setting or "auto"


@dataclass
class SourceRendering:
    """What the crawl learned about rendering one source's pages."""

    rendered_roles: set[str] = field(default_factory=set)
    """Roles of page (:data:`PageRole`) this source builds with scripts: requested in the browser from then on."""
    served_with_data: Counter[str] = field(default_factory=Counter)
    """Pages per role that showed the signs of a script-built page but had their data as served (a site-wide
    ``<noscript>`` asking for JavaScript): after :data:`SIGNS_WITHOUT_MEANING` of them, the role's signs are no
    longer looked into."""
    failed_renders: int = 0
    """Pages of this source the browser has failed on since it last rendered one."""
    probes_without_gain: Counter[str] = field(default_factory=Counter)
    """Pages per role probed (rendered because they looked unfinished though they had data) whose rendering named
    no more journal data than their served HTML: after :data:`PROBES_TO_DECIDE` of them, the role is read as
    served."""
    probing: Counter[str] = field(default_factory=Counter)
    """Probes per role in flight: at most :data:`PROBES_TO_DECIDE`; the role's other unfinished pages wait for
    their verdict."""
    probe_ended: dict[str, asyncio.Event] = field(default_factory=dict)
    """Per role, set when a probe in flight ends (and replaced by a fresh one): what waiting pages wait for."""
    stopped: bool = False
    """Whether the browser failed on :data:`RENDER_FAILURES_TO_STOP` of its pages in a row: its pages are read as
    served from then on."""

    def end_probe(self, role: str) -> None:
        """One probe of ``role`` ended: the pages waiting for a verdict look again."""
        self.probing[role] -= 1
        if (ended := self.probe_ended.pop(role, None)) is not None:
            ended.set()

    def decided(self, role: str) -> str | None:
        """The verdict on ``role``'s pages: ``"browser"``, ``"served"``, or None while it is undecided."""
        if role in self.rendered_roles:
            return "browser"
        return "served" if self.probes_without_gain[role] >= PROBES_TO_DECIDE else None

    def note_render(self, *, failed: bool) -> bool:
        """Count a page the browser rendered or failed on; True when this failure stops the source's rendering."""
        self.failed_renders = self.failed_renders + 1 if failed else 0
        if self.failed_renders >= RENDER_FAILURES_TO_STOP and not self.stopped:
            self.stopped = True
            return True
        return False

    async def probe_wanted(self, role: str) -> ProbeWanted:
        """Whether an unfinished page of ``role`` is to be rendered: ``"browser"`` once the role is decided for the
        browser, ``"served"`` once decided as served; while undecided, ``"probe"`` when fewer than
        :data:`PROBES_TO_DECIDE` are in flight (counted in :attr:`probing`), else the verdict once the probes in
        flight have ended, waited for up to :data:`PROBE_WAIT_SECONDS` (then ``"timed_out"``)."""
        while (verdict := self.decided(role)) is None:
            if self.probing[role] < PROBES_TO_DECIDE:
                self.probing[role] += 1
                return "probe"
            ended = self.probe_ended.setdefault(role, asyncio.Event())
            try:
                await asyncio.wait_for(ended.wait(), PROBE_WAIT_SECONDS)
            except TimeoutError:
                return "timed_out"
        return "browser" if verdict == "browser" else "served"

    def decide_on_probe(self, role: str, *, rendered: int, served: int) -> str | None:
        """Record a probe's outcome (``rendered`` and ``served``: the journal data its rendering and its served HTML
        named); the verdict it brings (``"browser"`` or ``"served"``), None when the role stays undecided or was
        decided before."""
        if self.decided(role) is not None:
            return None
        if rendered > served:
            self.rendered_roles.add(role)
            return "browser"
        self.probes_without_gain[role] += 1
        return "served" if self.probes_without_gain[role] >= PROBES_TO_DECIDE else None
