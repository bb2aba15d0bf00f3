"""The fast kernel: the card-play state of a deal as bitmasks and small ints, in numba.

A position is one ``int64`` array (slots ``S_*`` of :mod:`tute.kernel._tables`) and the rules of
its deal another (``C_*`` slots). Actions are ints: a card index 0..39, a declaration 40..46
(40 cuarenta, 41+suit veinte, 45 tute de reyes, 46 tute de caballos/sotas) or 47 pass.

The kernel covers the card-play phases of every variant: the whole of Tute por
parejas, and the arrastre of the stock games (stock-phase legality is there too, but drawing
and exchanging the upcard are not: those positions stay with the core). A trick has ``C_K``
cards (the active seats) and play passes to ``C_NXT0 + seat``. Tute arrastrado (three or four
individual players) is covered after its table-card exchanges: points are kept per rule side
(``C_SIDE*``: one per seat there) and ``C_OBJ*`` groups the seats into the two objective sides
of the solver and of :func:`final_margin` (a *hero* against everybody else). Tute cabrón (three
or four players) keeps its trump in the state (``S_TRUMP``, -1 until a king and its caballo
fall in one trick: a cante of the trick's winner, the first 40 and fixing trumps). Tute
subastado plays with its active seats only (the dealer sits out with ``seats=4``), each seat a
side, the declarer's cantes alone counting (``C_DECLARER``) and the widow's discard counted for
the declarer from the start. The core (:class:`tute.Deal`) is the reference;
``tests/test_kernel.py`` keeps the two in agreement.

>>> import tute
>>> from tute import kernel
>>> deal = tute.Deal.new("tute_parejas", seed=7, dealer=3)
>>> cfg, st = kernel.from_deal(deal)
>>> sorted(kernel.action_str(a, cfg) for a in kernel.legal_action_codes(st, cfg)) == sorted(
...     str(a) for a in deal.legal_actions())
True
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from ..errors import TuteError
from ..games import game_for
from ..variants import Options, Variant
from . import _tables as T
from ._core import (
    apply_action,
    batch_check,
    declarations,
    legal_actions,
    legal_cards,
    legal_mask_state,
    play_card,
    points_of,
    popcount,
    trick_winner_pos,
)
from ._playout import final_margin, playout, playout_batch

if TYPE_CHECKING:
    from ..deal import Deal

__all__ = [
    "NotCardPlayPositionError",
    "action_code",
    "action_str",
    "apply_action",
    "batch_check",
    "declarations",
    "final_margin",
    "from_deal",
    "legal_action_codes",
    "legal_actions",
    "legal_cards",
    "legal_mask_state",
    "make_config",
    "play_card",
    "playout",
    "playout_batch",
    "points_of",
    "popcount",
    "trick_winner_pos",
]

class NotCardPlayPositionError(TuteError):
    """The position is not one of the kernel's: a stock-phase poll, a dealt-tute poll, ..."""


def make_config(variant: Variant, options: Options, trump: int | None, mano: int = 0,
                hero: int = 0) -> np.ndarray:
    """The rules of a deal as the kernel's config array.

    ``hero`` matters only with more than two sides (arrastrado, one side per seat): the
    objective sides (``C_OBJ*``) are then {``hero``} (0) against every other seat (1).
    """
    game = game_for(variant)
    flags = game.kernel_config(options)
    cfg = np.zeros(T.C_SIZE, dtype=np.int64)
    n = game.seat_count(options)
    if n > 4:
        raise NotCardPlayPositionError(f"the kernel handles at most 4 seats, not {n}")
    cfg[T.C_N] = n
    cfg[T.C_TRUMP] = -1 if trump is None else int(trump)
    cfg[T.C_FAMILY] = int(flags.guinote_ranks)
    cfg[T.C_EXEMPT] = int(options.partner_exemption and game.partnerships)
    cfg[T.C_UNDER] = int(options.must_undertrump)
    cfg[T.C_HEAD] = int(options.must_head_after_ruff)
    cfg[T.C_STOCKRULE] = T.STOCK_RULES.index(options.stock_phase_rule)
    cfg[T.C_CANTEBY] = T.CANTE_BY.index(options.cante_by)
    cfg[T.C_FORTY] = T.FORTY_FIRST.index(options.forty_first)
    cfg[T.C_RESTR] = T.RESTRICTIONS.index(options.cante_restriction)
    cfg[T.C_TUTE] = int(options.tute_enabled)
    cfg[T.C_PARTNERS] = int(game.partnerships)
    cfg[T.C_TOTAL] = game.layout(options)[0].bit_count() // n
    # every seat active, in seat order (from_deal sets a deal's own: subastado's idle seat)
    cfg[T.C_K] = n
    for seat in range(n):
        cfg[T.C_NXT0 + seat] = (seat + 1) % n
    cfg[T.C_DECLARER] = -1
    for seat in range(n):
        cfg[T.C_SIDE0 + seat] = game.side_of(seat)
    nsides = game.sides(options)
    cfg[T.C_NSIDES] = nsides
    if not 0 <= hero < n:
        raise ValueError(f"invalid hero seat {hero!r}: expected 0..{n - 1}")
    for seat in range(n):
        rule_side = int(cfg[T.C_SIDE0 + seat])
        cfg[T.C_OBJ0 + seat] = rule_side if nsides == 2 else int(seat != hero)
    cfg[T.C_SCALE] = 1
    cfg[T.C_TB] = 0
    cfg[T.C_MANO] = mano
    cfg[T.C_ARRCANTE] = int(flags.arrastre_cantes)
    cfg[T.C_CABRON] = int(flags.cabron)  # cantes by the cards of a trick, no windows
    return cfg


@functools.lru_cache(maxsize=256)
def _config(variant: Variant, options: Options, trump: int | None, mano: int,
            hero: int) -> np.ndarray:
    """:func:`make_config`, kept: a solver's many small queries on one deal (an analysis, a
    search bot's worlds) would otherwise rebuild it every time. Read-only: callers copy it."""
    cfg = make_config(variant, options, trump, mano, hero)
    cfg.flags.writeable = False
    return cfg


def from_deal(deal: Deal, hero: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(config, state) of a core deal in a card-play position, from ``deal.snapshot()``.

    ``hero`` (default: the seat to move, or 0 once the deal is over) sets the objective sides
    of a game of more than two sides: see :func:`make_config`.

    Raises :class:`NotCardPlayPositionError` for positions the kernel does not model: an
    exchange or dealt-tute poll, a pending draw, a deal of more than four seats.
    """
    pos = deal.snapshot()
    if pos.poll is not None and pos.poll.kind != "cante":
        raise NotCardPlayPositionError(
            f"not a card-play position: seat {pos.poll.seat} is asked about "
            f"{'the upcard exchange' if pos.poll.kind == 'exchange' else 'a dealt tute'}"
        )
    if pos.draw_pending:
        raise NotCardPlayPositionError("not a card-play position: a draw from the stock is due")
    if hero is None:
        hero = deal.to_move if deal.to_move is not None else 0
    cfg = _config(deal.variant, deal.options, pos.trump, deal.mano, hero).copy()
    if pos.active != cfg[T.C_N]:  # subastado with an idle seat (the dealer's, or the bidder's)
        cfg[T.C_K] = pos.active
        cfg[T.C_TOTAL] = pos.total_tricks
    for seat in range(cfg[T.C_N]):
        cfg[T.C_NXT0 + seat] = pos.next_seat[seat]
    cfg[T.C_DECLARER] = pos.sole_singer
    st = np.zeros(T.S_SIZE, dtype=np.int64)
    for seat, h in enumerate(pos.hands):
        st[T.S_H0 + seat] = h
    for i, c in enumerate(pos.trick):
        st[T.S_T0 + i] = c
    tlen = len(pos.trick)
    st[T.S_TLEN] = tlen
    st[T.S_LEADER] = pos.leader
    st[T.S_TOMOVE] = pos.to_move
    st[T.S_BEST] = pos.best
    st[T.S_BESTSEAT] = pos.best_seat
    st[T.S_RUFFED] = int(pos.ruffed)
    if tlen:
        lead = pos.trick[0] // 10
        strength = deal.order.strength
        st[T.S_TOPLED] = max((c for c in pos.trick if c // 10 == lead),
                             key=strength.__getitem__)
    else:
        st[T.S_TOPLED] = -1
    st[T.S_SUNG] = pos.sung
    st[T.S_FORTYLOST] = pos.forty_lost
    st[T.S_SIDEFIRST] = pos.side_first
    st[T.S_FORFEIT] = pos.side_forfeit
    for side, p in enumerate(pos.points):
        st[T.S_PTS0 + side] = p
    for side, p in enumerate(pos.cante_points):
        st[T.S_CANTE0 + side] = p
    st[T.S_DONE] = pos.tricks_done
    for side, t in enumerate(pos.side_tricks):
        st[T.S_SIDETRICKS0 + side] = t
    st[T.S_WINDOW] = pos.window
    st[T.S_WSEATS] = pos.window_seats
    st[T.S_WDECL] = int(pos.window_declared)
    st[T.S_POLL] = -1 if pos.poll is None else pos.poll.seat
    over = deal.is_over()
    st[T.S_OVER] = int(over)
    st[T.S_TUTESEAT] = -1
    st[T.S_LASTSIDE] = -1
    if over:
        res = deal.result()
        if res.reason == "tute":
            st[T.S_TUTESEAT] = next(s for s, d, _p in deal.cantes if d.is_tute)
        elif True in res.last_trick:
            st[T.S_LASTSIDE] = res.last_trick.index(True)
    st[T.S_STOCK] = int(bool(pos.stock_left))
    st[T.S_TRUMP] = -1 if pos.trump is None else pos.trump
    return cfg, st


def action_str(a: int, cfg: np.ndarray) -> str:
    """Record notation of a kernel action."""
    if a < 40:
        return "24567SCR3A"[a % 10] + "oceb"[a // 10]
    if a == T.A_CUARENTA:
        return "cuarenta"
    if T.A_VEINTE0 <= a < T.A_VEINTE0 + 4:
        return "veinte:" + "oceb"[a - T.A_VEINTE0]
    if a == T.A_TUTE_REYES:
        return "tute_reyes"
    if a == T.A_TUTE_SECOND:
        return "tute_sotas" if cfg[T.C_FAMILY] == 1 else "tute_caballos"
    if a == T.A_PASS:
        return "pass"
    raise ValueError(f"not a kernel action: {a}")


def action_code(action: object) -> int:
    """Kernel code of a core action (a Card, a Declaration or PASS) or its notation."""
    from ..actions import parse_action
    from ..cards import Card
    from ..rules import Declaration

    act = parse_action(action)  # type: ignore[arg-type]
    if isinstance(act, Card):
        return act.index
    if isinstance(act, Declaration):
        if act.kind == "cuarenta":
            return T.A_CUARENTA
        if act.kind == "veinte":
            assert act.suit is not None
            return T.A_VEINTE0 + int(act.suit)
        return T.A_TUTE_REYES if act.kind == "tute_reyes" else T.A_TUTE_SECOND
    if str(act) == "pass":
        return T.A_PASS
    raise NotCardPlayPositionError(f"action {act} is not a card-play action")


def legal_action_codes(st: np.ndarray, cfg: np.ndarray) -> list[int]:
    buf = np.empty(64, dtype=np.int64)
    k = legal_actions(st, cfg, buf)
    return [int(a) for a in buf[:k]]
