"""Datasette's CSV export with formula cells defused, as the project's own CSV feeds have them.

Datasette 0.65 writes a CSV cell as the database holds it, so a title stored as a page shows it
(``=HYPERLINK(…)``, ``+SUM(…)``, ``@SUM(…)``) reaches a spreadsheet as a formula. Its CSV writer has no hook
(``render_cell`` is for HTML only), so this plugin wraps Datasette's ASGI application (the ``asgi_wrapper`` hook)
and rewrites the body of every CSV response record by record (:class:`journals.csv_cells.DefusedCsvStream`): the
database, the HTML pages and the JSON keep the values as they are.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from datasette import hookimpl  # type: ignore[import-untyped]

from journals.csv_cells import DefusedCsvStream

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Message, Receive, Send], Awaitable[None]]


def is_csv_request(scope: Message) -> bool:
    """Whether an HTTP request asks Datasette for CSV (``….csv``, or ``?_format=csv``), not for its HTML debug view
    of a CSV (``_trace``)."""
    if scope.get("type") != "http":
        return False
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if "_trace" in query:
        return False
    return str(scope.get("path", "")).endswith(".csv") or query.get("_format") == ["csv"]


def defusing_csv(app: App) -> App:
    """``app`` with the body of its CSV responses rewritten, formula cells defused."""

    async def wrapped(scope: Message, receive: Receive, send: Send) -> None:
        if not is_csv_request(scope):
            await app(scope, receive, send)
            return
        stream = DefusedCsvStream()

        async def send_defused(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"content-length"]
                message = {**message, "headers": headers}  # the body grows by a quote per defused cell
            elif message["type"] == "http.response.body":
                more = bool(message.get("more_body", False))
                message = {**message, "body": stream.feed(message.get("body", b""), final=not more)}
            await send(message)

        await app(scope, receive, send_defused)

    return wrapped


@hookimpl  # type: ignore[untyped-decorator]
def asgi_wrapper(datasette: object) -> Callable[[App], App]:
    """Datasette's hook: wrap its application in :func:`defusing_csv`."""
    return defusing_csv
