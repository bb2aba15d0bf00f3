"""The game driver shared by the environments: one deal (or match), the action catalogue, one
observation encoder per seat, the legal-action mask and the rewards.

The environments only ever hand a seat the observation its encoder built from that seat's view
and events; the deal itself stays in here.
"""

from __future__ import annotations

import copy
import statistics
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..actions import Action
from ..deal import Deal
from ..errors import IllegalActionError, InvalidOptionError, TuteError
from ..match import Match
from ..shuffle import MAX_SEED
from ..variants import find_variant
from ..views import SeatView
from .encoding import (
    ActionCatalogue,
    ActionMask,
    Layout,
    Observation,
    TableEncoder,
    encode_view,
)

__all__ = ["REWARDS", "Table"]

REWARDS = ("deal", "match")
_DEFAULT_SCALE = {"deal": 0.01, "match": 1.0}


class Table:
    """One game (``reward="deal"``: one deal; ``"match"``: a whole match) and its encoders."""

    def __init__(self, variant: str = "tute_parejas", *, reward: str = "deal",
                 reward_scale: float | None = None, **options: Any):
        self.variant = find_variant(variant)
        self.options = self.variant.resolve(options)
        if reward not in REWARDS:
            raise InvalidOptionError(f"invalid value {reward!r} for option 'reward': expected "
                                     "'deal' (the deal's point margin) or 'match' (+1/-1 for "
                                     "the match)")
        if reward_scale is None:
            reward_scale = _DEFAULT_SCALE[reward]
        if isinstance(reward_scale, bool) or not isinstance(reward_scale, int | float) or not (
                0 < reward_scale < 1e6):
            raise InvalidOptionError(f"invalid value {reward_scale!r} for option "
                                     "'reward_scale': expected a positive number")
        self.reward_mode = reward
        self.reward_scale = float(reward_scale)
        self.n = self.variant.seat_count(self.options)
        self.sides = self.variant.sides(self.options)
        self.catalogue = ActionCatalogue(self.variant, self.options)
        self.layout = Layout.of(self.variant, self.options)
        self.encoder = TableEncoder(self.variant, self.options, self.layout)
        self.encoder.public.in_match = reward == "match"
        self.num_actions = len(self.catalogue)
        self._mask = np.zeros(self.num_actions, np.int8)
        self._none = np.zeros(self.num_actions, np.int8)
        self.match: Match | None = None
        self.deal: Deal | None = None
        self._deal_no = 0
        self._steps = 0
        self._legal_at = -1
        self._mask_at = -1
        self._mask_to_move: int | None = None
        self._legal: list[Action] = []
        self._ids: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        """An independent copy (OpenSpiel clones states): the deal (match) copied, the
        encoders rebuilt, since their buffers are views of arrays a deep copy would split."""
        other = copy.copy(self)
        other.encoder = TableEncoder(self.variant, self.options, self.layout)
        other.encoder.public.in_match = self.encoder.public.in_match
        other._mask = self._mask.copy()
        other._none = self._none.copy()
        other._legal, other._ids = list(self._legal), list(self._ids)
        if self.match is not None:
            other.match = copy.deepcopy(self.match, memo)
            other.deal = other.match.deal
        elif self.deal is not None:
            other.deal = self.deal.copy()
        return other

    # ------------------------------------------------------------------ game

    def new(self, seed: int, dealer: int | None = None) -> None:
        if self.reward_mode == "match":
            self.match = Match.new(self.variant, seed=seed, options=self.options,
                                   first_dealer=dealer)
            self.deal = self.match.deal
        else:
            self.match = None
            self.deal = Deal.new(self.variant, seed=seed, dealer=dealer, options=self.options)
        self._deal_no = 1
        self._steps = 0
        self._legal_at = -1
        self._mask_at = -1
        self.encoder.invalidate()

    def reset_options(self, options: Mapping[str, Any] | None) -> tuple[int | None, int | None]:
        """``deal_seed`` and ``dealer`` of an environment's ``reset(options=...)`` (None when
        not given), checked before the environment changes anything: a bad one raises
        :class:`InvalidOptionError` naming it."""
        opts = options or {}
        if not isinstance(opts, Mapping):
            raise InvalidOptionError(f"invalid reset options {opts!r}: expected a dict")
        out: list[int | None] = []
        for key, top, what in (("deal_seed", MAX_SEED, "an integer 0..2**64-1"),
                               ("dealer", self.n - 1, f"a seat 0..{self.n - 1}")):
            value = opts.get(key)
            if value is not None and (isinstance(value, bool | np.bool_) or not isinstance(
                    value, int | np.integer) or not 0 <= int(value) <= top):
                raise InvalidOptionError(f"invalid value {value!r} for reset option "
                                         f"{key!r}: expected {what}")
            out.append(None if value is None else int(value))
        return out[0], out[1]

    def saved(self) -> tuple[Any, ...]:
        """The game under way, for :meth:`restore` (an environment's reset that fails)."""
        return (self.match, self.deal, self._deal_no, self._steps)

    def restore(self, saved: tuple[Any, ...]) -> None:
        """Back to the game :meth:`saved` returned (its objects were not touched since)."""
        self.match, self.deal, self._deal_no, self._steps = saved
        self._legal_at = -1  # the caches may hold the other game's actions at this step
        self._mask_at = -1
        self.encoder.invalidate()

    def start(self, deal: Deal) -> None:
        """Play the given deal (laid out by the caller: OpenSpiel's chance nodes, tests);
        ``reward="deal"`` only."""
        if self.reward_mode != "deal":
            raise TuteError("a given deal can only be played with reward='deal'")
        if deal.variant is not self.variant or deal.options != self.options:
            raise TuteError(f"the deal is of {deal.variant.id} with other options than this "
                            f"table's {self.variant.id}")
        self.match = None
        self.deal = deal
        self._deal_no = 1
        self._steps = 0
        self._legal_at = -1
        self._mask_at = -1
        self.encoder.invalidate()

    def _game(self) -> Deal | Match:
        if self.match is not None:
            return self.match
        if self.deal is None:
            raise TuteError("no game yet: call reset() first")
        return self.deal

    @property
    def to_move(self) -> int | None:
        return self._game().to_move

    def is_over(self) -> bool:
        return self._game().is_over()

    def legal(self) -> tuple[list[Action], list[int]]:
        """The legal actions of the seat to move and their ids (cached per step)."""
        if self._legal_at != self._steps:
            self._legal = self._game().legal_actions()
            self._ids = self.catalogue.ids(self._legal)
            self._legal_at = self._steps
        return self._legal, self._ids

    def mask(self, seat: int) -> ActionMask:
        """The legal-action mask of ``seat`` (a fresh array): all zeros unless it is to
        move."""
        if self._mask_at != self._steps:
            self._mask_at = self._steps
            m = self._mask
            m[:] = 0
            if not self.is_over():
                m[self.legal()[1]] = 1
            self._mask_to_move = self.to_move
        if self._mask_to_move != seat:
            return self._none.copy()
        return self._mask.copy()

    def action_of(self, action_id: Any, seat: int) -> Action:
        """The action with id ``action_id`` if it is legal for ``seat`` now; otherwise
        :class:`IllegalActionError` naming it (and nothing changes)."""
        if isinstance(action_id, bool) or not isinstance(action_id, int | np.integer):
            raise IllegalActionError(f"invalid action {action_id!r}: expected an action id "
                                     f"0..{self.num_actions - 1}", action=repr(action_id))
        idx = int(action_id)
        if not 0 <= idx < self.num_actions:
            raise IllegalActionError(f"invalid action {idx}: outside the action space "
                                     f"0..{self.num_actions - 1} of {self.variant.id}",
                                     action=str(idx))
        act = self.catalogue.actions[idx]
        game = self._game()
        if game.is_over():
            raise IllegalActionError(f"illegal action {idx} ({act}): the game is over",
                                     action=str(act), reason="the game is over")
        if self.to_move != seat:
            raise IllegalActionError(f"illegal action {idx} ({act}): seat {seat} is not to "
                                     f"move (seat {self.to_move} is)", action=str(act))
        if idx not in self.legal()[1]:
            why = self._deal().why_illegal(act) or "not legal now"
            raise IllegalActionError(f"illegal action {idx} ({act}) for seat {seat}: {why}",
                                     action=str(act), reason=why)
        return act

    def apply(self, action_id: Any, seat: int) -> Action:
        act = self.action_of(action_id, seat)
        self._game().apply(act)
        self._steps += 1
        if self.match is not None and self.match.deal is not self.deal:
            self.deal = self.match.deal  # the match dealt the next deal
            self._deal_no += 1
            self.encoder.invalidate()
        return act

    def _deal(self) -> Deal:
        assert self.deal is not None
        return self.deal

    # ------------------------------------------------------------------ observations

    def observe(self, seat: int) -> Observation:
        """``seat``'s observation (a fresh array), from its own view and events only."""
        enc = self.encoder
        deal = self._deal()
        if deal.hides_cantes:
            # a 20 sung hidden (guinote_hide_arrastre_suit): only its singer knows the suit,
            # so the public part is no longer the same for every seat and the shared encoder
            # does not apply; each seat is encoded from its own view (till the deal ends)
            enc.invalidate()
            if self.match is not None:
                return encode_view(self.match.view(seat))
            return encode_view(deal.view(seat))
        if not enc.update(deal.events, deal.to_move):
            if self.match is not None:
                mv = self.match.view(0)
                enc.sync(mv.deal, mv)
            else:
                enc.sync(deal.view(0))
        if enc.needs_hand(seat):
            enc.set_hand(seat, deal.view(seat).hand.mask)
        return enc.observation(seat)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know of the deal under way (its hand and the public record):
        what a bot of :mod:`tute.bots` reads (:mod:`tute.rl.zoo`)."""
        return self._deal().view(seat)

    # ------------------------------------------------------------------ rewards

    def returns(self) -> list[float]:
        """Per seat, the scaled reward of the finished game (zeros while it goes on)."""
        if not self.is_over():
            return [0.0] * self.n
        var, opts = self.variant, self.options
        if self.match is not None:
            winner = self.match.result().winner
            if winner is None:
                return [0.0] * self.n
            lose = -1.0 / (self.sides - 1)
            return [self.reward_scale * (1.0 if var.side_of(s, opts) == winner else lose)
                    for s in range(self.n)]
        totals = self._deal().result().totals
        out = []
        for s in range(self.n):
            side = var.side_of(s, opts)
            others = statistics.fmean(t for k, t in enumerate(totals) if k != side)
            out.append(self.reward_scale * (totals[side] - others))
        return out

    # ------------------------------------------------------------------ text

    def render(self) -> str:
        deal = self._deal()
        var = self.variant
        lines = [f"{var.name} ({var.id})" + (f", deal {self._deal_no}" if self.match else "")
                 + f"; dealer {deal.dealer}"]
        trump = "not yet" if deal.trump is None else deal.trump.spanish
        extra = f", upcard {deal.upcard}, stock {deal.stock_count}" if var.stock else ""
        lines.append(f"trumps: {trump}" + (f" ({deal.trump_card})" if deal.trump_card else "")
                     + extra)
        for s in range(self.n):
            side = var.side_of(s, self.options)
            mark = " <" if deal.to_move == s else ""
            lines.append(f"  seat {s} (side {side}): {deal.hand(s) or '-'}{mark}")
        if deal.trick:
            lines.append("trick: " + "  ".join(f"{s}:{c}" for s, c in deal.trick))
        cantes = ", ".join(f"{s}:{d}" for s, d, _p in deal.cantes)
        lines.append(f"card points {list(deal.card_points)}" + (f"; cantes {cantes}"
                                                                if cantes else ""))
        if self.match is not None:
            lines.append(f"match: games {self.match.games} ({self.match.goal()})")
        if deal.is_over():
            res = deal.result()
            lines.append(f"over: totals {list(res.totals)}, winner {res.winner}")
        return "\n".join(lines)

