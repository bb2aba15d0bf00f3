"""The exact solver's search, in numba: fail-soft alpha-beta driven by narrow-window probes.

Value of a node: the future point margin of objective side 0 (its card points, last-trick
bonus and cantes still to come, minus the other side's), multiplied by ``cfg[C_SCALE]``; the last
trick also adds ``cfg[C_TB]`` (a tie-break unit for the "does side 0 win?" query). A tute
ends the deal at ``+-TUTE_VALUE * scale``.

Two kinds of side: the *objective* side of a seat (``cfg[C_OBJ0 + seat]``: 0 maximises, 1
minimises; who gains a trick's or a cante's points) and its *rule* side
(``cfg[C_SIDE0 + seat]``: whose first win and forfeits the ``sfirst``/``sforf`` masks track).
They coincide in the two-sided games; in arrastrado the rule sides are the seats and the
objective sides {hero} against the rest. Nothing here assumes 2 or 4 seats: the trick has
``cfg[C_N]`` cards, play passes to ``(seat + 1) % n`` and "partner" exists only with
``cfg[C_PARTNERS]`` (four seats).

Search structure (per trick, as double-dummy bridge solvers do):

* transposition table probed and stored at trick starts only, keyed by the position's rank
  structure (:func:`_qkey`): every card renumbered to its rank among the live cards of its
  suit, so that positions that differ only in which cards were played share a bucket. An
  entry of other live cards still bounds the value: the two positions have the same tree
  of play, each line taking the same ranks to the same side, so their values differ by at
  most the points their cards differ by rank by rank (payoff-similarity, after Furtak and
  Buro's Skat solver; Kupferschmid and Helmert's quasi-symmetry). Full parejas deals: -63%
  median nodes (40 deals, one thread); the code keyed by card took 2.47x / 2.48x the time
  per deal, one thread / two (200 deals paired by ``bench/solver_ab.py``; calm positions
  alone, no cante to come: 2.04x with two threads). The suits of a marriage that may still
  be sung keep their counting cards, and a hand that may hold a tute falls back to the key
  by card (:func:`_key`: only the worthless cards, 2 4 5 6 7, renumbered);
* equivalent moves merged: worthless cards of one hand with nothing between them but
  played cards are interchangeable, only the lowest is searched; so are the hand's trumps
  above every opposing trump with nothing between them (they win wherever they fall);
* no node for a forced card: a seat left with one legal card (after merging) plays it inside
  the node before it, and a trick that leaves one or two cards per hand goes straight to
  the last-trick evaluation or the last-two-trick table (these were over 40% of the nodes);
  once no cante can come (nobody holds a marriage), after the table, a plain alpha-beta:
  three tricks from the end, of the first of them (cheapest cards first, the last seat's
  winning cards first) over the last-two-trick table; with four seats already from five
  tricks from the end, unrolled one loop per seat with a recursive call per trick instead
  of per card, the table's lead first, then the killer moves (a numba call costs more than
  these small trees do: 12-16% less time at three tricks, another 10-14% from four; from
  five it was 3% slower before the killers, and is 21% fewer instructions with them than
  from four with the killers -- which alone take 4% off; from six, more nodes and time
  again); the table's key then leaves out the flags only cantes depend on;
* near-equivalent moves pruned: two cards of one hand and suit with no live card between
  them (and no cante that needs either) differ only in points, so their values differ by at
  most twice the point difference; once the first is searched, the second is skipped when
  that margin cannot reach the window (~17% fewer nodes, ~10% less time);
* quick bounds at trick starts with four cards or more in hand: all remaining points, the
  last trick and every marriage a side could still sing, less the points the other side
  takes for sure (its trumps above all of ours, and one trick the leader can cash); a
  direct evaluation of the last trick, and of the last two tricks by a plain alpha-beta
  without bounds or ordering (no declaration can come between them; its exact values beat
  the quick bounds there) whose results go to a small table of their own (the last rows of
  the table array, 64 KB: the same eight cards come back often, and a table that stays in
  the core's caches beats a larger one that holds more of them, see ``T2_MAX``);
* move ordering: the table's move first, then the killer move of nodes like this one (four
  cards or more in hand; one per hand size, trick length and leader -- or suit led mid-trick
  --, per thread, cleared by ``Solver.reset``): the card that last refuted such a node after the
  card ordered first had failed to. The ordering's misjudgements repeat across siblings, and
  so does their fix: -21% median nodes on 200 full parejas deals, -35% in all (remembering
  every refutation instead, the ordering's own first choices overwrite the fixes: +40%).
  Then each card is scored by a greedy lookahead to the end of the trick (the others win
  cheaply, smear points on their side's trick, or throw their cheapest card), less a penalty
  for every choice it leaves the other side in that trick: a proof tree multiplies the
  opponents' options, so of two moves that are about as good the one that binds them more
  proves cheaper (~20% fewer nodes and ms than by points alone; a history count of cutting
  leads, kept before, then only cost nodes); with three cards or fewer in hand by points and
  strength only (the lookahead costs more than it saves there);
* the driver (``Solver._run_value``) probes with windows holding one value, stepping from the
  guess by doubling steps, then bisecting (MTD(f)'s steps of 2 took 30-50 probes), and
  finishes with one search over the bracket once it is at most ``WIDE`` points wide.

Declarations (rules.md §1.5) are searched as choices of the side that won the trick, from
the same options the core offers (partner first, then the winner; one per seat and window;
40 first per ``forty_first``). One exact pruning: a seat that can declare never passes --
declaring now is never worse than keeping the marriage for later (it only adds points and
closes nothing the seat could use; with ``forfeit_if_skipped_first`` passing even forfeits).
With ``cante_by=winning_side_one`` the partner may still pass so the winner can declare.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..kernel._core import (
    declarations,
    legal_cards,
    popcount,
)
from ..kernel._tables import (
    A_CUARENTA,
    A_TUTE_REYES,
    A_VEINTE0,
    C_ARRCANTE,
    C_CANTEBY,
    C_EXEMPT,
    C_FAMILY,
    C_FORTY,
    C_HEAD,
    C_N,
    C_OBJ0,
    C_PARTNERS,
    C_RESTR,
    C_SCALE,
    C_SIDE0,
    C_STOCKRULE,
    C_TB,
    C_TRUMP,
    C_TUTE,
    C_UNDER,
    HIGHER,
    KINGS,
    MARRIAGE_POS,
    POINTS,
    S_BEST,
    S_BESTSEAT,
    S_FORFEIT,
    S_FORTYLOST,
    S_H0,
    S_LEADER,
    S_OVER,
    S_POLL,
    S_RUFFED,
    S_SIDEFIRST,
    S_SUNG,
    S_T0,
    S_TLEN,
    S_TOMOVE,
    S_TOPLED,
    S_WINDOW,
    SECOND_TUTE,
    STRENGTH,
    SUIT_MASK,
)

#: the search and its helpers never allocate: compiled without numba's reference counting,
#: which otherwise costs an atomic incref/decref of every array argument on every call
#: (about a fifth of the run time of the recursive search). Arrays are indexed, never sliced.
#: numpy's error model: nothing here divides by zero, and Python's checks every division
#: (with the canonical keys by table, -3 to -5% time: ``bench/solver_ab.py`` against the
#: code before, 1.07-1.11 where the same code reads 1.04-1.05)
_hot = njit(cache=True, _nrt=False, error_model="numpy")

TUTE_VALUE = 1000
#: table entries per bucket: two 32-byte entries, one 64-byte cache line
BUCKET = 2
#: once the value is bracketed within this many points, one search with the bracket as its
#: window finishes the job (cheaper than the last two or three one-value probes)
WIDE = 16
INF = 1 << 20
MAXPLY = 48
MAXOPT = 32
# stats slots
ST_NODES = 0
ST_GEN = 1
ST_TTHITS = 2
ST_ABORT = 3  # set by another thread: stop now, store nothing, the result is thrown away
ST_SKEW = 4  # a helper thread: search the second-best lead of the root's trick first
ST_T2 = 5  # rows at the end of the table array for last-two-trick bounds (a power of two)
ST_NEAR = 6  # moves skipped as near-equivalent to one searched before
ST_VOID = 7  # this search saw its abort flag: its value is void
ST_KMIN = 8  # killer moves at nodes whose hand holds at least this many cards (see below)
ST_PKILL = 9  # killer moves in the plain unrolled search (0: none)
ST_QMAX = 10  # quiet trick starts with at most this many cards take the plain searches
ST_QS = 11  # 1: trick starts keyed by rank structure (:func:`_qkey`); 0: by card only
#: killer moves, one per (cards in hand, cards in the trick, leader at a trick start / suit
#: led mid-trick): ``stats[KILLERS + slot]`` is the card + 1 that last refuted such a node
#: after the move ordered first had failed to (0: none). Searched right after the table's
#: move: a move the ordering misjudged in one position is often the refutation in its
#: siblings (40 + 40 deals: -28% / -48% nodes)
KILLERS = 32
KILLER_MIN = 4
#: the same for the seats that lead, follow second and third in the plain unrolled search
#: (:func:`_plain4`): one per (cards in hand, seat in the trick, leader / suit led)
PKILLERS = KILLERS + 14 * 16
# table entry data word: lb+OFF (16 bits) | ub+OFF (16) | move (8) | gen (16) | depth (8)
OFF = 1 << 15
NOMOVE = 255
# per-ply scratch row ``mv[ply]``: moves 0..15 (13 cards in an arrastrado hand), their
# ordering scores, then a declaration window's options (points, sung, forty_lost each)
SC_SCORES = 16
OPT = 32
SCRATCH = OPT + 3 * MAXOPT
STATS_SIZE = PKILLERS + 16 * 6  # the plain search: QUIET_MAX (5) cards in hand at most
#: ordering penalty per option the other side keeps in the looked-ahead trick, in hundredths
#: of a card point (the lookahead's unit): 8 points an option, tuned on node counts of three
#: sets of 40 deals (4-12: within 5%). Helper threads weigh it double: a search order unlike
#: the main thread's fills the table with other bounds (~7% less time with two threads).
MOBILITY = 800
HELPER_MOBILITY = 1600
#: mv[0, SC_MOBILITY]: the penalty this thread orders by (a hand has at most 13 moves, so
#: slots 13-15 of the move list are free)
SC_MOBILITY = 15
#: trick starts with at most this many cards in hand and no cante to come take the plain
#: unrolled search (four seats) or the plain three-trick search (three or fewer cards): the
#: default of ``stats[ST_QMAX]`` (at most this)
QUIET_MAX = 5


@_hot
def _lowcard(x: int) -> int:
    return popcount((x & -x) - 1)


def _pack_table() -> np.ndarray:
    """PACK[live, held]: the bits of ``held`` at the positions of ``live`` (5-bit masks),
    packed to the bottom in order (a parallel bit extract)."""
    t = np.zeros((32, 32), dtype=np.int64)
    for live in range(32):
        for held in range(32):
            k = 0
            for p in range(5):
                if live >> p & 1:
                    if held >> p & 1:
                        t[live, held] |= 1 << k
                    k += 1
    return t


PACK = _pack_table()


@_hot
def _canon(h: np.ndarray, n: int) -> tuple[int, int, int, int]:
    """Hands with the worthless cards of each suit renumbered to the lowest positions
    (returned as four ints: no allocation on this hot path); by table, not bit by bit."""
    o0 = h[0]
    o1 = h[1] if n > 1 else 0
    o2 = h[2] if n > 2 else 0
    o3 = h[3] if n > 3 else 0
    rem = o0 | o1 | o2 | o3
    for s in range(4):
        sh = 10 * s
        low = (rem >> sh) & 0x1F
        if low & (low + 1) == 0:  # already packed at the bottom (or empty)
            continue
        clear = ~(0x1F << sh)
        o0 = (o0 & clear) | (PACK[low, (o0 >> sh) & 0x1F] << sh)
        o1 = (o1 & clear) | (PACK[low, (o1 >> sh) & 0x1F] << sh)
        o2 = (o2 & clear) | (PACK[low, (o2 >> sh) & 0x1F] << sh)
        o3 = (o3 & clear) | (PACK[low, (o3 >> sh) & 0x1F] << sh)
    return o0, o1, o2, o3


@_hot
def _canon_card(rem: int, c: int) -> int:
    p = c % 10
    if p >= 5:
        return c
    s = c // 10
    below = (rem >> (10 * s)) & ((1 << p) - 1)
    return 10 * s + popcount(below)


@_hot
def _uncanon_card(rem: int, cc: int) -> int:
    p = cc % 10
    if p >= 5:
        return cc
    s = cc // 10
    low = (rem >> (10 * s)) & 0x1F
    for _ in range(p):
        low &= low - 1
    if low == 0:
        return -1
    return 10 * s + _lowcard(low)


@_hot
def _avail(h: np.ndarray, cfg: np.ndarray, seat: int, sung: int, fl: int) -> int:
    return declarations(h[seat], cfg[C_TRUMP], cfg[C_FAMILY], sung, (fl >> seat) & 1,
                        cfg[C_FORTY], cfg[C_TUTE])


@_hot
def _declare(cfg: np.ndarray, avail: int, d: int, seat: int, sung: int,
             fl: int) -> tuple[int, int, int]:
    """Effect of declaration bit ``d`` of ``seat``: (points, sung, forty_lost)."""
    a = 40 + d
    if a == A_CUARENTA:
        return 40, sung | (1 << cfg[C_TRUMP]), fl
    lost = cfg[C_FORTY] == 1 and (avail >> (A_CUARENTA - 40)) & 1
    return 20, sung | (1 << (a - A_VEINTE0)), fl | (1 << seat) if lost else fl


@_hot
def _window_options(h: np.ndarray, cfg: np.ndarray, w: int, wmask: int, sung: int, fl: int,
                    mv: np.ndarray, ply: int) -> int:
    """The distinct outcomes of a declaration window of winner ``w`` (seats ``wmask`` still
    entitled): mv[ply, OPT + 3k..3k+2] = [points, sung, forty_lost]; returns k, 0 if
    nothing can be declared, -1 if an entitled seat holds a tute (the deal ends in its side's
    favour)."""
    n = cfg[C_N]
    p = -1
    if cfg[C_CANTEBY] != 0 and cfg[C_PARTNERS] != 0:
        p = (w + 2) % n
        if (wmask >> p) & 1 == 0:
            p = -1
    tutes = (1 << (A_TUTE_REYES - 40)) | (1 << (A_TUTE_REYES + 1 - 40))
    pd = _avail(h, cfg, p, sung, fl) if p >= 0 else 0
    wd = _avail(h, cfg, w, sung, fl) if (wmask >> w) & 1 else 0
    if (pd | wd) & tutes:
        return -1
    k = 0
    if pd == 0:
        d = wd
        while d:
            b = _lowcard(d)
            d &= d - 1
            e0, e1, e2 = _declare(cfg, wd, b, w, sung, fl)
            mv[ply, OPT + 3 * k + 0] = e0
            mv[ply, OPT + 3 * k + 1] = e1
            mv[ply, OPT + 3 * k + 2] = e2
            k += 1
        return k
    one = cfg[C_CANTEBY] == 1
    d = pd
    while d:
        b = _lowcard(d)
        d &= d - 1
        e0, e1, e2 = _declare(cfg, pd, b, p, sung, fl)
        wd2 = 0
        if not one and (wmask >> w) & 1:
            wd2 = _avail(h, cfg, w, e1, e2)
        if wd2 == 0:
            mv[ply, OPT + 3 * k + 0] = e0
            mv[ply, OPT + 3 * k + 1] = e1
            mv[ply, OPT + 3 * k + 2] = e2
            k += 1
        e = wd2
        while e:
            b2 = _lowcard(e)
            e &= e - 1
            f0, f1, f2 = _declare(cfg, wd2, b2, w, e1, e2)
            mv[ply, OPT + 3 * k + 0] = e0 + f0
            mv[ply, OPT + 3 * k + 1] = f1
            mv[ply, OPT + 3 * k + 2] = f2
            k += 1
    if one:  # the partner passes so that the winner declares
        e = wd
        while e:
            b2 = _lowcard(e)
            e &= e - 1
            f0, f1, f2 = _declare(cfg, wd, b2, w, sung, fl)
            mv[ply, OPT + 3 * k + 0] = f0
            mv[ply, OPT + 3 * k + 1] = f1
            mv[ply, OPT + 3 * k + 2] = f2
            k += 1
    return k


@_hot
def _marriage_suits(hand: int, fam: int) -> int:
    """4-bit mask of the suits whose king and its mate are both in ``hand``."""
    mpos = MARRIAGE_POS[fam]
    x = hand & (hand >> (7 - mpos))  # bit 10s+mpos: the mate with the king above it
    return (((x >> mpos) & 1) | ((x >> (9 + mpos)) & 2) | ((x >> (18 + mpos)) & 4)
            | ((x >> (27 + mpos)) & 8))


@_hot
def _may_declare(hand: int, cfg: np.ndarray, sung: int) -> bool:
    """Could ``hand`` hold a declaration (a cheap superset of :func:`declarations`)?"""
    fam = cfg[C_FAMILY]
    if _marriage_suits(hand, fam) & ~sung:
        return True
    return cfg[C_TUTE] != 0 and (hand & KINGS == KINGS
                                 or hand & SECOND_TUTE[fam] == SECOND_TUTE[fam])


@_hot
def _possible_cantes(h: np.ndarray, cfg: np.ndarray, n: int, sung: int, side: int) -> int:
    """Upper bound of the cante points ``side`` can still sing; TUTE_VALUE if a tute."""
    if cfg[C_ARRCANTE] == 0:
        return 0
    fam = cfg[C_FAMILY]
    trump = cfg[C_TRUMP]
    total = 0
    for i in range(n):
        if cfg[C_OBJ0 + i] != side:
            continue
        if cfg[C_TUTE] != 0 and (h[i] & KINGS == KINGS
                                 or h[i] & SECOND_TUTE[fam] == SECOND_TUTE[fam]):
            return TUTE_VALUE
        m = _marriage_suits(h[i], fam) & ~sung
        while m:
            s = _lowcard(m)
            m &= m - 1
            total += 40 if s == trump else 20
    return total


#: SUIT_POINTS[fam, pattern]: card points of a 10-bit suit pattern
SUIT_POINTS = np.array([[sum(int(POINTS[f, p]) for p in range(10) if m >> p & 1)
                         for m in range(1024)] for f in range(2)], dtype=np.int64)


@_hot
def _quick_bounds(h: np.ndarray, cfg: np.ndarray, n: int, rem: int, sung: int,
                  leader: int) -> tuple[int, int]:
    """(upper, lower) bound of a trick start's value: side 0 takes at most every point still
    out (cards, the last trick, its possible cantes) except what side 1 takes for sure, and
    vice versa. Sure points: trumps above every trump of the other side win whatever trick
    they fall in."""
    fam = cfg[C_FAMILY]
    trump = cfg[C_TRUMP]
    scale = cfg[C_SCALE]
    pts = 10
    for s in range(4):
        pts += SUIT_POINTS[fam, (rem >> (10 * s)) & 0x3FF]
    c0 = _possible_cantes(h, cfg, n, sung, 0)
    c1 = _possible_cantes(h, cfg, n, sung, 1)
    s0 = 0
    s1 = 0
    if trump >= 0:
        t0 = 0
        t1 = 0
        for i in range(n):
            if cfg[C_OBJ0 + i] == 0:
                t0 |= h[i]
            else:
                t1 |= h[i]
        t0 = (t0 >> (10 * trump)) & 0x3FF
        t1 = (t1 >> (10 * trump)) & 0x3FF
        s0 = SUIT_POINTS[fam, _above(t0, t1, fam)]
        s1 = SUIT_POINTS[fam, _above(t1, t0, fam)]
    if cfg[C_OBJ0 + leader] == 0:
        s0 += _cash_extra(h, cfg, n, leader)
    else:
        s1 += _cash_extra(h, cfg, n, leader)
    tb = cfg[C_TB]
    ub = scale * (pts + c0 - 2 * s1) + tb if c0 < TUTE_VALUE else TUTE_VALUE * scale
    lb = -(scale * (pts + c1 - 2 * s0) + tb) if c1 < TUTE_VALUE else -TUTE_VALUE * scale
    return ub, lb


@_hot
def _top_of(cards: int, fam: int) -> int:
    """The strongest card of a non-empty one-suit mask."""
    m = cards
    while m:
        c = _lowcard(m)
        m &= m - 1
        if cards & HIGHER[fam, c] == 0:
            return c
    return -1


@_hot
def _cash_extra(h: np.ndarray, cfg: np.ndarray, n: int, leader: int) -> int:
    """Points the leader's side surely adds to its sure trumps by cashing one trick now: a
    lead above every opposing card of its suit -- or a low lead to the partner's card above
    them -- with each opponent bound to follow suit or holding no trump, wins the trick with
    the opponents' cheapest possible cards in it. (Every top card the leader could run in
    a row, as many per suit as nobody can ruff, with the others' cheapest cards: a sound
    bound, nodes -0.5% over 60 deals; not kept.)"""
    fam = cfg[C_FAMILY]
    trump = cfg[C_TRUMP]
    side = cfg[C_OBJ0 + leader]
    partner = (leader + 2) % n if cfg[C_PARTNERS] != 0 and n == 4 else -1
    opp = 0
    for i in range(n):
        if cfg[C_OBJ0 + i] != side:
            opp |= h[i]
    best = 0
    hand = h[leader]
    for s in range(4):
        mine = hand & SUIT_MASK[s]
        if mine == 0:
            continue
        osuit = opp & SUIT_MASK[s]
        # (card that wins, and the leader's card when the partner's card wins)
        c = _top_of(mine, fam)
        lc = -1
        if osuit & HIGHER[fam, c]:
            if partner < 0 or h[partner] & SUIT_MASK[s] == 0:
                continue
            c = _top_of(h[partner] & SUIT_MASK[s], fam)
            if osuit & HIGHER[fam, c]:
                continue
            lc = _lowcard(mine)  # the lowest card of the suit: index order within the suit
            if HIGHER[fam, c] >> lc & 1:
                continue
        gain = 0
        ok = True
        for i in range(n):
            if cfg[C_OBJ0 + i] == side:
                continue
            hs = h[i] & SUIT_MASK[s]
            cand = hs
            if hs == 0:
                if trump >= 0 and s != trump and h[i] & SUIT_MASK[trump]:
                    ok = False  # may ruff
                    break
                cand = h[i]
            low = 1 << 20
            while cand:
                p = POINTS[fam, _lowcard(cand)]
                if p < low:
                    low = p
                cand &= cand - 1
            gain += low
        if not ok:
            continue
        # a trump above all of theirs is a sure trump, counted already
        if s != trump:
            gain += POINTS[fam, c]
        if lc >= 0 and (s != trump or osuit & HIGHER[fam, lc]):
            gain += POINTS[fam, lc]
        if gain > best:
            best = gain
    return best


@_hot
def _above(mine: int, theirs: int, fam: int) -> int:
    """The cards of suit pattern ``mine`` stronger than every card of ``theirs``."""
    if theirs == 0:
        return mine
    m = theirs
    while m:  # the strongest of theirs: none of theirs above it
        c = _lowcard(m)
        m &= m - 1
        if theirs & HIGHER[fam, c] == 0:
            return mine & HIGHER[fam, c]
    return 0


@_hot
def _key(h: np.ndarray, cfg: np.ndarray, n: int, leader: int, sung: int, fl: int,
         sfirst: int, sforf: int) -> tuple[int, int, int]:
    """The table key of a trick start by card (only the worthless cards renumbered): for a
    hand that may hold a tute, whose cards count by name, and with :func:`_qkey` off."""
    ch0, ch1, c2, c3 = _canon(h, n)
    # only marriages that can still be sung make ``sung`` relevant
    fam = cfg[C_FAMILY]
    rel = 0
    for i in range(n):
        rel |= _marriage_suits(h[i], fam)
    misc = leader | ((sung & rel) << 2)
    if cfg[C_FORTY] == 1:
        misc |= fl << 6
    if cfg[C_RESTR] != 0:
        misc |= sfirst << 10
    misc |= sforf << 14
    misc |= (cfg[C_SCALE] - 1) << 18 | cfg[C_TB] << 20
    w0 = ch0 | ((c3 & 0xFFFFFF) << 40)
    w1 = ch1 | ((c3 >> 24) << 40)
    w2 = c2 | (misc << 40)
    return w0, w1, w2


@_hot
def _hash(k0: int, k1: int, k2: int) -> int:
    x = k0 * 0x1E3779B97F4A7C15
    x ^= k1 * 0x42B2AE3D27D4EB4F
    x ^= k2 * 0x165667B19E3779F9
    x ^= (x >> 29) & 0x7FFFFFFFF
    x *= 0x3F58476D1CE4E5B9
    x ^= (x >> 32) & 0xFFFFFFFF
    return x


@_hot
def _tt_find(tt: np.ndarray, mask: int, gen: int, k0: int, k1: int, k2: int) -> int:
    """Index of the entry of key (k0, k1, k2) of this generation, or -1. Key words are stored
    XORed with the data word, so that a row torn by two threads writing it at once never
    matches (the solver may run probes in two threads over one table)."""
    base = (_hash(k0, k1, k2) & mask) & ~(BUCKET - 1)
    for j in range(BUCKET):
        i = base + j
        d = tt[i, 3]
        if ((tt[i, 0] ^ d) == k0 and (tt[i, 1] ^ d) == k1 and (tt[i, 2] ^ d) == k2
                and (d >> 40) & 0xFFFF == gen):
            return i
    return -1


@_hot
def _tt_store(tt: np.ndarray, mask: int, gen: int, k0: int, k1: int, k2: int, lb: int, ub: int,
              move: int, depth: int, hv: int) -> None:
    base = (hv & mask) & ~(BUCKET - 1)
    victim = -1
    vscore = 1 << 30
    for j in range(BUCKET):
        i = base + j
        d = tt[i, 3]
        if (d >> 40) & 0xFFFF != gen:
            if vscore > -1:  # a stale slot, unless the key itself is further on
                victim = i
                vscore = -1
            continue
        if (tt[i, 0] ^ d) == k0 and (tt[i, 1] ^ d) == k1 and (tt[i, 2] ^ d) == k2:
            lb = max(lb, (d & 0xFFFF) - OFF)
            ub = min(ub, ((d >> 16) & 0xFFFF) - OFF)
            victim = i
            break
        dd = (d >> 56) & 0xFF
        if dd < vscore:
            vscore = dd
            victim = i
    lb = max(lb, -OFF + 1)
    ub = min(ub, OFF - 1)
    d = ((lb + OFF) | ((ub + OFF) << 16) | ((move & 0xFF) << 32) | (gen << 40)
         | (depth << 56))
    tt[victim, 0] = k0 ^ d
    tt[victim, 1] = k1 ^ d
    tt[victim, 2] = k2 ^ d
    tt[victim, 3] = d


#: the positions of the fifth and sixth cards of every suit (sota and caballo)
_SOTAS = sum(1 << (10 * s + 5) for s in range(4))
_CABALLOS = _SOTAS << 1


@_hot
def _by_strength(x: int, fam: int) -> int:
    """Cards with every suit in strength order: index order but in guinote, whose sota
    beats its caballo (their two positions swapped; an involution)."""
    if fam == 0:
        return x
    return (x & ~(_SOTAS | _CABALLOS)) | ((x & _SOTAS) << 1) | ((x & _CABALLOS) >> 1)


#: SPOINTS[fam, c]: the points of the card at position c in strength order
SPOINTS = np.array([[POINTS[f, 10 * (c // 10) + (11 - c % 10 if f == 1 and c % 10 in (5, 6)
                                                  else c % 10)]
                     for c in range(40)] for f in range(2)], dtype=np.int64)


@_hot
def _card_rank(rem: int, c: int, fam: int) -> int:
    """A card as its suit and its rank (by strength, from the lowest) among the live cards
    ``rem`` of that suit: a move code that means the same card in every position of one
    rank structure."""
    sr = _by_strength(rem, fam)
    sc = _lowcard(_by_strength(1 << c, fam))
    s = sc // 10
    return 10 * s + popcount((sr >> (10 * s)) & ((1 << (sc % 10)) - 1))


@_hot
def _rank_card(rem: int, code: int, fam: int) -> int:
    """The live card of a :func:`_card_rank` code, -1 if none."""
    s = code // 10
    low = (_by_strength(rem, fam) >> (10 * s)) & 0x3FF
    for _ in range(code % 10):
        low &= low - 1
    if low == 0:
        return -1
    return _lowcard(_by_strength(1 << (10 * s + _lowcard(low)), fam))


M40 = (1 << 40) - 1
#: a bit of the misc word (key bits 40-63 of the third word) that marks keys by rank
#: structure (:func:`_qkey`) apart from the keys by card (:func:`_key`)
QS_FLAG = 1 << 22


@_hot
def _qkey(h: np.ndarray, cfg: np.ndarray, n: int, leader: int, rem: int, calm: bool, sung: int,
          fl: int, sfirst: int, sforf: int) -> tuple[int, int, int, int]:
    """The table key of a trick start by its rank structure (no hand may hold a tute):
    every card renumbered to its rank by strength among the live cards of its suit, which
    keeps who holds what rank of which suit and drops which cards those are (Furtak and
    Buro's payoff-similarity; Kupferschmid and Helmert's quasi-symmetry). The suits of a
    marriage that can still be sung keep their cards (as :func:`_key` does: only the
    worthless ones renumbered), and with them the flags that cantes depend on; ``calm``:
    no cante can come. The fourth hand is left out (the live cards' count per suit and
    the other three hands fix it) to make room for the live cards themselves (strength
    order), which say what the position's cards are worth. Returns (k0, k1, k2, hash of
    the structure alone): the positions of one structure share a bucket."""
    fam = cfg[C_FAMILY]
    pinned = 0
    misc = leader | (cfg[C_SCALE] - 1) << 18 | cfg[C_TB] << 20 | QS_FLAG
    if not calm:
        for i in range(n):
            pinned |= _marriage_suits(h[i], fam)
        pinned &= ~sung
        if pinned != 0:
            misc |= pinned << 2 | sforf << 14
            if cfg[C_FORTY] == 1:
                misc |= fl << 6
            if cfg[C_RESTR] != 0:
                misc |= sfirst << 10
    live4 = _by_strength(rem, fam)
    x0 = _by_strength(h[0], fam)
    x1 = _by_strength(h[1], fam)
    x2 = _by_strength(h[2], fam)
    o0 = 0
    o1 = 0
    o2 = 0
    for s in range(4):
        sh = 10 * s
        live = (live4 >> sh) & 0x3FF
        if live == 0:
            continue
        lo = live & 0x1F
        if (pinned >> s) & 1:
            o0 |= (PACK[lo, (x0 >> sh) & 0x1F] | ((x0 >> sh) & 0x3E0)) << sh
            o1 |= (PACK[lo, (x1 >> sh) & 0x1F] | ((x1 >> sh) & 0x3E0)) << sh
            o2 |= (PACK[lo, (x2 >> sh) & 0x1F] | ((x2 >> sh) & 0x3E0)) << sh
            continue
        hi = live >> 5
        nl = popcount(lo)
        x = x0 >> sh
        o0 |= (PACK[lo, x & 0x1F] | (PACK[hi, (x >> 5) & 0x1F] << nl)) << sh
        x = x1 >> sh
        o1 |= (PACK[lo, x & 0x1F] | (PACK[hi, (x >> 5) & 0x1F] << nl)) << sh
        x = x2 >> sh
        o2 |= (PACK[lo, x & 0x1F] | (PACK[hi, (x >> 5) & 0x1F] << nl)) << sh
    k2 = o2 | (misc << 40)
    return (o0 | ((live4 & 0xFFFFFF) << 40), o1 | ((live4 >> 24) << 40), k2,
            _hash(o0, o1, k2))


@_hot
def _point_shift(a: int, b: int, fam: int, pinned: int) -> int:
    """The card points by which two sets of live cards (strength order) differ rank by rank,
    -1 if they differ in a suit's count or in the counting cards of a suit ``pinned`` (keyed
    by card: a marriage may still be sung there). Two trick starts of one rank structure have the
    same tree of play, every line taking the same ranks to the same side: their values
    differ by at most this (times the scale)."""
    d = 0
    for s in range(4):
        x = (a >> (10 * s)) & 0x3FF
        y = (b >> (10 * s)) & 0x3FF
        if popcount(x) != popcount(y):
            return -1
        if x == y:
            continue
        if (pinned >> s) & 1 and (x ^ y) & 0x3E0:
            return -1  # a suit keyed by card: its counting cards are the same or none
        while x:
            e = SPOINTS[fam, 10 * s + _lowcard(x)] - SPOINTS[fam, 10 * s + _lowcard(y)]
            d += e if e > 0 else -e
            x &= x - 1
            y &= y - 1
    return d


@_hot
def _qs_find(tt: np.ndarray, mask: int, gen: int, k0: int, k1: int, k2: int, hv: int,
             fam: int, scale: int) -> tuple[int, int, int]:
    """(lower bound, upper bound, move code) of a trick start keyed by :func:`_qkey`,
    from every entry of its bucket with its rank structure: an entry of the same live cards
    as they are, another widened by the points its cards differ by; (-INF, INF, NOMOVE)
    if none. Its callers keep it apart from the lookup by card: one function for both, with
    the cut on its bounds written once, was 5-9% slower (150 deals paired by
    ``bench/solver_ab.py``, one thread)."""
    base = (hv & mask) & ~(BUCKET - 1)
    lb = -INF
    ub = INF
    mcode = NOMOVE
    o0 = k0 & M40
    o1 = k1 & M40
    live = ((k0 >> 40) & 0xFFFFFF) | (((k1 >> 40) & 0xFFFF) << 24)
    for j in range(BUCKET):
        i = base + j
        d = tt[i, 3]
        if (d >> 40) & 0xFFFF != gen:
            continue
        x0 = tt[i, 0] ^ d
        x1 = tt[i, 1] ^ d
        if (tt[i, 2] ^ d) != k2 or x0 & M40 != o0 or x1 & M40 != o1:
            continue
        r = ((x0 >> 40) & 0xFFFFFF) | (((x1 >> 40) & 0xFFFF) << 24)
        sh = 0
        if r != live:
            sh = _point_shift(r, live, fam, (k2 >> 42) & 0xF)
            if sh < 0:
                continue
            sh *= scale
        e = (d & 0xFFFF) - OFF - sh
        if e > lb:
            lb = e
        e = ((d >> 16) & 0xFFFF) - OFF + sh
        if e < ub:
            ub = e
        if mcode == NOMOVE or sh == 0:
            mcode = (d >> 32) & 0xFF
    return lb, ub, mcode


@_hot
def _follow(c: int, seat: int, best: int, bs: int, ruffed: int, top: int, trump: int,
            fam: int) -> tuple[int, int, int, int]:
    """The trick's (best card, its seat, ruffed, strongest card of the suit led) after ``seat``
    follows with ``c``."""
    if c // 10 == best // 10:
        if (HIGHER[fam, best] >> c) & 1:
            best, bs = c, seat
    elif c // 10 == trump:
        best, bs, ruffed = c, seat, 1
    if c // 10 == top // 10 and (HIGHER[fam, top] >> c) & 1:
        top = c
    return best, bs, ruffed, top


@_hot
def _store_value(tt: np.ndarray, stats: np.ndarray, k0: int, k1: int, k2: int, v: int,
                 alpha: int, beta: int, move: int, depth: int, hv: int) -> None:
    """Store what a fail-soft value ``v`` of window ``alpha``..``beta`` proves: an upper bound
    (failed low), a lower bound (failed high) or the exact value."""
    lb = -INF
    ub = INF
    if v <= alpha:
        ub = v
    elif v >= beta:
        lb = v
    else:
        lb = v
        ub = v
    _tt_store(tt, tt.shape[0] - stats[ST_T2] - 1, stats[ST_GEN], k0, k1, k2, lb, ub, move,
              depth, hv)


@_hot
def _last_trick(h: np.ndarray, cfg: np.ndarray, n: int, leader: int) -> int:
    """Value of the last trick when every hand holds one card (all forced)."""
    fam = cfg[C_FAMILY]
    trump = cfg[C_TRUMP]
    best = _lowcard(h[leader])
    bs = leader
    pts = POINTS[fam, best]
    for i in range(1, n):
        s = (leader + i) % n
        c = _lowcard(h[s])
        pts += POINTS[fam, c]
        if c // 10 == best // 10:
            if STRENGTH[fam, c] > STRENGTH[fam, best]:
                best = c
                bs = s
        elif c // 10 == trump:
            best = c
            bs = s
    v = cfg[C_SCALE] * (pts + 10) + cfg[C_TB]
    return v if cfg[C_OBJ0 + bs] == 0 else -v


@_hot
def _two_tricks(h: np.ndarray, cfg: np.ndarray, n: int, leader: int, i: int, lead_suit: int,
                best: int, bs: int, ruffed: int, top: int, tpts: int, alpha: int,
                beta: int) -> int:
    """Exact value of the last two tricks (every hand holds two cards at the trick start;
    ``i`` cards of the trick played so far) by plain fail-soft alpha-beta, without the
    table, bounds or ordering: no declaration can follow (a marriage needs two cards in
    hand after the trick) and the last trick is forced."""
    if i == n:
        v = cfg[C_SCALE] * tpts
        if cfg[C_OBJ0 + bs] != 0:
            v = -v
        return v + _last_trick(h, cfg, n, bs)
    fam = cfg[C_FAMILY]
    trump = cfg[C_TRUMP]
    seat = (leader + i) % n
    pw = 0
    if i > 0 and cfg[C_PARTNERS] != 0 and (bs - seat) % 2 == 0:
        pw = 1
    legal = legal_cards(h[seat], i, lead_suit, best, ruffed, top, pw, 0, trump, fam,
                        cfg[C_EXEMPT], cfg[C_UNDER], cfg[C_HEAD], cfg[C_STOCKRULE])
    maxing = cfg[C_OBJ0 + seat] == 0
    bestv = -INF if maxing else INF
    while legal:
        c = _lowcard(legal)
        legal &= legal - 1
        bit = 1 << c
        if i == 0:
            nls, nb, nbs, nr, nt = c // 10, c, seat, ruffed, c
        else:
            nls = lead_suit
            nb, nbs, nr, nt = _follow(c, seat, best, bs, ruffed, top, trump, fam)
        h[seat] ^= bit
        v = _two_tricks(h, cfg, n, leader, i + 1, nls, nb, nbs, nr, nt,
                        tpts + POINTS[fam, c], alpha, beta)
        h[seat] ^= bit
        if maxing:
            if v > bestv:
                bestv = v
            if bestv > alpha:
                alpha = bestv
        else:
            if v < bestv:
                bestv = v
            if bestv < beta:
                beta = bestv
        if alpha >= beta:
            break
    return bestv


@_hot
def _minimax_step(maxing: bool, v: int, best: int, alpha: int,
                  beta: int) -> tuple[int, int, int]:
    """Fail-soft alpha-beta after a move worth ``v``: the node's best value and window."""
    if maxing:
        if v > best:
            best = v
        if best > alpha:
            alpha = best
    else:
        if v < best:
            best = v
        if best < beta:
            beta = best
    return best, alpha, beta


@_hot
def _two4(h: np.ndarray, cfg: np.ndarray, leader: int, alpha: int, beta: int) -> int:
    """:func:`_two_tricks` of four seats from the trick start, unrolled: one loop per seat
    instead of a recursive call per card (the same moves in the same order and the same
    fail-soft value; the calls cost more than the search of these tiny trees)."""
    fam = cfg[C_FAMILY]
    trump = cfg[C_TRUMP]
    scale = cfg[C_SCALE]
    ex = cfg[C_EXEMPT]
    un = cfg[C_UNDER]
    hd = cfg[C_HEAD]
    sr = cfg[C_STOCKRULE]
    part = cfg[C_PARTNERS] != 0
    s0 = leader
    s1 = (leader + 1) % 4
    s2 = (leader + 2) % 4
    s3 = (leader + 3) % 4
    x0 = cfg[C_OBJ0 + s0] == 0
    x1 = cfg[C_OBJ0 + s1] == 0
    x2 = cfg[C_OBJ0 + s2] == 0
    x3 = cfg[C_OBJ0 + s3] == 0
    a0 = alpha
    b0 = beta
    v0 = -INF if x0 else INF
    m0 = h[s0]
    while m0:
        c0 = _lowcard(m0)
        m0 &= m0 - 1
        h[s0] ^= 1 << c0
        ls = c0 // 10
        p0 = POINTS[fam, c0]
        a1 = a0
        b1 = b0
        v1 = -INF if x1 else INF
        m1 = legal_cards(h[s1], 1, ls, c0, 0, c0, 0, 0, trump, fam, ex, un, hd, sr)
        while m1:
            c1 = _lowcard(m1)
            m1 &= m1 - 1
            w1, ws1, r1, t1 = _follow(c1, s1, c0, s0, 0, c0, trump, fam)
            h[s1] ^= 1 << c1
            p1 = p0 + POINTS[fam, c1]
            a2 = a1
            b2 = b1
            v2 = -INF if x2 else INF
            pw = 1 if part and (ws1 - s2) % 2 == 0 else 0
            m2 = legal_cards(h[s2], 2, ls, w1, r1, t1, pw, 0, trump, fam, ex, un, hd, sr)
            while m2:
                c2 = _lowcard(m2)
                m2 &= m2 - 1
                w2, ws2, r2, t2 = _follow(c2, s2, w1, ws1, r1, t1, trump, fam)
                h[s2] ^= 1 << c2
                p2 = p1 + POINTS[fam, c2]
                a3 = a2
                b3 = b2
                v3 = -INF if x3 else INF
                pw = 1 if part and (ws2 - s3) % 2 == 0 else 0
                m3 = legal_cards(h[s3], 3, ls, w2, r2, t2, pw, 0, trump, fam, ex, un, hd, sr)
                while m3:
                    c3 = _lowcard(m3)
                    m3 &= m3 - 1
                    _w, ws3, _r, _t = _follow(c3, s3, w2, ws2, r2, t2, trump, fam)
                    h[s3] ^= 1 << c3
                    v = scale * (p2 + POINTS[fam, c3])
                    if cfg[C_OBJ0 + ws3] != 0:
                        v = -v
                    v += _last_trick(h, cfg, 4, ws3)
                    h[s3] ^= 1 << c3
                    v3, a3, b3 = _minimax_step(x3, v, v3, a3, b3)
                    if a3 >= b3:
                        break
                h[s2] ^= 1 << c2
                v2, a2, b2 = _minimax_step(x2, v3, v2, a2, b2)
                if a2 >= b2:
                    break
            h[s1] ^= 1 << c1
            v1, a1, b1 = _minimax_step(x1, v2, v1, a1, b1)
            if a1 >= b1:
                break
        h[s0] ^= 1 << c0
        v0, a0, b0 = _minimax_step(x0, v1, v0, a0, b0)
        if a0 >= b0:
            break
    return v0


@_hot
def _two_cached(h: np.ndarray, cfg: np.ndarray, n: int, leader: int, tt: np.ndarray,
                stats: np.ndarray, alpha: int, beta: int) -> int:
    """Value of the last two tricks (fail-soft in ``alpha``..``beta``) through the small table
    of their bounds in the last ``stats[ST_T2]`` rows of ``tt``: the same eight cards come
    back many times. Rows: [key0 ^ data, key1 ^ data, data], data = lower bound + OFF |
    upper bound + OFF << 16; a row torn by two threads writing it at once never matches."""
    k0 = 0
    for i in range(n):
        x = h[i]
        lo = _lowcard(x)
        hi = _lowcard(x & (x - 1))
        k0 |= (lo | (hi << 6)) << (12 * i)
    rows = stats[ST_T2]
    k1 = leader | (cfg[C_SCALE] - 1) << 2 | cfg[C_TB] << 3 | stats[ST_GEN] << 4
    i = tt.shape[0] - rows + (_hash(k0, k1, 0) & (rows - 1))
    d = tt[i, 2]
    lb = -OFF + 1
    ub = OFF - 1
    if tt[i, 0] ^ d == k0 and tt[i, 1] ^ d == k1:
        lb = (d & 0xFFFF) - OFF
        ub = ((d >> 16) & 0xFFFF) - OFF
        if lb >= beta:
            return lb
        if ub <= alpha:
            return ub
        if lb == ub:
            return lb
    Z = np.int64(0)
    M1 = np.int64(-1)
    a = max(alpha, lb)
    b = min(beta, ub)
    if n == 4:
        v = _two4(h, cfg, leader, a, b)
    else:
        v = _two_tricks(h, cfg, n, leader, Z, Z, M1, M1, Z, M1, Z, a, b)
    if v <= a:
        ub = v
    elif v >= b:
        lb = v
    else:
        lb = v
        ub = v
    d = (lb + OFF) | ((ub + OFF) << 16)
    tt[i, 0] = k0 ^ d
    tt[i, 1] = k1 ^ d
    tt[i, 2] = d
    return v


@_hot
def _three_tricks(h: np.ndarray, cfg: np.ndarray, n: int, leader: int, tt: np.ndarray,
                  stats: np.ndarray, i: int, lead_suit: int, best: int, bs: int, ruffed: int,
                  top: int, tpts: int, tm: int, alpha: int, beta: int) -> int:
    """Value of the last three tricks when no cante can come (fail-soft): a plain alpha-beta
    over the first of them, cheapest cards first (the last seat: winning cards first), each
    line ending in the last-two-trick table; ``tm``: the trick's cards so far."""
    if i == n:
        v = cfg[C_SCALE] * tpts
        if cfg[C_OBJ0 + bs] != 0:
            v = -v
        return v + _two_cached(h, cfg, n, bs, tt, stats, alpha - v, beta - v)
    fam = cfg[C_FAMILY]
    trump = cfg[C_TRUMP]
    seat = (leader + i) % n
    hand = h[seat]
    pw = 0
    if i > 0 and cfg[C_PARTNERS] != 0 and (bs - seat) % 2 == 0:
        pw = 1
    legal = legal_cards(hand, i, lead_suit, best, ruffed, top, pw, 0, trump, fam,
                        cfg[C_EXEMPT], cfg[C_UNDER], cfg[C_HEAD], cfg[C_STOCKRULE])
    others = tm
    for j in range(n):
        if j != seat:
            others |= h[j]
    legal = _merge_equivalent(legal, hand, others)
    first = legal
    if i == n - 1:  # the last card: the winning ones first
        first = 0
        m = legal
        while m:
            c = _lowcard(m)
            m &= m - 1
            if c // 10 == best // 10:
                if (HIGHER[fam, best] >> c) & 1:
                    first |= 1 << c
            elif c // 10 == trump:
                first |= 1 << c
    maxing = cfg[C_OBJ0 + seat] == 0
    bestv = -INF if maxing else INF
    for rnd in range(2):
        m = first if rnd == 0 else legal & ~first
        while m:
            c = _lowcard(m)
            m &= m - 1
            if i == 0:
                nls, nb, nbs, nr, nt = c // 10, c, seat, ruffed, c
            else:
                nls = lead_suit
                nb, nbs, nr, nt = _follow(c, seat, best, bs, ruffed, top, trump, fam)
            h[seat] ^= 1 << c
            v = _three_tricks(h, cfg, n, leader, tt, stats, i + 1, nls, nb, nbs, nr, nt,
                              tpts + POINTS[fam, c], tm | (1 << c), alpha, beta)
            h[seat] ^= 1 << c
            if maxing:
                if v > bestv:
                    bestv = v
                if bestv > alpha:
                    alpha = bestv
            else:
                if v < bestv:
                    bestv = v
                if bestv < beta:
                    beta = bestv
            if alpha >= beta:
                return bestv
    return bestv


@_hot
def _plain4(h: np.ndarray, cfg: np.ndarray, leader: int, tt: np.ndarray, stats: np.ndarray,
            alpha: int, beta: int, ttmove: int, sung: int, cards: int) -> tuple[int, int]:
    """(fail-soft value, best lead) of a four-seat trick start ``cards`` tricks from the end
    (3 or more) where no cante can come: a plain alpha-beta unrolled one loop per seat (the
    table's lead first, then the killer move of each of the first three seats -- the card
    that last refuted such a node after another had failed to: -4% instructions, -4 to -6%
    nodes --, then the cheapest cards first; the last seat's winning cards first),
    the next trick start through the table and this same search, the last two tricks through
    their own table. Without the lookahead ordering, quick bounds or scratch rows, and with a
    recursive call per trick instead of per card (numba's calls cost more than these small
    trees): 12-16% less time at three cards, another 10-14% from four. Checking the table
    for every card of the last seat before searching any (enhanced transposition cutoffs)
    took 13% of the nodes off and added 14% to the time (6% from five cards only): the
    table already cuts at two lookups in three, and the extra keys cost more than the
    cuts save. Cutting each next trick start on every point still out (and the last trick)
    before its table lookup: +6% nodes, the same time (such a bound is weaker than the
    table's and seldom reaches the window). A fifth of all the time waits here for the next
    trick start's table line (``bench/solver_profile.py --annotate _plain4``: one load
    after the hash), three lookups in four for the last seat's first card. Not kept: the
    quick bounds at four-card trick starts (60 deals: -14% of the searches below them, nodes
    -0.4%, slower); prefetching the next card's line while this one is searched (150 deals
    paired in one process by a flag: 0.995, the same); the three-trick positions in a region
    of 512 KB to 4 MB of their own, to stay in the core's caches (150 deals paired by
    ``bench/solver_ab.py``: 1.02, 1.01, 1.045 against the same-code control's 1.04:
    the evictions cost what the nearer lines save)."""
    fam = cfg[C_FAMILY]
    trump = cfg[C_TRUMP]
    scale = cfg[C_SCALE]
    ex = cfg[C_EXEMPT]
    un = cfg[C_UNDER]
    hd = cfg[C_HEAD]
    sr = cfg[C_STOCKRULE]
    part = cfg[C_PARTNERS] != 0
    Z = np.int64(0)
    qs = stats[ST_QS] != 0
    s0 = leader
    s1 = (leader + 1) % 4
    s2 = (leader + 2) % 4
    s3 = (leader + 3) % 4
    x0 = cfg[C_OBJ0 + s0] == 0
    x1 = cfg[C_OBJ0 + s1] == 0
    x2 = cfg[C_OBJ0 + s2] == 0
    x3 = cfg[C_OBJ0 + s3] == 0
    rem = h[0] | h[1] | h[2] | h[3]
    a0 = alpha
    b0 = beta
    v0 = -INF if x0 else INF
    bestc = -1
    m0 = _merge_equivalent(h[s0], h[s0], rem & ~h[s0])
    rest = 0
    # the killer moves (PKILLERS) of the three first seats: searched first, the table's lead
    # before the leader's; i0..i2 count the moves searched so far
    kon = stats[ST_PKILL] != 0
    kb = PKILLERS + 16 * cards
    ks0 = kb + s0
    if ttmove >= 0 and (m0 >> ttmove) & 1:
        rest = m0 & ~(1 << ttmove)
        m0 = 1 << ttmove
    elif kon and stats[ks0] > 0 and (m0 >> (stats[ks0] - 1)) & 1:
        rest = m0 & ~(1 << (stats[ks0] - 1))
        m0 = 1 << (stats[ks0] - 1)
    i0 = 0
    while m0:
        c0 = _lowcard(m0)
        m0 &= m0 - 1
        if m0 == 0:
            m0 = rest
            rest = 0
        i0 += 1
        h[s0] ^= 1 << c0
        ls = c0 // 10
        p0 = POINTS[fam, c0]
        a1 = a0
        b1 = b0
        v1 = -INF if x1 else INF
        m1 = legal_cards(h[s1], 1, ls, c0, 0, c0, 0, 0, trump, fam, ex, un, hd, sr)
        m1 = _merge_equivalent(m1, h[s1], rem & ~h[s1])
        ks1 = kb + 4 + ls
        rest1 = 0
        if kon and stats[ks1] > 0 and (m1 >> (stats[ks1] - 1)) & 1:
            rest1 = m1 & ~(1 << (stats[ks1] - 1))
            m1 = 1 << (stats[ks1] - 1)
        i1 = 0
        while m1:
            c1 = _lowcard(m1)
            m1 &= m1 - 1
            if m1 == 0:
                m1 = rest1
                rest1 = 0
            i1 += 1
            w1, ws1, r1, t1 = _follow(c1, s1, c0, s0, 0, c0, trump, fam)
            h[s1] ^= 1 << c1
            p1 = p0 + POINTS[fam, c1]
            a2 = a1
            b2 = b1
            v2 = -INF if x2 else INF
            pw = 1 if part and (ws1 - s2) % 2 == 0 else 0
            m2 = legal_cards(h[s2], 2, ls, w1, r1, t1, pw, 0, trump, fam, ex, un, hd, sr)
            m2 = _merge_equivalent(m2, h[s2], rem & ~h[s2])
            ks2 = kb + 8 + ls
            rest2 = 0
            if kon and stats[ks2] > 0 and (m2 >> (stats[ks2] - 1)) & 1:
                rest2 = m2 & ~(1 << (stats[ks2] - 1))
                m2 = 1 << (stats[ks2] - 1)
            i2 = 0
            while m2:
                c2 = _lowcard(m2)
                m2 &= m2 - 1
                if m2 == 0:
                    m2 = rest2
                    rest2 = 0
                i2 += 1
                w2, ws2, r2, t2 = _follow(c2, s2, w1, ws1, r1, t1, trump, fam)
                h[s2] ^= 1 << c2
                p2 = p1 + POINTS[fam, c2]
                a3 = a2
                b3 = b2
                v3 = -INF if x3 else INF
                pw = 1 if part and (ws2 - s3) % 2 == 0 else 0
                m3 = legal_cards(h[s3], 3, ls, w2, r2, t2, pw, 0, trump, fam, ex, un, hd, sr)
                m3 = _merge_equivalent(m3, h[s3], rem & ~h[s3])
                first = 0  # the winning cards first
                m = m3
                while m:
                    c = _lowcard(m)
                    m &= m - 1
                    if c // 10 == w2 // 10:
                        if (HIGHER[fam, w2] >> c) & 1:
                            first |= 1 << c
                    elif c // 10 == trump:
                        first |= 1 << c
                m = first
                rest3 = m3 & ~first
                if m == 0:
                    m = rest3
                    rest3 = 0
                while m:
                    c3 = _lowcard(m)
                    m &= m - 1
                    if m == 0:
                        m = rest3
                        rest3 = 0
                    _w, ws3, _r, _t = _follow(c3, s3, w2, ws2, r2, t2, trump, fam)
                    h[s3] ^= 1 << c3
                    v = scale * (p2 + POINTS[fam, c3])
                    if cfg[C_OBJ0 + ws3] != 0:
                        v = -v
                    if cards == 3:
                        v += _two_cached(h, cfg, 4, ws3, tt, stats, a3 - v, b3 - v)
                    elif stats[ST_ABORT] != 0:
                        stats[ST_VOID] = 1
                    else:  # the next trick start: the table, then this
                        a = a3 - v
                        b = b3 - v
                        stats[ST_NODES] += 1
                        u = NOBOUND
                        tm = -1
                        nrem = rem & ~(1 << c0 | 1 << c1 | 1 << c2 | 1 << c3)
                        ti = -1
                        if qs:
                            k0, k1, k2, hv = _qkey(h, cfg, 4, ws3, nrem, True, sung, Z, Z, Z)
                            lb, ub, mcode = _qs_find(tt, tt.shape[0] - stats[ST_T2] - 1,
                                                     stats[ST_GEN], k0, k1, k2, hv, fam, scale)
                            if lb >= b or lb == ub:
                                u = lb
                            elif ub <= a:
                                u = ub
                            else:
                                a = max(a, lb)
                                b = min(b, ub)
                                if mcode != NOMOVE:
                                    tm = _rank_card(nrem, mcode, fam)
                        else:
                            k0, k1, k2 = _key(h, cfg, 4, ws3, sung, Z, Z, Z)
                            hv = _hash(k0, k1, k2)
                            ti = _tt_find(tt, tt.shape[0] - stats[ST_T2] - 1, stats[ST_GEN],
                                          k0, k1, k2)
                        if ti >= 0:
                            d = tt[ti, 3]
                            lb = (d & 0xFFFF) - OFF
                            ub = ((d >> 16) & 0xFFFF) - OFF
                            stats[ST_TTHITS] += 1
                            if lb >= b or lb == ub:
                                u = lb
                            elif ub <= a:
                                u = ub
                            else:
                                a = max(a, lb)
                                b = min(b, ub)
                                mcode = (d >> 32) & 0xFF
                                if mcode != NOMOVE:
                                    tm = _uncanon_card(rem & ~(1 << c0 | 1 << c1 | 1 << c2
                                                               | 1 << c3), mcode)
                        if u == NOBOUND:
                            u, uc = _plain4(h, cfg, ws3, tt, stats, a, b, tm, sung, cards - 1)
                            if stats[ST_ABORT] == 0:
                                mc = NOMOVE
                                if uc >= 0:
                                    mc = _card_rank(nrem, uc, fam) if qs else _canon_card(nrem, uc)
                                _store_value(tt, stats, k0, k1, k2, u, a, b, mc,
                                             4 * (cards - 1), hv)
                        v += u
                    h[s3] ^= 1 << c3
                    v3, a3, b3 = _minimax_step(x3, v, v3, a3, b3)
                    if a3 >= b3:
                        break
                h[s2] ^= 1 << c2
                v2, a2, b2 = _minimax_step(x2, v3, v2, a2, b2)
                if a2 >= b2:
                    if i2 > 1:
                        stats[ks2] = c2 + 1
                    break
            h[s1] ^= 1 << c1
            v1, a1, b1 = _minimax_step(x1, v2, v1, a1, b1)
            if a1 >= b1:
                if i1 > 1:
                    stats[ks1] = c1 + 1
                break
        h[s0] ^= 1 << c0
        if (v1 > v0) if x0 else (v1 < v0):
            bestc = c0
        v0, a0, b0 = _minimax_step(x0, v1, v0, a0, b0)
        if a0 >= b0:
            if i0 > 1:
                stats[ks0] = c0 + 1
            break
    return v0, bestc


def _merge_table() -> np.ndarray:
    """MERGE[legal * 32 + blockers] for the five worthless positions of a suit: the legal
    cards kept, the lowest of each run of legal cards with no blocker between them."""
    out = np.zeros(1024, dtype=np.int64)
    for legal in range(32):
        for blk in range(32):
            keep = legal
            run = False
            for p in range(5):
                if legal >> p & 1 and not blk >> p & 1:
                    if run:
                        keep &= ~(1 << p)
                    run = True
                elif blk >> p & 1:
                    run = False
            out[legal * 32 + blk] = keep
    return out


MERGE = _merge_table()


@_hot
def _merge_equivalent(legal: int, hand: int, separators: int) -> int:
    """Drop worthless cards equivalent to a lower legal card of the same hand (blockers:
    cards held by others or in the trick, and the hand's own cards that are not legal)."""
    blockers = separators | (hand & ~legal)
    out = legal
    for s in range(4):
        lg = (legal >> (10 * s)) & 0x1F
        if lg & (lg - 1):  # at least two worthless legal cards in the suit
            keep = MERGE[lg * 32 + ((blockers >> (10 * s)) & 0x1F)]
            out &= ~((lg & ~keep) << (10 * s))
    return out


@_hot
def _sim_trick(h: np.ndarray, cfg: np.ndarray, n: int, leader: int, tlen: int, lead_suit: int,
               best: int, bs: int, ruffed: int, top: int, pts: int,
               side: int) -> tuple[int, int]:
    """(points ``side`` nets from the trick if the seats still to play answer greedily --
    win as cheaply as possible from the other side, smear points onto their side's trick,
    else throw the cheapest card --, the choices the other side's seats had beyond one on
    the way): a cheap lookahead for move ordering."""
    fam = cfg[C_FAMILY]
    trump = cfg[C_TRUMP]
    mob = 0
    for i in range(tlen, n):
        seat = (leader + i) % n
        pw = 1 if cfg[C_PARTNERS] != 0 and (bs - seat) % 2 == 0 else 0
        legal = legal_cards(h[seat], i, lead_suit, best, ruffed, top, pw, 0, trump, fam,
                            cfg[C_EXEMPT], cfg[C_UNDER], cfg[C_HEAD], cfg[C_STOCKRULE])
        if cfg[C_OBJ0 + seat] != side:
            mob += popcount(legal) - 1
        ours = cfg[C_OBJ0 + bs] == cfg[C_OBJ0 + seat]
        pick = -1
        psc = -(1 << 30)
        m = legal
        while m:
            x = _lowcard(m)
            m &= m - 1
            wins = False
            if x // 10 == best // 10:
                wins = (HIGHER[fam, best] >> x) & 1 != 0
            elif x // 10 == trump:
                wins = True
            if ours:
                sc = 10 * POINTS[fam, x] - STRENGTH[fam, x] - (100 if wins else 0)
            elif wins:
                sc = 1000 - 10 * STRENGTH[fam, x] - (100 if x // 10 == trump else 0)
            else:
                sc = -10 * POINTS[fam, x] - STRENGTH[fam, x]
            if sc > psc:
                psc = sc
                pick = x
        pts += POINTS[fam, pick]
        best, bs, ruffed, top = _follow(pick, seat, best, bs, ruffed, top, trump, fam)
    return (pts if cfg[C_OBJ0 + bs] == side else -pts), mob


#: BY_STRENGTH[fam, k]: position in its suit (0..9) of the card of strength k
BY_STRENGTH = np.argsort(STRENGTH[:, :10], axis=1).astype(np.int64)


@_hot
def _merge_sure_trumps(legal: int, hand: int, others: int, opp: int, tmask: int,
                       cfg: np.ndarray) -> int:
    """Keep one card of each run of the hand's trumps that beat every opposing trump (in hand
    or in the trick) with no other remaining card between them: such cards win whatever
    trick they fall in, so which of them goes first changes neither the tricks nor who takes
    their points. Kings and their mates stay apart: they may still be sung."""
    trump = cfg[C_TRUMP]
    if trump < 0:
        return legal
    fam = cfg[C_FAMILY]
    tr = SUIT_MASK[trump]
    mine = legal & tr & ~((1 << (10 * trump + 7)) | (1 << (10 * trump + MARRIAGE_POS[fam])))
    if mine & (mine - 1) == 0:
        return legal
    threats = (opp | tmask) & tr
    while threats:
        mine &= HIGHER[fam, _lowcard(threats)]
        threats &= threats - 1
    if mine & (mine - 1) == 0:
        return legal
    out = legal
    run = False
    for k in range(9, -1, -1):
        bit = 1 << (10 * trump + BY_STRENGTH[fam, k])
        if mine & bit:
            if run:
                out &= ~bit
            run = True
        elif (others | hand) & bit:
            run = False
    return out


@_hot
def _order(h: np.ndarray, cfg: np.ndarray, n: int, seat: int, moves: int, tlen: int,
           best: int, bestseat: int, ruffed: int, topled: int, leader: int, tpts: int,
           ttmove: int, killer: int, mv: np.ndarray, ply: int) -> int:
    """Sort ``moves`` into ``mv[ply]`` best-first; returns the count. The table's move first,
    then the ``killer`` (:data:`KILLERS`); leads and middle cards are scored by what their
    side nets from the trick under greedy answers (:func:`_sim_trick`) less a penalty
    (``mv[0, SC_MOBILITY]``: :data:`MOBILITY`) for each option those answers leave the other
    side, the last card by winning cheaply, smearing points on its side's trick, else the
    cheapest discard."""
    if moves & (moves - 1) == 0:  # a forced card: nothing to score
        mv[ply, 0] = _lowcard(moves)
        return 1
    fam = cfg[C_FAMILY]
    trump = cfg[C_TRUMP]
    side = cfg[C_OBJ0 + seat]
    lead_suit = topled // 10  # the strongest card of the suit led is of that suit
    rest = h[seat] & (h[seat] - 1)
    rest &= rest - 1
    small = rest & (rest - 1) == 0  # at most three cards in hand: no lookahead
    wmob = mv[0, SC_MOBILITY]
    k = 0
    m = moves
    while m:
        c = _lowcard(m)
        m &= m - 1
        st = STRENGTH[fam, c]
        pts = POINTS[fam, c]
        if c == ttmove:
            sc = 1 << 20
        elif c == killer:
            sc = 1 << 19
        elif small:  # three tricks to go: a lookahead costs more than it saves
            sc = -10 * pts - st
        elif tlen == 0:
            net, mob = _sim_trick(h, cfg, n, seat, 1, c // 10, c, seat, 0, c, pts, side)
            sc = 100 * net - wmob * mob
        elif tlen < n - 1:
            nb, nbs, nr, nt = _follow(c, seat, best, bestseat, ruffed, topled, trump, fam)
            net, mob = _sim_trick(h, cfg, n, leader, tlen + 1, lead_suit, nb, nbs, nr, nt,
                                  tpts + pts, side)
            sc = 100 * net - wmob * mob - st
        else:  # the last card of the trick: the outcome is known
            wins = False
            if c // 10 == best // 10:
                wins = (HIGHER[fam, best] >> c) & 1 != 0
            elif c // 10 == trump:
                wins = True
            if cfg[C_OBJ0 + bestseat] == side:
                sc = 1000 + 10 * pts if not wins else 100 - st
            elif wins:
                sc = 3000 - 2 * st + pts
            else:
                sc = -10 * pts - st
        # insertion sort, descending
        j = k
        while j > 0 and mv[ply, SC_SCORES + j - 1] < sc:
            mv[ply, SC_SCORES + j] = mv[ply, SC_SCORES + j - 1]
            mv[ply, j] = mv[ply, j - 1]
            j -= 1
        mv[ply, SC_SCORES + j] = sc
        mv[ply, j] = c
        k += 1
    return k



#: cards with no points, per family
ZEROPTS = np.array([sum(1 << c for c in range(40) if POINTS[f, c % 10] == 0) for f in range(2)],
                   dtype=np.int64)
NOBOUND = INF + 1


@_hot
def _near_equivalent(cfg: np.ndarray, mv: np.ndarray, ply: int, j: int, c: int, nblock: int,
                     excl: int, maxing: bool, alpha: int, beta: int) -> int:
    """A bound that makes card ``c`` (the ``j``-th move of ``mv[ply]``) not worth searching,
    else NOBOUND. Two cards of one hand and suit with no live card between them (``nblock``:
    the cards in other hands and in the trick), neither one a card a cante may still need
    (``excl``), lead to positions that differ only in which trick each card falls in: the
    values differ by at most twice their point difference. So when an earlier card's value
    (``mv[ply, SC_SCORES + k]``: exact, or a bound on the side that failed) plus that margin
    cannot beat the window, neither can ``c``."""
    fam = cfg[C_FAMILY]
    scale = cfg[C_SCALE]
    for k in range(j):
        q = mv[ply, k]
        if q // 10 != c // 10 or (excl >> q) & 1:
            continue
        if (HIGHER[fam, c] >> q) & 1:
            between = HIGHER[fam, c] & ~HIGHER[fam, q] & ~(1 << q)
        else:
            between = HIGHER[fam, q] & ~HIGHER[fam, c] & ~(1 << c)
        if between & nblock:
            continue
        margin = 2 * scale * abs(POINTS[fam, c] - POINTS[fam, q])
        if maxing:
            if mv[ply, SC_SCORES + k] + margin <= alpha:
                return mv[ply, SC_SCORES + k] + margin
        elif mv[ply, SC_SCORES + k] - margin >= beta:
            return mv[ply, SC_SCORES + k] - margin
    return NOBOUND


@_hot
def search(h: np.ndarray, cfg: np.ndarray, stats: np.ndarray, tt: np.ndarray, mv: np.ndarray,
           ply: int, tomove: int, leader: int,
           tlen: int, trick: int, best: int, bestseat: int, ruffed: int, topled: int,
           sung: int, fl: int, sfirst: int, sforf: int, alpha: int, beta: int) -> int:
    """Fail-soft alpha-beta from a card-play node (``trick`` packs the trick's cards, 6 bits
    each). ``h`` is modified in place and restored."""
    n = cfg[C_N]
    fam = cfg[C_FAMILY]
    trump = cfg[C_TRUMP]
    scale = cfg[C_SCALE]
    # typed zero / minus one: literal arguments would make numba specialise the recursion
    Z = np.int64(0)
    M1 = np.int64(-1)
    stats[ST_NODES] += 1
    alpha0 = alpha
    beta0 = beta
    ttmove = -1
    ti = -1
    k0 = 0
    k1 = 0
    k2 = 0
    hv = 0
    qs = False
    rem = 0
    for i in range(n):
        rem |= h[i]
    if tlen == 0:
        cards = popcount(h[leader])
        if cards == 0:
            return 0
        if cards == 1:
            return _last_trick(h, cfg, n, leader)
        if cards == 2:
            return _two_cached(h, cfg, n, leader, tt, stats, alpha, beta)
        if stats[ST_ABORT] != 0:
            stats[ST_VOID] = 1
            return 0
        ub = INF
        lb = -INF
        if cards > 3:  # three tricks from the end they cost more than they cut (~3%)
            ub, lb = _quick_bounds(h, cfg, n, rem, sung, leader)
            if ub <= alpha:
                return ub
            if lb >= beta:
                return lb
        # no cante can come (nobody holds a marriage): the flags are moot
        calm = True
        if cfg[C_ARRCANTE] != 0:
            for i in range(n):
                calm = calm and not _may_declare(h[i], cfg, sung)
        quiet = calm and cards <= stats[ST_QMAX]
        qs = stats[ST_QS] != 0
        if qs and not calm and cfg[C_TUTE] != 0:
            for i in range(n):  # a tute needs its cards by name: keyed by card
                if h[i] & KINGS == KINGS or h[i] & SECOND_TUTE[fam] == SECOND_TUTE[fam]:
                    qs = False
        gen = stats[ST_GEN]
        ti = -1
        if qs:
            k0, k1, k2, hv = _qkey(h, cfg, n, leader, rem, calm, sung, fl, sfirst, sforf)
            tlb, tub, mcode = _qs_find(tt, tt.shape[0] - stats[ST_T2] - 1, gen, k0, k1, k2,
                                       hv, fam, scale)
            if tlb >= beta or tlb == tub:
                return tlb
            if tub <= alpha:
                return tub
            lb = max(lb, tlb)
            ub = min(ub, tub)
            if mcode != NOMOVE:
                ttmove = _rank_card(rem, mcode, fam)
        elif quiet and n == 4:
            k0, k1, k2 = _key(h, cfg, n, leader, sung, Z, Z, Z)
            hv = _hash(k0, k1, k2)
            ti = _tt_find(tt, tt.shape[0] - stats[ST_T2] - 1, gen, k0, k1, k2)
        else:
            k0, k1, k2 = _key(h, cfg, n, leader, sung, fl, sfirst, sforf)
            hv = _hash(k0, k1, k2)
            ti = _tt_find(tt, tt.shape[0] - stats[ST_T2] - 1, gen, k0, k1, k2)
        if ti >= 0:
            d = tt[ti, 3]
            tlb = (d & 0xFFFF) - OFF
            tub = ((d >> 16) & 0xFFFF) - OFF
            stats[ST_TTHITS] += 1
            if tlb >= beta:
                return tlb
            if tub <= alpha:
                return tub
            lb = max(lb, tlb)
            ub = min(ub, tub)
            mcode = (d >> 32) & 0xFF
            if mcode != NOMOVE:
                ttmove = _uncanon_card(rem, mcode)
        if lb == ub:
            return lb
        alpha = max(alpha, lb)
        beta = min(beta, ub)
        alpha0 = alpha
        beta0 = beta
        if quiet and n == 4:
            bestv, bestc = _plain4(h, cfg, leader, tt, stats, alpha, beta, ttmove, sung, cards)
            if stats[ST_ABORT] == 0:
                mcode = NOMOVE
                if bestc >= 0:
                    mcode = _card_rank(rem, bestc, fam) if qs else _canon_card(rem, bestc)
                _store_value(tt, stats, k0, k1, k2, bestv, alpha0, beta0, mcode, popcount(rem),
                             hv)
            return bestv
        if cards == 3 and quiet:
            # three tricks to go and no cante possible (nobody holds a marriage): a plain
            # search of the first of them, no lookahead, merges or scratch rows (-6% time)
            bestv = _three_tricks(h, cfg, n, leader, tt, stats, Z, M1, M1, M1, Z, M1, Z, Z,
                                  alpha, beta)
            if stats[ST_ABORT] == 0:
                _store_value(tt, stats, k0, k1, k2, bestv, alpha0, beta0, NOMOVE,
                             popcount(rem), hv)
            return bestv
    hand = h[tomove]
    lead_suit = (trick & 63) // 10
    pw = 0
    if tlen > 0 and cfg[C_PARTNERS] != 0 and (bestseat - tomove) % 2 == 0:
        pw = 1
    legal = legal_cards(hand, tlen, lead_suit, best, ruffed, topled, pw, 0, trump, fam,
                        cfg[C_EXEMPT], cfg[C_UNDER], cfg[C_HEAD], cfg[C_STOCKRULE])
    tmask = 0
    for i in range(tlen):
        tmask |= 1 << ((trick >> (6 * i)) & 63)
    legal = _merge_equivalent(legal, hand, (rem & ~hand) | tmask)
    opp = 0
    for i in range(n):
        if cfg[C_OBJ0 + i] != cfg[C_OBJ0 + tomove]:
            opp |= h[i]
    legal = _merge_sure_trumps(legal, hand, rem & ~hand, opp, tmask, cfg)
    tpts = 0
    for i in range(tlen):
        tpts += POINTS[fam, (trick >> (6 * i)) & 63]
    killer = -1
    kslot = 0
    held = popcount(hand)
    if held >= stats[ST_KMIN]:
        kslot = KILLERS + 16 * held + 4 * tlen + (leader if tlen == 0 else lead_suit)
        killer = stats[kslot] - 1
    nm = _order(h, cfg, n, tomove, legal, tlen, best, bestseat, ruffed, topled, leader, tpts,
                ttmove, killer, mv, ply)
    if stats[ST_SKEW] != 0 and tlen == 0 and ply < n and nm > 1:
        # a helper thread (lazy SMP) takes the second-best lead first at the first trick
        # start of its search, and at the root the others from the worst up (the main thread
        # goes from the best down: where every lead must be searched, they meet halfway;
        # ~5-9% less time with two threads; skewing the next trick starts too was 2-4%
        # slower, reversing deeper down or mid-trick 12-20%)
        c = mv[ply, 0]
        mv[ply, 0] = mv[ply, 1]
        mv[ply, 1] = c
        if ply == 0 and nm > 3:
            for i in range((nm - 1) // 2):
                x = mv[ply, 1 + i]
                mv[ply, 1 + i] = mv[ply, nm - 1 - i]
                mv[ply, nm - 1 - i] = x
    maxing = cfg[C_OBJ0 + tomove] == 0
    bestv = -INF if maxing else INF
    bestc = -1
    # near-equivalent cards (below) are possible only with two cards of one suit in hand, one
    # of them counting, neither a king nor a mate that a cante may still need (hands only
    # shrink here: a marriage needs both cards in hand now, a tute all four); worth looking
    # for in bigger subtrees only
    eq = False
    excl = 0
    nblock = 0  # the live cards outside this hand: other hands and the trick
    if nm > 1 and popcount(hand) >= 4:
        if cfg[C_ARRCANTE] != 0:
            ms = _marriage_suits(hand, fam) & ~sung
            for s in range(4):
                if (ms >> s) & 1:
                    excl |= (1 << (10 * s + 7)) | (1 << (10 * s + MARRIAGE_POS[fam]))
            if cfg[C_TUTE] != 0:
                if hand & KINGS == KINGS:
                    excl |= KINGS
                if hand & SECOND_TUTE[fam] == SECOND_TUTE[fam]:
                    excl |= SECOND_TUTE[fam]
        el = legal & ~excl
        for s in range(4):
            x = el & SUIT_MASK[s]
            if x & (x - 1) and x & ~ZEROPTS[fam]:
                eq = True
        nblock = (rem & ~hand) | tmask
    for j in range(nm):
        c = mv[ply, j]
        bit = 1 << c
        if eq and j > 0 and (excl >> c) & 1 == 0:
            bound = _near_equivalent(cfg, mv, ply, j, c, nblock, excl, maxing, alpha, beta)
            if bound != NOBOUND:
                # this card cannot do better (for its side) than a card searched before:
                # skip it, but keep its bound in the fail-soft value
                mv[ply, SC_SCORES + j] = bound
                if (bound > bestv) if maxing else (bound < bestv):
                    bestv = bound
                stats[ST_NEAR] += 1
                continue
        h[tomove] ^= bit
        # the trick after c
        if tlen == 0:
            nb, nbs, nr, nt = c, tomove, 0, c
        else:
            nb, nbs, nr, nt = _follow(c, tomove, best, bestseat, ruffed, topled, trump, fam)
        # the seats after this one that have a single legal card play it here: a node of
        # its own would only pass the value up (nearly half the nodes were such)
        ctlen = tlen + 1
        ctrick = trick | (c << (6 * tlen))
        cseat = (tomove + 1) % n
        cls = (ctrick & 63) // 10
        while ctlen < n:
            pwf = 0
            if cfg[C_PARTNERS] != 0 and (nbs - cseat) % 2 == 0:
                pwf = 1
            lg = legal_cards(h[cseat], ctlen, cls, nb, nr, nt, pwf, 0, trump, fam,
                             cfg[C_EXEMPT], cfg[C_UNDER], cfg[C_HEAD], cfg[C_STOCKRULE])
            if lg & (lg - 1):
                lg = _merge_equivalent(lg, h[cseat], (rem | tmask) & ~h[cseat])
                if lg & (lg - 1):
                    break
            f = _lowcard(lg)
            h[cseat] ^= 1 << f
            nb, nbs, nr, nt = _follow(f, cseat, nb, nbs, nr, nt, trump, fam)
            ctrick |= f << (6 * ctlen)
            ctlen += 1
            cseat = (cseat + 1) % n
        cply = ply + ctlen - tlen  # the ply of the node after the cards played
        if ctlen < n:
            v = search(h, cfg, stats, tt, mv, cply, cseat, leader, ctlen, ctrick, nb, nbs, nr,
                       nt, sung, fl, sfirst, sforf, alpha, beta)
        else:
            pts = 0
            for i in range(n):
                pts += POINTS[fam, (ctrick >> (6 * i)) & 63]
            wside = cfg[C_OBJ0 + nbs]  # the objective side: who gains the points
            rside = cfg[C_SIDE0 + nbs]  # the rule side: first wins, forfeits
            sgn = 1 if wside == 0 else -1
            if h[nbs] == 0:  # that was the last trick
                v = sgn * (scale * (pts + 10) + cfg[C_TB])
            else:
                first_win = (sfirst >> rside) & 1 == 0
                nsf = sfirst | (1 << rside)
                base = sgn * scale * pts
                k = 0
                if cfg[C_ARRCANTE] != 0 and (sforf >> rside) & 1 == 0 and not (
                        cfg[C_RESTR] == 2 and not first_win):
                    wmask = 1 << nbs
                    may = _may_declare(h[nbs], cfg, sung)
                    if cfg[C_CANTEBY] != 0 and cfg[C_PARTNERS] != 0:
                        wmask |= 1 << ((nbs + 2) % n)
                        may = may or _may_declare(h[(nbs + 2) % n], cfg, sung)
                    if may:
                        k = _window_options(h, cfg, nbs, wmask, sung, fl, mv, ply)
                left = popcount(h[nbs])
                if k < 0:
                    v = sgn * TUTE_VALUE * scale
                elif k == 0 and left == 1:  # the last trick: every card forced
                    v = base + _last_trick(h, cfg, n, nbs)
                elif k == 0 and left == 2:  # straight to the last two tricks' table
                    v = base + _two_cached(h, cfg, n, nbs, tt, stats, alpha - base,
                                           beta - base)
                elif k == 0:
                    v = base + search(h, cfg, stats, tt, mv, cply, nbs, nbs, Z, Z,
                                      M1, M1, Z, M1, sung, fl, nsf, sforf, alpha - base,
                                      beta - base)
                else:
                    v = -INF if wside == 0 else INF
                    a2 = alpha
                    b2 = beta
                    for o in range(k):
                        off = base + sgn * scale * mv[ply, OPT + 3 * o + 0]
                        vo = off + search(h, cfg, stats, tt, mv, cply, nbs, nbs,
                                          Z, Z, M1, M1, Z, M1, mv[ply, OPT + 3 * o + 1],
                                          mv[ply, OPT + 3 * o + 2], nsf, sforf, a2 - off,
                                          b2 - off)
                        if wside == 0:
                            if vo > v:
                                v = vo
                            if v > a2:
                                a2 = v
                        else:
                            if vo < v:
                                v = vo
                            if v < b2:
                                b2 = v
                        if a2 >= b2:
                            break
        for i in range(tlen + 1, ctlen):
            h[(leader + i) % n] ^= 1 << ((ctrick >> (6 * i)) & 63)
        h[tomove] ^= bit
        if eq:
            mv[ply, SC_SCORES + j] = v  # the scores are spent: keep the values instead
        if maxing:
            if v > bestv:
                bestv = v
                bestc = c
            if bestv > alpha:
                alpha = bestv
        else:
            if v < bestv:
                bestv = v
                bestc = c
            if bestv < beta:
                beta = bestv
        if alpha >= beta:
            if j > 0 and kslot != 0:  # the ordering's first choice failed: remember c
                stats[kslot] = c + 1
            break
    if tlen == 0 and stats[ST_ABORT] == 0:
        mcode = NOMOVE
        if bestc >= 0:
            mcode = _card_rank(rem, bestc, fam) if qs else _canon_card(rem, bestc)
        _store_value(tt, stats, k0, k1, k2, bestv, alpha0, beta0, mcode, popcount(rem), hv)
    return bestv


@njit(cache=True, nogil=True, error_model="numpy")
def root_search(st: np.ndarray, cfg: np.ndarray, stats: np.ndarray, tt: np.ndarray,
                mv: np.ndarray, alpha: int, beta: int) -> int:
    """Search a kernel state (a trick start, mid-trick, or an open declaration window)."""
    if st[S_OVER]:
        return 0
    Z = np.int64(0)
    M1 = np.int64(-1)
    one = np.int64(1)
    h = st[S_H0:S_H0 + 4].copy()
    tlen = st[S_TLEN]
    trick = 0
    for i in range(tlen):
        trick |= st[S_T0 + i] << (6 * i)
    leader = st[S_LEADER]
    tomove = st[S_TOMOVE]
    sung = st[S_SUNG]
    fl = st[S_FORTYLOST]
    pending = tlen == 0 and (st[S_POLL] >= 0 or (st[S_WINDOW] >> tomove) & 1 != 0)
    if not pending:
        return search(h, cfg, stats, tt, mv, Z, tomove, leader, tlen, trick,
                      st[S_BEST], st[S_BESTSEAT], st[S_RUFFED], st[S_TOPLED], sung, fl,
                      st[S_SIDEFIRST], st[S_FORFEIT], alpha, beta)
    k = _window_options(h, cfg, leader, st[S_WINDOW], sung, fl, mv, Z)
    wside = cfg[C_OBJ0 + leader]
    sgn = 1 if wside == 0 else -1
    scale = cfg[C_SCALE]
    if k < 0:
        return sgn * TUTE_VALUE * scale
    if k == 0:
        return search(h, cfg, stats, tt, mv, one, leader, leader, Z, Z, M1, M1, Z, M1,
                      sung, fl, st[S_SIDEFIRST], st[S_FORFEIT], alpha, beta)
    v = -INF if wside == 0 else INF
    for o in range(k):
        off = sgn * scale * mv[0, OPT + 3 * o + 0]
        vo = off + search(h, cfg, stats, tt, mv, one, leader, leader, Z, Z, M1, M1, Z,
                          M1, mv[0, OPT + 3 * o + 1], mv[0, OPT + 3 * o + 2], st[S_SIDEFIRST],
                          st[S_FORFEIT], alpha - off, beta - off)
        if wside == 0:
            if vo > v:
                v = vo
            if v > alpha:
                alpha = v
        else:
            if vo < v:
                v = vo
            if v < beta:
                beta = v
        if alpha >= beta:
            break
    return v


@njit(parallel=True, cache=True, nogil=True, error_model="numpy")
def root_search_threads(st: np.ndarray, cfg: np.ndarray, stats: np.ndarray, tt: np.ndarray,
                        mv: np.ndarray, alpha: int, beta: int, out: np.ndarray) -> None:
    """One window search by ``stats.shape[0]`` threads at once over the one table (lazy SMP):
    thread ``t`` searches with counters ``stats[t]`` and scratch rows ``mv[t]`` (helpers,
    ``stats[t, ST_SKEW] != 0``, try other leads first) into ``out[t]``, and the first to
    finish tells the others to stop. A value is good unless ``stats[t, ST_VOID]``: that
    search saw the flag before it finished. numba's own thread pool starts the searches
    in ~5 us where a Python thread pool took ~85 us a probe, and keeps them warm between
    probes."""
    k = stats.shape[0]
    for t in prange(k):
        out[t] = root_search(st, cfg, stats[t], tt, mv[t], alpha, beta)
        for u in range(k):
            if u != t:
                stats[u, ST_ABORT] = 1
