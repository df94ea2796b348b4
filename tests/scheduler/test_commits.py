"""The store's acknowledgements: a ticket is settled once every record buffered up to it is committed."""

from journals.scheduler.commits import CommitLedger


def test_a_ticket_waits_for_every_record_buffered_before_it():
    ledger = CommitLedger()
    assert ledger.settled_through(ledger.ticket())  # nothing buffered: nothing to wait for
    first, second = ledger.buffered(), ledger.buffered()
    ticket = ledger.ticket()
    later = ledger.buffered()
    ledger.settle([second, later])
    assert not ledger.settled_through(ticket), "released before its first record was committed"
    ledger.settle([first])
    assert ledger.settled_through(ticket)
    assert ledger.unsettled == 0


def test_listeners_hear_every_settlement():
    ledger = CommitLedger()
    heard = []

    def listener() -> None:
        heard.append(ledger.unsettled)

    ledger.add_listener(listener)
    number = ledger.buffered()
    ledger.buffered()
    ledger.settle([number])
    assert heard == [1]
