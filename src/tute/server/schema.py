"""Creating the database's tables when missing, safely from several processes at once."""

from __future__ import annotations

from sqlalchemy import Engine, MetaData, text

__all__ = ["create_tables"]

# any fixed number: the PostgreSQL advisory lock under which tables are created
_SCHEMA_LOCK = 0x7475746501


def create_tables(engine: Engine, metadata: MetaData) -> None:
    """``metadata.create_all``; on PostgreSQL under an advisory lock, in one transaction: the
    processes of a site started together on an empty database would otherwise race to create
    the same tables, and all but one fail (a duplicate ``pg_type`` row)."""
    if engine.dialect.name != "postgresql":
        metadata.create_all(engine)
        return
    with engine.begin() as conn:
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _SCHEMA_LOCK})
        metadata.create_all(conn)
