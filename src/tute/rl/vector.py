"""N games stepped in one call: :class:`VectorEnv`, the batched face of ``tute.rl.env``.

``VectorEnv("tute_parejas", 1024)`` keeps 1024 deals in the numba kernel's arrays
(:mod:`tute.kernel`); ``step(actions)`` plays one action in each and returns every game's
next observation, its rewards, whether it ended and its legal-action mask. A game that ends is
dealt its next deal in the same call (auto-reset). Each game is exactly the per-step
environment: game ``i`` after ``reset(seed)`` plays the deals that ``tute.rl.env`` plays after
``reset(seed=seed + i)`` and its ``reset()`` calls, and hands the seat to move the same
observation, mask and rewards (``tests/test_rl_vector.py`` plays whole games of both).

Scope: the kernel plays card play, so the games whose deals are card play from the first lead
to the end, with at most public events the batch does itself: Tute por parejas, Tute
arrastrado (``tute_arrastrado_3p``: three players, whose compulsory table-card exchanges are
public events before the first lead, done here when the deal is dealt; or ``players=4``,
individual players with the dealer's card turned), and the stock games (two-player Tute
habanero and corriente, Guiñote for four and for two): the upcard, the draw after each stock
trick, the upcard exchange as an action on the winner's next turn and the windows after the
draw (:mod:`._vector_stock`), with the options the kernel models. Polls before the first lead or
the draw (optional exchanges included), throw-ins, renuncio claims and auctions are the
core's; those variants and options are refused with the reason.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..actions import Exchange
from ..deal import Deal
from ..errors import IllegalActionError, InvalidOptionError
from ..games import game_for
from ..kernel import NotCardPlayPositionError, action_code, make_config
from ..kernel._tables import C_FAMILY
from ..shuffle import MAX_SEED
from ..variants import VARIANTS, find_variant
from ..views import SeatView
from . import _vector_kernel as K
from . import _vector_slots as X
from .encoding import ActionCatalogue, Layout

__all__ = ["STOCK_OPTIONS", "SUPPORTED_OPTIONS", "VectorEnv"]

#: options that may differ from their defaults: the kernel's card-play rules
SUPPORTED_OPTIONS = frozenset({"partner_exemption", "must_undertrump", "must_head_after_ruff",
                               "cante_by", "forty_first", "cante_restriction", "tute_enabled",
                               "last_trick_bonus", "two_games_threshold", "two_games_rule",
                               "match", "tute_award", "first_dealer",
                               # arrastrado: the exchanges, done at the deal, and its scoring
                               # (rewards are the deal's point margins, whatever the scoring)
                               "players", "exchange_mandatory", "two_exchanges_four",
                               "scoring_3p", "loss_limit", "multi_over", "match_target",
                               "match_deals"})
#: and in the stock games: the hand size and packets, the duties while the stock lasts, which
#: card takes the upcard, thirty_malas (in the rewards) and the scoring and match options
#: (which the deal's point-margin reward does not use). The exchange's other timings and
#: the last round's exchange (questions before the draw), cante_before_draw, Guiñote's
#: exchange on one's own turn (exchange_side_requirement) and the hidden 20s of the arrastre
#: are refused.
STOCK_OPTIONS = frozenset({"hand_size", "deal_packet", "stock_phase_rule",
                           "exchange_two_enabled", "two_exchanges_four", "thirty_malas",
                           "scoring_2p", "both_over", "vueltas_claim", "games_to_win",
                           "partidas_per_coto", "cotos_to_win"})

_MAX_DECISIONS = 128  # a deal: at most 40 cards and its cantes and passes, far fewer

_BLOCKS = ("hand", "trick", "leader", "played", "known", "void", "trump", "trump_card",
           "cantes", "points", "cante_points", "hand_sizes", "tricks", "phase", "to_move",
           "table_card", "upcard", "stock")  # in the order of _vector_slots' O_* indices


def batched_games() -> list[str]:
    """The variants VectorEnv plays (those whose game has no ``batch_gap``)."""
    return [v.id for v in VARIANTS.values() if not game_for(v).batch_gap]


class VectorEnv:
    """``n`` games of ``variant`` (a game whose ``batch_gap`` is empty) stepped together.

    Arrays returned are the environment's own buffers, overwritten by the next call: copy
    what you keep. ``rewards`` has one column per seat (every seat is rewarded when its
    deal ends: ``reward_scale`` x its side's total minus the mean of the others', as
    ``tute.rl.env``
    with ``reward="deal"``); ``to_move`` says whose observation each row is.
    """

    def __init__(self, variant: str = "tute_parejas", n: int = 1, *,
                 reward_scale: float = 0.01, **options: Any):
        var = find_variant(variant)
        game = game_for(var)
        why = game.batch_gap
        if why:
            raise InvalidOptionError(f"VectorEnv does not play {var.id}: its deals have {why}, "
                                     "which the numba kernel does not model (batched: "
                                     f"{', '.join(batched_games())}; use tute.rl.env)")
        opts = var.resolve(options)
        defaults = var.resolve({})
        supported = SUPPORTED_OPTIONS | (STOCK_OPTIONS if game.stock else frozenset())
        for name in options:
            if name not in supported and getattr(opts, name) != getattr(defaults, name):
                raise InvalidOptionError(
                    f"VectorEnv does not support option {name!r}={options[name]!r} in "
                    f"{var.id}: the numba kernel plays card play only (no opening polls, "
                    "questions before the draw, throw-ins, claims, other deals); supported: "
                    + ", ".join(sorted(supported & set(var.option_names))))
        if game.exchanges and not game.stock and opts.players == 3 and (
                not opts.exchange_mandatory):
            raise InvalidOptionError("VectorEnv does not support option "
                                     "'exchange_mandatory'=False: optional table-card "
                                     "exchanges are polls before the first lead, which the "
                                     "numba kernel does not model")
        if opts.deal_packet != 1 and not game.stock:
            raise InvalidOptionError("VectorEnv deals one card at a time (deal_packet=1)")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InvalidOptionError(f"invalid number of games {n!r}: expected an integer >= 1")
        if isinstance(reward_scale, bool) or not isinstance(reward_scale, int | float) or not (
                0 < reward_scale < 1e6):
            raise InvalidOptionError(f"invalid value {reward_scale!r} for option "
                                     "'reward_scale': expected a positive number")
        self.variant, self.options = var, opts
        self.num_envs = n
        self.num_seats = seats = game.seat_count(opts)
        self.catalogue = ActionCatalogue(var, opts)
        self.layout = Layout.of(var, opts)
        self.num_actions = len(self.catalogue)
        self.observation_size = self.layout.size
        self.reward_scale = float(reward_scale)
        self._cat2k = np.full(self.num_actions, -1, np.int64)
        self._k2cat = np.full(X.A_COUNT, 0, np.int64)
        for i, act in enumerate(self.catalogue.actions):
            if isinstance(act, Exchange):  # the upcard's (arrastrado's are done at the deal)
                card = act.card.index
                code = X.A_EXCHANGE0 + 2 * (card // 10) + (card % 10 == 0)
            else:
                try:
                    code = action_code(act)
                except NotCardPlayPositionError:  # stop (vueltas_claim=manual): never offered
                    continue
            self._cat2k[i] = code
            self._k2cat[code] = i
        self._base = make_config(var, opts, 0)
        self._offs = np.array([self.layout.offset(b) for b in _BLOCKS], np.int64)
        partners = var.partnerships
        table = game.exchanges and not game.stock and seats == 3  # arrastrado's table card
        self._par = np.array([seats, int(opts.partner_exemption and partners),
                              int(opts.must_undertrump), opts.last_trick_bonus,
                              int(self._base[C_FAMILY]), game.layout(opts)[1],
                              game.sides(opts), int(table), int(opts.two_exchanges_four),
                              int(game.stock), int(opts.exchange_two_enabled),
                              int(game.arrastre_cantes), int(opts.thirty_malas),
                              opts.deal_packet], np.int64)
        assert len(self._par) == X.P_COUNT and len(_BLOCKS) == X.O_COUNT
        deck = game.layout(opts)[0]
        self._pack = np.array([c for c in range(40) if deck >> c & 1], np.int64)
        assert not game.stock or len(self._pack) - seats * self._par[X.P_HAND] <= X.STOCK_MAX
        self._st = np.zeros((n, K.STATE_SIZE), np.int64)
        self._cfg = np.zeros((n, len(self._base)), np.int64)
        self._ex = np.zeros((n, X.X_SIZE), np.int64)
        self._mt = np.zeros((n, K.MT_N + 1), np.uint64)
        self._scratch = np.zeros(K.MT_N + 1, np.uint64)
        self._buf = np.zeros(64, np.int64)
        self.observations: NDArray[np.float32] = np.zeros((n, self.observation_size),
                                                          np.float32)
        self.masks: NDArray[np.int8] = np.zeros((n, self.num_actions), np.int8)
        self.rewards: NDArray[np.float64] = np.zeros((n, seats), np.float64)
        self.done: NDArray[np.bool_] = np.zeros(n, np.bool_)
        self.deal_seeds: NDArray[np.uint64] = np.zeros(n, np.uint64)
        # each game's actions since its deal began, for view(i): the deal replayed in the
        # engine
        self._hist = np.zeros((n, _MAX_DECISIONS), np.int64)
        self._hlen = np.zeros(n, np.int64)
        self._rows = np.arange(n)
        self._mirrors: dict[int, tuple[int, int, Deal]] = {}  # game: (seed, actions, deal)
        self._ready = False

    @property
    def actions(self) -> tuple[str, ...]:
        """The notation of every action id."""
        return self.catalogue.names

    @property
    def to_move(self) -> NDArray[np.int64]:
        """Per game, the seat whose observation and mask the last call returned."""
        return self._st[:, 10].copy()  # S_TOMOVE

    @property
    def dealers(self) -> NDArray[np.int64]:
        return self._ex[:, X.X_DEALER].copy()

    def reset(self, seed: int | Sequence[int] | None = None
              ) -> tuple[NDArray[np.float32], NDArray[np.int8]]:
        """Every game's first deal; ``seed``: game ``i`` is seeded ``seed + i`` (or
        ``seed[i]`` given a list of ``n`` seeds; fresh random seeds if None), each seed
        0..2**64-1. Returns (observations, masks)."""
        seeds = self._seeds(seed)
        K.reset_all(seeds, self._st, self._cfg, self._base, self._ex, self._mt, self._scratch,
                    self._pack, self._par, self._offs, self._k2cat, self.observations,
                    self.masks, self.deal_seeds, self._buf)
        self.rewards[:] = 0.0
        self.done[:] = False
        self._hlen[:] = 0
        self._mirrors.clear()
        self._ready = True
        return self.observations, self.masks

    def view(self, i: int) -> SeatView:
        """Game ``i``'s seat to move, its view (its hand and the public record: what a bot of
        :mod:`tute.bots` or an agent of :mod:`tute.rl.zoo` reads). The deal is replayed in
        the engine from its seed and the actions played (kept per game, and the replay
        kept between calls), so a view costs the engine's steps since the last one."""
        if not self._ready:
            raise InvalidOptionError("no game yet: call reset() first")
        if isinstance(i, bool) or not isinstance(i, int | np.integer) or not (
                0 <= i < self.num_envs):
            raise InvalidOptionError(f"invalid game {i!r}: expected 0..{self.num_envs - 1}")
        i = int(i)
        seed, length = int(self.deal_seeds[i]), int(self._hlen[i])
        kept = self._mirrors.get(i)
        if kept is None or kept[0] != seed or kept[1] > length:
            deal = Deal.new(self.variant, seed=seed, dealer=int(self._ex[i, X.X_DEALER]),
                            options=self.options)
            done = 0
        else:
            _seed, done, deal = kept
        actions = self.catalogue.actions
        for a in self._hist[i, done:length]:
            deal.apply(actions[a])
        self._mirrors[i] = (seed, length, deal)
        seat = deal.to_move
        assert seat is not None and seat == int(self._st[i, 10])  # the kernel's seat to move
        return deal.view(seat)

    def deal(self, i: int) -> Deal:
        """Game ``i``'s whole deal, every hand known (a copy, replayed as :meth:`view`
        replays it): for labels made with all the cards seen, such as the exact solver's
        value of each action (``tute.solver.Solver.analyze``). An agent reads ``view(i)``."""
        self.view(i)  # validates ``i`` and brings the replay up to the game's last action
        return self._mirrors[int(i)][2].copy()

    def _seeds(self, seed: int | Sequence[int] | None) -> NDArray[np.uint64]:
        n = self.num_envs
        if seed is None:
            sysrand = random.SystemRandom()
            values = [sysrand.getrandbits(63) for _ in range(n)]
        elif isinstance(seed, int) and not isinstance(seed, bool):
            values = [seed + i for i in range(n)]
        elif isinstance(seed, Sequence) and len(seed) == n:
            values = list(seed)
        else:
            raise InvalidOptionError(f"invalid seed {seed!r}: expected an integer or a list of "
                                     f"{n} integers")
        for v in values:
            if isinstance(v, bool) or not isinstance(v, int | np.integer) or not (
                    0 <= int(v) <= MAX_SEED):
                raise InvalidOptionError(f"invalid seed {v!r}: expected an integer "
                                         "0..2**64-1 per game")
        return np.array([int(v) for v in values], np.uint64)

    def step(self, actions: Any) -> tuple[NDArray[np.float32], NDArray[np.float64],
                                          NDArray[np.bool_], NDArray[np.int8]]:
        """One action id per game, for its seat to move. Returns (observations, rewards per
        seat, done, masks); a game that ended (``done``) shows its next deal's first
        observation. An illegal action raises :class:`IllegalActionError` naming the game,
        and no game changes."""
        if not self._ready:
            raise IllegalActionError("no game yet: call reset() first", action=repr(actions))
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise IllegalActionError(f"invalid actions: expected {self.num_envs} integer "
                                     f"action ids, got an array of shape {acts.shape} and type "
                                     f"{acts.dtype}", action=repr(actions))
        acts = acts.astype(np.int64, copy=False)
        bad = K.check_actions(self._st, self._cfg, self._ex, self._par, acts, self._cat2k,
                               self._buf)
        if bad >= 0:
            self._refuse(bad, int(acts[bad]))
        hlen = self._hlen
        self._hist[self._rows, hlen] = acts
        hlen += 1
        K.step_all(self._st, self._cfg, self._base, self._ex, self._mt, self._scratch,
                   self._pack, self._par, self._offs, self._cat2k, self._k2cat, acts,
                   self.reward_scale, self.observations, self.masks, self.rewards, self.done,
                   self.deal_seeds, self._buf)
        hlen[self.done] = 0  # those games are dealt their next deal
        return self.observations, self.rewards, self.done, self.masks

    def random_actions(self, seed: int | None = None) -> NDArray[np.int64]:
        """A uniformly random legal action per game, from the last masks returned (a fast
        random opponent; ``seed`` restarts its generator)."""
        if seed is not None or not hasattr(self, "_rng"):
            start = random.getrandbits(63) if seed is None else seed
            self._rng = np.array([(start * 2654435761 + 88172645463325252) % 2**64 or 1],
                                 np.uint64)
            self._acts = np.zeros(self.num_envs, np.int64)
        K.random_actions(self.masks, self._rng, self._acts)
        return self._acts

    def _refuse(self, game: int, a: int) -> None:
        seat = int(self._st[game, 10])
        if not 0 <= a < self.num_actions:
            raise IllegalActionError(f"invalid action {a} in game {game}: outside the action "
                                     f"space 0..{self.num_actions - 1}", action=str(a))
        name = self.catalogue.names[a]
        legal = [self.catalogue.names[i] for i in np.flatnonzero(self.masks[game])]
        raise IllegalActionError(f"illegal action {a} ({name}) in game {game} for seat {seat}: "
                                 f"not legal now (legal: {' '.join(legal)})", action=name,
                                 reason="not legal now")
