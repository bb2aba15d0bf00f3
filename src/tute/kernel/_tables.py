"""Layout of the kernel's flat int64 arrays and the per-family card tables.

The kernel keeps a card-play position in one ``int64`` array (``S_*`` slots) and the rules of
the deal in another (``C_*`` slots), so that numba functions take two arrays instead of thirty
scalars. The card tables come from the core (:mod:`tute.cards`); the core never imports this.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ..cards import GUINOTE, TUTE

# ---- state slots ------------------------------------------------------------------------------
S_H0: Final = 0  # hands of seats 0..3 (40-bit masks): slots 0..3
S_T0: Final = 4  # cards of the current trick in playing order: slots 4..7
S_TLEN: Final = 8
S_LEADER: Final = 9
S_TOMOVE: Final = 10
S_BEST: Final = 11  # winning card so far (-1 before the lead)
S_BESTSEAT: Final = 12
S_RUFFED: Final = 13
S_TOPLED: Final = 14  # strongest card of the led suit in the trick (must_head_after_ruff)
S_SUNG: Final = 15  # 4-bit: suits whose marriage was declared
S_FORTYLOST: Final = 16  # seat mask: lost the right to the 40 (forty_first=forfeit)
S_SIDEFIRST: Final = 17  # side mask: sides that have won a trick
S_FORFEIT: Final = 18  # side mask: sides that lost all declarations
S_PTS0: Final = 19  # card points taken by rule side 0..3: slots 19..22
S_CANTE0: Final = 23  # cante points of rule side 0..3: slots 23..26
S_DONE: Final = 27  # completed tricks
S_WINDOW: Final = 28  # seats that may still declare in the open window
S_WSEATS: Final = 29  # seats entitled when the window opened
S_WDECL: Final = 30  # somebody declared in this window
S_POLL: Final = 31  # seat asked to declare-or-pass (the winner's partner), or -1
S_OVER: Final = 32
S_TUTESEAT: Final = 33  # seat that sang a tute, or -1
S_LASTSIDE: Final = 34  # rule side that took the last trick, or -1
S_SIDETRICKS0: Final = 35  # tricks won per rule side: slots 35..38
S_STOCK: Final = 39  # 1 while the trick is a stock-phase trick (legality only)
S_TRUMP: Final = 40  # Tute cabrón: the trump suit, -1 until the first cante fixes it
S_SIZE: Final = 41

# ---- config slots -----------------------------------------------------------------------------
C_N: Final = 0  # seats
C_TRUMP: Final = 1  # trump suit or -1
C_FAMILY: Final = 2  # 0 tute, 1 guinote
C_EXEMPT: Final = 3
C_UNDER: Final = 4
C_HEAD: Final = 5
C_STOCKRULE: Final = 6  # 0 free, 1 follow_trump_lead, 2 follow_suit, 3 full
C_CANTEBY: Final = 7  # 0 trick_winner, 1 winning_side_one, 2 winning_side_each
C_FORTY: Final = 8  # 0 enforce, 1 forfeit, 2 off
C_RESTR: Final = 9  # 0 none, 1 forfeit_if_skipped_first, 2 first_win_only
C_TUTE: Final = 10  # tute_enabled
C_PARTNERS: Final = 11
C_TOTAL: Final = 12  # tricks in the deal
C_SIDE0: Final = 13  # rule side of seats 0..3 (seat % 2 with partners, else the seat): 13..16
C_NSIDES: Final = 17
C_SCALE: Final = 18  # solver objective: points are multiplied by this ...
C_TB: Final = 19  # ... and the last trick adds this tie-break unit on top of 10*scale
C_MANO: Final = 20
C_ARRCANTE: Final = 21  # 1: a declaration window follows the tricks played with no stock
#: objective side of seats 0..3 (slots 22..25): 0 for the seats whose points count for the
#: margin (:func:`tute.kernel._playout.final_margin`, the solver's value), 1 for the others.
#: The rule side when there are two; with more (arrastrado) {the hero} against the rest.
C_OBJ0: Final = 22
#: Tute cabrón: the trump is the state's (``S_TRUMP``); a king and its mate falling in one
#: trick are a cante of the trick's winner, the first one 40 and fixing trumps (no windows)
C_CABRON: Final = 26
#: cards per trick: the active seats (Tute subastado with ``seats=4``: the dealer sits out)
C_K: Final = 27
#: the seat that plays after seat s (slots 28..31): the next active one
C_NXT0: Final = 28
#: Tute subastado: the declarer, whose cantes alone count (``cantes_declarer_only``), or -1
C_DECLARER: Final = 32
C_SIZE: Final = 33

STOCK_RULES: Final = ("free", "follow_trump_lead", "follow_suit", "full")
CANTE_BY: Final = ("trick_winner", "winning_side_one", "winning_side_each")
FORTY_FIRST: Final = ("enforce", "forfeit", "off")
RESTRICTIONS: Final = ("none", "forfeit_if_skipped_first", "first_win_only")

# ---- actions ----------------------------------------------------------------------------------
A_CUARENTA: Final = 40
A_VEINTE0: Final = 41  # 41 + suit
A_TUTE_REYES: Final = 45
A_TUTE_SECOND: Final = 46  # four caballos (Tute) / four sotas (Guiñote)
A_PASS: Final = 47
# declaration bit d in a declarations mask <-> action 40 + d

# ---- card tables, [family, card] ----------------------------------------------------------------
STRENGTH: Final = np.array([TUTE.strength, GUINOTE.strength], dtype=np.int64)
POINTS: Final = np.array([TUTE.points, GUINOTE.points], dtype=np.int64)
HIGHER: Final = np.array([TUTE.higher, GUINOTE.higher], dtype=np.int64)
#: marriage partner of the king: caballo (position 6) in Tute, sota (5) in Guiñote
MARRIAGE_POS: Final = np.array([6, 5], dtype=np.int64)
SUIT_MASK: Final = np.array([0x3FF << (10 * s) for s in range(4)], dtype=np.int64)
KINGS: Final = sum(1 << (10 * s + 7) for s in range(4))
#: four caballos (Tute) / four sotas (Guiñote)
SECOND_TUTE: Final = np.array([sum(1 << (10 * s + 6) for s in range(4)),
                               sum(1 << (10 * s + 5) for s in range(4))], dtype=np.int64)
#: zero-point cards of each suit (2 4 5 6 7 in both families): candidates for merging
LOW_MASK: Final = sum(0x1F << (10 * s) for s in range(4))


def _check_tables() -> None:
    # merging equivalent cards relies on positions 0..4 being worthless and in strength order
    for fam in range(2):
        for s in range(4):
            for p in range(5):
                c = 10 * s + p
                assert POINTS[fam, c] == 0 and STRENGTH[fam, c] == p
            for p in range(5, 10):
                assert POINTS[fam, 10 * s + p] > 0


_check_tables()
