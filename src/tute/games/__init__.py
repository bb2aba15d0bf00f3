"""One home for each game: what makes a game of the family different lives in its module.

The registry maps each variant to its :class:`Game` (one instance per variant; it is also put
in ``tute.variants.GAMES``, so that ``Variant.seat_count`` and the like find it without importing
this package);
:mod:`tute.variants` stays the registry of ids, aliases and options.
"""

from __future__ import annotations

from typing import Final

from ..variants import GAME_CLASSES, GAMES, VARIANTS, Variant, find_variant
from .arrastrado import Arrastrado
from .base import Game
from .cabrero import Cabrero
from .cabron import Cabron
from .gana_pierde import GanaPierde
from .parejas import Parejas
from .stock import Guinote, Stock
from .subastado import Subastado

__all__ = ["CLASSES", "GAMES", "Game", "game_for"]

#: the game class of each variant id
CLASSES: Final[dict[str, type[Game]]] = {
    "tute_parejas": Parejas,
    "tute_2p_habanero": Stock,
    "tute_2p_corriente": Stock,
    "guinote": Guinote,
    "guinote_2p": Guinote,
    "tute_arrastrado_3p": Arrastrado,
    "tute_subastado": Subastado,
    "tute_cabron": Cabron,
    "tute_gana_pierde": GanaPierde,
    "tute_cabrero": Cabrero,
}

_BY_ID: Final[dict[str, Game]] = {vid: CLASSES[vid](var) for vid, var in VARIANTS.items()}
GAMES.update(_BY_ID)
GAME_CLASSES.update(CLASSES)


def game_for(variant: str | Variant) -> Game:
    """The game of a variant (an id, an alias or a :class:`Variant`; a modified copy of a
    registered variant gets a game of its own)."""
    var = find_variant(variant)
    game = _BY_ID[var.id]
    return game if game.variant is var else CLASSES[var.id](var)
