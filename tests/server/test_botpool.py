"""The server's process pool for search bots, hints and analyses."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from typing import Any

import pytest

from tute.server.botpool import shared_pool

from .conftest import ROOT, wait_until

# A "server": starts the pool, makes it spawn a worker, prints the worker's pid, then waits.
SERVER = """
import asyncio, os, sys
from tute.server.botpool import BotPool

async def main():
    pool = BotPool(workers=1)
    pid = await asyncio.get_running_loop().run_in_executor(pool._executor(), os.getpid)
    print(pid, flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by init) counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_workers_exit_when_the_server_is_killed_outright() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True,
                              env=env)
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        assert _alive(worker)
        server.send_signal(signal.SIGKILL)  # no shutdown of the pool: the worker is orphaned
        server.wait(10)
        # the worker checks on its parent every second; the wait only guards against a hang
        wait_until(lambda: not _alive(worker), "the pool's worker to exit with its server")
    finally:
        if server.poll() is None:
            server.kill()


def test_a_table_with_hints_prepares_their_search_when_it_starts(make_client: Any) -> None:
    """The first hint after a start does not wait for the solver to load (half a minute on
    a fresh install): a game where hints may be asked starts the pool's workers loading it
    in the background, once; a game between people without hints leaves the pool alone."""
    pytest.importorskip("numba")
    c = make_client(warm_hints=True)
    assert c.get("/api/health").json()["hints"] == "cold"
    c.post("/api/tables", json={"variant": "tute_2p_habanero", "seats": ["you", "open"]})
    r = c.post("/api/tables", json={"variant": "tute_2p_habanero", "seats": ["you", "open"],
                                    "name": "Ana"}).json()
    c.post(f"/api/tables/{r['id']}/join", json={"name": "Bea"})  # people, no hints: started
    assert c.get("/api/health").json()["hints"] == "cold"
    c.post("/api/play", json={"variant": "tute_2p_habanero"})  # against a bot: hints
    assert c.get("/api/health").json()["hints"] in ("preparing", "ready")
    pool = shared_pool()
    assert c.portal.call(pool.warmed)  # every worker has the search loaded, no hint asked
    assert c.get("/api/health").json()["hints"] == "ready"
