"""``tute puzzles``: make, list, show and solve puzzles (a Typer group the CLI adds)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

from ..errors import TuteError
from . import Puzzle, check_answer, find_puzzle, load_file, load_puzzles
from .make import DEFAULT_STOCK_LIMIT

__all__ = ["puzzles_app"]

puzzles_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                          help="Puzzles cut from real deals: one right action.")

FileOpt = Annotated[Path | None, typer.Option("--file", help="a puzzles JSON-lines file "
                                              "(default: the shipped puzzles)")]


def _fail(message: str) -> None:
    typer.echo(f"tute: error: {message}", err=True)
    raise typer.Exit(2)


def _pool(file: Path | None) -> list[Puzzle]:
    try:
        return load_puzzles(None) if file is None else load_file(file)
    except OSError as exc:
        _fail(f"cannot read {str(file)!r}: {exc.strerror or exc}")
    except TuteError as exc:
        _fail(str(exc))
    return []


def _find(puzzle: str, file: Path | None) -> Puzzle:
    found = find_puzzle(puzzle, _pool(file))
    if found is None:
        _fail(f"no puzzle {puzzle!r}")
    assert found is not None
    return found


@puzzles_app.command("make")
def make_command(
    source: Annotated[list[str], typer.Option("--from", help="a record file, a JSON-lines "
                                              "file or folder of records, or selfplay:VARIANT; "
                                              "repeat to take deals from each in turn")],
    count: Annotated[int, typer.Option("--count", help="how many puzzles")] = 100,
    out: Annotated[Path, typer.Option("--out", help="the JSON-lines file to append to")] = Path(
        "puzzles.jsonl"),
    margin: Annotated[int, typer.Option(help="points every other action loses at least")] = 10,
    worlds: Annotated[int, typer.Option(help="worlds sampled from the seat's view")] = 32,
    agree: Annotated[float, typer.Option(help="share of worlds where the answer is best")] = 0.8,
    per_deal: Annotated[int, typer.Option(help="puzzles at most from one deal")] = 3,
    min_misses: Annotated[int, typer.Option(help="bots (other than random) that must miss "
                                            "it")] = 1,
    seed: Annotated[int, typer.Option(help="self-play's first deal seed")] = 0,
    max_cards: Annotated[int, typer.Option(help="skip positions with more cards in the "
                                           "hands")] = 28,
    view_gap: Annotated[float, typer.Option(help="points the answer's mean over the worlds "
                                            "beats every other action's by")] = 5.0,
    stock_limit: Annotated[int, typer.Option(help="also try stock-phase positions with at "
                                             "most this many cards in the stock (the stock's "
                                             "order known; 0: from the arrastre on)")
                           ] = DEFAULT_STOCK_LIMIT,
    stock_only: Annotated[bool, typer.Option("--stock-only", help="only stock-phase "
                                             "positions")] = False,
) -> None:
    """Cut puzzles from game records or self-play and append them to --out."""
    from .make import Settings, make_puzzles

    seen = {p.id for p in load_file(out)} if out.exists() else set()
    t0 = time.perf_counter()
    settings = Settings(margin=margin, worlds=worlds, agree=agree, per_deal=per_deal,
                        seed=seed, min_misses=min_misses, max_cards=max_cards,
                        view_gap=view_gap, stock_limit=stock_limit,
                        stock_only=stock_only)
    try:
        with out.open("a", encoding="utf-8") as f:
            def write(p: Puzzle) -> None:
                f.write(json.dumps(p.to_json(), separators=(",", ":")) + "\n")
                f.flush()

            made = make_puzzles(source, count, settings, seen=seen, progress=write)
    except TuteError as exc:
        _fail(str(exc))
        return
    typer.echo(f"{len(made)} puzzles written to {out} in {time.perf_counter() - t0:.1f} s")


@puzzles_app.command("list")
def list_command(file: FileOpt = None,
                 theme: Annotated[str | None, typer.Option(help="only this theme")] = None,
                 ) -> None:
    """One line a puzzle: id, game, rating, answer's margin, themes."""
    for p in _pool(file):
        if theme is None or theme in p.themes:
            typer.echo(f"{p.id}  {p.variant:<18} {p.rating:>5}  +{p.margin:<4} "
                       f"{','.join(p.themes)}")


@puzzles_app.command("show")
def show_command(puzzle: str, file: FileOpt = None,
                 as_json: Annotated[bool, typer.Option("--json", help="the whole puzzle, "
                                                       "answer included")] = False) -> None:
    """The position from the seat's view (the answer is not shown: solve it)."""
    p = _find(puzzle, file)
    if as_json:
        typer.echo(json.dumps(p.to_json(), ensure_ascii=False))
        return
    deal = p.position()
    view = deal.view(p.seat)
    typer.echo(f"puzzle {p.id}: {p.variant}, seat {p.seat} to move, rating {p.rating}")
    typer.echo(f"trump: {view.trump.letter if view.trump else '-'}   "
               f"trick {deal.trick_number}, stock {view.stock_count}"
               + (f" (upcard {view.upcard})" if view.upcard is not None else ""))
    for t in view.tricks:
        typer.echo(f"trick {t.number}: " + " ".join(f"{seat}:{c}" for seat, c in
                                                     zip(t.seats, t.cards, strict=True))
                   + f"  -> seat {t.winner}")
    typer.echo("on the table: " + (" ".join(f"{s}:{c}" for s, c in view.trick) or "-"))
    typer.echo("points: " + ", ".join(f"side {k} {p}" for k, p in enumerate(view.card_points))
               + f" (yours: side {view.side})")
    typer.echo("hand: " + " ".join(str(c) for c in view.hand))
    typer.echo("choose one of: " + " ".join(p.values))
    typer.echo(f"solve: tute puzzles solve {p.id} ACTION")


@puzzles_app.command("solve")
def solve_command(puzzle: str, answer: str, file: FileOpt = None) -> None:
    """Try an answer: right or wrong, with every action's value (exit 1 when wrong)."""
    p = _find(puzzle, file)
    try:
        res = check_answer(p, answer)
    except TuteError as exc:
        _fail(str(exc))
        return
    typer.echo(("right: " if res["correct"] else f"wrong: the answer is {res['best']}, ")
               + (f"{answer} loses {res['lost']} points" if not res["correct"] else answer))
    typer.echo("values: " + "  ".join(f"{a} {v:+d}" for a, v in
                                      sorted(p.values.items(), key=lambda kv: -kv[1])))
    typer.echo("themes: " + ", ".join(p.themes) + f"   why: {res['why']['en']}")
    if not res["correct"]:
        raise typer.Exit(1)
