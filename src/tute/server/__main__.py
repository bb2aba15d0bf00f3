"""``python -m tute.server --host H --port P --data-dir D [--bot-timeout S]``
``[--redis URL] [--insecure-cookies] [--analysis-worlds N] [--analysis-move-time S]``
``[--analysis-game-seconds S]``."""

from __future__ import annotations

import argparse

from . import run
from .analyses import SearchBudget
from .store import StorageError


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m tute.server", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--data-dir", default="data")
    p.add_argument("--database-url", default=None,
                   help="SQLAlchemy URL, e.g. postgresql://user:pw@host/db (default: env "
                   "TUTE_DATABASE_URL, else SQLite in --data-dir)")
    p.add_argument("--redis", default=None, metavar="URL",
                   help="Redis URL, e.g. redis://127.0.0.1:6379/0: one of several processes "
                   "serving one site on a PostgreSQL database (default: env TUTE_REDIS_URL, "
                   "else a single process)")
    p.add_argument("--insecure-cookies", action="store_true", default=None,
                   help="send the account session cookie over plain http too (a server on a "
                   "local network without https; default: env TUTE_INSECURE_COOKIES, else "
                   "https or localhost only)")
    p.add_argument("--bot-timeout", type=float, default=60.0)
    p.add_argument("--bot-delay", type=float, default=0.8)
    p.add_argument("--trick-pause", type=float, default=1.2)
    p.add_argument("--max-tables", type=int, default=1000)
    p.add_argument("--create-per-minute", type=float, default=30.0)
    p.add_argument("--ws-rate", type=float, default=8.0)
    p.add_argument("--waiting-ttl", type=float, default=24 * 3600.0,
                   help="seconds before a table with open seats and nobody connected expires "
                   "(0: never; default 24 h)")
    p.add_argument("--abandon-after", type=float, default=30 * 60.0,
                   help="seconds before a started table whose humans all left is abandoned "
                   "(0: never; default 30 min)")
    budget = SearchBudget()
    p.add_argument("--analysis-worlds", type=int, default=budget.worlds,
                   help="worlds a decision for the search measure of finished games' analyses "
                   f"(0: the double-dummy measure only; default {budget.worlds})")
    p.add_argument("--analysis-move-time", type=float, default=budget.move_time,
                   help="at most this many seconds of search a decision (at least one world; "
                   f"default {budget.move_time:g})")
    p.add_argument("--analysis-game-seconds", type=float, default=budget.game_seconds,
                   help="at most this many seconds of search a game; the decisions not reached "
                   f"keep the double-dummy measure alone (default {budget.game_seconds:g})")
    p.add_argument("--no-warm-hints", dest="warm_hints", action="store_false",
                   help="do not prepare the hints' search in the bot pool when a table with "
                   "hints starts (the first hint then loads it: half a minute on a fresh "
                   "install)")
    p.add_argument("--log-level", default="info")
    a = p.parse_args()
    try:
        analysis = SearchBudget(worlds=a.analysis_worlds, move_time=a.analysis_move_time,
                                game_seconds=a.analysis_game_seconds)
    except ValueError as exc:
        p.error(str(exc))
    try:
        run(a.host, a.port, a.data_dir, database_url=a.database_url, bot_timeout=a.bot_timeout,
            log_level=a.log_level, bot_delay=a.bot_delay, trick_pause=a.trick_pause,
            max_tables=a.max_tables, create_per_minute=a.create_per_minute, ws_rate=a.ws_rate,
            waiting_ttl=a.waiting_ttl, abandon_after=a.abandon_after,
            analysis_budget=analysis, redis_url=a.redis,
            insecure_cookies=a.insecure_cookies, warm_hints=a.warm_hints)
    except StorageError as exc:  # one line and status 2, like any bad argument
        p.exit(2, f"{p.prog}: error: {exc}\n")


if __name__ == "__main__":
    main()
