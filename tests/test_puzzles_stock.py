"""Stock-phase puzzles (tute.puzzles with ``stock_limit``): a position of the stock phase with
one right move is cut, the check from the seat's view reads no hidden card (nor the stock's
order), and the shipped stock puzzles hold by the solver and from the view."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tute
from tute.errors import TuteError
from tute.puzzles import load_puzzles, puzzle_id
from tute.puzzles.cut import DEFAULT_AGREE, view_check
from tute.puzzles.make import DEFAULT_STOCK_LIMIT, Settings, make_puzzles
from tute.puzzles.themes import themes_of
from tute.solver import Solver
from tute.worlds import WorldSampler

#: habanero, seat 1 to play to the last trick of the stock (the upcard the 2 of clubs, which
#: it exchanged in): letting the trick go with the sota of swords (the upcard comes to it) is
#: worth 58, every other card 36 at best (self-play, rules bots)
DUCK_FOR_THE_UPCARD: dict[str, Any] = {
    "format": "tute-record", "version": 2, "kind": "deal", "variant": "tute_2p_habanero",
    "options": {}, "seed": 6038094601263162090, "dealer": 1,
    "deal": {"hands": [["Ro", "4o", "Ac", "6c", "7e", "6e", "Cb", "4b"],
                       ["Cc", "7c", "2c", "Se", "Ab", "Sb", "6b", "2b"]],
             "upcard": "4c",
             "stock": ["Co", "3e", "5o", "5b", "2e", "So", "2o", "Rc", "3b", "5e", "Re", "4e",
                       "3o", "Ao", "Ae", "6o", "5c", "Sc", "Ce", "7b", "Rb", "3c", "7o"]},
    "actions": ["4o", "2b", "veinte:o", "4b", "Ab", "cambio:2c", "6b", "5b", "2e", "6e", "2o",
                "5o", "cuarenta", "Sb", "Cb", "5e", "3e", "4e", "7e", "So", "3o", "6o", "Ao",
                "veinte:e", "Ac", "4c", "Rb"]}
DUCK_ANSWER = "Se"

#: habanero, seat 1 to play to a trick with four cards in the stock (three face down): only
#: the knight of trumps takes the trick that lets it sing the tute (four knights)
TUTE_BY_THE_TRICK: dict[str, Any] = {
    "format": "tute-record", "version": 2, "kind": "deal", "variant": "tute_2p_habanero",
    "options": {}, "seed": 1906793117412032986, "dealer": 1,
    "deal": {"hands": [["3o", "6o", "7c", "3e", "Se", "4e", "Ab", "4b"],
                       ["Co", "7o", "2c", "Ce", "6e", "3b", "Rb", "Sb"]],
             "upcard": "5e",
             "stock": ["Re", "Ac", "3c", "7b", "Ao", "2e", "5c", "So", "4o", "Rc", "5b", "7e",
                       "6b", "2b", "4c", "Ae", "Sc", "Ro", "6c", "5o", "Cb", "2o", "Cc"]},
    "actions": ["4b", "3b", "cuarenta", "2c", "Ac", "6o", "7o", "7b", "Ab", "cambio:2e", "5c",
                "So", "4o", "Ao", "5b", "7c", "6b", "2b", "4c", "3c", "3e", "6e", "6c"]}
TUTE_ANSWER = "Ce"


def _cut(path: Path, limit: int) -> list[tute.Deal]:
    settings = Settings(per_deal=40, stock_limit=limit)
    return [p.position() for p in make_puzzles([str(path)], 40, settings)]


def test_a_stock_phase_position_with_one_right_move_is_cut(tmp_path: Path) -> None:
    position = tute.Deal.from_record(DUCK_FOR_THE_UPCARD)
    assert position.stock_count == 2 and position.to_move == 1
    pid = puzzle_id(position.to_record())
    played = json.loads(json.dumps(DUCK_FOR_THE_UPCARD))
    played["actions"].append(DUCK_ANSWER)  # the deal goes on: its positions are tried
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(played))
    found = make_puzzles([str(path)], 40, Settings(per_deal=40))
    got = [p for p in found if p.id == pid]
    assert got, [p.id for p in found]
    p = got[0]
    assert p.answer == DUCK_ANSWER and p.seat == 1 and p.variant == "tute_2p_habanero"
    assert p.values[DUCK_ANSWER] - max(v for a, v in p.values.items() if a != p.answer) >= 10
    assert p.view["agree"] >= DEFAULT_AGREE and p.view["worlds"] == 32
    assert "upcard" in p.themes and "duck" in p.themes
    # from the arrastre on only (the cut before the stock search): not a puzzle
    assert all(p.id != pid for p in make_puzzles([str(path)], 40,
                                                 Settings(per_deal=40, stock_limit=0)))


def test_the_view_check_reads_neither_the_hidden_hands_nor_the_stock_order() -> None:
    """Worlds consistent with the seat's view (other hidden hands, another stock order) give
    the very same check, and the same answer."""
    position = tute.Deal.from_record(TUTE_BY_THE_TRICK)
    seat = position.to_move
    assert seat == 1 and position.stock_count == 4
    view = position.view(seat)
    solver = Solver(tt_mb=16, threads=1, stock_limit=DEFAULT_STOCK_LIMIT)
    base = view_check(view, solver, 12, random.Random(3))
    assert base.worlds == 12 and base.top() == TUTE_ANSWER
    assert base.share(TUTE_ANSWER) >= DEFAULT_AGREE
    sampler = WorldSampler(view)
    orders = set()
    hidden = set()
    for k in range(6):
        world = sampler.deal(random.Random(100 + k))
        assert world.view(seat) == view and world.upcard == position.upcard
        face_down = world.to_record()["deal"]["stock"][-(world.stock_count - 1):]
        orders.add(tuple(face_down))
        hidden.add(tuple(sorted(str(c) for c in world.hand(0))))
        again = view_check(world.view(seat), solver, 12, random.Random(3))
        assert again == base
    # the sampler did reshuffle: the stock's order and the other hand vary among the worlds
    assert len(orders) > 1 and len(hidden) > 1


def test_the_sampled_worlds_order_the_unseen_stock_uniformly() -> None:
    """Of the three face-down cards, the top one is the lowest (by the pack's order) in about a
    third of the worlds, and the middle one too: the order is drawn, not kept."""
    position = tute.Deal.from_record(TUTE_BY_THE_TRICK)
    sampler = WorldSampler(position.view(1))
    rng = random.Random(7)
    index = {str(c): k for k, c in enumerate(tute.cards.ALL_CARDS)}
    n = 300
    lowest = [0, 0, 0]
    for _ in range(n):
        world = sampler.deal(rng)
        face_down = world.to_record()["deal"]["stock"][-(world.stock_count - 1):]
        assert len(face_down) == 3
        keys = [index[c] for c in face_down]
        lowest[keys.index(min(keys))] += 1
    assert all(abs(k / n - 1 / 3) < 0.1 for k in lowest), lowest


def test_themes_of_the_stock_phase() -> None:
    duck = tute.Deal.from_record(DUCK_FOR_THE_UPCARD)
    assert themes_of(duck, DUCK_ANSWER)[:2] == ["upcard", "duck"]
    tute_trick = tute.Deal.from_record(TUTE_BY_THE_TRICK)
    assert "cante_timing" in themes_of(tute_trick, TUTE_ANSWER)
    assert "upcard" not in themes_of(tute_trick, TUTE_ANSWER)  # three tricks of stock left
    # a cante could be sung and another move is chosen: singing later
    deal = tute.Deal.from_record({**DUCK_FOR_THE_UPCARD,
                                  "actions": DUCK_FOR_THE_UPCARD["actions"][:2]})
    legal = [str(a) for a in deal.legal_actions()]
    assert "veinte:o" in legal
    assert themes_of(deal, "4b")[0] == "cante_later"
    assert themes_of(deal, "veinte:o") == ["cante"]


def test_bad_stock_settings_are_refused() -> None:
    for bad in (Settings(stock_limit=-1), Settings(stock_limit=29),
                Settings(stock_limit=0, stock_only=True)):
        with pytest.raises(TuteError, match="invalid stock"):
            bad.check()


# ------------------------------------------------------------------ the shipped stock puzzles

STOCK_PUZZLES = [p for p in load_puzzles() if p.position().stock_count]


def test_at_least_sixty_shipped_stock_puzzles_of_every_stock_game() -> None:
    assert len(STOCK_PUZZLES) >= 60
    games = {p.variant for p in STOCK_PUZZLES}
    assert games >= {"tute_2p_habanero", "tute_2p_corriente", "guinote", "guinote_2p"}, games
    assert all(p.position().stock_count <= DEFAULT_STOCK_LIMIT for p in STOCK_PUZZLES)


def test_a_sample_of_stock_puzzles_passes_the_check_from_the_seats_view() -> None:
    solver = Solver(tt_mb=16, threads=1, stock_limit=DEFAULT_STOCK_LIMIT)
    for p in random.Random(11).sample(STOCK_PUZZLES, 6):
        check = view_check(p.position().view(p.seat), solver, 24, random.Random(p.id))
        assert check.top() == p.answer, p.id
        assert check.share(p.answer) >= DEFAULT_AGREE - 0.15, (p.id, check.share(p.answer))


def test_cli_shows_the_upcard_and_refuses_a_bad_stock_limit(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tute", "puzzles", *args],
                              capture_output=True, text=True, env=env, timeout=300,
                              check=False)

    p = STOCK_PUZZLES[0]
    shown = run("show", p.id)
    assert shown.returncode == 0, shown.stderr
    assert f"stock {p.position().stock_count} (upcard {p.position().upcard})" in shown.stdout
    bad = run("make", "--from", "selfplay:habanero", "--stock-limit", "29",
              "--out", str(tmp_path / "p.jsonl"))
    assert bad.returncode == 2 and "invalid stock_limit" in bad.stderr
    only = run("make", "--from", "selfplay:habanero", "--stock-only", "--stock-limit", "0",
               "--out", str(tmp_path / "p.jsonl"))
    assert only.returncode == 2 and "invalid stock_only" in only.stderr
