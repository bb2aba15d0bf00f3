"""Tute por parejas (rules.md §2): four players in two pairs, ten cards each, the trump turned
from the dealer's last card; a series of deals or a race to a number of games (§2.8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import parse_card, parse_suit
from ..errors import TuteError
from ..scoring import score_partnership
from ..variants import Options
from ..views import DealResult
from .base import Extras, Game, Layout, MatchStep, Score, Tally, _end, check_pack
from .cases import pairs_case


class Turned(Game):
    """Games whose trump is the dealer's last card, turned for all to see."""
    __slots__ = ()

    extras = frozenset({"trump_card", "trump"})

    def lay_out(self, rest: Sequence[int], last_dealt: int) -> Layout:
        return Layout(trump_card=last_dealt, trump=last_dealt // 10, turned=True)

    def explicit(self, extras: Extras, hands: Sequence[Sequence[Any]], masks: Sequence[int],
                 dealer: int, deck: int) -> Layout:
        check_pack(masks, [], deck)
        if extras.trump is not None and extras.trump_card is None:
            return Layout(trump=int(parse_suit(extras.trump)))  # no card turned
        tcard = parse_card(extras.trump_card if extras.trump_card is not None
                           else hands[dealer][-1])
        if not tcard.mask & masks[dealer]:
            raise TuteError(f"invalid trump_card {str(tcard)!r}: not in the dealer's hand "
                            f"(seat {dealer})")
        if extras.trump is not None and parse_suit(extras.trump) != tcard.suit:
            raise TuteError(f"invalid trump {extras.trump!r}: the trump card {tcard} "
                            "fixes the suit")
        return Layout(trump_card=tcard.index, trump=tcard.index // 10, turned=True)

    def layout_json(self, layout: Layout) -> dict[str, Any]:
        from ..cards import ALL_CARDS

        tc = layout.trump_card
        return {"trump_card": None if tc < 0 else str(ALL_CARDS[tc]),
                "trump": None if layout.trump is None else "oceb"[layout.trump]}


class Parejas(Turned):
    __slots__ = ()
    family = "parejas"
    batch_gap = ""  # card play only: all of it in the kernel

    def score(self, tally: Tally, options: Options) -> Score:
        special = tute_renuncio(tally, options, target=False)
        if special is not None:
            return special
        out = score_partnership(tally.totals, tally.last_side, options,
                                mano_side=tally.side_of[tally.mano],
                                sang=[bool(c) for c in tally.cantes])
        games = [0, 0]
        if out.winner is not None:
            games[out.winner] = out.games
        return Score(winner=out.winner, games=tuple(games), replay=out.replay)

    def score_case(self, data: Mapping[str, Any], opts: Options) -> dict[str, Any]:
        """``tute score``: ``sides`` A and B (card points, cantes, last trick), ``mano_side``."""
        return pairs_case(data, opts, guinote=False)

    def goal_info(self, options: Options) -> dict[str, Any]:
        return {"kind": options.match.mode, "n": options.match.n}

    def games_end(self, step: MatchStep, result: DealResult, options: Options) -> MatchStep:
        spec = options.match
        if spec.mode == "race":
            leaders = [s for s, g in enumerate(step.games) if g >= spec.n]
            if leaders:
                return _end(step, max(leaders, key=lambda s: step.games[s]), "race")
        elif step.counted >= spec.n:
            top = max(step.games)
            if step.games.count(top) == 1:
                return _end(step, step.games.index(top), "series")
        return step


def tute_renuncio(tally: Tally, options: Options, *, target: bool) -> Score | None:
    """The two-sided games' verdicts that do not depend on the totals: a tute, a renuncio
    claim, a side reaching 101 *de vueltas* (None for a deal played out)."""
    games = [0, 0]
    if tally.reason == "tute":
        assert tally.who is not None
        winner = tally.side_of[tally.who]
        games[winner] = 2 if options.tute_award == "two_games" else 1
        match_won = options.tute_award == "match" or (
            options.tute_award == "partida" and not target)
        return Score(winner=winner, games=tuple(games), match_won=match_won)
    if tally.reason == "renuncio":
        assert tally.who is not None
        claimant = tally.side_of[tally.who]
        winner = claimant if tally.offender is not None else 1 - claimant
        games[winner] = 2 if options.renuncio_penalty == "two_games_swing" else 1
        return Score(winner=winner, games=tuple(games))
    if tally.reason == "vueltas":
        assert tally.who is not None
        games[tally.who] = 1
        return Score(winner=tally.who, games=tuple(games))
    return None
