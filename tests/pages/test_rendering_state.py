"""The render mode chosen once, in one order, and what a source's probes decide."""

from __future__ import annotations

import asyncio

import pytest
from scrapy.utils.defer import deferred_f_from_coro_f

from journals.pages.rendering_state import (
    PROBES_TO_DECIDE,
    RENDER_FAILURES_TO_STOP,
    SourceRendering,
    resolve_render_mode,
)


def test_the_render_mode_is_the_argument_then_a_chosen_setting_then_the_registry_then_the_default() -> None:
    assert resolve_render_mode("never", "browser", setting_chosen=True, registry="browser") == "never"
    assert resolve_render_mode(None, "never", setting_chosen=True, registry="browser") == "never"
    assert resolve_render_mode(None, "auto", setting_chosen=False, registry="browser") == "browser"
    assert resolve_render_mode(None, "never", setting_chosen=False, registry=None) == "never"
    assert resolve_render_mode(None, None, setting_chosen=False, registry=None) == "auto"


def test_an_unknown_mode_is_refused_wherever_it_comes_from() -> None:
    with pytest.raises(ValueError, match="-a render"):
        resolve_render_mode("sometimes", None, setting_chosen=False, registry=None)
    with pytest.raises(ValueError, match="RENDER_PAGES"):
        resolve_render_mode(None, "always", setting_chosen=True, registry=None)


def test_probes_without_gain_decide_for_the_served_page_and_one_with_gain_for_the_browser() -> None:
    state = SourceRendering()
    for _ in range(PROBES_TO_DECIDE - 1):
        assert state.decide_on_probe("journal", rendered=2, served=2) is None
    assert state.decide_on_probe("journal", rendered=2, served=2) == "served"
    assert state.decide_on_probe("journal", rendered=5, served=2) is None, "decided once"
    assert state.decide_on_probe("metrics", rendered=3, served=1) == "browser"
    assert state.decided("metrics") == "browser"


def test_failures_in_a_row_stop_rendering_once_and_a_success_resets_them() -> None:
    state = SourceRendering()
    assert not state.note_render(failed=True)
    assert not state.note_render(failed=False)
    stops = [state.note_render(failed=True) for _ in range(RENDER_FAILURES_TO_STOP + 1)]
    assert stops == [False] * (RENDER_FAILURES_TO_STOP - 1) + [True, False]
    assert state.stopped


@deferred_f_from_coro_f
async def test_an_undecided_role_probes_at_most_its_quota_and_the_next_page_waits_for_their_verdict() -> None:
    state = SourceRendering()
    wanted = [await state.probe_wanted("journal") for _ in range(PROBES_TO_DECIDE)]
    waiting = asyncio.ensure_future(state.probe_wanted("journal"))
    await asyncio.sleep(0)
    assert not waiting.done()
    state.rendered_roles.add("journal")
    state.end_probe("journal")
    assert [*wanted, await waiting] == ["probe"] * PROBES_TO_DECIDE + ["browser"]
