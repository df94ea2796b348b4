"""Which buffered records the database holds: the store pipeline's and the page cache's acknowledgements, read by
the shared frontier.

The store pipeline numbers each record it buffers (:meth:`CommitLedger.buffered`) and settles the numbers of a
batch once the database committed it (or refused its data for good). A request's lease may be released once every
record buffered up to the end of its processing is settled: :meth:`CommitLedger.ticket` at that moment, then
:meth:`CommitLedger.settled_through`. The ticket covers other requests' records too: a lease waits for the batch
that holds its journals, never less. The page cache numbers the pages it writes the same way, and a request is
pushed to the frontier once the pages cached before it are settled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


class CommitLedger:
    """Sequence numbers of buffered records, and which of them are not committed yet."""

    def __init__(self) -> None:
        """An empty ledger: nothing buffered."""
        self._next = 0
        self._unsettled: set[int] = set()
        self._listeners: list[Callable[[], None]] = []

    def buffered(self) -> int:
        """Number a newly buffered record: it is unsettled until :meth:`settle`."""
        number = self._next
        self._next += 1
        self._unsettled.add(number)
        return number

    def ticket(self) -> int:
        """The number of the last record buffered so far (-1 when none)."""
        return self._next - 1

    def settled_through(self, ticket: int) -> bool:
        """Whether every record numbered up to ``ticket`` is settled."""
        return min(self._unsettled, default=ticket + 1) > ticket

    @property
    def unsettled(self) -> int:
        """How many buffered records wait for their commit."""
        return len(self._unsettled)

    def settle(self, numbers: Iterable[int]) -> None:
        """Mark records committed (or set aside for good), then tell the listeners."""
        self._unsettled.difference_update(numbers)
        for listener in list(self._listeners):
            listener()

    def add_listener(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after every :meth:`settle`."""
        self._listeners.append(listener)
