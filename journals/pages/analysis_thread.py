"""The one worker thread a crawl's pages are analysed in, one page at a time, awaited from the reactor.

A page of 200,000 anchors never blocks the reactor, and only one such page is analysed at once (its tree, several
times its text, is the memory that counts).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class AnalysisThread:
    """A single worker thread; :meth:`run` hands it a function and awaits its result on the event loop."""

    def __init__(self, name: str = "page-analysis") -> None:
        """A thread named ``name`` (in logs and profiles), started at the first call."""
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``function(*args, **kwargs)`` run in the thread, awaited."""
        return await asyncio.wrap_future(self._executor.submit(function, *args, **kwargs))

    def shutdown(self) -> None:
        """Stop the thread, dropping what waits to run (the crawl is over)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
