"""numba loops of :class:`tute.rl.vector.VectorEnv`: N deals of Tute por parejas, Tute
arrastrado (three players and a table card, or four individual players) or a stock game
(what happens between a stock trick and the next lead: :mod:`._vector_stock`) stepped in one
call, each seat's observation written from the kernel's state (docs/rl.md).

Per game the kernel's state and config rows (:mod:`tute.kernel._tables`) plus ``ex``, the
public facts the observation needs and the kernel does not keep (cards played, cards known,
proven voids, cantes per seat, the turned trump card), and ``mt``, the game's own Mersenne
Twister: the one ``random.Random(seed)`` that ``tute.rl.env``'s ``reset(seed=...)`` makes, so
that a game here deals the same sequence of deals as that environment (the shuffle of
:mod:`tute.shuffle`, MT19937 and Fisher–Yates with rejection, redone here bit for bit).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernel._core import apply_action, legal_actions, popcount
from ..kernel._tables import (
    A_CUARENTA,
    A_VEINTE0,
    C_ARRCANTE,
    C_MANO,
    C_NXT0,
    C_STOCKRULE,
    C_TRUMP,
    MARRIAGE_POS,
    S_BESTSEAT,
    S_CANTE0,
    S_DONE,
    S_H0,
    S_LASTSIDE,
    S_LEADER,
    S_OVER,
    S_PTS0,
    S_RUFFED,
    S_SIZE,
    S_STOCK,
    S_T0,
    S_TLEN,
    S_TOMOVE,
    S_TOPLED,
    S_TRUMP,
    S_TUTESEAT,
)
from ._vector_slots import (
    A_EXCHANGE0,
    O_CANTES,
    O_CPOINTS,
    O_HAND,
    O_KNOWN,
    O_LEADER,
    O_PHASE,
    O_PLAYED,
    O_POINTS,
    O_SIZES,
    O_STOCK,
    O_TABLE,
    O_TCARD,
    O_TOMOVE,
    O_TRICK,
    O_TRICKS,
    O_TRUMP,
    O_UPCARD,
    O_VOID,
    P_BONUS,
    P_EXEMPT,
    P_FAM,
    P_HAND,
    P_N,
    P_PACKET,
    P_SIDES,
    P_STOCK,
    P_TABLE,
    P_THIRTY,
    P_TWO4,
    P_UNDER,
    X_CANTES0,
    X_DEALER,
    X_KNOWN0,
    X_PLAYED0,
    X_SEND,
    X_SPOS,
    X_STK0,
    X_TABLE,
    X_TCARD,
    X_VOID0,
)
from ._vector_stock import after_stock_trick, exchange, with_exchange

_M32 = np.uint64(0xFFFFFFFF)
MT_N = 624  # an MT row holds its 624 words and then its index


# --------------------------------------------------------------------------- MT19937


@njit(cache=True)
def _mt_init(mt: np.ndarray, seed: np.uint64) -> None:
    """CPython's ``random.seed(seed)`` for 0 <= seed < 2**64: init_by_array of its 32-bit
    words, least significant first (one word when the seed fits in 32 bits)."""
    hi = seed >> np.uint64(32)
    nkey = 2 if hi != 0 else 1
    key = np.empty(2, dtype=np.uint64)
    key[0] = seed & _M32
    key[1] = hi
    mt[0] = np.uint64(19650218)
    for i in range(1, MT_N):
        prev = mt[i - 1]
        mt[i] = (np.uint64(1812433253) * (prev ^ (prev >> np.uint64(30))) + np.uint64(i)) & _M32
    i = 1
    j = 0
    for _ in range(max(MT_N, nkey)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ (((prev ^ (prev >> np.uint64(30))) * np.uint64(1664525)) & _M32))
                 + key[j] + np.uint64(j)) & _M32
        i += 1
        j += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        if j >= nkey:
            j = 0
    for _ in range(MT_N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ (((prev ^ (prev >> np.uint64(30))) * np.uint64(1566083941)) & _M32))
                 - np.uint64(i)) & _M32
        i += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
    mt[0] = np.uint64(0x80000000)
    mt[MT_N] = np.uint64(MT_N)


@njit(cache=True)
def _mt_next(mt: np.ndarray) -> np.uint64:
    """The next 32-bit word (genrand_uint32)."""
    idx = mt[MT_N]
    if idx >= MT_N:
        for k in range(MT_N):
            y = (mt[k] & np.uint64(0x80000000)) | (mt[(k + 1) % MT_N] & np.uint64(0x7FFFFFFF))
            v = mt[(k + 397) % MT_N] ^ (y >> np.uint64(1))
            if y & np.uint64(1):
                v ^= np.uint64(0x9908B0DF)
            mt[k] = v
        idx = np.uint64(0)
    y = mt[idx]
    mt[MT_N] = idx + np.uint64(1)
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    y ^= y >> np.uint64(18)
    return y & _M32  # type: ignore[no-any-return]


@njit(cache=True)
def _mt_below(mt: np.ndarray, n: int) -> int:
    """``randbelow(rng, n)`` of tute.shuffle for n <= 2**31: bit_length(n) bits, rejected
    until below n."""
    k = 0
    while (n >> k) != 0:
        k += 1
    while True:
        r = np.int64(_mt_next(mt) >> np.uint64(32 - k))
        if r < n:
            return int(r)


@njit(cache=True)
def _mt_seed64(mt: np.ndarray) -> np.uint64:
    """``rng.randrange(2**64)``: getrandbits(65) (three words, the last one's top bit) until
    the 65th bit is 0."""
    while True:
        lo = _mt_next(mt)
        mid = _mt_next(mt)
        top = _mt_next(mt) >> np.uint64(31)
        if top == 0:
            return lo | (mid << np.uint64(32))


@njit(cache=True)
def _splitmix(seed: np.uint64, index: int) -> np.uint64:
    """tute.shuffle.derive_seed (uint64 arithmetic wraps as its masks do)."""
    z = seed + np.uint64(index + 1) * np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


# --------------------------------------------------------------------------- a new deal


@njit(cache=True)
def new_deal(st: np.ndarray, cfg: np.ndarray, base: np.ndarray, ex: np.ndarray,
             game_mt: np.ndarray, scratch: np.ndarray, pack: np.ndarray, par: np.ndarray
             ) -> np.uint64:
    """The next deal of the game's seed sequence, as ``Deal.new(seed=rng.randrange(2**64))``
    lays it out: the dealer drawn from the deal's seed, the shuffle dealt in packets (one
    card at a time but where ``deal_packet`` says) from mano; then the dealer's last card
    turned for trumps, arrastrado's table card, or the stock games' upcard and stock. Returns
    the deal's seed."""
    ds = _mt_seed64(game_mt)
    n = par[P_N]
    dealer = np.int64(_splitmix(ds, 1_000_003) % np.uint64(n))
    _mt_init(scratch, ds)
    deck = pack.copy()
    for i in range(deck.shape[0] - 1, 0, -1):
        j = _mt_below(scratch, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    size = par[P_HAND]
    st[:] = 0
    _deal_out(st, deck, n, int(dealer), size, par[P_PACKET])
    ex[:] = 0
    dealt = n * size
    if par[P_STOCK] != 0:  # the next card face up under the stock, drawn last: it names trumps
        tcard = deck[dealt]
        rest = deck.shape[0] - dealt
        for i in range(rest - 1):
            ex[X_STK0 + i] = deck[dealt + 1 + i]
        ex[X_STK0 + rest - 1] = tcard
        ex[X_SEND] = rest
        st[S_STOCK] = 1
    elif par[P_TABLE] != 0:  # the next card lies face up on the table: nobody's, names trumps
        tcard = deck[dealt]
    else:  # the dealer's last card, turned for all to see
        tcard = deck[dealt - 1]
        ex[X_KNOWN0 + dealer] = 1 << tcard
    trump = tcard // 10
    mano = (dealer + 1) % n
    cfg[:] = base
    cfg[C_TRUMP] = trump
    cfg[C_MANO] = mano
    if par[P_STOCK] != 0:
        cfg[C_ARRCANTE] = 0  # the windows follow the draws until the stock is gone
    st[S_LEADER] = mano
    st[S_TOMOVE] = mano
    st[11] = -1  # S_BEST
    st[S_BESTSEAT] = -1
    st[S_TOPLED] = -1
    st[31] = -1  # S_POLL
    st[S_TUTESEAT] = -1
    st[S_LASTSIDE] = -1
    st[S_TRUMP] = trump
    ex[X_TCARD] = tcard
    ex[X_DEALER] = dealer
    ex[X_TABLE] = -1
    if par[P_TABLE] != 0:
        ex[X_TABLE] = _exchanges(st, ex, n, tcard, trump, par[P_TWO4])
    return ds


@njit(cache=True)
def _deal_out(st: np.ndarray, deck: np.ndarray, n: int, dealer: int, size: int,
              packet: int) -> None:
    """``dealing.deal_out``: packets counter-clockwise from mano, ``size`` cards each."""
    if packet == 1:  # one card at a time: seat k of the round gets every n-th card
        for k in range(n):
            m = 0
            for c in range(size):
                m |= 1 << deck[k + n * c]
            st[S_H0 + (dealer + 1 + k) % n] = m
        return
    pos = 0
    r = 0
    while pos < n * size:
        seat = (dealer + 1 + r % n) % n
        take = min(packet, size - popcount(st[S_H0 + seat]))
        for j in range(take):
            st[S_H0 + seat] |= 1 << deck[pos + j]
        pos += take
        r += 1


@njit(cache=True)
def _exchanges(st: np.ndarray, ex: np.ndarray, n: int, table: int, trump: int, two4: int
               ) -> int:
    """Arrastrado's compulsory exchanges before the first lead (rules.md §4.2), public: the
    holder of the 7 of trumps takes an A, 3, R, C or S from the table, then the holder of the
    2 a 7, 6 or 5 (a 4 too with ``two_exchanges_four``); the card it gives is known to be
    gone and the one it takes to be in its hand. Returns the card left on the table."""
    while True:
        pos = table % 10
        if pos > 4:  # A 3 R C S: the 7
            give = 10 * trump + 4
        elif pos == 0 or (pos == 1 and two4 == 0):  # the 2 stays; a 4 without the option
            return table
        else:
            give = 10 * trump
        holder = -1
        for seat in range(n):
            if st[S_H0 + seat] >> give & 1:
                holder = seat
        if holder < 0:
            return table
        st[S_H0 + holder] = (st[S_H0 + holder] & ~(1 << give)) | (1 << table)
        ex[X_KNOWN0 + holder] = (ex[X_KNOWN0 + holder] & ~(1 << give)) | (1 << table)
        table = give


# --------------------------------------------------------------------------- a step


@njit(cache=True)
def _before(st: np.ndarray, cfg: np.ndarray, ex: np.ndarray, par: np.ndarray, a: int) -> None:
    """What the table learns from action ``a`` of the seat to move, before it is applied:
    the card played, a void its card proves (the encoder's trick machine), a cante shown."""
    seat = st[S_TOMOVE]
    if a < 40:
        ex[X_PLAYED0 + seat] |= 1 << a
        ex[X_KNOWN0 + seat] &= ~(1 << a)
        tlen = st[S_TLEN]
        if tlen > 0:
            lead = st[S_T0] // 10
            suit = a // 10
            if suit != lead:
                trump = cfg[C_TRUMP]
                rule = cfg[C_STOCKRULE] if st[S_STOCK] != 0 else 3  # the duties in force
                v = ex[X_VOID0 + seat]
                if rule == 3:  # full
                    v |= 1 << lead
                    exempt = par[P_EXEMPT] != 0 and (st[S_BESTSEAT] - seat) % 2 == 0  # partners
                    if (trump >= 0 and suit != trump and not exempt
                            and (st[S_RUFFED] == 0 or par[P_UNDER] != 0)):
                        v |= 1 << trump
                elif rule == 2 or (rule == 1 and lead == trump):  # follow_suit, trump lead
                    v |= 1 << lead
                ex[X_VOID0 + seat] = v
        return
    if a >= 45:  # a tute (it ends the deal), a pass or an exchange (see _vector_stock)
        if a < 47:
            ex[X_CANTES0 + seat] |= 1 << 4
        return
    suit = cfg[C_TRUMP] if a == A_CUARENTA else a - A_VEINTE0
    ex[X_CANTES0 + seat] |= 1 << suit
    ex[X_KNOWN0 + seat] |= (1 << (10 * suit + 7)) | (1 << (10 * suit + MARRIAGE_POS[par[P_FAM]]))


@njit(cache=True)
def _bits(o: np.ndarray, off: int, m: int) -> None:
    while m:
        low = m & -m
        o[off + popcount(low - 1)] = 1.0
        m ^= low


@njit(cache=True)
def write_seat(st: np.ndarray, cfg: np.ndarray, ex: np.ndarray, o: np.ndarray,
               mask: np.ndarray, offs: np.ndarray, k2cat: np.ndarray, par: np.ndarray,
               buf: np.ndarray) -> None:
    """The observation and legal-action mask of the seat to move (``encode_view`` of its
    view, written from the state: a test compares them at every step of whole games)."""
    n = par[P_N]
    seat = st[S_TOMOVE]
    o[:] = 0.0
    _bits(o, offs[O_HAND], st[S_H0 + seat])
    tlen = st[S_TLEN]
    if tlen > 0:
        p = st[S_LEADER]
        o[offs[O_LEADER] + (p - seat) % n] = 1.0
        for t in range(tlen):
            o[offs[O_TRICK] + 40 * ((p - seat) % n) + st[S_T0 + t]] = 1.0
            p = cfg[C_NXT0 + p]
    for p in range(n):
        r = (p - seat) % n
        _bits(o, offs[O_PLAYED] + 40 * r, ex[X_PLAYED0 + p])
        _bits(o, offs[O_KNOWN] + 40 * r, ex[X_KNOWN0 + p])
        v = ex[X_VOID0 + p]
        for s in range(4):
            o[offs[O_VOID] + 4 * r + s] = float(v >> s & 1)
        c = ex[X_CANTES0 + p]
        for s in range(5):
            if c >> s & 1:
                o[offs[O_CANTES] + 5 * r + s] = 1.0
        o[offs[O_SIZES] + r] = popcount(st[S_H0 + p]) / 14.0
    o[offs[O_TRUMP] + cfg[C_TRUMP]] = 1.0
    o[offs[O_TCARD] + ex[X_TCARD]] = 1.0
    if ex[X_TABLE] >= 0:
        o[offs[O_TABLE] + ex[X_TABLE]] = 1.0
    sides = par[P_SIDES]
    mine = seat % sides  # partners: seat % 2; individual players: the seat itself
    for side in range(sides):
        r = (side - mine) % sides
        o[offs[O_POINTS] + r] = min(st[S_PTS0 + side] / 120.0, 1.0)
        o[offs[O_CPOINTS] + r] = min(st[S_CANTE0 + side] / 200.0, 1.0)
    if par[P_STOCK] != 0:
        left = ex[X_SEND] - ex[X_SPOS]
        if left > 0:
            o[offs[O_UPCARD] + ex[X_STK0 + ex[X_SEND] - 1]] = 1.0
        o[offs[O_STOCK]] = left / 40.0
        o[offs[O_TRICKS]] = st[S_DONE] / 20.0
    else:
        o[offs[O_TRICKS]] = st[S_DONE] / 13.0
    o[offs[O_PHASE] + 2] = 1.0
    o[offs[O_TOMOVE]] = 1.0
    mask[:] = 0
    k = legal_actions(st, cfg, buf)
    if par[P_STOCK] != 0:
        k = with_exchange(st, cfg, ex, par, buf, k)
    for j in range(k):
        mask[k2cat[buf[j]]] = 1


@njit(cache=True)
def _returns(st: np.ndarray, par: np.ndarray, scale: float, out: np.ndarray) -> None:
    """Per seat: scale x (its side's total - the mean of the other sides'), a total being
    card points, cantes (with ``thirty_malas`` only beside 30 card points) and the last
    trick's bonus (``Table.returns``)."""
    sides = par[P_SIDES]
    tot = np.zeros(sides, dtype=np.int64)
    for side in range(sides):
        tot[side] = st[S_PTS0 + side]
        if par[P_THIRTY] == 0 or st[S_PTS0 + side] >= 30:
            tot[side] += st[S_CANTE0 + side]
        if st[S_LASTSIDE] == side:
            tot[side] += par[P_BONUS]
    whole = tot.sum()
    for s in range(par[P_N]):
        side = s % sides
        others = float(whole - tot[side]) / float(sides - 1)  # exact sum, one rounding: fmean
        out[s] = scale * (float(tot[side]) - others)


@njit(cache=True)
def check_actions(st: np.ndarray, cfg: np.ndarray, ex: np.ndarray, par: np.ndarray,
                  actions: np.ndarray, cat2k: np.ndarray, buf: np.ndarray) -> int:
    """The first game whose action is not legal now (-1: all are)."""
    for i in range(st.shape[0]):
        a = actions[i]
        if a < 0 or a >= cat2k.shape[0] or cat2k[a] < 0:
            return i
        code = cat2k[a]
        k = legal_actions(st[i], cfg[i], buf)
        if par[P_STOCK] != 0:
            k = with_exchange(st[i], cfg[i], ex[i], par, buf, k)
        ok = False
        for j in range(k):
            if buf[j] == code:
                ok = True
                break
        if not ok:
            return i
    return -1


@njit(cache=True)
def step_all(st: np.ndarray, cfg: np.ndarray, base: np.ndarray, ex: np.ndarray,
             mt: np.ndarray, scratch: np.ndarray, pack: np.ndarray, par: np.ndarray,
             offs: np.ndarray, cat2k: np.ndarray, k2cat: np.ndarray, actions: np.ndarray,
             scale: float, obs: np.ndarray, masks: np.ndarray, rewards: np.ndarray,
             done: np.ndarray, seeds: np.ndarray, buf: np.ndarray) -> None:
    """One (legal: :func:`check_actions`) action in every game; a finished game's rewards
    and ``done`` set, and its next deal dealt (auto-reset)."""
    for i in range(st.shape[0]):
        a = cat2k[actions[i]]
        _before(st[i], cfg[i], ex[i], par, a)
        if a >= A_EXCHANGE0:
            exchange(st[i], ex[i], a)
        else:
            tricks = st[i, S_DONE]
            apply_action(st[i], cfg[i], a)
            if st[i, S_STOCK] != 0 and st[i, S_DONE] != tricks and st[i, S_OVER] == 0:
                after_stock_trick(st[i], cfg[i], ex[i], par)
        if st[i, S_OVER] != 0:
            _returns(st[i], par, scale, rewards[i])
            done[i] = True
            seeds[i] = new_deal(st[i], cfg[i], base, ex[i], mt[i], scratch, pack, par)
        else:
            rewards[i, :] = 0.0
            done[i] = False
        write_seat(st[i], cfg[i], ex[i], obs[i], masks[i], offs, k2cat, par, buf)


@njit(cache=True)
def reset_all(seeds_in: np.ndarray, st: np.ndarray, cfg: np.ndarray, base: np.ndarray,
              ex: np.ndarray, mt: np.ndarray, scratch: np.ndarray, pack: np.ndarray,
              par: np.ndarray, offs: np.ndarray, k2cat: np.ndarray, obs: np.ndarray,
              masks: np.ndarray, seeds: np.ndarray, buf: np.ndarray) -> None:
    """Every game seeded (``random.Random(seed)``) and dealt its first deal."""
    for i in range(st.shape[0]):
        _mt_init(mt[i], seeds_in[i])
        seeds[i] = new_deal(st[i], cfg[i], base, ex[i], mt[i], scratch, pack, par)
        write_seat(st[i], cfg[i], ex[i], obs[i], masks[i], offs, k2cat, par, buf)


STATE_SIZE = S_SIZE


@njit(cache=True)
def random_actions(masks: np.ndarray, rng: np.ndarray, out: np.ndarray) -> None:
    """A uniformly random legal action per game (xorshift64 state ``rng[0]``, advanced)."""
    x = rng[0]
    for i in range(masks.shape[0]):
        k = 0
        for a in range(masks.shape[1]):
            k += masks[i, a]
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        pick = np.int64(((x >> np.uint64(32)) * np.uint64(k)) >> np.uint64(32))
        for a in range(masks.shape[1]):
            if masks[i, a]:
                if pick == 0:
                    out[i] = a
                    break
                pick -= 1
    rng[0] = x
