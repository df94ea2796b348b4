"""The garbage collector's pauses are counted: overlapping pauses leave it off until the last one ends."""

from __future__ import annotations

import gc
import threading

from journals.gc_pause import cyclic_gc_paused


def test_a_pause_ending_while_another_thread_is_paused_leaves_the_collector_off() -> None:
    assert gc.isenabled()
    second_in, first_done = threading.Event(), threading.Event()
    seen: list[bool] = []

    def second() -> None:
        with cyclic_gc_paused():
            second_in.set()
            first_done.wait(5)
            seen.append(gc.isenabled())  # the first pause has ended, this one has not

    thread = threading.Thread(target=second)
    with cyclic_gc_paused():
        thread.start()
        second_in.wait(5)
    first_done.set()
    thread.join(5)
    assert seen == [False]
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    try:
        with cyclic_gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
