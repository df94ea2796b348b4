"""Scrapy's downloader middlewares that only prepare a request, run as one layer of the downloader's chain.

Scrapy's downloader middleware manager calls each middleware's hook through the same machinery, for every request
and every response: the hook's full name formatted for a warning that is not given, a look-up of whether it wants
a ``spider`` argument, Scrapy's wrapper that warns of one, and a coroutine made around its result to be awaited.
``HttpAuthMiddleware``, ``DownloadTimeoutMiddleware``, ``DefaultHeadersMiddleware`` and ``UserAgentMiddleware``
each only set a header or a meta key and return None, yet each pays that toll on every request.

:class:`FusedDownloaderMiddleware` builds the middlewares of ``FUSED_DOWNLOADER_MIDDLEWARES`` as Scrapy would
(``build_from_crawler``; ``NotConfigured`` leaves one out) and calls their own hooks in Scrapy's order (requests
from the lowest priority number up, responses and exceptions from the highest down) in one layer, handling what each
returns as the manager does: a request hook's Response or Request, a response hook's Request, an exception hook's
answer ends the layer's turn as it would have ended the chain; a Deferred or awaitable is awaited.

The layer sits at one place of ``DOWNLOADER_MIDDLEWARES``, so a fused middleware's hooks move from its own priority
(the one ``FUSED_DOWNLOADER_MIDDLEWARES`` gives it: Scrapy's, in ``DOWNLOADER_MIDDLEWARES_BASE``) to the layer's. That
is refused as the crawl starts unless no middleware left in the chain has a hook of the same kind between the two:
then every hook of the crawl runs in the order Scrapy's chain gives it, on the same request and response, and what a
fused middleware reads or writes is read or written at the same point. A fused middleware still enabled in
``DOWNLOADER_MIDDLEWARES`` (it would run twice) and one whose hook requires a ``spider`` argument are refused too.
``Crawler.get_downloader_middleware`` sees only the chain's layers: :func:`downloader_middleware` finds a fused one.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Self, TypeVar

from scrapy.exceptions import NotConfigured
from scrapy.http import Request, Response
from scrapy.utils.conf import build_component_list
from scrapy.utils.defer import ensure_awaitable
from scrapy.utils.deprecate import argument_is_required
from scrapy.utils.misc import build_from_crawler, load_object
from scrapy.utils.python import global_object_name
from twisted.internet.defer import Deferred

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

_M = TypeVar("_M")

HOOKS = ("process_request", "process_response", "process_exception")
"""The hooks of a downloader middleware, each called in the order of the chain (requests) or against it."""

Hook = Callable[..., Any]
"""A fused middleware's bound hook, called with the arguments the manager passes (no ``spider``)."""


def fusion_problems(middleware: object) -> list[str]:
    """Why ``middleware`` cannot run inside :class:`FusedDownloaderMiddleware` (empty when it can): a hook that
    requires a ``spider`` argument (the manager passes it one; the layer does not)."""
    return [
        f"its {name} requires a spider argument"
        for name in HOOKS
        if (hook := getattr(middleware, name, None)) is not None and argument_is_required(hook, "spider")
    ]


def crossings(fused: dict[type, int], layer: int, chain: dict[type, int]) -> list[str]:
    """The hooks that fusing would reorder: for each fused class (by its own priority), each class of the ``chain``
    (by priority; the layer's own excluded) with a hook of the same kind placed between that priority and the
    ``layer``'s, both included (Scrapy orders equal priorities by their place in the settings)."""
    problems = []
    for fused_class, own in fused.items():
        low, high = sorted((own, layer))
        for chain_class, priority in chain.items():
            if low <= priority <= high:
                problems.extend(
                    f"{chain_class.__qualname__}.{name} ({priority}) runs between {fused_class.__qualname__}.{name} "
                    f"({own}) and the fused layer ({layer})"
                    for name in HOOKS
                    if hasattr(fused_class, name) and hasattr(chain_class, name)
                )
    return problems


def _awaitable(result: object) -> bool:
    return isinstance(result, Deferred) or inspect.isawaitable(result)


class FusedDownloaderMiddleware:
    """Run the hooks of several downloader middlewares as one layer of the chain (see the module docstring).

    It has a ``process_response`` or ``process_exception`` only when a fused middleware has one, so that the manager
    calls the layer no more often than it called them."""

    process_response: Callable[[Request, Response], Any]
    process_exception: Callable[[Request, Exception], Any]

    def __init__(self, middlewares: Sequence[object]) -> None:
        """Hold ``middlewares`` in the chain's order (lowest priority number first)."""
        for middleware in middlewares:
            if problems := fusion_problems(middleware):
                raise TypeError(f"{type(middleware).__qualname__} cannot be fused: {'; '.join(problems)}")
        self.middlewares = tuple(middlewares)
        self._request_hooks: tuple[Hook, ...] = self._hooks("process_request")
        self._response_hooks: tuple[Hook, ...] = self._hooks("process_response")[::-1]
        self._exception_hooks: tuple[Hook, ...] = self._hooks("process_exception")[::-1]
        if self._response_hooks:
            self.process_response = self._process_response
        if self._exception_hooks:
            self.process_exception = self._process_exception

    def _hooks(self, name: str) -> tuple[Hook, ...]:
        return tuple(getattr(middleware, name) for middleware in self.middlewares if hasattr(middleware, name))

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build the middlewares of ``FUSED_DOWNLOADER_MIDDLEWARES`` as Scrapy builds downloader middlewares; off
        when none is left. Refused (``ValueError``) when one is still enabled in ``DOWNLOADER_MIDDLEWARES``, or when
        fusing would reorder a hook of the chain (:func:`crossings`)."""
        settings = crawler.settings
        fused = _priorities(settings, "FUSED_DOWNLOADER_MIDDLEWARES")
        chain = _priorities(settings, "DOWNLOADER_MIDDLEWARES")
        if twice := [kind.__qualname__ for kind in fused if kind in chain]:
            raise ValueError(
                f"{', '.join(twice)} in FUSED_DOWNLOADER_MIDDLEWARES must be disabled (None) in "
                "DOWNLOADER_MIDDLEWARES, or it would run twice"
            )
        layers = [priority for kind, priority in chain.items() if issubclass(kind, cls)]
        if len(layers) == 1:  # else built outside a crawl's chain, where no order is kept
            others = {kind: priority for kind, priority in chain.items() if not issubclass(kind, cls)}
            if problems := crossings(fused, layers[0], others):
                raise ValueError(f"Fusing would reorder the downloader middlewares' hooks: {'; '.join(problems)}")
        middlewares = []
        for middleware_class in fused:
            try:
                middlewares.append(build_from_crawler(middleware_class, crawler))
            except NotConfigured as exc:
                if exc.args:
                    logger.warning("Disabled %s: %s", global_object_name(middleware_class), exc.args[0])
        if not middlewares:
            raise NotConfigured
        logger.info(
            "Fused downloader middlewares: %s",
            [global_object_name(type(middleware)) for middleware in middlewares],
            extra={"crawler": crawler},
        )
        return cls(middlewares)

    async def process_request(self, request: Request) -> Response | Request | None:
        """The request through each fused middleware's ``process_request`` in turn, until one answers (a Response
        or a Request, returned as the chain would return it)."""
        return await _first_answer(self._request_hooks, request=request)

    async def _process_response(self, request: Request, response: Response) -> Response | Request:
        """The response through each fused middleware's ``process_response``, the highest priority number first,
        until one gives a Request (or anything that is no Response, which the manager refuses)."""
        result: Any = response
        for hook in self._response_hooks:
            result = hook(request=request, response=result)
            if not isinstance(result, Response):
                if _awaitable(result):
                    result = await ensure_awaitable(result, _warn=global_object_name(hook))
                if not isinstance(result, Response):
                    break
        return result  # type: ignore[no-any-return]

    async def _process_exception(self, request: Request, exception: Exception) -> Response | Request | None:
        """The exception through each fused middleware's ``process_exception``, the highest priority number first,
        until one answers with a Response or a Request."""
        return await _first_answer(self._exception_hooks, request=request, exception=exception)


async def _first_answer(hooks: Sequence[Hook], **arguments: Any) -> Response | Request | None:
    """The first answer (not None) of ``hooks`` called in turn with ``arguments``, each awaited when it gives a
    Deferred or an awaitable, as the manager runs a chain of request or exception hooks; None when none answers."""
    for hook in hooks:
        result = hook(**arguments)
        if result is not None and _awaitable(result):
            result = await ensure_awaitable(result, _warn=global_object_name(hook))
        if result is not None:
            return result  # type: ignore[no-any-return]
    return None


def _priorities(settings: BaseSettings, name: str) -> dict[type, int]:
    """The enabled components of the priority dictionary setting ``name`` (its ``_BASE`` merged in, when Scrapy has
    one), each class with its priority, in Scrapy's order."""
    components = settings.get_component_priority_dict_with_base(name)
    return {load_object(path): components[path] for path in build_component_list(components)}


def downloader_middleware(crawler: Crawler, middleware_class: type[_M]) -> _M | None:
    """The crawl's instance of ``middleware_class`` (or of a subclass) among its downloader middlewares, fused ones
    included: ``Crawler.get_downloader_middleware`` sees only the chain's layers."""
    found = crawler.get_downloader_middleware(middleware_class)
    if found is None and (fused := crawler.get_downloader_middleware(FusedDownloaderMiddleware)) is not None:
        found = next((m for m in fused.middlewares if isinstance(m, middleware_class)), None)
    return found
