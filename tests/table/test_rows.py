"""A table row: typed cells in the table's column order, years and currency beside their values."""

from __future__ import annotations

from datetime import UTC, datetime

from journals.table.columns import table_columns
from journals.table.rows import FusedCell, TableJournal, table_row

SEEN = datetime(2026, 12, 5, 0, 17, 10, 558229, tzinfo=UTC)


def test_a_row_holds_every_column_in_order_with_typed_cells():
    journal = TableJournal(
        key="0140-6736",
        title="The Lancet",
        values={
            "issn": FusedCell("0140-6736"),
            "impact_factor": FusedCell("98.4", 98.4, 2024),
            "h_index": FusedCell("800", 800.0),
            "apc": FusedCell("2990", 2990.0),
            "open_access": FusedCell("false"),
            "subject": FusedCell("Medicine"),
        },
        sources=("elsevier", "scimago"),
        first_seen=SEEN,
        last_seen=SEEN,
        currency="EUR",
    )
    row = table_row(journal)
    assert tuple(row) == table_columns()
    assert row["key"] == "0140-6736" and row["title"] == "The Lancet"
    assert row["impact_factor"] == 98.4 and row["impact_factor_year"] == 2024
    assert row["h_index"] == 800 and isinstance(row["h_index"], int)
    assert row["apc"] == 2990 and row["apc_currency"] == "EUR"
    assert row["open_access"] is False
    assert row["sjr"] is None and row["sjr_year"] is None
    assert row["sources"] == "elsevier;scimago"
    assert row["first_seen"] == "2026-12-05T00:17:10Z"


def test_no_currency_without_a_charge():
    journal = TableJournal("J0", "T", {}, ("a",), SEEN, SEEN, currency="EUR")
    assert table_row(journal)["apc_currency"] is None
