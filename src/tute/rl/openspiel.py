"""Tute as an OpenSpiel Python game: ``import tute.rl.openspiel`` registers ``python_tute``.

``pyspiel.load_game("python_tute", {"variant": "guinote", "options": '{"thirty_malas": true}'})``
(``options`` is a JSON object of the game's options). Chance deals the pack card by card: one
chance node per card, in a fixed order — seat 0's hand, seat 1's... then the stock (upcard
first, then the face-down cards top first), arrastrado's table card or subastado's widow — so
a deal is a sequence of uniform chance outcomes (card indices) and the world a player cannot
see is the part of that sequence it was not shown. The last seat deals (seat 0 is mano; in
subastado with four seats the dealer sits out with an empty hand). Player actions are the ids
of the game's action catalogue (docs/rl.md: cards are 0..39); returns are the deal's point
margin per seat's side, in hundreds of points (zero-sum).

Observations: the observation tensor is the seat's vector of docs/rl.md; the information state
tensor adds every trick so far, card by card, by relative seat; the strings are the seat's view
and, for the information state, its own dealt cards and its event log (``deal.events_for``).

:meth:`TuteState.resample_from_infostate` deals the cards a player has not seen at random
(every card another seat played, showed or gave stays in that seat's slots) and keeps the
first world whose replay of the whole history is legal: the world of another seat, as ISMCTS
needs. ``tute.worlds`` (being written) will give exact, better-mixed samples; this one is
approximate (uniform over the slots, then rejection).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..cards import ALL_CARDS
from ..deal import Deal
from ..errors import IllegalActionError, InvalidOptionError, TuteError
from ..events import CardPlayed, Declared, Drew, Event, Exchanged, TookOver
from ..games import game_for
from .encoding import SeatEncoder
from .table import Table

__all__ = ["TuteGame", "TuteState", "game_type"]

_SHORT_NAME = "python_tute"
_MAX_TRIES = 2000  # worlds drawn by resample_from_infostate before it gives up
_SCALE = 0.01  # returns in hundreds of points


def game_type() -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=_SHORT_NAME,
        long_name="Tute (the Spanish trick-taking family), tute.rl",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"variant": "tute_parejas", "options": "{}"},
    )


class _Spec:
    """What a game's states need, kept per parameter set: pybind11 may hand a state a fresh
    wrapper of the game without the Python attributes set in its ``__init__``."""

    def __init__(self, variant: str, options: dict[str, Any]):
        probe = Table(variant, reward_scale=_SCALE, **options)  # names a bad option or game
        self.table_args = (variant, options)
        self.variant, self.opts = probe.variant, probe.options
        self.n = n = probe.n
        self.layout = probe.layout
        self.catalogue = probe.catalogue
        deck, size = probe.variant.layout(probe.options)
        self.deck = [c.index for c in ALL_CARDS if c.mask & deck]
        self.hand_size = size
        sample = Deal.new(self.variant, seed=0, dealer=n - 1, options=self.opts)
        self.receivers = [s for s in range(n) if sample.initial_hands[s]]
        self.tricks = sample.total_tricks
        self.active = len(self.receivers)

    # the chance slots: which seat's hand each one fills (None: stock, table card, widow)
    def slot_owner(self, k: int) -> int | None:
        hands = len(self.receivers) * self.hand_size
        if k < hands:
            return self.receivers[k // self.hand_size]
        return None

    def build(self, cards: list[int]) -> Deal:
        """The deal that the chance outcomes ``cards`` (in slot order) lay out."""
        size, n = self.hand_size, self.n
        hands: list[list[str]] = [[] for _ in range(n)]
        for i, s in enumerate(self.receivers):
            hands[s] = [str(ALL_CARDS[c]) for c in cards[i * size:(i + 1) * size]]
        dealt = len(self.receivers) * size
        kw = game_for(self.variant).deal_extras(list(cards[dealt:]), cards[dealt - 1])
        return Deal.new(self.variant, options=self.opts, dealer=n - 1, hands=hands, **kw)


_SPECS: dict[tuple[str, str], _Spec] = {}


def _params(params: Any) -> tuple[str, dict[str, Any]]:
    params = dict(params or {})
    variant = str(params.get("variant", "tute_parejas"))
    try:
        options = json.loads(str(params.get("options", "{}")))
    except json.JSONDecodeError as exc:
        raise InvalidOptionError(f"invalid 'options' for python_tute: not JSON ({exc})"
                                 ) from None
    if not isinstance(options, dict):
        raise InvalidOptionError("invalid 'options' for python_tute: expected a JSON object")
    return variant, options


def _spec(params: Any) -> _Spec:
    variant, options = _params(params)
    key = (variant, json.dumps(options, sort_keys=True))
    spec = _SPECS.get(key)
    if spec is None:
        spec = _SPECS[key] = _Spec(variant, options)
    return spec


class TuteGame(pyspiel.Game):
    """One game of the family with its options."""

    def __init__(self, params: dict[str, Any] | None = None):
        variant, options = _params(params)
        spec = _spec(params)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(spec.catalogue),
            max_chance_outcomes=40,
            num_players=spec.n,
            min_utility=-5.0,
            max_utility=5.0,
            utility_sum=0.0,
            max_game_length=len(spec.deck) + 600,
        )
        super().__init__(game_type(), info, {"variant": variant,
                                             "options": json.dumps(options, sort_keys=True)})

    def new_initial_state(self) -> TuteState:
        return TuteState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TuteObserver:
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return TuteObserver(_spec(self.get_parameters()), perfect)


class TuteState(pyspiel.State):
    """Dealing (chance), then the deal played through :class:`~tute.rl.table.Table`."""

    def __init__(self, game: TuteGame):
        super().__init__(game)
        self.game = _spec(game.get_parameters())  # after the base __init__ (pybind11)
        self.cards: list[int] = []  # chance outcomes so far (card indices, slot order)
        self.moves: list[tuple[int, int]] = []  # (seat, action id)
        variant, options = self.game.table_args
        self.table = Table(variant, reward_scale=_SCALE, **options)
        self._dealt = False

    # ------------------------------------------------------------------ the game

    def current_player(self) -> int:
        if not self._dealt:
            return int(pyspiel.PlayerId.CHANCE)
        if self.table.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self.table.to_move
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        if not self._dealt or self.table.is_over() or player != self.table.to_move:
            return []
        return sorted(self.table.legal()[1])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(self.game.deck) - set(self.cards))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        if not self._dealt:
            if action not in self.game.deck or action in self.cards:
                raise IllegalActionError(f"illegal chance outcome {action}: that card is "
                                         "dealt already or not in the pack")
            self.cards.append(action)
            if len(self.cards) == len(self.game.deck):
                self.table.start(self.game.build(self.cards))
                self._dealt = True
            return
        seat = self.table.to_move
        assert seat is not None
        self.table.apply(action, seat)
        self.moves.append((seat, action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal:{ALL_CARDS[action]}"
        return self.game.catalogue.names[action]

    def is_terminal(self) -> bool:
        return self._dealt and self.table.is_over()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.n
        return self.table.returns()

    def __str__(self) -> str:
        if not self._dealt:
            return f"dealing: {len(self.cards)} of {len(self.game.deck)} cards"
        return self.table.render()

    def __deepcopy__(self, memo: dict[int, Any]) -> TuteState:
        # the encoders' buffers are views of arrays: rebuild them rather than copy them
        other = TuteState(self.get_game())
        other.cards = list(self.cards)
        other.moves = list(self.moves)
        if self._dealt:
            assert self.table.deal is not None
            other.table.start(self.table.deal.copy())
            other._dealt = True
        return other

    def clone(self) -> TuteState:
        return copy.deepcopy(self)

    # ------------------------------------------------------------------ seat's knowledge

    def _own_slots(self, player: int) -> list[int]:
        g = self.game
        return [k for k in range(len(self.cards)) if g.slot_owner(k) == player]

    def _view(self, player: int) -> Any:
        deal = self.table.deal
        assert deal is not None
        return deal.view(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None,
                                rng: random.Random | None = None) -> TuteState:
        """A state with the same information state for ``player_id``: the cards it has not
        seen dealt again at random, kept only if the whole history replays legally."""
        if not self._dealt:
            state = TuteState(self.get_game())
            own = set(self._own_slots(player_id))
            rest = [c for c in self.game.deck if c not in {self.cards[k] for k in own}]
            rng = rng or random.Random(_seed_of(probability_sampler))
            rng.shuffle(rest)
            it = iter(rest)
            for k in range(len(self.cards)):
                state._apply_action(self.cards[k] if k in own else next(it))
            return state
        rng = rng or random.Random(_seed_of(probability_sampler))
        g = self.game
        view = self._view(player_id)
        fixed, owner, rank = self._slots_known_to(player_id, view)
        hands = len(g.receivers) * g.hand_size
        free = [k for k in range(len(self.cards)) if k not in fixed]
        # cards that must lie in a seat's own slots, in the order the table saw them there:
        # played, given in an exchange, shown in a cante (not those that reached it face up,
        # nor the face-up slots); the k-th of them goes to the seat's k-th slot in the order
        # the slots were filled (dealt, then drawn), which always leaves it in hand in time
        public = {self.cards[k] for k in fixed}
        came_face_up = {t.index for _s, _g, t in view.exchanges} | {
            e.card.index for e in view.history  # type: ignore[union-attr]
            if e.__class__ is Drew and e.public}  # type: ignore[union-attr]
        need: dict[int, list[int]] = {}
        skip = public | came_face_up
        for e in view.history:
            cls = e.__class__
            if cls is CardPlayed:
                seat, cards = e.seat, (e.card.index,)  # type: ignore[union-attr]
            elif cls is Exchanged:
                seat, cards = e.seat, (e.given.index,)  # type: ignore[union-attr]
            elif cls is Declared and not game_for(g.variant).trump_changes:  # cabrón: trick cantes
                seat, cards = e.seat, tuple(c.index for c in e.cards)  # type: ignore[union-attr]
            else:
                continue
            if seat == player_id:
                continue
            got = need.setdefault(seat, [])
            for c in cards:
                if c not in got and (c not in skip or cls is Exchanged):
                    got.append(c)
        for s, k in enumerate(view.known):
            if s != player_id:
                got = need.setdefault(s, [])
                got.extend(c.index for c in k if c.index not in skip and c.index not in got)
        pool = [c for c in g.deck if c not in public]
        by_seat: dict[int, list[int]] = {}
        for k in sorted(free, key=lambda k: rank.get(k, k)):
            if k in owner:
                by_seat.setdefault(owner[k], []).append(k)
        cards = list(self.cards)
        rest_slots = set(free)
        left = set(pool)
        for seat, must in need.items():
            mine = by_seat.get(seat, [])
            if len(mine) < len(must):
                raise TuteError(f"seat {seat} has shown more cards than it was dealt")
            for k, c in zip(mine, must, strict=False):
                cards[k] = c
                rest_slots.discard(k)
                left.discard(c)
        # a slot filled before its seat showed a void in a suit holds no card of that suit
        # (the cards placed above left the hand before: they are not held to it)
        shown = self._voids_shown(player_id, view)
        banned = dict.fromkeys(rest_slots, 0)
        for seat, suit, at in shown:
            for k in rest_slots:
                drawn = rank.get(k, 0) - hands if rank.get(k, 0) >= hands else -1
                if owner.get(k) == seat and drawn < at:
                    banned[k] |= 1 << suit
        slots = sorted(rest_slots, key=lambda k: -banned[k].bit_count())
        for _ in range(_MAX_TRIES):
            pool_left = sorted(left)
            rng.shuffle(pool_left)
            ok = True
            for k in slots:
                pick = next((c for c in pool_left if not banned[k] >> (c // 10) & 1), None)
                if pick is None:
                    ok = False
                    break
                pool_left.remove(pick)
                cards[k] = pick
            if not ok:
                continue
            world = self._replayed(cards)
            if world is not None:
                return world
        raise TuteError(f"no world consistent with seat {player_id}'s information found in "
                        f"{_MAX_TRIES} samples")

    def _slots_known_to(self, player: int, view: Any
                        ) -> tuple[set[int], dict[int, int], dict[int, int]]:
        """The slots whose card ``player`` knows, the seat that holds each other slot, and
        the order in which the slots were filled (dealt, then drawn)."""
        g = self.game
        fixed = set(self._own_slots(player))
        owner: dict[int, int] = {k: o for k in range(len(self.cards))
                                 if (o := g.slot_owner(k)) is not None}
        hands = len(g.receivers) * g.hand_size
        rank = {k: k for k in range(hands)}
        laid = game_for(g.variant).allowed_extras(g.opts)  # what lies outside the hands
        if g.variant.stock:
            fixed.add(hands)  # the upcard, face up
            draws = [e for e in view.history if e.__class__ is Drew]
            order = [hands + 1 + j for j in range(len(self.cards) - hands - 1)] + [hands]
            for j, e in enumerate(draws):  # the j-th draw took the j-th card from the top
                k = order[j]
                owner[k] = e.seat
                rank[k] = hands + j
                if e.card is not None:
                    fixed.add(k)
        elif "table_card" in laid and len(self.cards) > hands:
            fixed.add(hands)  # the table card, face up
        elif "widow" in laid and len(self.cards) > hands:
            contract = view.contract
            if contract is not None:  # the declarer took the widow
                owner[hands] = contract[0]
                rank[hands] = hands
                if contract[0] == player:
                    fixed.add(hands)
        if "trump_card" in laid:  # the dealer's last card turned for trumps
            fixed.add(g.receivers.index(g.n - 1) * g.hand_size + g.hand_size - 1)  # turned
        for e in view.history:  # the idle dealer plays the bidder's hand after a takeover
            if e.__class__ is TookOver:
                for k, o in list(owner.items()):
                    if o == e.from_seat:  # type: ignore[union-attr]
                        owner[k] = e.seat  # type: ignore[union-attr]
                        if e.seat == player:  # type: ignore[union-attr]
                            fixed.add(k)
        return fixed, owner, rank

    def _voids_shown(self, player: int, view: Any) -> list[tuple[int, int, int]]:
        """(seat, suit, draws made by then) for every void the table saw a seat show, by
        the observation's own inference (docs/rl.md)."""
        g = self.game
        enc = SeatEncoder(g.variant, g.opts, player, g.layout)
        enc.stock_count = view.stock_count + sum(1 for e in view.history if e.__class__ is Drew)
        fixed_trump = not (game_for(g.variant).trump_changes or game_for(g.variant).auction)
        enc.trump = int(view.trump) if fixed_trump and view.trump is not None else -1
        out, draws = [], 0
        for e in view.history:
            if e.__class__ is Drew:
                draws += 1
            before = list(enc.voids)
            enc._replay(e)
            if e.__class__ is CardPlayed:
                seat = e.seat  # type: ignore[union-attr]
                new = enc.voids[seat] & ~before[seat]
                out.extend((seat, suit, draws) for suit in range(4) if new >> suit & 1)
        return out

    def _replayed(self, cards: list[int]) -> TuteState | None:
        state = TuteState(self.get_game())
        try:
            for c in cards:
                state._apply_action(c)
            for _seat, a in self.moves:
                state._apply_action(a)
        except (IllegalActionError, TuteError):
            return None
        return state


def _seed_of(sampler: Any) -> int | None:
    if sampler is None:
        return None
    try:
        return int(sampler() * 2**31)
    except TypeError:
        return None


class TuteObserver:
    """OpenSpiel's observer: ``tensor`` (and ``dict``) for a state and a player."""

    def __init__(self, game: _Spec, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        size = game.layout.size
        hist = game.tricks * game.n * 40 if perfect_recall else 0
        self.tensor = np.zeros(size + hist, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["tricks"] = self.tensor[size:].reshape(game.tricks, game.n, 40)

    def set_from(self, state: TuteState, player: int) -> None:
        self.tensor.fill(0.0)
        obs = self.dict["observation"]
        if not state._dealt:
            for k in state._own_slots(player):
                obs[state.cards[k]] = 1.0  # the hand block comes first
            return
        obs[:] = state.table.observe(player)
        if self.perfect_recall:
            tricks = self.dict["tricks"]
            n = self.game.n
            t = pos = 0
            for e in state._view(player).history:
                if e.__class__ is CardPlayed:
                    tricks[t, (e.seat - player) % n, e.card.index] = 1.0  # type: ignore[union-attr]
                    pos += 1
                    if pos == self.game.active:
                        t, pos = t + 1, 0

    def string_from(self, state: TuteState, player: int) -> str:
        own = " ".join(str(ALL_CARDS[state.cards[k]]) for k in state._own_slots(player))
        if not state._dealt:
            return f"seat {player}; dealt {own}"
        view = state._view(player)
        trick = " ".join(f"{s}:{c}" for s, c in view.trick)
        head = (f"seat {player}; hand {view.hand}; trick [{trick}]; trump {view.trump}; "
                f"points {list(view.card_points)}; stock {view.stock_count}; "
                f"known {[str(k) for k in view.known]}; to move {view.to_move}")
        if not self.perfect_recall:
            return head + f"; played {view.played}"
        return f"seat {player}; dealt {own}; " + "; ".join(_event(e) for e in view.history)


def _event(e: Event) -> str:
    parts = []
    for v in e:
        if isinstance(v, tuple):
            parts.append(" ".join(str(x) for x in v))
        else:
            parts.append("?" if v is None else str(v))
    return f"{type(e).__name__}({','.join(parts)})"


pyspiel.register_game(game_type(), TuteGame)
