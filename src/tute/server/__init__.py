"""Play in the browser: ``tute serve`` — FastAPI + WebSockets around framework-free tables.

``run(host, port, data_dir)`` serves the lobby, the table pages and the protocol of
docs/protocol.md; ``create_app`` builds the ASGI app (for tests and other servers). The limits
(:class:`~tute.server.limits.Limits`) come from ``run(limits=...)``, else from the environment
variable ``TUTE_LIMITS`` (``"per_address=64 header_timeout=3"``), else their defaults.
``TUTE_CLOCK_AHEAD=<seconds>`` (for tests) sets the server's clock that far ahead of the
machine's: started again after a stop, it acts as if it had been down that long (a tournament
due meanwhile starts, an arena's end passes; docs/tournaments.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["create_app", "run"]


def create_app(*args: Any, **kwargs: Any) -> Any:
    from .app import create_app as _create

    return _create(*args, **kwargs)


def run(host: str = "127.0.0.1", port: int = 8000, data_dir: str | Path = "data",
        database_url: str | None = None, bot_timeout: float = 60.0,
        log_level: str = "info", limits: Any = None, **app_options: Any) -> None:
    """Serve tute until interrupted (the ``tute serve`` command). Raises
    :class:`~tute.server.store.StorageError` if the database cannot be opened, SystemExit
    with a one-line message if ``TUTE_LIMITS`` cannot be read."""
    import math
    import os

    import uvicorn

    from .app import create_app as _create
    from .clock import Clock
    from .limits import Gate, Limits, gated_protocols
    from .store import Store

    if limits is None:
        try:
            limits = Limits.parse(os.environ.get("TUTE_LIMITS", ""))
        except ValueError as exc:
            raise SystemExit(f"tute serve: error: TUTE_LIMITS: {exc}") from None
    if "clock" not in app_options:
        ahead = os.environ.get("TUTE_CLOCK_AHEAD", "").strip() or "0"
        try:
            app_options["clock"] = Clock(ahead=float(ahead))
        except ValueError:
            raise SystemExit("tute serve: error: TUTE_CLOCK_AHEAD: a number of seconds, "
                             f"not {ahead!r}") from None
        if not math.isfinite(app_options["clock"].ahead):
            raise SystemExit("tute serve: error: TUTE_CLOCK_AHEAD: a finite number of seconds")
    gate = Gate(limits)
    app = _create(data_dir=data_dir, database_url=database_url, bot_timeout=bot_timeout,
                  limits=limits, gate=gate, **app_options)
    # Open the database once before serving: an unreachable server or a refused login is then
    # one clear error, not a traceback from the app's startup inside uvicorn.
    probe = Store(app.state.database_url)
    try:
        probe.check_readable()  # a malformed page: one line, not the app's startup traceback
    finally:
        probe.close()
    # No permessage-deflate: updates are deltas of a few hundred bytes, and compressing every
    # frame was a quarter of the server's CPU under load.
    # The connection caps and the header timeout live in uvicorn's protocols (the app never
    # sees a connection that has not sent its headers); X-Forwarded-For is read by the app
    # itself, and only from limits.trusted_proxies.
    http, ws = gated_protocols(gate)
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=64 * 1024,
                ws_ping_interval=20.0, ws_ping_timeout=20.0, ws_per_message_deflate=False,
                proxy_headers=False, http=http, ws=ws,
                timeout_keep_alive=max(1, math.ceil(limits.idle_timeout)))
