"""The fixed action catalogue of a game and the observation encoding of a seat (docs/rl.md):
they live in :mod:`tute.bots.encoding`, below the bots that play a saved policy with them
(layers point down: a bot never imports ``tute.rl``); this module keeps their RL name."""

from __future__ import annotations

from ..bots.encoding import (
    ActionCatalogue,
    ActionMask,
    Layout,
    Observation,
    SeatEncoder,
    TableEncoder,
    encode_view,
    seen_by,
)

__all__ = ["ActionCatalogue", "ActionMask", "Layout", "Observation", "SeatEncoder",
           "TableEncoder", "encode_view", "seen_by"]
