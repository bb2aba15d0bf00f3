"""Tournaments' rules without a server: Swiss pairing by points with no repeated opponents
where avoidable, bots in the seats an odd count leaves, Buchholz, the arena's points and
streaks, fixed pairs and rotating partners, and the state machine open -> running ->
finished driven by a clock that is only an argument."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tute.server.tournaments import (
    ARENA_WAIT,
    Entry,
    Game,
    Tournament,
    add_game,
    arena_points,
    check_settings,
    layout_of,
    make_units,
    next_games,
    record_result,
    seat_group,
    standings,
    start,
    swiss_groups,
)


def _tournament(kind: str = "swiss", variant: str = "tute_2p_habanero", players: int = 4,
                pairs: str = "single", rounds: int = 3, minutes: int = 10) -> Tournament:
    t = Tournament("T1", "Copa", "a0", "P0", variant, {}, kind, pairs, rounds, minutes,
                   "medio", False, None, 0.0)
    t.entries = [Entry(f"a{i}", f"P{i}", float(i)) for i in range(players)]
    return t


def _win(side: int, sides: int = 2) -> dict[str, Any]:
    return {"winner": side, "games": [1 if s == side else 0 for s in range(sides)]}


def _play_round(t: Tournament, now: float, winner: Any = None) -> list[Game]:
    """Make the tables the tournament asks for and end them (the first seat's side wins,
    or ``winner(game)``'s side)."""
    made = []
    for seats, units in next_games(t, now):
        made.append(add_game(t, f"tb{len(t.games)}", seats, units, now))
    for g in made:
        side = 0 if winner is None else winner(g)
        assert record_result(t, g.table, "finished", _win(side), now + 1)
    return made


def test_swiss_groups_pair_by_points_and_avoid_repeats() -> None:
    met = {frozenset(("A", "B")): 1, frozenset(("C", "D")): 1}
    assert swiss_groups(["A", "B", "C", "D"], 2, met) == [("A", "C"), ("B", "D")]
    assert swiss_groups(["A", "B", "C", "D"], 2, {}) == [("A", "B"), ("C", "D")]
    # a repeat that cannot be avoided is made all the same
    assert swiss_groups(["A", "B"], 2, {frozenset(("A", "B")): 3}) == [("A", "B")]


def test_the_backtracking_finds_the_only_grouping_without_repeats() -> None:
    # A met C and D; greedy top-down (A-B) would leave C-D, who met too
    met = {frozenset(p): 1 for p in [("A", "C"), ("A", "D"), ("C", "D")]}
    groups = swiss_groups(["A", "B", "C", "D", "E", "F"], 2, met)
    assert all(not met.get(frozenset(g)) for g in groups)
    assert sorted(u for g in groups for u in g) == list("ABCDEF")


def test_an_odd_count_leaves_the_lowest_without_a_bot_game_with_bots() -> None:
    assert swiss_groups(["A", "B", "C", "D", "E"], 2, {})[-1] == ("E",)
    assert swiss_groups(["A", "B", "C", "D", "E"], 2, {}, had_bots={"E"})[-1] == ("D",)
    # four a table (rotating partners) of six: two play with two bots
    groups = swiss_groups(list("ABCDEF"), 4, {})
    assert [len(g) for g in groups] == [4, 2] and groups[-1] == ("E", "F")


def test_rotating_partners_change_partners_and_even_the_points() -> None:
    layout = layout_of("tute_parejas", {})
    seats, units = seat_group(["A", "B", "C", "D"], layout, "rotating", {},
                              {"A": 3, "B": 2, "C": 1, "D": 0}, {}, 0)
    assert seats == units
    side = {u: layout.side_of[i] for i, u in enumerate(seats)}
    assert side["A"] == side["D"] and side["B"] == side["C"]  # 3+0 against 2+1
    # A and D partnered before: another split
    seats, _ = seat_group(["A", "B", "C", "D"], layout, "rotating", {},
                          {"A": 3, "B": 2, "C": 1, "D": 0}, {frozenset("AD"): 1}, 0)
    side = {u: layout.side_of[i] for i, u in enumerate(seats)}
    assert side["A"] != side["D"]


def test_fixed_pairs_mutual_partners_first_then_by_joining() -> None:
    entries = [Entry("a", "Ana", 0, "Dani"), Entry("b", "Bea", 1), Entry("c", "Carla", 2),
               Entry("d", "Dani", 3, "ana"), Entry("e", "Eva", 4, "Bea")]
    units = make_units(entries, "fixed")
    assert [u.members for u in units] == [("a", "d"), ("b", "c"), ("e",)]
    layout = layout_of("tute_parejas", {})
    by_id = {u.id: u for u in units}
    seats, of = seat_group([units[0].id, units[2].id], layout, "fixed", by_id, {}, {}, 0)
    assert sorted(x for x in seats if x) == ["a", "d", "e"] and seats.count(None) == 1
    assert of.count(units[2].id) == 2  # Eva's side: Eva and a bot partner


def test_standings_with_buchholz_and_shared_places() -> None:
    t = _tournament(players=4, rounds=2)
    start(t, 0.0)
    t.games = [Game("g1", 1, ["a0", "a1"], ["a0", "a1"], 0, "finished", [0, 1]),
               Game("g2", 1, ["a2", "a3"], ["a2", "a3"], 0, "finished", [0, 1]),
               Game("g3", 2, ["a0", "a2"], ["a0", "a2"], 1, "finished", [0, 1]),
               Game("g4", 2, ["a1", "a3"], ["a1", "a3"], 1, "finished", [0, 1])]
    rows = {r.unit: r for r in standings(t)}
    assert [rows[u].points for u in ("a0", "a1", "a2", "a3")] == [2, 1, 1, 0]
    # a1 met a0 (2) and a3 (0); a2 met a3 (0) and a0 (2): equal Buchholz, a shared place
    assert rows["a1"].tiebreak == rows["a2"].tiebreak == 2
    assert rows["a1"].place == rows["a2"].place == 2 and rows["a3"].place == 4
    assert rows["a0"].tiebreak == 2  # a1 and a2: 1 each


def test_a_bot_opponent_counts_as_the_player_itself_in_buchholz() -> None:
    t = _tournament(players=3, rounds=1)
    start(t, 0.0)
    t.games = [Game("g1", 1, ["a0", "a1"], ["a0", "a1"], 0, "finished", [0, 1]),
               Game("g2", 1, ["a2", None], ["a2", None], 0, "finished", [0, 1])]
    rows = {r.unit: r for r in standings(t)}
    assert rows["a2"].points == 1 and rows["a2"].tiebreak == 1
    assert rows["a0"].tiebreak == 0


def test_arena_points_double_on_a_streak() -> None:
    layout = layout_of("tute_2p_habanero", {})
    games = [Game(f"g{k}", 0, ["a", "b"], ["a", "b"], k, "finished", r, ended=float(k))
             for k, r in enumerate([[0, 1], [0, 1], [0, 1], [1, 0], [0, 1]])]
    # 2 + 2 + 4 (third win in a row) + 0 + 2
    assert arena_points(layout, games, "a") == (10.0, 4, False)
    assert arena_points(layout, games[:3], "a")[2] is True
    assert arena_points(layout, games, "b") == (2.0, 1, False)


def test_a_swiss_tournament_of_five_runs_its_rounds_and_finishes() -> None:
    t = _tournament(players=5, rounds=3)
    assert next_games(t, 0.0) == [] and t.status == "open"  # the creator starts it
    start(t, 0.0)
    pairs: list[frozenset[str]] = []
    for r in range(1, 4):
        made = _play_round(t, float(r * 10))
        assert t.round == r and len(made) == 3  # two tables of people, one with a bot
        assert sum(None in g.seats for g in made) == 1
        pairs += [frozenset(g.units) for g in made if None not in g.units]
    assert len(set(pairs)) == len(pairs)  # nobody met twice
    bots = [u for g in t.games if None in g.units for u in g.units if u]
    assert len(set(bots)) == 3  # a different player with the bot each round
    assert next_games(t, 100.0) == [] and t.status == "finished"
    assert sorted(r.games for r in standings(t)) == [3] * 5


def test_a_tournament_with_one_player_at_its_start_time_is_cancelled() -> None:
    t = _tournament(players=1)
    t.starts_at = 50.0
    assert next_games(t, 49.0) == [] and t.status == "open"
    assert next_games(t, 50.0) == [] and t.status == "finished" and t.cancelled


def test_an_arena_pairs_the_waiting_until_the_time_is_up() -> None:
    t = _tournament(kind="arena", players=3, minutes=5)
    t.starts_at = 0.0
    first = next_games(t, 0.0)
    assert t.status == "running" and len(first) == 1  # two play; the third waits
    g1 = add_game(t, "g1", *first[0], now=0.0)
    assert next_games(t, ARENA_WAIT - 1) == []
    lone = next_games(t, ARENA_WAIT)  # alone long enough: bots take the other seat
    assert len(lone) == 1 and lone[0][0].count(None) == 1
    add_game(t, "g2", *lone[0], now=ARENA_WAIT)
    record_result(t, "g1", "finished", _win(0), 60.0)
    again = next_games(t, 60.0)  # the two whose game ended play again at once
    assert len(again) == 1 and sorted(x for x in again[0][1] if x) == sorted(
        x for x in g1.units if x)
    add_game(t, "g3", *again[0], now=60.0)
    record_result(t, "g2", "finished", _win(1), 100.0)
    assert next_games(t, 100.0) == []  # alone again, not for long enough
    assert next_games(t, 300.0) == [] and t.status == "running"  # time is up; g3 goes on
    assert not t.waiting
    record_result(t, "g3", "finished", _win(0), 320.0)
    assert next_games(t, 320.0) == [] and t.status == "finished"
    assert sum(r.games for r in standings(t)) == 5


@pytest.mark.parametrize("args, why", [
    (("tute_parejas", {}, "knockout", "fixed", 3, 60), "kind"),
    (("no_such_game", {}, "swiss", "fixed", 3, 60), "no_such_game"),
    (("tute_parejas", {}, "swiss", "alone", 3, 60), "fixed or rotating"),
    (("tute_parejas", {}, "swiss", "fixed", 0, 60), "rounds"),
    (("tute_parejas", {}, "arena", "fixed", 3, 1), "minutes"),
    (("tute_parejas", {"match": "long"}, "swiss", "fixed", 3, 60), "match"),
])
def test_settings_that_cannot_be_played_are_refused_with_the_reason(
        args: tuple[Any, ...], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        check_settings(*args)


def test_a_game_without_partners_is_played_one_player_a_side() -> None:
    assert check_settings("tute_2p_habanero", {}, "swiss", "fixed", 3, 60) == "single"
    assert check_settings("tute_arrastrado_3p", {}, "arena", "rotating", 3, 60) == "single"


def test_a_tournament_survives_its_json() -> None:
    t = _tournament(players=5)
    start(t, 0.0)
    _play_round(t, 1.0)
    again = Tournament.from_json(t.to_json())
    assert again == t and [s.to_json() for s in standings(again)] == [
        s.to_json() for s in standings(t)]
    assert list(itertools.chain(*(g.units for g in again.games)))
