"""tute.rl.openspiel: python_tute in OpenSpiel (skipped where open_spiel is not installed)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install open-spiel): OpenSpiel tests "
    "skipped")

import tute  # noqa: E402
import tute.rl.openspiel  # noqa: E402
from tute.errors import IllegalActionError, TuteError  # noqa: E402


@pytest.mark.parametrize("variant", list(tute.VARIANTS))
def test_random_sim_test(variant: str) -> None:
    game = pyspiel.load_game("python_tute", {"variant": variant})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


# option sets that change the actions, the seats or the deal (auction, widow, claims, polls)
OPTION_SETS = [("tute_parejas", {"renuncio_mode": "claim", "weak_hand_max_points": 20}),
               ("tute_2p_habanero", {"vueltas_claim": "manual"}),
               ("tute_arrastrado_3p", {"players": 4}),
               ("tute_subastado", {"seats": 4, "widow_card": True, "dealer_takeover": True}),
               ("guinote", {"stock_phase_rule": "full", "tute_enabled": False}),
               ("tute_cabron", {"players": 4}), ("tute_gana_pierde", {"players": 5}),
               ("tute_cabrero", {"players": 3})]


@pytest.mark.parametrize(("variant", "options"), OPTION_SETS,
                         ids=[f"{v}{o}" for v, o in OPTION_SETS])
def test_random_sim_test_with_options(variant: str, options: dict[str, object]) -> None:
    game = pyspiel.load_game("python_tute", {"variant": variant, "options": json.dumps(options)})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_options_and_errors() -> None:
    game = pyspiel.load_game("python_tute", {"variant": "tute_subastado",
                                             "options": '{"seats": 4}'})
    assert game.num_players() == 4
    for params, message in (
            ({"variant": "tute_parejas", "options": '{"bogus": 1}'}, "bogus"),
            ({"variant": "tute_parejas", "options": '{"partner_exemption": 3}'},
             "invalid value 3 for option 'partner_exemption'"),
            ({"variant": "poker"}, "unknown variant 'poker'"),
            ({"variant": "tute_parejas", "options": "[1]"}, "'options'.*JSON object"),
            ({"variant": "tute_parejas", "options": "{seats"}, "'options'.*not JSON"),
            ({"variant": "tute_parejas", "seats": 4}, "parameter 'seats'")):
        with pytest.raises(Exception, match=message):
            pyspiel.load_game("python_tute", params)


def _snapshot(state: object) -> tuple[object, ...]:
    """Everything a player or OpenSpiel can read of a state."""
    st: Any = state
    n = st.get_game().num_players()
    per_player: list[object] = []
    if not st.is_chance_node():
        for p in range(n):
            per_player += [st.observation_string(p), st.observation_tensor(p),
                           st.information_state_string(p), st.information_state_tensor(p)]
    return (st.history(), st.move_number(), st.current_player(), str(st), st.returns(),
            st.is_terminal(), st.legal_actions() if not st.is_terminal() else [],
            st.chance_outcomes() if st.is_chance_node() else [], list(st.cards),
            list(st.moves), per_player)


def test_refusals_name_the_action_and_change_nothing() -> None:
    """A bad chance outcome, an illegal or unknown action id and a step after the end raise
    the library's error naming the action; the state is as it was."""
    game = pyspiel.load_game("python_tute", {"variant": "tute_parejas"})
    state: Any = game.new_initial_state()
    rng = random.Random(5)
    state.apply_action(7)
    before = _snapshot(state)
    for card, message in ((7, "illegal chance outcome 7"), (40, "illegal chance outcome 40")):
        with pytest.raises(IllegalActionError, match=message):
            state.apply_action(card)
        assert _snapshot(state) == before
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    before = _snapshot(state)
    names = game.new_initial_state().table.catalogue.names
    hand = state.table.deal.hand(state.current_player())
    refused = [c.index for c in hand if state.table.deal.why_illegal(c)]
    elsewhere = next(a for a in range(40) if a not in state.legal_actions() and
                     a not in [c.index for c in hand])
    for action, message in [(elsewhere, rf"illegal action {elsewhere} \({names[elsewhere]}\) "
                             rf"for seat {state.current_player()}: .*not in seat"),
                            *((a, rf"illegal action {a} \({names[a]}\) for seat")
                              for a in refused[:1]),
                            (10_000, "invalid action 10000: outside the action space")]:
        with pytest.raises(IllegalActionError, match=message):
            state.apply_action(action)
        assert _snapshot(state) == before
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    before = _snapshot(state)
    for action in (0, 47, 999):
        with pytest.raises(IllegalActionError, match=rf"illegal action {action}.*the game is over"):
            state.apply_action(action)
        assert _snapshot(state) == before


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


RESAMPLE_CASES = [("tute_parejas", {}), ("tute_2p_habanero", {}), ("guinote", {}),
                  ("tute_subastado", {}), ("tute_subastado", {"widow_card": True}),
                  ("tute_subastado", {"seats": 4, "dealer_takeover": True}),
                  ("tute_cabron", {}), ("tute_arrastrado_3p", {}), ("tute_gana_pierde", {})]


@pytest.mark.parametrize(("variant", "options"), RESAMPLE_CASES,
                         ids=[f"{v}{o or ''}" for v, o in RESAMPLE_CASES])
def test_resample_keeps_the_information_state(variant: str, options: dict[str, object]) -> None:
    """A resampled state (tute.worlds) keeps the player's own cards, everything public and
    the history's length and actions; the hidden cards differ from seed to seed."""
    game = pyspiel.load_game("python_tute", {"variant": variant, "options": json.dumps(options)})
    rng = random.Random(2)
    done = differ = 0
    for moves in (0, 3, 9, 16, 24, 33):
        state = _play_to(game, moves, rng)
        if state.is_terminal():
            continue
        player = state.current_player()
        worlds = [state.resample_from_infostate(player, None, seed=k) for k in range(4)]
        view = state.table.deal.view(player)
        for world in worlds:
            assert world.information_state_string(player) == state.information_state_string(
                player)
            assert world.observation_tensor(player) == state.observation_tensor(player)
            assert world.information_state_tensor(player) == state.information_state_tensor(
                player)
            assert world.observation_string(player) == state.observation_string(player)
            assert world.table.deal.view(player) == view  # own hand, public record, legal
            assert [world.cards[k] for k in world._own_slots(player)] == [
                state.cards[k] for k in state._own_slots(player)]
            assert len(world.history()) == len(state.history())
            assert [a for s, a in world.moves if s == player] == [
                a for s, a in state.moves if s == player]
            assert world.legal_actions() == state.legal_actions()
        done += 1
        differ += len({tuple(w.cards) for w in worlds}) > 1
    assert done >= 4 and differ >= done - 1
    # the same seed, the same world; OpenSpiel's sampler argument seeds it too
    again = state.resample_from_infostate(player, None, seed=1)
    assert again.cards == worlds[1].cards


def test_resample_after_a_takeover_with_a_widow_is_refused_clearly() -> None:
    game = pyspiel.load_game("python_tute", {"variant": "tute_subastado", "options": json.dumps(
        {"seats": 4, "widow_card": True, "dealer_takeover": True})})
    for seed in range(200):
        state = _play_to(game, 12, random.Random(seed))
        took = [e for e in state.table.deal.events if type(e).__name__ == "TookOver"]
        if took and not state.is_terminal():
            with pytest.raises(TuteError, match="taken over"):
                state.resample_from_infostate(took[0].from_seat, None, seed=0)
            return
    pytest.skip("no takeover in 200 random deals")


def test_clone_keeps_the_history() -> None:
    game = pyspiel.load_game("python_tute", {"variant": "guinote"})
    state = _play_to(game, 9, random.Random(4))
    clone = state.clone()
    assert clone.history() == state.history() and clone.move_number() == state.move_number()
    assert str(clone) == str(state)
    clone.apply_action(clone.legal_actions()[0])  # independent of the original
    assert len(state.history()) == len(clone.history()) - 1


def test_openspiel_ismcts_resamples_our_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenSpiel's IS-MCTS bot (open_spiel.python.algorithms.ismcts) draws a world per
    simulation through resample_from_infostate and plays legal moves.
    (pyspiel's C++ ISMCTSBot crashes on every Python game, OpenSpiel's python_kuhn_poker
    included, so it is not exercised here.)"""
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    calls = []
    real = tute.rl.openspiel.TuteState.resample_from_infostate

    def counted(self: object, *args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tute.rl.openspiel.TuteState, "resample_from_infostate", counted)
    game = pyspiel.load_game("python_tute", {"variant": "tute_parejas"})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=12,
                           random_state=np.random.RandomState(1))
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(3):
        state = _play_to_player(state, 0, rng)
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(calls) >= 12  # a search per decision with a choice, a world per simulation


def _play_to_player(state: object, player: int, rng: random.Random) -> object:
    while state.is_chance_node() or state.current_player() != player:  # type: ignore[attr-defined]
        if state.is_chance_node():  # type: ignore[attr-defined]
            outcomes = state.chance_outcomes()  # type: ignore[attr-defined]
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])  # type: ignore[attr-defined]
        else:
            legal = state.legal_actions()  # type: ignore[attr-defined]
            state.apply_action(legal[rng.randrange(len(legal))])  # type: ignore[attr-defined]
    return state


def test_ismcts_example_runs() -> None:
    script = Path(__file__).resolve().parents[1] / "examples" / "openspiel_ismcts.py"
    out = subprocess.run([sys.executable, str(script), "--deals", "1", "--simulations", "10",
                          "--arena", "1", "--against", "random"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "mean" in out.stdout
    # then in our arena: one duplicate deal of the bot openspiel_ismcts against random
    assert "openspiel_ismcts:simulations=10" in out.stdout and "margin" in out.stdout


_CPP_ISMCTS = """
import random, sys
import pyspiel
import open_spiel.python.games  # python_kuhn_poker
import tute.rl.openspiel
game = pyspiel.load_game(sys.argv[1], {"variant": "tute_parejas"} if sys.argv[1] == "python_tute"
                         else {})
bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, 10, -1,
                        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
state, rng = game.new_initial_state(), random.Random(1)
while state.is_chance_node():
    state.apply_action(rng.choice(state.chance_outcomes())[0])
assert bot.step(state) in state.legal_actions()
print("ok")
"""


def test_pyspiel_cpp_ismcts_bot() -> None:
    """pyspiel's C++ ISMCTSBot, resampling every simulation, in a subprocess: it crashes on
    every Python game here (OpenSpiel's python_kuhn_poker too), so a crash is a skip unless
    it is ours alone."""
    def run(name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", _CPP_ISMCTS, name], capture_output=True,
                              text=True, timeout=300)

    ours = run("python_tute")
    if ours.returncode != 0:
        theirs = run("python_kuhn_poker")
        if theirs.returncode != 0:
            pytest.skip(f"pyspiel's C++ ISMCTSBot fails on OpenSpiel's own Python games too "
                        f"(exit {theirs.returncode})")
        raise AssertionError(ours.stderr)
    assert "ok" in ours.stdout


@pytest.mark.parametrize(("variant", "options"), [
    ("tute_parejas", {}), ("tute_2p_habanero", {}), ("tute_arrastrado_3p", {}),
    ("tute_subastado", {"seats": 4}), ("guinote", {"cante_by": "winning_side_one"})])
def test_openspiel_ismcts_plays_in_our_arena(variant: str, options: dict[str, object]) -> None:
    """OpenSpiel's IS-MCTS as a tute bot: it plays whole deals at a table of our bots (any
    dealer: python_tute's seats turn with the mano), every choice legal."""
    from tute.arena import play_deal
    from tute.bots import make_bot

    for seed in (1, 2):
        deal = tute.Deal.new(variant, seed=seed, options=options)
        bots = [make_bot("openspiel_ismcts:simulations=3" if s % 2 == 0 else "rules", seed=s)
                for s in range(deal.seats)]
        assert play_deal(deal, bots).is_over()


def test_openspiel_ismcts_sees_only_the_view() -> None:
    """The same view over other hidden cards, the same seed: the same choice."""
    from tute.bots import make_bot
    from tute.worlds import WorldSampler

    deal = tute.Deal.new("tute_parejas", seed=21)
    rules = make_bot("rules", seed=1)
    while len(deal.actions) < 13:
        view = deal.view(deal.to_move)
        deal.apply(rules.choose(view, view.legal_actions))
    view = deal.view(deal.to_move)
    other = WorldSampler(view).deal(random.Random(8))
    assert other.view(view.seat) == view and any(
        other.hand(s) != deal.hand(s) for s in range(4) if s != view.seat)
    spec = "openspiel_ismcts:simulations=8"
    picks = {make_bot(spec, seed=4).choose(v, view.legal_actions)
             for v in (view, other.view(view.seat)) for _ in range(3)}
    assert len(picks) == 1, picks  # its worlds come from its seed (not pyspiel's clock)


def test_openspiel_ismcts_settings_are_checked() -> None:
    from tute.bots import make_bot

    for spec, message in (("openspiel_ismcts:simulations=0", "invalid simulations"),
                          ("openspiel_ismcts:uct_c=-1", "invalid uct_c")):
        with pytest.raises(TuteError, match=message):
            make_bot(spec)
