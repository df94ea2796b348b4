"""Pausing Python's cyclic garbage collector around work that makes many objects and no reference cycles.

The collector's passes walk every container allocated since the last one; over the millions of tuples and lists of an
integration, or the proxies and lists of a mined page, they find nothing and cost time (the figures are in
docs/ARCHITECTURE.md, "Measurements behind the design"). Reference counting still frees everything. The collector is one
switch for the whole process, so pauses are counted: overlapping pauses, in one thread or several, leave it off until
the last one ends, and then it is restored as the first found it.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _Pauses:
    """The pauses in progress, and whether the collector was on when the first of them began."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.count = 0
        self.enabled_before = False


_PAUSES = _Pauses()


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Keep the cyclic garbage collector off while the block runs (see the module's docstring)."""
    pauses = _PAUSES
    with pauses.lock:
        if pauses.count == 0:
            pauses.enabled_before = gc.isenabled()
            gc.disable()
        pauses.count += 1
    try:
        yield
    finally:
        with pauses.lock:
            pauses.count -= 1
            if pauses.count == 0 and pauses.enabled_before:
                gc.enable()
