"""The journals table written into the database as a table of its own (``journal_table``), for browsing.

The table a researcher downloads (``scrapy export journals.csv``) is worked out in Python from the integration and
the stable keys (:func:`journals.journal_table.latest_table`): no SQL view can give the same keys, so the browser
shows the very rows the export writes, one per journal, each attribute in its own column beside the year its metric
is for. The table is replaced whole in one transaction: a stopped write leaves the previous one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Boolean, Column, Engine, Float, Integer, MetaData, Table, Text, insert
from sqlalchemy.types import TypeEngine

from journals.table.columns import KEY
from journals.table.rows import Cell

JOURNAL_TABLE = "journal_table"
"""Name of the table holding the journals table's rows."""


def column_type(cells: Sequence[Cell]) -> TypeEngine[Any]:
    """The SQL type of a column holding ``cells``: a boolean, whole or decimal number column when every cell that
    is not empty is one, else text (a cell that is not a number keeps its column as text, never lost)."""
    filled = [value for value in cells if value is not None]
    if filled and all(isinstance(value, bool) for value in filled):
        return Boolean()
    if all(isinstance(value, int) and not isinstance(value, bool) for value in filled):
        return Integer() if filled else Text()
    if all(isinstance(value, int | float) and not isinstance(value, bool) for value in filled):
        return Float()
    return Text()


def write_journal_table(engine: Engine, columns: Sequence[str], rows: Sequence[Mapping[str, Cell]]) -> int:
    """Replace :data:`JOURNAL_TABLE` in ``engine``'s database with ``rows`` (of ``columns``, the key first);
    returns the rows written."""
    types = {name: Text() if name == KEY else column_type([row.get(name) for row in rows]) for name in columns}
    table = Table(
        JOURNAL_TABLE, MetaData(), *(Column(name, kind, primary_key=name == KEY) for name, kind in types.items())
    )
    values = [{name: _as(types[name], row.get(name)) for name in columns} for row in rows]
    with engine.begin() as conn:
        table.drop(conn, checkfirst=True)
        table.create(conn)
        if values:
            conn.execute(insert(table), values)
    return len(values)


def _as(kind: TypeEngine[Any], value: Cell) -> Cell:
    """``value`` as a column of ``kind`` stores it: a number in a text column as its text."""
    return str(value) if isinstance(kind, Text) and value is not None else value
