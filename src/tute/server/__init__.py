"""Play in the browser: ``tute serve`` — FastAPI + WebSockets around framework-free tables.

``run(host, port, data_dir)`` serves the lobby, the table pages and the protocol of
docs/protocol.md; ``create_app`` builds the ASGI app (for tests and other servers).
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
        log_level: str = "info", **app_options: Any) -> None:
    """Serve tute until interrupted (the ``tute serve`` command). Raises
    :class:`~tute.server.store.StorageError` if the database cannot be opened."""
    import uvicorn

    from .app import create_app as _create
    from .store import Store

    app = _create(data_dir=data_dir, database_url=database_url, bot_timeout=bot_timeout,
                  **app_options)
    # Open the database once before serving: an unreachable server or a refused login is then
    # one clear error, not a traceback from the app's startup inside uvicorn.
    Store(app.state.database_url).close()
    # No permessage-deflate: updates are deltas of a few hundred bytes, and compressing every
    # frame was a quarter of the server's CPU under load.
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=64 * 1024,
                ws_ping_interval=20.0, ws_ping_timeout=20.0, ws_per_message_deflate=False,
                proxy_headers=False)
