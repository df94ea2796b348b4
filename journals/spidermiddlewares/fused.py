"""Scrapy's per-request spider middlewares, run as one layer of the spider's output instead of one layer each.

Scrapy passes a callback's output through one asynchronous generator per spider middleware, and each of its own
default ones (``StartSpiderMiddleware``, ``RefererMiddleware``, ``UrlLengthMiddleware``, ``DepthMiddleware``,
``MetaCopyDetectionMiddleware``) adds three to five: its ``process_spider_output``, the wrapper that warns of a
``spider`` argument, the manager's guard that routes an error to ``process_spider_exception``. So every request a
page yields goes through some twenty generators, each made anew for every response and registered with the event
loop; on a crawl whose pages each yield dozens of requests, that is a sizeable part of the reactor thread's work.

Yet what each of these middlewares does happens one output at a time, in the hooks of
:class:`~scrapy.spidermiddlewares.base.BaseSpiderMiddleware` (``get_processed_request``, ``get_processed_item``),
once the response is set up (``DepthMiddleware`` gives it its depth). :class:`FusedSpiderMiddleware` builds the
middlewares of ``FUSED_SPIDER_MIDDLEWARES`` as Scrapy would (``from_crawler``; ``NotConfigured`` leaves one out, as
``URLLENGTH_LIMIT = 0`` or ``REFERER_ENABLED = False`` do) and calls their own hooks in Scrapy's order (highest
priority number first, nearest the spider) in one generator: the same requests, headers, meta, priorities, stats
and warnings, from Scrapy's code, in one layer, for start requests as for the spider's output.

A middleware belongs in ``FUSED_SPIDER_MIDDLEWARES`` only if it is such a middleware: a ``BaseSpiderMiddleware``
with neither ``process_spider_input`` nor ``process_spider_exception`` nor a ``process_start`` of its own, whose
``process_spider_output`` (when it has its own: synchronous, the twin of its ``process_spider_output_async``, as in
Scrapy's universal middlewares) prepares the response and then hands each output to its hooks, as
``DepthMiddleware``'s does. Any other stays in ``SPIDER_MIDDLEWARES``. A fused middleware must be disabled there
(``None``), or it would run twice; both are checked as the crawl starts. Components that look a spider middleware
up (Scrapy's redirect middlewares want the ``RefererMiddleware``) find a fused one with :func:`spider_middleware`.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Self, TypeVar

from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import build_from_crawler, load_object

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

_M = TypeVar("_M")

Hook = Callable[[Any, "Response | None"], Any]
"""A middleware's ``get_processed_request`` or ``get_processed_item``: the output, changed, or None to drop it."""

_PER_OUTPUT_ONLY = ("process_spider_input", "process_spider_exception", "process_start")
"""Methods a fused middleware must not have (beyond ``BaseSpiderMiddleware``'s own ``process_start``, which only
hands each start output to the hooks): what they do is not one output at a time."""


def _overrides(middleware: object, name: str) -> bool:
    """Whether ``middleware``'s class defines ``name`` itself rather than take ``BaseSpiderMiddleware``'s."""
    own = getattr(type(middleware), name, None)
    return own is not None and own is not getattr(BaseSpiderMiddleware, name, None)


def fusion_problems(middleware: object) -> list[str]:
    """Why ``middleware`` cannot run inside :class:`FusedSpiderMiddleware` (empty when it can)."""
    if not isinstance(middleware, BaseSpiderMiddleware):
        return ["it is no scrapy.spidermiddlewares.base.BaseSpiderMiddleware"]
    problems = [f"it has a {name} of its own" for name in _PER_OUTPUT_ONLY if _overrides(middleware, name)]
    if _overrides(middleware, "process_spider_output_async") and not _overrides(middleware, "process_spider_output"):
        problems.append("its process_spider_output_async has no synchronous twin")
    if inspect.isasyncgenfunction(inspect.unwrap(type(middleware).process_spider_output)):
        problems.append("its process_spider_output is asynchronous")
    return problems


class FusedSpiderMiddleware:
    """Run ``BaseSpiderMiddleware`` hooks of several spider middlewares in one pass over each output (see the module
    docstring)."""

    def __init__(self, middlewares: Sequence[BaseSpiderMiddleware]) -> None:
        """Hold ``middlewares`` in the order their hooks run (nearest the spider first)."""
        for middleware in middlewares:
            if problems := fusion_problems(middleware):
                raise TypeError(f"{type(middleware).__qualname__} cannot be fused: {'; '.join(problems)}")
        self.middlewares = tuple(middlewares)
        self._hooks: tuple[tuple[Hook, Hook | None], ...] = tuple(
            (
                middleware.get_processed_request,
                middleware.get_processed_item if _overrides(middleware, "get_processed_item") else None,
            )
            for middleware in middlewares
        )
        self._response_setups = tuple(
            middleware for middleware in middlewares if _overrides(middleware, "process_spider_output")
        )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build the middlewares of ``FUSED_SPIDER_MIDDLEWARES`` as Scrapy builds spider middlewares; off when none
        is left. A fused middleware still enabled in ``SPIDER_MIDDLEWARES`` is refused."""
        settings = crawler.settings
        paths = build_component_list(settings.getdict("FUSED_SPIDER_MIDDLEWARES"))
        classes = [load_object(path) for path in paths]
        enabled = {
            load_object(path)
            for path in build_component_list(settings.get_component_priority_dict_with_base("SPIDER_MIDDLEWARES"))
        }
        if twice := [path for path, kind in zip(paths, classes, strict=True) if kind in enabled]:
            raise ValueError(
                f"{', '.join(twice)} in FUSED_SPIDER_MIDDLEWARES must be disabled (None) in SPIDER_MIDDLEWARES, "
                "or it would run twice"
            )
        middlewares = []
        for middleware_class in classes:
            try:
                middlewares.append(build_from_crawler(middleware_class, crawler))
            except NotConfigured:
                continue
        if not middlewares:
            raise NotConfigured
        # Scrapy runs the spider's output through its middlewares from the highest priority number down.
        return cls(middlewares[::-1])

    def processed(self, output: Any, response: Response | None) -> Any:
        """``output`` through every middleware's hook in turn (``response`` None for a start output), or None when
        one drops it."""
        for request_hook, item_hook in self._hooks:
            if isinstance(output, Request):
                output = request_hook(output, response)
            elif item_hook is not None:
                output = item_hook(output, response)
            if output is None:
                return None
        return output

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        """Pass each start request or item through the hooks (as each ``BaseSpiderMiddleware.process_start``
        would)."""
        async for output in start:
            if (output := self.processed(output, None)) is not None:
                yield output

    async def process_spider_output(self, response: Response, result: AsyncIterator[Any]) -> AsyncIterator[Any]:
        """Prepare the response for each middleware that does (when the output is first asked for, as Scrapy's
        chain of layers would), then pass each output through the hooks."""
        for middleware in self._response_setups:
            _set_up(middleware, response)
        async for output in result:
            if (output := self.processed(output, response)) is not None:
                yield output


def _set_up(middleware: BaseSpiderMiddleware, response: Response) -> None:
    """Run ``middleware``'s own ``process_spider_output`` over no output: what it does before its first output
    (``DepthMiddleware``: the response's depth) and nothing else. The synchronous one, which a universal middleware
    keeps doing what its asynchronous one does, without a generator for the event loop to track."""
    nothing: Iterable[Any] = ()
    for _ in middleware.process_spider_output(response, nothing):
        pass


def spider_middleware(crawler: Crawler, middleware_class: type[_M]) -> _M | None:
    """The crawl's instance of ``middleware_class`` (or of a subclass) among its spider middlewares, fused ones
    included: ``Crawler.get_spider_middleware`` sees only the layers, and a component that asks it for a fused
    middleware (Scrapy's redirect middlewares ask for the ``RefererMiddleware``) must find it here."""
    found = crawler.get_spider_middleware(middleware_class)
    if found is None and (fused := crawler.get_spider_middleware(FusedSpiderMiddleware)) is not None:
        found = next((m for m in fused.middlewares if isinstance(m, middleware_class)), None)
    return found
