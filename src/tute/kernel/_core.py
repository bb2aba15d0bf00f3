"""numba functions of the card-play state machine (rules.md §1.3–§1.6, §2, the arrastre of §3/§6).

Everything works on the flat arrays described in :mod:`tute.kernel._tables`. The pure-Python
core (:mod:`tute.deal`, :mod:`tute.rules`) is the reference; ``tests/test_kernel.py`` compares
the two on random states and whole random deals.
"""

from __future__ import annotations

import numpy as np
from numba import config, njit

from ._tables import (
    A_CUARENTA,
    A_PASS,
    A_TUTE_REYES,
    A_TUTE_SECOND,
    A_VEINTE0,
    C_ARRCANTE,
    C_CABRON,
    C_CANTEBY,
    C_DECLARER,
    C_EXEMPT,
    C_FAMILY,
    C_FORTY,
    C_HEAD,
    C_K,
    C_N,
    C_NXT0,
    C_PARTNERS,
    C_RESTR,
    C_SIDE0,
    C_STOCKRULE,
    C_TOTAL,
    C_TRUMP,
    C_TUTE,
    C_UNDER,
    HIGHER,
    KINGS,
    MARRIAGE_POS,
    POINTS,
    S_BEST,
    S_BESTSEAT,
    S_CANTE0,
    S_DONE,
    S_FORFEIT,
    S_FORTYLOST,
    S_H0,
    S_LASTSIDE,
    S_LEADER,
    S_OVER,
    S_POLL,
    S_PTS0,
    S_RUFFED,
    S_SIDEFIRST,
    S_SIDETRICKS0,
    S_STOCK,
    S_SUNG,
    S_T0,
    S_TLEN,
    S_TOMOVE,
    S_TOPLED,
    S_TRUMP,
    S_TUTESEAT,
    S_WDECL,
    S_WINDOW,
    S_WSEATS,
    SECOND_TUTE,
    STRENGTH,
    SUIT_MASK,
)

_M1 = 0x5555555555555555
_M2 = 0x3333333333333333
_M4 = 0x0F0F0F0F0F0F0F0F


@njit(cache=True)
def popcount(x: int) -> int:
    """Bits set in a non-negative mask below 2**62 (SWAR; numba has no popcnt intrinsic)."""
    x = x - ((x >> 1) & _M1)
    x = (x & _M2) + ((x >> 2) & _M2)
    x = (x + (x >> 4)) & _M4
    # the byte sums land in the top byte; a count <= 62 keeps the wrapped product positive
    return (x * 0x0101010101010101) >> 56


if config.DISABLE_JIT:  # plain Python ints do not wrap: debugging runs use the builtin
    def popcount(x: int) -> int:
        assert x >= 0, x
        return int(x).bit_count()


@njit(cache=True)
def lowbit_index(x: int) -> int:
    return popcount((x & -x) - 1)


@njit(cache=True)
def nth_bit(x: int, k: int) -> int:
    """Index of the k-th (0-based, from the lowest) set bit of x."""
    for _ in range(k):
        x &= x - 1
    return popcount((x & -x) - 1)


@njit(cache=True)
def legal_cards(hand: int, tlen: int, lead_suit: int, best: int, ruffed: int, topled: int,
                partner_winning: int, stock: int, trump: int, fam: int, exempt_rule: int,
                undertrump: int, head: int, stock_rule: int) -> int:
    """Mask of the legal cards (rules.md §1.4; the stock-phase rules of §3.3)."""
    if tlen == 0:
        return hand
    led = hand & SUIT_MASK[lead_suit]
    if stock != 0 and stock_rule != 3:
        if stock_rule == 0:
            return hand
        if stock_rule == 2:
            return led if led else hand
        if lead_suit == trump:  # follow_trump_lead
            return led if led else hand
        return hand
    exempt = exempt_rule != 0 and partner_winning != 0
    if led:
        if exempt:
            return led
        if ruffed:
            if head:
                up = led & HIGHER[fam, topled]
                return up if up else led
            return led
        up = led & HIGHER[fam, best]
        return up if up else led
    trumps = hand & SUIT_MASK[trump] if trump >= 0 else 0
    if trumps == 0 or exempt:
        return hand
    if not ruffed:
        return trumps
    up = trumps & HIGHER[fam, best]
    if up:
        return up
    return trumps if undertrump else hand


@njit(cache=True)
def declarations(hand: int, trump: int, fam: int, sung: int, forty_lost: int, forty_rule: int,
                 tute_enabled: int) -> int:
    """Declarations mask (bit d = action 40 + d) a hand could make in an open window
    (mirrors ``tute.rules.available_declarations``)."""
    out = 0
    if tute_enabled:
        if hand & KINGS == KINGS:
            out |= 1 << (A_TUTE_REYES - 40)
        sec = SECOND_TUTE[fam]
        if hand & sec == sec:
            out |= 1 << (A_TUTE_SECOND - 40)
    mpos = MARRIAGE_POS[fam]
    if trump >= 0 and forty_lost == 0 and (sung >> trump) & 1 == 0:
        pair = (1 << (10 * trump + 7)) | (1 << (10 * trump + mpos))
        if hand & pair == pair:
            out |= 1 << (A_CUARENTA - 40)
            if forty_rule == 0:
                return out
    for s in range(4):
        if s != trump and (sung >> s) & 1 == 0:
            pair = (1 << (10 * s + 7)) | (1 << (10 * s + mpos))
            if hand & pair == pair:
                out |= 1 << (A_VEINTE0 - 40 + s)
    return out


@njit(cache=True)
def trick_winner_pos(cards: np.ndarray, tlen: int, trump: int, fam: int) -> int:
    """Position (0 = leader) of the winning card among ``cards[:tlen]`` (§1.3)."""
    best = cards[0]
    pos = 0
    for i in range(1, tlen):
        c = cards[i]
        if c // 10 == best // 10:
            if STRENGTH[fam, c] > STRENGTH[fam, best]:
                best = c
                pos = i
        elif c // 10 == trump:
            best = c
            pos = i
    return pos


@njit(cache=True)
def points_of(mask: int, fam: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += POINTS[fam, popcount(low - 1)]
        mask ^= low
    return total


# ---------------------------------------------------------------------------- state machine


@njit(cache=True)
def side_of(cfg: np.ndarray, seat: int) -> int:
    return cfg[C_SIDE0 + seat]


@njit(cache=True)
def _avail(st: np.ndarray, cfg: np.ndarray, seat: int) -> int:
    return declarations(st[S_H0 + seat], cfg[C_TRUMP], cfg[C_FAMILY], st[S_SUNG],
                        (st[S_FORTYLOST] >> seat) & 1, cfg[C_FORTY], cfg[C_TUTE])


@njit(cache=True)
def legal_mask_state(st: np.ndarray, cfg: np.ndarray) -> int:
    """Legal cards of the seat to move (ignores declarations and polls)."""
    seat = st[S_TOMOVE]
    tlen = st[S_TLEN]
    lead_suit = st[S_T0] // 10 if tlen > 0 else 0
    pw = 0
    if tlen > 0 and cfg[C_PARTNERS] != 0 and (st[S_BESTSEAT] - seat) % 2 == 0:
        pw = 1
    return legal_cards(st[S_H0 + seat], tlen, lead_suit, st[S_BEST], st[S_RUFFED],
                       st[S_TOPLED], pw, st[S_STOCK], _trump(st, cfg), cfg[C_FAMILY],
                       cfg[C_EXEMPT], cfg[C_UNDER], cfg[C_HEAD], cfg[C_STOCKRULE])


@njit(cache=True)
def _trump(st: np.ndarray, cfg: np.ndarray) -> int:
    """The trump suit (-1: none): the rules' one, or in Tute cabrón the state's."""
    return st[S_TRUMP] if cfg[C_CABRON] != 0 else cfg[C_TRUMP]


@njit(cache=True)
def _emit_declarations(d: int, out: np.ndarray, k: int) -> int:
    """Append the declarations of bit set ``d`` (action 40 + bit) to ``out`` from ``k``."""
    while d:
        low = d & -d
        out[k] = 40 + popcount(low - 1)
        k += 1
        d ^= low
    return k


@njit(cache=True)
def legal_actions(st: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> int:
    """Fill ``out`` with the legal actions (declarations, pass, cards); return their count."""
    if st[S_OVER]:
        return 0
    k = 0
    seat = st[S_TOMOVE]
    if st[S_POLL] >= 0:
        k = _emit_declarations(_avail(st, cfg, seat), out, k)
        out[k] = A_PASS
        return k + 1
    if (st[S_WINDOW] >> seat) & 1:
        k = _emit_declarations(_avail(st, cfg, seat), out, k)
    m = legal_mask_state(st, cfg)
    while m:
        low = m & -m
        out[k] = popcount(low - 1)
        k += 1
        m ^= low
    return k


@njit(cache=True)
def _first_win_of_side(st: np.ndarray, side: int) -> bool:
    return st[S_SIDETRICKS0 + side] == 1


@njit(cache=True)
def _close_window(st: np.ndarray, cfg: np.ndarray) -> None:
    if st[S_WDECL] == 0 and cfg[C_RESTR] == 1 and st[S_DONE] > 0:
        side = cfg[C_SIDE0 + st[S_LEADER]]
        if _first_win_of_side(st, side):
            seats = st[S_WSEATS]
            for s in range(cfg[C_N]):
                if (seats >> s) & 1 and declarations(
                        st[S_H0 + s], cfg[C_TRUMP], cfg[C_FAMILY], st[S_SUNG], 0, cfg[C_FORTY],
                        cfg[C_TUTE]) != 0:
                    st[S_FORFEIT] |= 1 << side
                    break
    st[S_WINDOW] = 0
    st[S_WSEATS] = 0


@njit(cache=True)
def _open_window(st: np.ndarray, cfg: np.ndarray, winner: int, first_win: bool) -> None:
    side = cfg[C_SIDE0 + winner]
    st[S_WDECL] = 0
    if (st[S_FORFEIT] >> side) & 1 or (cfg[C_RESTR] == 2 and not first_win):
        st[S_WINDOW] = 0
        st[S_WSEATS] = 0
        return
    if cfg[C_DECLARER] >= 0 and winner != cfg[C_DECLARER]:  # subastado: the declarer's only
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
        if _avail(st, cfg, partner) != 0:
            st[S_POLL] = partner
            st[S_TOMOVE] = partner
        else:
            st[S_WINDOW] &= ~(1 << partner)


@njit(cache=True)
def _cabron_cantes(st: np.ndarray, cfg: np.ndarray, side: int) -> None:
    """Tute cabrón: each king and mate of one suit in the finished trick are a cante of its
    winner's ``side``, in the order their second card fell; the first of the deal is 40 and
    makes that suit trumps, the others 20."""
    n = cfg[C_K]
    mpos = MARRIAGE_POS[cfg[C_FAMILY]]
    # (position in the trick of the pair's second card, suit), at most two pairs in a trick
    k1 = -1
    s1 = -1
    s2 = -1
    for suit in range(4):
        pk = -1
        pm = -1
        for i in range(n):
            c = st[S_T0 + i]
            if c == 10 * suit + 7:
                pk = i
            elif c == 10 * suit + mpos:
                pm = i
        if pk >= 0 and pm >= 0:
            key = max(pk, pm)
            if s1 < 0:
                k1, s1 = key, suit
            elif key < k1:
                s2 = s1
                k1, s1 = key, suit
            else:
                s2 = suit
    for j in range(2):
        suit = s1 if j == 0 else s2
        if suit < 0:
            break
        if st[S_TRUMP] < 0:
            st[S_TRUMP] = suit
            st[S_CANTE0 + side] += 40
        else:
            st[S_CANTE0 + side] += 20
        st[S_SUNG] |= 1 << suit


@njit(cache=True)
def _end_trick(st: np.ndarray, cfg: np.ndarray) -> None:
    n = cfg[C_K]
    fam = cfg[C_FAMILY]
    winner = st[S_BESTSEAT]
    pts = 0
    for i in range(n):
        pts += POINTS[fam, st[S_T0 + i]]
    side = cfg[C_SIDE0 + winner]
    st[S_PTS0 + side] += pts
    st[S_SIDETRICKS0 + side] += 1
    if cfg[C_CABRON] != 0:
        _cabron_cantes(st, cfg, side)
    st[S_DONE] += 1
    st[S_TLEN] = 0
    for i in range(n):  # a canonical empty trick, so that states compare equal
        st[S_T0 + i] = 0
    st[S_BEST] = -1
    st[S_BESTSEAT] = -1
    st[S_RUFFED] = 0
    st[S_TOPLED] = -1
    st[S_LEADER] = winner
    st[S_TOMOVE] = winner
    first_win = (st[S_SIDEFIRST] >> side) & 1 == 0
    st[S_SIDEFIRST] |= 1 << side
    if st[S_DONE] == cfg[C_TOTAL]:
        st[S_OVER] = 1
        st[S_LASTSIDE] = side
        return
    if cfg[C_ARRCANTE] != 0:
        _open_window(st, cfg, winner, first_win)


@njit(cache=True)
def play_card(st: np.ndarray, cfg: np.ndarray, c: int) -> None:
    """Play card ``c`` for the seat to move (legality is the caller's business)."""
    seat = st[S_TOMOVE]
    tlen = st[S_TLEN]
    if tlen == 0 and st[S_WSEATS] != 0:
        _close_window(st, cfg)
    st[S_H0 + seat] ^= 1 << c
    st[S_T0 + tlen] = c
    if tlen == 0:
        st[S_BEST] = c
        st[S_BESTSEAT] = seat
        st[S_RUFFED] = 0
        st[S_TOPLED] = c
    else:
        fam = cfg[C_FAMILY]
        best = st[S_BEST]
        if c // 10 == best // 10:
            if (HIGHER[fam, best] >> c) & 1:
                st[S_BEST] = c
                st[S_BESTSEAT] = seat
        elif c // 10 == _trump(st, cfg):
            st[S_BEST] = c
            st[S_BESTSEAT] = seat
            st[S_RUFFED] = 1
        top = st[S_TOPLED]
        if c // 10 == top // 10 and (HIGHER[fam, top] >> c) & 1:
            st[S_TOPLED] = c
    st[S_TLEN] = tlen + 1
    if tlen + 1 < cfg[C_K]:
        st[S_TOMOVE] = cfg[C_NXT0 + seat]
    else:
        _end_trick(st, cfg)


@njit(cache=True)
def apply_action(st: np.ndarray, cfg: np.ndarray, a: int) -> None:
    """Apply a legal action: a card 0..39, a declaration 40..46 or PASS (47)."""
    if a < 40:
        play_card(st, cfg, a)
        return
    seat = st[S_TOMOVE]
    if a == A_PASS:
        st[S_WINDOW] &= ~(1 << seat)
        st[S_POLL] = -1
        st[S_TOMOVE] = st[S_LEADER]
        return
    if a in (A_TUTE_REYES, A_TUTE_SECOND):
        st[S_TUTESEAT] = seat
        st[S_OVER] = 1
        return
    trump = cfg[C_TRUMP]
    suit = trump if a == A_CUARENTA else a - A_VEINTE0
    if (a != A_CUARENTA and cfg[C_FORTY] == 1
            and (_avail(st, cfg, seat) >> (A_CUARENTA - 40)) & 1):
        st[S_FORTYLOST] |= 1 << seat
    st[S_SUNG] |= 1 << suit
    st[S_CANTE0 + cfg[C_SIDE0 + seat]] += 40 if a == A_CUARENTA else 20
    st[S_WDECL] = 1
    st[S_WINDOW] &= ~(1 << seat)
    if cfg[C_CANTEBY] == 1:
        st[S_WINDOW] = 0
    if st[S_POLL] >= 0:
        st[S_POLL] = -1
        st[S_TOMOVE] = st[S_LEADER]


@njit(cache=True)
def batch_check(hand: np.ndarray, trick: np.ndarray, tlen: np.ndarray, trump: np.ndarray,
                flags: np.ndarray, sung: np.ndarray, fam: int, partners: int,
                stock_game: int) -> np.ndarray:
    """For the differential test: per situation [legal cards, trick winner position, points
    of hand + trick, declarations mask]. ``flags``: bit 0 stock phase, bits 1-2 stock rule,
    3 partner_exemption, 4 must_undertrump, 5 must_head_after_ruff, 6-7 forty_first (mod 3),
    8 forty forfeited, 9 tute_enabled."""
    count = hand.shape[0]
    out = np.zeros((count, 4), dtype=np.int64)
    for i in range(count):
        tl = tlen[i]
        f = flags[i]
        tr = trump[i]
        winpos = 0
        best = -1
        ruffed = 0
        top = -1
        tmask = 0
        if tl > 0:
            winpos = trick_winner_pos(trick[i], tl, tr, fam)
            best = trick[i, winpos]
            lead = trick[i, 0] // 10
            ruffed = 1 if (lead != tr and best // 10 == tr) else 0
            top = trick[i, 0]
            for j in range(tl):
                c = trick[i, j]
                tmask |= 1 << c
                if c // 10 == lead and STRENGTH[fam, c] > STRENGTH[fam, top]:
                    top = c
        pw = 1 if (partners != 0 and tl > 0 and (tl - winpos) % 2 == 0) else 0
        stock = 1 if (f & 1 and stock_game) else 0
        out[i, 0] = legal_cards(hand[i], tl, trick[i, 0] // 10 if tl > 0 else 0, best, ruffed,
                                top, pw, stock, tr, fam, (f >> 3) & 1 & partners,
                                (f >> 4) & 1, (f >> 5) & 1, (f >> 1) & 3)
        out[i, 1] = winpos
        out[i, 2] = points_of(hand[i] | tmask, fam)
        out[i, 3] = declarations(hand[i], tr, fam, sung[i], (f >> 8) & 1, ((f >> 6) & 3) % 3,
                                 (f >> 9) & 1)
    return out
