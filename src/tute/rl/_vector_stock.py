"""numba loops of :class:`tute.rl.vector.VectorEnv` for the stock games (rules.md §3, §6):
the upcard exchange as an action, the draw after each stock trick (winner first, the upcard
last and face up), the declaration window after the draw, as :class:`tute.Deal` plays them
with the default timing (``exchange_timing="after_winning_before_draw"``: the right is kept
for the seat's next turn, ``docs/rules-decisions.md``, "Asking nobody").

The kernel (:mod:`tute.kernel`) plays the tricks, the stock-phase duties (``S_STOCK``) and
the windows' declarations; this adds what happens between a stock trick and the next lead.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernel._core import _avail, declarations
from ..kernel._tables import (
    C_ARRCANTE,
    C_CANTEBY,
    C_FAMILY,
    C_FORTY,
    C_N,
    C_PARTNERS,
    C_RESTR,
    C_SIDE0,
    C_TRUMP,
    C_TUTE,
    S_FORFEIT,
    S_FORTYLOST,
    S_H0,
    S_LEADER,
    S_OVER,
    S_POLL,
    S_SIDETRICKS0,
    S_STOCK,
    S_SUNG,
    S_TOMOVE,
    S_WDECL,
    S_WINDOW,
    S_WSEATS,
)
from ._vector_slots import (
    A_EXCHANGE0,
    P_ARR,
    P_N,
    P_STOCK,
    P_TWO4,
    P_TWOEX,
    X_DUE,
    X_KNOWN0,
    X_PLAYED0,
    X_SEND,
    X_SPOS,
    X_STK0,
    X_VOID0,
)

_SEVEN, _TWO = 4, 0  # rank positions of the cards that take the upcard


@njit(cache=True)
def exchange_target(up: int, trump: int, par: np.ndarray) -> int:
    """The trump card that may take the upcard ``up`` (-1: none): the 7 takes A 3 R C S, the
    2 a 7, 6, 5 (and a 4 with ``two_exchanges_four``; never with the 2 disabled)."""
    pos = up % 10
    if pos > _SEVEN:
        return 10 * trump + _SEVEN
    if pos == _TWO or par[P_TWOEX] == 0 or (pos == 1 and par[P_TWO4] == 0):
        return -1
    return 10 * trump + _TWO


@njit(cache=True)
def _code(card: int) -> int:
    return A_EXCHANGE0 + 2 * (card // 10) + (0 if card % 10 == _SEVEN else 1)


@njit(cache=True)
def due_exchange(st: np.ndarray, cfg: np.ndarray, ex: np.ndarray, par: np.ndarray,
                 seat: int) -> int:
    """The exchange ``seat`` may make by a right kept for its turn (an action code, -1:
    none): the card that may take the upcard now, if it is due and still in its hand."""
    due = ex[X_DUE] & st[S_H0 + seat]
    send = ex[X_SEND]
    if due == 0 or ex[X_SPOS] >= send:
        return -1
    target = exchange_target(ex[X_STK0 + send - 1], cfg[C_TRUMP], par)
    if target < 0 or (due >> target) & 1 == 0:
        return -1
    return _code(target)


@njit(cache=True)
def with_exchange(st: np.ndarray, cfg: np.ndarray, ex: np.ndarray, par: np.ndarray,
                  out: np.ndarray, k: int) -> int:
    """The ``k`` legal actions of the kernel in ``out`` and, in a stock game, the kept
    exchange of the seat to move (on its card turn or its cante poll alike); their count.
    Called after ``legal_actions``, in stock games only, rather than wrapping it: the
    kernel's call stays in the hot loops of the other games as it was (a wrapper measured
    slower there)."""
    if par[P_STOCK] != 0 and ex[X_DUE] != 0 and st[S_OVER] == 0:
        e = due_exchange(st, cfg, ex, par, st[S_TOMOVE])
        if e >= 0:
            out[k] = e
            k += 1
    return k


@njit(cache=True)
def exchange(st: np.ndarray, ex: np.ndarray, code: int) -> None:
    """The seat to move gives the 7 or the 2 of trumps for the upcard, in public: the card
    taken is known to be in its hand (and its suit no longer lacking), the card given is the
    new upcard. The seat stays to move (a 2 may follow a 7)."""
    seat = st[S_TOMOVE]
    k = code - A_EXCHANGE0
    give = 10 * (k // 2) + (_SEVEN if k % 2 == 0 else _TWO)
    last = X_STK0 + ex[X_SEND] - 1
    take = ex[last]
    st[S_H0 + seat] = (st[S_H0 + seat] & ~(1 << give)) | (1 << take)
    ex[X_KNOWN0 + seat] = (ex[X_KNOWN0 + seat] & ~(1 << give)) | (1 << take)
    ex[X_VOID0 + seat] &= ~(1 << (take // 10))
    ex[last] = give


@njit(cache=True)
def _sings_after_exchange(st: np.ndarray, cfg: np.ndarray, ex: np.ndarray, par: np.ndarray,
                          seat: int) -> bool:
    """Whether the exchange kept for ``seat`` would give it a declaration."""
    e = due_exchange(st, cfg, ex, par, seat)
    if e < 0:
        return False
    k = e - A_EXCHANGE0
    give = 10 * (k // 2) + (_SEVEN if k % 2 == 0 else _TWO)
    hand = (st[S_H0 + seat] & ~(1 << give)) | (1 << ex[X_STK0 + ex[X_SEND] - 1])
    return declarations(hand, cfg[C_TRUMP], cfg[C_FAMILY], st[S_SUNG],
                        (st[S_FORTYLOST] >> seat) & 1, cfg[C_FORTY], cfg[C_TUTE]) != 0


@njit(cache=True)
def _open_window(st: np.ndarray, cfg: np.ndarray, ex: np.ndarray, par: np.ndarray,
                 winner: int) -> None:
    """The declaration window after the draw (``Deal._open_window``): the winner, and with
    ``cante_by`` other than the trick winner's its partner, asked first when it has a
    declaration now or after its kept exchange."""
    side = cfg[C_SIDE0 + winner]
    first_win = st[S_SIDETRICKS0 + side] == 1
    st[S_WDECL] = 0
    if (st[S_FORFEIT] >> side) & 1 or (cfg[C_RESTR] == 2 and not first_win):
        st[S_WINDOW] = 0
        st[S_WSEATS] = 0
        return
    seats = 1 << winner
    partner = -1
    if cfg[C_CANTEBY] != 0 and cfg[C_PARTNERS] != 0:
        partner = (winner + 2) % cfg[C_N]
        seats |= 1 << partner
    st[S_WINDOW] = seats
    st[S_WSEATS] = seats
    if partner >= 0:
        if _avail(st, cfg, partner) != 0 or _sings_after_exchange(st, cfg, ex, par, partner):
            st[S_POLL] = partner
            st[S_TOMOVE] = partner
        else:
            st[S_WINDOW] &= ~(1 << partner)


@njit(cache=True)
def after_stock_trick(st: np.ndarray, cfg: np.ndarray, ex: np.ndarray, par: np.ndarray
                      ) -> None:
    """After a stock trick (``stockpile.after_trick`` and ``draw``): the exchange rights
    kept for the next turn, judged before the draw; the draw, winner first, the upcard last
    and face up; the declaration window (two-player Tute: only while the stock lasts)."""
    n = par[P_N]
    winner = st[S_LEADER]
    spos = ex[X_SPOS]
    send = ex[X_SEND]
    left = send - spos
    trump = cfg[C_TRUMP]
    target = exchange_target(ex[X_STK0 + send - 1], trump, par)
    played = 0
    for s in range(n):
        played |= ex[X_PLAYED0 + s]
    due = 0
    if target >= 0 and (played >> target) & 1 == 0 and left > n:  # not in the last round
        held = st[S_H0 + winner]
        if cfg[C_PARTNERS] != 0:
            held |= st[S_H0 + (winner + 2) % n]
        due = held & ((1 << (10 * trump + _SEVEN)) | (1 << (10 * trump + _TWO)))
    ex[X_DUE] = due
    st[S_WINDOW] = 0
    st[S_WSEATS] = 0
    for k in range(n):
        seat = (winner + k) % n
        card = ex[X_STK0 + spos + k]
        st[S_H0 + seat] |= 1 << card
        if k == left - 1:  # the upcard: face up, its suit no longer lacking
            ex[X_KNOWN0 + seat] |= 1 << card
            ex[X_VOID0 + seat] &= ~(1 << (card // 10))
        else:  # a face-down card may be of any suit
            ex[X_VOID0 + seat] = 0
    left -= n
    ex[X_SPOS] = spos + n
    st[S_STOCK] = 1 if left > 0 else 0
    if left == 0:
        cfg[C_ARRCANTE] = par[P_ARR]  # the arrastre's windows are the kernel's
    if par[P_ARR] != 0 or left > 0:
        _open_window(st, cfg, ex, par, winner)
