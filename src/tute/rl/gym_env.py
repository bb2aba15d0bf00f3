"""Tute as a Gymnasium single-agent environment: one seat is the agent, bots play the others.

``TuteGymEnv("tute_parejas", seat=0, opponents="rules")``: the other seats (the partner
included) are bots made by :func:`tute.bots.make_bot` from their names (``random``, ``rules``,
``pimc:worlds=20``...); each bot is given its seat's view, as at a table. Observations are the
seat's vector of docs/rl.md, the legal-action mask is ``info["action_mask"]``.

An illegal action raises :class:`~tute.errors.IllegalActionError` and changes nothing
(``illegal="raise"``, the default). Gymnasium's ``check_env`` steps with unmasked random
actions, so it is run with ``illegal="lose"``: the episode then ends with ``illegal_reward``
and the reason in ``info["illegal"]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..errors import IllegalActionError, InvalidOptionError, TuteError
from ..shuffle import MAX_SEED
from ..views import SeatView
from .encoding import Observation
from .table import Table

__all__ = ["TuteGymEnv"]

_MAX_REDEALS = 100  # deals that end before the agent's first turn (thrown in) are dealt again


class TuteGymEnv(gym.Env[Observation, np.int64]):
    """One seat of a game of the Tute family against bots."""

    # an instance variable of gymnasium.Env (so not a ClassVar)
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, variant: str = "tute_parejas", *, seat: int | str = 0,
                 opponents: str | Sequence[str] = "rules", reward: str = "deal",
                 reward_scale: float | None = None, illegal: str = "raise",
                 illegal_reward: float = -1.0, render_mode: str | None = None,
                 **options: Any):
        self.table = Table(variant, reward=reward, reward_scale=reward_scale, **options)
        n = self.table.n
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < n):
            raise InvalidOptionError(f"invalid value {seat!r} for option 'seat': expected "
                                     f"0..{n - 1} or 'random'")
        others = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(others) != n - 1:
            raise InvalidOptionError(f"invalid value {opponents!r} for option 'opponents': "
                                     f"expected one bot name or {n - 1} of them")
        for name in others:
            try:
                make_bot(name)
            except TuteError as exc:
                raise InvalidOptionError(f"invalid value {name!r} for option 'opponents': "
                                         f"{exc}") from None
        if illegal not in ("raise", "lose"):
            raise InvalidOptionError(f"invalid value {illegal!r} for option 'illegal': "
                                     "expected 'raise' or 'lose'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidOptionError(f"invalid value {render_mode!r} for option 'render_mode': "
                                     "expected None, 'ansi' or 'human'")
        self.seat_option = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.opponents = others
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (self.table.layout.size,), np.float32)
        self.action_space = spaces.Discrete(self.table.num_actions)
        self.bots: dict[int, Bot] = {}
        self._done = True

    @property
    def actions(self) -> tuple[str, ...]:
        """The notation of every action id."""
        return self.table.catalogue.names

    def view(self) -> SeatView:
        """The agent's seat view (its hand and the public record), for the agents of
        :mod:`tute.rl.zoo` and the bots, which read views, not vectors."""
        if self.table.deal is None:
            raise TuteError("no deal yet: call reset() first")
        return self.table.view(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.table.mask(self.seat)}

    def _play_bots(self) -> None:
        """Bots move until the agent is to move or the game is over."""
        table = self.table
        while not table.is_over() and table.to_move != self.seat:
            seat = table.to_move
            assert seat is not None
            deal = table.deal
            assert deal is not None
            view = deal.view(seat)  # a bot sees its seat's view, never the deal
            table.apply(table.catalogue.ids([self.bots[seat].choose(view, view.legal_actions)])[0],
                        seat)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """A new deal (match); ``options`` may hold ``deal_seed`` to play one given deal and
        ``dealer``. If it fails (a bad ``deal_seed`` or ``dealer``, a given deal that ends
        before the agent moves) the error names why and the environment is as it was: the
        game under way, the seat, the bots and the random generator."""
        given_seed, dealer = self.table.reset_options(options)  # before anything changes
        gen = self._np_random
        saved = (self.table.saved(), self.seat, self.bots, gen, self._np_random_seed,
                 None if gen is None else gen.bit_generator.state)
        try:
            self._new_game(seed, given_seed, dealer)
        except TuteError:
            table, self.seat, self.bots, self._np_random, self._np_random_seed, state = saved
            if gen is not None and state is not None:
                gen.bit_generator.state = state  # the draws made on the way are undone
            self.table.restore(table)
            raise
        self._done = False
        if self.render_mode == "human":  # Gymnasium's convention: shown on reset and step
            print(self.table.render())
        return self.table.observe(self.seat), self._info()

    def _new_game(self, seed: int | None, given_seed: int | None, dealer: int | None) -> None:
        super().reset(seed=seed)
        rng = self.np_random
        n = self.table.n
        for _ in range(_MAX_REDEALS):
            seat = int(rng.integers(n)) if self.seat_option == "random" else self.seat
            others = [s for s in range(n) if s != seat]
            bots = {s: make_bot(name, seed=int(rng.integers(2**63)))
                    for s, name in zip(others, self.opponents, strict=True)}
            deal_seed = given_seed
            if deal_seed is None:
                deal_seed = int(rng.integers(MAX_SEED, dtype=np.uint64))
            self.table.new(deal_seed, dealer)
            self.seat, self.bots = seat, bots
            self._play_bots()
            if not self.table.is_over():
                return
            if given_seed is not None:
                raise InvalidOptionError(f"invalid value {given_seed} for reset option "
                                         f"'deal_seed': that deal ends before seat {seat} "
                                         "moves")
        raise TuteError(f"{_MAX_REDEALS} deals in a row ended before seat {seat} moved")

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise IllegalActionError(f"illegal action {action!r}: the episode is over; call "
                                     "reset()", action=repr(action), reason="the episode is over")
        table = self.table
        try:
            table.action_of(action, self.seat)
        except IllegalActionError as exc:
            if self.illegal == "raise":
                raise
            self._done = True
            info = {**self._info(), "illegal": str(exc)}
            return table.observe(self.seat), self.illegal_reward, True, False, info
        table.apply(action, self.seat)
        self._play_bots()
        over = table.is_over()
        reward = table.returns()[self.seat] if over else 0.0
        self._done = over
        if self.render_mode == "human":
            print(table.render())
        return table.observe(self.seat), float(reward), over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None or self.table.deal is None:
            return None
        text = self.table.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

