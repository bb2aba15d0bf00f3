"""``tute play`` without a terminal (and with ``--plain``): every game, ``--variant``,
``--load``, ``--record``, ``--save`` and ``--opponents`` honoured, bad values refused with exit 2;
and a crash of the full-screen game ends with one line and a non-zero status (through a real
pseudo-terminal)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tute.cli import app
from tute.match import Match
from tute.tui.session import Session
from tute.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[1]
PLAYABLE = list(VARIANTS)


def run(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(app, ["play", *args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


def test_a_bad_variant_exits_2_naming_the_valid_ones() -> None:
    code, out, err = run(["--variant", "bogus"], "q\n")
    assert code == 2 and not out
    assert "unknown variant 'bogus'" in err and ", ".join(PLAYABLE) in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("variant", PLAYABLE)
def test_plain_plays_the_chosen_game(variant: str) -> None:
    var = VARIANTS[variant]
    code, out, _ = run(["--variant", variant, "--seed", "3"], "q\n")
    assert code == 0 and "Hasta otra." in out
    assert out.splitlines()[0].startswith(var.name if variant != "tute_parejas" else "Tute")
    assert "Objetivo: " in out and "first to" not in out and "until" not in out


def test_plain_cabron_to_the_end_counts_lost_games() -> None:
    moves = "".join(f"{k}\n" for _ in range(400) for k in range(1, 13))
    code, out, _ = run(["--variant", "tute_cabron", "--seed", "4", "--option", "loss_limit=2"],
                       moves)
    assert code == 0
    assert "Juegos perdidos: " in out and "Pierde" in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("Gana la partida: ") and "Juegos perdidos: " in last


def test_plain_auction_takes_a_number_as_a_bid() -> None:
    code, out, _ = run(["--variant", "tute_subastado", "--seed", "2", "--opponents", "rules"],
                       "230\nq\n")
    assert code == 0
    # the reader's own seat takes its own verb form
    assert "pass, bid:60 … bid:230" in out and "Pujas 230" in out


def test_plain_record_steps_through_a_game_record(tmp_path: Path) -> None:
    m = Match.new("tute_2p_corriente", seed=2, options={"games_to_win": 1})
    while not m.is_over():
        m.apply(m.legal_actions()[0])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(m.to_record()), encoding="utf-8")
    total = sum(len(d.actions) for d in m.deals)
    code, out, _ = run(["--record", str(path)], "\n\n-\nq\n")
    assert code == 0
    steps = [line for line in out.splitlines() if line.startswith("Paso ")]
    assert [s.split(" · ")[0] for s in steps] == [f"Paso {k} de {total}" for k in (0, 1, 2, 1)]
    assert f"Repetición de {path}" in out


def test_plain_record_refuses_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{", encoding="utf-8")
    code, _out, err = run(["--record", str(path)])
    assert code == 2 and err.startswith("tute: error:")


def test_plain_load_resumes_a_saved_match_with_its_seat_and_bots(tmp_path: Path) -> None:
    s = Session.new("tute_2p_habanero", seed=8, opponents="rules", save_path=tmp_path / "m.json")
    for _ in range(12):
        while not s.human_to_move():
            if s.summary is not None:
                s.acknowledge()
            else:
                s.bot_step()
        s.play(s.legal()[0])
    s.save()
    code, out, _ = run(["--load", str(tmp_path / "m.json")], "q\n")
    assert code == 0
    assert out.splitlines()[0].startswith("Tute habanero")
    k = len(s.match.deals)
    assert f"Partida cargada de {tmp_path / 'm.json'}: se sigue en la mano {k}" in out
    if s.human_to_move():
        hand = str(s.match.deal.hand(s.human))
        shown = next(line for line in out.splitlines() if line.startswith("Tu mano:"))
        assert " ".join(t for t in shown.split()[2:] if not t.endswith(")")) == hand


def test_plain_g_saves_a_match_that_loads_again(tmp_path: Path) -> None:
    target = tmp_path / "saved.json"
    code, out, _ = run(["--variant", "guinote_2p", "--seed", "4", "--save", str(target),
                        "--opponents", "random"], "1\ng\nq\n")
    assert code == 0 and f"Partida guardada en {target}" in out
    again = Session.load(target)
    assert again.match.variant.id == "guinote_2p" and again.opponents == ["random"]
    assert again.match.deal.actions  # the card played before g is in the record


@pytest.mark.parametrize(("args", "words"), [
    (["--variant", "tute_2p_habanero", "--seat", "3"], "invalid --seat 3"),
    (["--variant", "tute_2p_corriente", "--opponents", "nobody"], "nobody"),
    (["--variant", "tute_cabron", "--option", "loss_limit=0"], "loss_limit"),
])
def test_plain_bad_values_exit_2(args: list[str], words: str) -> None:
    code, _out, err = run(args, "q\n")
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------------------------------
# A crash of the full-screen game


@pytest.mark.timeout(120)
def test_a_crash_inside_the_app_raises_from_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from tute.tui import TuiCrash
    from tute.tui import run as run_tui

    def boom(self: Session) -> list[str]:
        raise RuntimeError("boom in the table")

    monkeypatch.setattr(Session, "table_lines", boom)
    with pytest.raises(TuiCrash, match="RuntimeError: boom in the table"):
        run_tui(variant="tute_parejas", seed=1, bot_delay=0, headless=True)


_CRASHING_GAME = """
import sys
from tute.tui.session import Session
def boom(self):
    raise RuntimeError("boom in the table")
Session.table_lines = boom
from tute.cli import main
main(["play", "--variant", "tute_parejas", "--seed", "1"])
"""


@pytest.mark.timeout(120)
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_a_crash_in_a_real_terminal_exits_non_zero_with_one_line() -> None:
    import fcntl
    import pty
    import struct
    import termios

    main_fd, child_fd = pty.openpty()
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT / "src")}
    env.pop("TUTE_DEBUG", None)
    proc = subprocess.Popen([sys.executable, "-c", _CRASHING_GAME], stdin=child_fd,
                            stdout=child_fd, stderr=child_fd, env=env, close_fds=True)
    os.close(child_fd)
    output = b""
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main_fd], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(main_fd, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                output += chunk
            elif proc.poll() is not None:
                break
        code = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main_fd)
    text = output.decode("utf-8", "replace")
    assert code == 1, text[-2000:]
    assert "Traceback" not in text
    errors = [line for line in text.splitlines() if "tute: error:" in line]
    assert len(errors) == 1 and "RuntimeError: boom in the table" in errors[0], text[-2000:]
