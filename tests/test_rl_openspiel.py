"""tute.rl.openspiel: python_tute in OpenSpiel (skipped where open_spiel is not installed)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install open-spiel): OpenSpiel tests "
    "skipped")

import tute  # noqa: E402
import tute.rl.openspiel  # noqa: E402
from tute.errors import TuteError  # noqa: E402


@pytest.mark.parametrize("variant", list(tute.VARIANTS))
def test_random_sim_test(variant: str) -> None:
    game = pyspiel.load_game("python_tute", {"variant": variant})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_options_and_errors() -> None:
    game = pyspiel.load_game("python_tute", {"variant": "tute_subastado",
                                             "options": '{"seats": 4}'})
    assert game.num_players() == 4
    with pytest.raises(Exception, match="bogus"):
        pyspiel.load_game("python_tute", {"variant": "tute_parejas", "options": '{"bogus": 1}'})


def _play_to(game: object, moves: int, rng: random.Random) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal() and (state.is_chance_node() or len(state.moves) < moves):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("variant", ["tute_parejas", "tute_2p_habanero", "tute_subastado",
                                     "tute_cabron", "tute_arrastrado_3p"])
def test_resample_keeps_the_information_state(variant: str) -> None:
    game = pyspiel.load_game("python_tute", {"variant": variant})
    rng = random.Random(2)
    done = 0
    for moves in (0, 7, 15, 22):
        state = _play_to(game, moves, rng)
        if state.is_terminal():
            continue
        player = state.current_player()
        try:
            world = state.resample_from_infostate(player, None, rng)
        except TuteError:
            continue  # the sampler is approximate: it may give up (docs/rl.md)
        done += 1
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
    assert done >= 2


def test_ismcts_example_runs() -> None:
    script = Path(__file__).resolve().parents[1] / "examples" / "openspiel_ismcts.py"
    out = subprocess.run([sys.executable, str(script), "--deals", "1", "--simulations", "10"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "mean" in out.stdout
