"""The SQL store: schema, connection, batch writer and learned rules; SQLAlchemy only, no Scrapy."""

from journals.store.database import DatabaseError, create_schema, database_url, engine_from_url, open_database
from journals.store.rules import load_rules, save_rules
from journals.store.writer import Duplicate, WriteResult, write_journals

__all__ = [
    "DatabaseError",
    "Duplicate",
    "WriteResult",
    "create_schema",
    "database_url",
    "engine_from_url",
    "load_rules",
    "open_database",
    "save_rules",
    "write_journals",
]
