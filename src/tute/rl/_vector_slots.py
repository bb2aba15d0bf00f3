"""The layout of :class:`tute.rl.vector.VectorEnv`'s per-game rows beside the kernel's state
and config (:mod:`tute.kernel._tables`): ``ex``, the public facts of a deal the kernel does
not keep, ``par``, the game's parameters, and ``offs``, the observation's block offsets.
Shared by the numba loops of :mod:`._vector_kernel` and :mod:`._vector_stock`."""

from __future__ import annotations

# ---- ex slots: the public facts of the deal the kernel does not keep
X_PLAYED0 = 0  # cards played per seat (4 masks)
X_KNOWN0 = 4  # cards known to be in a seat's hand (the turned trump card, cantes shown)
X_VOID0 = 8  # suits a seat was seen to lack (4-bit masks)
X_CANTES0 = 12  # per seat: bit = suit of a marriage it sang, bit 4 a tute
X_TCARD = 16  # the card that named trumps (turned, the stock's first upcard, or arrastrado's
#               first table card)
X_DEALER = 17
X_TABLE = 18  # arrastrado for three: the table card after the exchanges (-1: none)
# the stock games: the stock, top first, the upcard last (an exchange puts the 7 or the 2
# there); the next card to draw; the stock's length as dealt; the exchange rights kept for
# the next turn (the 7 and 2 of trumps the trick's winning side held before the draw)
X_STK0 = 19
STOCK_MAX = 28  # 40 cards less two hands of 6
X_SPOS = X_STK0 + STOCK_MAX
X_SEND = X_SPOS + 1
X_DUE = X_SEND + 1
X_SIZE = X_DUE + 1

# ---- offsets of the observation's blocks (from tute.bots.encoding.Layout), ``offs``
O_HAND, O_TRICK, O_LEADER, O_PLAYED, O_KNOWN, O_VOID, O_TRUMP, O_TCARD = range(8)
O_CANTES, O_POINTS, O_CPOINTS, O_SIZES, O_TRICKS, O_PHASE, O_TOMOVE = range(8, 15)
O_TABLE, O_UPCARD, O_STOCK = range(15, 18)
O_COUNT = 18

# ---- parameters, ``par``
P_N, P_EXEMPT, P_UNDER, P_BONUS, P_FAM, P_HAND = range(6)
P_SIDES = 6  # 2 (partners: side = seat % 2) or one side per seat
P_TABLE = 7  # 1: the card after the hands lies on the table (arrastrado for three)
P_TWO4 = 8  # two_exchanges_four: the 2 of trumps takes a 4 on the table too
P_STOCK = 9  # 1: a stock game (the upcard, draws after each stock trick, exchanges)
P_TWOEX = 10  # exchange_two_enabled: the 2 of trumps may take a low upcard
P_ARR = 11  # the game declares in the arrastre too (Guiñote)
P_THIRTY = 12  # thirty_malas: a side's cantes count only with 30 card points
P_PACKET = 13  # cards per packet when dealing
P_COUNT = 14

# ---- kernel action codes beyond tute.kernel's 0..47: the upcard exchanges, 48 + 2 x suit
# for the 7 of that suit, + 1 for the 2 (ActionCatalogue's order)
A_EXCHANGE0 = 48
A_COUNT = 56
