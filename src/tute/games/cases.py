"""Deals told as data, as ``tute score`` reads them (the S cases of docs/rule_cases.md): the
readers the games share. Each game reads its own shape in ``Game.score_case``; a bad field is
refused with a :class:`tute.fields.InputError` naming it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..fields import bad, field, quote, read_bool, read_int, read_seat
from ..scoring import deal_total, score_partnership, score_per_deal_2p, target_winner
from ..variants import Options
from .base import Game, Tally

__all__ = ["Party", "check_parties", "check_totals", "individual_case", "named_parties",
           "pairs_case", "party", "seat_totals", "took_tricks", "tute_side", "two_case"]


@dataclass(frozen=True)
class Party:
    name: str
    card_points: int
    cantes: tuple[int, ...]
    last_trick: bool

    def total(self, count_cantes: bool = True) -> int:
        return deal_total(self.card_points, self.cantes if count_cantes else (), self.last_trick)


def party(name: str, value: Any, where: str) -> Party:
    if not isinstance(value, dict):
        bad(f"field {where!r}: expected an object with card_points, cantes and last_trick, "
            f"got {quote(value)}")
    for key in value:
        if key not in ("card_points", "cantes", "last_trick"):
            bad(f"field '{where}.{key}': unknown; expected card_points, cantes, last_trick")
    if "card_points" not in value:
        bad(f"field '{where}.card_points': missing")
    points = read_int(value["card_points"], f"{where}.card_points", 0, 120)
    cantes = value.get("cantes") or []
    if not isinstance(cantes, list) or any(
            isinstance(c, bool) or not isinstance(c, int) or c not in (20, 40) for c in cantes):
        bad(f"field '{where}.cantes': expected a list of 20s and 40s, got {quote(cantes)}")
    last = read_bool(value.get("last_trick", False), f"{where}.last_trick")
    return Party(name, points, tuple(cantes), last)


def check_parties(parties: Sequence[Party], *, complete: bool) -> None:
    """A whole deal: 120 card points, one last trick, at most one 40 and three 20s."""
    forties = sum(p.cantes.count(40) for p in parties)
    twenties = sum(p.cantes.count(20) for p in parties)
    if forties > 1:
        bad(f"field 'cantes': {forties} forties declared, but there is only one trump suit")
    if twenties > 3:
        bad(f"field 'cantes': {twenties} twenties declared, but only three suits are not trumps")
    lasts = [p.name for p in parties if p.last_trick]
    names = ", ".join(p.name for p in parties)
    if not complete:
        if lasts:
            bad(f"field '{lasts[0]}.last_trick': a tute ends the deal, so nobody takes the "
                "last trick")
        return
    points = sum(p.card_points for p in parties)
    if points != 120:
        bad(f"field 'card_points': those of {names} add up to {points}, but a deal has 120")
    if len(lasts) != 1:
        bad(f"field 'last_trick': exactly one of {names} must have last_trick true, "
            f"got {len(lasts)}")


def check_totals(data: Mapping[str, Any], computed: Mapping[str, int]) -> None:
    """If the line also gives ``totals`` they must agree with the computed ones."""
    given = data.get("totals")
    if not isinstance(given, dict):
        return
    for name, value in computed.items():
        if name in given and given[name] != value:
            bad(f"field 'totals': {name} is {quote(given[name])} but card points + cantes + last "
                f"trick give {value}")


def named_parties(data: Mapping[str, Any], names: Sequence[str],
                   required: bool = True) -> list[Party] | None:
    source = data.get("sides")
    if source is None:
        source = {k: data[k] for k in names if k in data}
        if not source and not required:
            return None
        where = ""
    else:
        if not isinstance(source, dict):
            bad(f"field 'sides': expected an object with {', '.join(names)}, got {quote(source)}")
        where = "sides."
    if not source:
        shape = ("'sides' (an object with A and B)" if list(names) == ["A", "B"]
                 else ", ".join(f"'{k}'" for k in names))
        bad(f"missing field {shape}: each with card_points, cantes and last_trick")
    missing = [k for k in names if k not in source]
    unknown = [str(k) for k in source if k not in names]
    if missing or unknown:
        what = "; ".join(filter(None, ["missing " + ", ".join(missing) if missing else "",
                                       "unexpected " + ", ".join(unknown) if unknown else ""]))
        label = "sides" if where else "/".join(names)
        bad(f"field {label!r}: expected {', '.join(names)}: {what}")
    return [party(k, source[k], f"{where}{k}") for k in names]


def tute_side(data: Mapping[str, Any], names: Sequence[str], n: int,
               side_of: Callable[[int], int]) -> int | None:
    value = data.get("tute")
    if value is None:
        return None
    if value in names:
        return list(names).index(value)
    return side_of(read_seat(value, "tute", n))


def tute_result(opts: Options, name: str, guinote: bool) -> dict[str, Any]:
    award = opts.tute_award
    if guinote and award == "partida":
        return {"deal_ends": True, "partida_winner": name}
    if award in ("match", "partida"):
        return {"deal_ends": True, "winner": name, "match_won": True}
    return {"deal_ends": True, "winner": name, "games": 2 if award == "two_games" else 1}


def cantes_count(opts: Options, p: Party) -> bool:
    return not (opts.thirty_malas and p.card_points < 30)


def two_sides(data: Mapping[str, Any], names: Sequence[str], opts: Options, n: int,
               side_of: Callable[[int], int],
               ) -> tuple[int | None, list[Party] | None, dict[str, int] | None]:
    """The side that sang a tute (if any), the two parties and their checked totals."""
    tute = tute_side(data, names, n, side_of)
    parties = named_parties(data, names, required=tute is None)
    totals: dict[str, int] | None = None
    if parties is not None:
        check_parties(parties, complete=tute is None)
        totals = {p.name: p.total(cantes_count(opts, p)) for p in parties}
        check_totals(data, totals)
    return tute, parties, totals


def seat_totals(data: Mapping[str, Any], names: Sequence[str], hi: int) -> dict[str, int]:
    given = field(data, "totals")
    if not isinstance(given, dict):
        bad(f"field 'totals': expected an object with {', '.join(names)}, got {quote(given)}")
    if set(given) != set(names):
        bad(f"field 'totals': expected exactly {', '.join(names)} ({len(names)} players), "
            f"got {', '.join(map(str, given))}")
    return {k: read_int(given[k], f"totals.{k}", 0, hi) for k in names}


def took_tricks(data: Mapping[str, Any], names: Sequence[str],
                 totals: Mapping[str, int]) -> list[bool]:
    """Who took a trick: ``took_trick`` (seats, or seat -> bool), ``no_trick`` (seats) or
    ``all_took_tricks``; needed where a seat scored nothing (it may still have taken one)."""
    n = len(names)
    took = [True] * n
    told = False
    if "took_trick" in data:
        told = True
        value = data["took_trick"]
        if isinstance(value, dict):
            for k, v in value.items():
                took[read_seat(k, "took_trick", n)] = read_bool(v, f"took_trick.{k}")
        elif isinstance(value, list):
            took = [False] * n
            for s in value:
                took[read_seat(s, "took_trick", n)] = True
        else:
            bad(f"field 'took_trick': expected a list of seats or a map seat -> bool, "
                f"got {quote(value)}")
    if "no_trick" in data:
        told = True
        value = data["no_trick"]
        if not isinstance(value, list):
            bad(f"field 'no_trick': expected a list of seats, got {quote(value)}")
        for s in value:
            took[read_seat(s, "no_trick", n)] = False
    if "all_took_tricks" in data:
        told = True
        if read_bool(data["all_took_tricks"], "all_took_tricks") != all(took):
            bad("field 'all_took_tricks': contradicts 'no_trick' / 'took_trick'")
    for i, k in enumerate(names):
        if not took[i] and totals[k]:
            bad(f"field 'totals': {k} scored {totals[k]} without taking a trick")
        if totals[k] == 0 and not told:
            bad(f"field 'took_trick': {k} has 0 points; say whether it took a trick "
                "(took_trick, no_trick or all_took_tricks)")
    if not any(took):
        bad("field 'took_trick': somebody must have taken the tricks")
    return took


def pairs_case(data: Mapping[str, Any], opts: Options, *, guinote: bool) -> dict[str, Any]:
    """A partnership deal: ``sides`` A and B, each with card points, cantes and the last
    trick (Guiñote: the deal wins a partida)."""
    names = ("A", "B")
    tute, parties, totals = two_sides(data, names, opts, 4, lambda s: s % 2)
    if tute is not None:
        return {"totals": totals, "result": tute_result(opts, names[tute], guinote)}
    assert parties is not None and totals is not None
    values = [totals["A"], totals["B"]]
    last = next(i for i, p in enumerate(parties) if p.last_trick)
    if guinote:
        w = target_winner(values, last, opts.both_over)
        result: dict[str, Any] = ({"partida_winner": None, "vueltas": True} if w is None
                                  else {"partida_winner": names[w]})
        return {"totals": totals, "result": result}
    mano = data.get("mano_side")
    if mano is not None and mano not in names:
        bad(f"field 'mano_side': expected 'A' or 'B', got {quote(mano)}")
    if values[0] == values[1] and opts.tie_break == "mano_side" and mano is None:
        bad("field 'mano_side': needed to break the tie under tie_break=mano_side")
    out = score_partnership(values, last, opts, mano_side=names.index(mano) if mano else 0,
                            sang=[bool(p.cantes) for p in parties])
    if out.replay:
        result = {"winner": None, "games": 0, "replay": True}
    else:
        assert out.winner is not None
        result = {"winner": names[out.winner], "games": out.games}
    return {"totals": totals, "result": result}


def two_case(data: Mapping[str, Any], opts: Options, *, guinote: bool) -> dict[str, Any]:
    """A two-player deal: ``seat0`` and ``seat1`` as parties (Guiñote: a partida)."""
    names = ("seat0", "seat1")
    tute, parties, totals = two_sides(data, names, opts, 2, lambda s: s)
    if tute is not None:
        return {"totals": totals, "result": tute_result(opts, names[tute], guinote)}
    assert parties is not None and totals is not None
    values = [totals[k] for k in names]
    last = next(i for i, p in enumerate(parties) if p.last_trick)
    key = "partida_winner" if guinote else "winner"
    if opts.scoring_2p == "per_deal":
        out = score_per_deal_2p(values, last, [bool(p.cantes) for p in parties])
        assert out.winner is not None
        return {"totals": totals, "result": {"winner": names[out.winner], "games": out.games}}
    w = target_winner(values, last, opts.both_over)
    result = {key: None, "vueltas": True} if w is None else {key: names[w]}
    return {"totals": totals, "result": result}


def individual_case(game: Game, data: Mapping[str, Any], opts: Options) -> dict[str, Any]:
    """Games scored seat by seat in lost games (gana-pierde, cabrero): the deal is told as
    data and the game scores it (``Game.score``), as it does at the table."""
    n = game.seat_count(opts)
    names = [f"seat{i}" for i in range(n)]
    tute = tute_side(data, names, n, lambda s: s)
    totals = seat_totals(data, names, 230)
    took = took_tricks(data, names, totals) if tute is None else [True] * n
    lt = data.get("last_trick")
    last = None if lt is None else read_seat(lt, "last_trick", n)
    sang = data.get("sang", [])
    if not isinstance(sang, list):
        bad(f"field 'sang': expected a list of the seats that sang, got {quote(sang)}")
    singers = {read_seat(s, "sang", n) for s in sang}
    values = tuple(totals[k] for k in names)
    tally = Tally(reason="tute" if tute is not None else "tricks", who=tute, offender=None,
                  totals=values, points=values, cantes=tuple(() for _ in names),
                  seat_cantes=tuple((20,) if s in singers else () for s in range(n)),
                  last_side=last, seats=n, side_of=tuple(range(n)), mano=0, carry=None,
                  tricks_won=tuple(int(t) for t in took), contract=None)
    score = game.score(tally, opts)
    result: dict[str, Any] = {"losses_added": {
        names[s]: v for s, v in enumerate(score.losses or ()) if v}}
    if score.winner is not None:
        result["out"] = names[score.winner]  # went out: everyone else loses
    return {"totals": totals, "result": result}
