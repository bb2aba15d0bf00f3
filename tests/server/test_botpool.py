"""The server's process pool for search bots, hints and analyses."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

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
