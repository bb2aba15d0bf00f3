"""What the web app's routers share: one :class:`ServerState` on ``app.state.server`` (the
table settings, the limits and their per-address buckets, the hub once started), and the
small helpers every router uses to answer (errors, addresses, ids, names)."""

from __future__ import annotations

import logging
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request, WebSocket
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from .hub import Hub
from .limits import ADDRESS, Buckets, Gate, Limits
from .store import DamagedTableError
from .table import Table, TableConfig, TableError

__all__ = ["STATUS", "ServerState", "StrictBody", "address", "check_id", "clean_name", "created",
           "error", "hub_of", "server_of", "storage_failure"]

log = logging.getLogger("tute.server")

STATUS = {"not_found": 404, "not_finished": 409, "no_open_seat": 409, "seat_taken": 409,
          "busy": 503, "rate_limited": 429, "storage": 503, "unavailable": 409,
          "too_many_tables": 429, "moved": 503, "not_played": 403, "already_played": 409,
          "closed": 409, "not_bot_move": 409, "not_a_decision": 409, "bad_move": 404,
          "too_long": 400, "not_logged_in": 401, "already_joined": 409, "not_joined": 409,
          "not_creator": 403, "too_few": 409, "full": 409, "conflict": 409, "started": 409}


class StrictBody(BaseModel):
    """A request body: unknown fields refused; strict, JSON names each value in its type
    ("true" is no boolean, "30" no number)."""

    model_config = ConfigDict(extra="forbid", strict=True)


@dataclass
class ServerState:
    """The app's state, made by ``create_app`` and read by every router."""

    config: TableConfig
    limits: Limits
    creates: Buckets  # tables created, per address
    lookups: Buckets  # invite-code lookups, per address
    messages: Buckets  # WebSocket messages, per address (all its sockets together)
    gate: Gate | None = None
    hub: Hub | None = None  # set while the app runs (its lifespan)
    # spectators in all and per address (the per-table caps are the table's)
    watchers: dict[str, int] = field(default_factory=dict)

    def check_rate(self, request: Request) -> None:
        if not self.creates.take(address(request)):
            raise TableError("rate_limited", "too many tables created; wait a minute")

    def watchers_full(self, addr: str) -> str | None:
        if sum(self.watchers.values()) >= self.limits.spectators_total:
            return "too many spectators on this server; try again later"
        if self.watchers.get(addr, 0) >= self.limits.spectators_per_address_total:
            return "too many spectators from your address"
        return None


def server_of(conn: Request | WebSocket) -> ServerState:
    state: ServerState = conn.app.state.server
    return state


def hub_of(conn: Request | WebSocket) -> Hub:
    hub = server_of(conn).hub
    assert hub is not None, "the app is not started"
    return hub


def address(conn: Request | WebSocket) -> str:
    """The client's address key (set by :class:`~tute.server.limits.Guard`)."""
    return str(conn.scope.get(ADDRESS) or "?")


def error(code: str, reason: str, status: int | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "reason": reason},
                        status_code=status or STATUS.get(code, 400))


def storage_failure(exc: BaseException) -> tuple[str, str]:
    """The error code and the words for players of a storage failure (the details, the
    database and its error, go to the log only)."""
    if isinstance(exc, DamagedTableError):
        log.error("%s", exc)
        return "unavailable", f"this table's stored data is damaged ({exc.reason})"
    log.error("storage: %s", exc)
    return "storage", "the server cannot use its storage right now; try again later"


def check_id(table_id: str) -> None:
    if len(table_id) > 32 or not table_id.replace("-", "").replace("_", "").isalnum():
        raise TableError("not_found", "no such table")


def clean_name(name: str) -> str:
    name = "".join(c for c in unicodedata.normalize("NFC", name)
                   if unicodedata.category(c)[0] != "C").strip()
    return name[:24] or "Anónimo"


def created(table: Table, seat: int, token: str) -> dict[str, Any]:
    return {"id": table.id, "code": table.code, "seat": seat, "token": token,
            "url": f"/t/{table.id}", "invite": f"/j/{table.code}"}
