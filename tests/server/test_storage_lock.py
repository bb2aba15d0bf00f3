"""One server per SQLite data folder: a second one refuses to start, in one line naming the
folder and the pid of the server using it; the lock goes with the first server, even killed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import ROOT, free_port

pytestmark = pytest.mark.timeout(600)  # a hang guard: servers start slowly on a loaded machine


def second(data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tute.server", "--port", str(free_port()), "--data-dir",
         str(data)], capture_output=True, text=True, timeout=300,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "src")})


def test_a_second_server_on_one_data_folder_is_refused(server_process: Any,
                                                       tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = server_process(data_dir=data)
    made = httpx.post(first.base + "/api/play", json={"variant": "tute_2p_habanero"})
    assert made.status_code == 200
    out = second(data)
    assert out.returncode == 2, out
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert (f"another tute server is using data folder {data.resolve()} "
            f"(pid {first.proc.pid})") in lines[0]
    # the first one did not notice
    assert httpx.get(first.base + f"/api/tables/{made.json()['id']}").status_code == 200
    first.kill()  # kill -9: the kernel drops the lock with the process
    again = server_process(data_dir=data)
    assert httpx.get(again.base + f"/api/tables/{made.json()['id']}").status_code == 200
    again.stop()
    server_process(data_dir=data).stop()  # and a clean stop releases it too


def test_no_other_path_to_the_database_lets_a_second_server_in(server_process: Any,
                                                              tmp_path: Path) -> None:
    """The lock is the database file's own: a server started on a ``file:`` URI, a hard link
    or a symbolic link to the file in another folder is refused while another holds it."""
    data = tmp_path / "data"
    first = server_process(data_dir=data)
    db = data / "tute.sqlite3"
    other = tmp_path / "other"
    other.mkdir()
    (other / "hard.sqlite3").hardlink_to(db)
    (other / "soft.sqlite3").symlink_to(db)
    for url in (f"sqlite:///file:{db}?uri=true", f"sqlite:///{other / 'hard.sqlite3'}",
                f"sqlite:///{other / 'soft.sqlite3'}"):
        out = subprocess.run(
            [sys.executable, "-m", "tute.server", "--port", str(free_port()), "--data-dir",
             str(other), "--database-url", url], capture_output=True, text=True, timeout=300,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "src")})
        assert out.returncode == 2, (url, out)
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and "another tute server is using" in lines[0], (url, out)
    first.stop()
    from tute.server.store import Store

    Store(f"sqlite:///{other / 'hard.sqlite3'}").close()  # free again once the first is gone
