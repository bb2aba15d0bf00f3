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

:meth:`TuteState.resample_from_infostate` draws a world uniformly among those consistent with
the player's information (:class:`tute.worlds.WorldSampler`), lays it out as chance outcomes
(the player's own slots unchanged) and replays the history on it: what IS-MCTS needs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from ..actions import Action, Discard
from ..bots.base import Bot, register
from ..cards import ALL_CARDS, Card, CardSet
from ..deal import Deal, SeatView
from ..errors import IllegalActionError, InvalidOptionError, TuteError
from ..events import CardPlayed, Discarded, Event, TookOver
from ..games import game_for
from ..worlds import WorldSampler
from .table import Table

__all__ = ["OpenSpielIsmctsBot", "TuteGame", "TuteState", "game_for_view", "game_type",
           "state_from_view"]

_SHORT_NAME = "python_tute"
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

    def __deepcopy__(self, memo: dict[int, Any]) -> _Spec:
        return self  # read-only, shared by every state of the game (and their clones)

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


# pyspiel ships no type information: its classes are Any to mypy
class TuteGame(pyspiel.Game):  # type: ignore[misc]
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


class TuteState(pyspiel.State):  # type: ignore[misc]
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
        if seat is None:  # the deal is over: the library's error, naming the action
            names = self.game.catalogue.names
            name = f" ({names[action]})" if 0 <= action < len(names) else ""
            raise IllegalActionError(f"illegal action {action}{name}: the game is over",
                                     action=str(action), reason="the game is over")
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

    # no clone() / __deepcopy__ here: OpenSpiel's own clone copies the C++ state (the history,
    # the move number) and deep-copies the Python attributes, whose classes copy themselves
    # cheaply (_Spec is shared, Table rebuilds its encoders)

    # ------------------------------------------------------------------ seat's knowledge

    def _own_slots(self, player: int) -> list[int]:
        g = self.game
        return [k for k in range(len(self.cards)) if g.slot_owner(k) == player]

    def _view(self, player: int) -> SeatView:
        deal = self.table.deal
        assert deal is not None
        return deal.view(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None,
                                rng: random.Random | None = None,
                                seed: int | None = None) -> TuteState:
        """A state with the same information state for ``player_id``: a world drawn uniformly
        from those consistent with its view (:class:`tute.worlds.WorldSampler`), its
        chance outcomes laid out in slot order (the player's own slots as they were) and the
        whole history replayed on it. The randomness comes from ``rng``, else ``seed``, else
        one draw of OpenSpiel's ``probability_sampler`` (a callable giving floats in [0, 1))."""
        if rng is None:
            rng = random.Random(seed if seed is not None else _seed_of(probability_sampler))
        g = self.game
        own = set(self._own_slots(player_id))
        if not self._dealt:  # still dealing: the cards not dealt to the player are unseen
            seen = {self.cards[k] for k in own}
            rest = [c for c in g.deck if c not in seen]
            rng.shuffle(rest)
            it = iter(rest)
            dealing = self._replayed([self.cards[k] if k in own else next(it)
                                      for k in range(len(self.cards))], [])
            assert dealing is not None  # any cards may be dealt
            return dealing
        deal = self.table.deal
        assert deal is not None
        key = (id(g), tuple(self.cards), tuple(self.moves), player_id)
        sampler = _SAMPLERS.get(key)
        if sampler is None:  # one per decision: ISMCTS resamples the same state many times
            if len(_SAMPLERS) >= _SAMPLER_CACHE:
                del _SAMPLERS[next(iter(_SAMPLERS))]
            sampler = _SAMPLERS[key] = WorldSampler(deal.view(self._knower(player_id)))
        mine = self._view(player_id)
        if sampler.exact:  # the tables encode everything: one replay, here
            w = sampler.sample(rng)
            state = self._world_state(player_id, own, rng, _Dealt(
                w.dealt, w.initial_upcard, w.initial_stock, w.table_card, w.dealt_widow,
                w.discard))
            if state is not None and state._view(player_id) == mine:
                return state
        # else the sampler replays each world and redraws those that do not fit
        d = sampler.deal(rng)
        discard = next((e.card for e in d.events if isinstance(e, Discarded)), None)
        state = self._world_state(player_id, own, rng, _Dealt(
            d.initial_hands, d.initial_upcard, d.initial_stock, d.initial_table_card,
            d.initial_widow, discard))
        if state is None or state._view(player_id) != mine:
            raise TuteError(f"internal error: a resampled world does not show seat {player_id} "
                            "what it saw")
        return state

    def _world_state(self, player: int, own: set[int], rng: random.Random, world: _Dealt
                     ) -> TuteState | None:
        """The state of ``world`` (None if the history does not replay on it)."""
        g = self.game
        cards = self._slots_of(world, own, rng)
        # the one hidden action: another seat's widow discard is the world's own
        moves = []
        for seat, a in self.moves:
            if seat != player and isinstance(g.catalogue.actions[a], Discard):
                if world.discard is None:
                    return None
                a = g.catalogue.index[Discard(world.discard)]
            moves.append(a)
        return self._replayed(cards, moves)

    def _knower(self, player: int) -> int:
        """The seat whose view holds ``player``'s information: itself, or after a takeover of
        its hand (subastado for four), the dealer who plays that hand now and knows what it
        knew (the view of a seat out of play no longer shows the hand it was dealt)."""
        deal = self.table.deal
        assert deal is not None
        for e in deal.events:
            if isinstance(e, TookOver) and e.from_seat == player:
                if self.game.opts.widow_card:  # the dealer has seen the widow too
                    raise TuteError(f"seat {player}'s hand was taken over and the dealer saw "
                                    "the widow: its worlds cannot be sampled from a view")
                return e.seat
        return player

    def _slots_of(self, world: _Dealt, own: set[int], rng: random.Random) -> list[int]:
        """The chance outcomes (slot order) that deal ``world``: the player's own slots as
        they were, the other hands in random order (the trump card last in the dealer's)."""
        g = self.game
        size = g.hand_size
        cards = list(self.cards)
        deal = self.table.deal
        assert deal is not None
        turned = deal.trump_card.index if deal.trump_card is not None else -1  # public
        for i, s in enumerate(g.receivers):
            slots = range(i * size, (i + 1) * size)
            if slots[0] in own:
                continue
            hand = [c.index for c in world.hands[s]]
            rng.shuffle(hand)
            if turned in hand:  # the dealer's last card is the one turned for trumps
                hand.remove(turned)
                hand.append(turned)
            for k, c in zip(slots, hand, strict=True):
                cards[k] = c
        dealt = len(g.receivers) * size
        rest: list[Card] = []
        if world.upcard is not None:  # the stock: the upcard, then top first
            rest = [world.upcard, *world.stock]
        elif world.table_card is not None:
            rest = [world.table_card]
        elif world.widow is not None:
            # the card left over: a declarer's world may swap which of its cards it found in
            # the widow (the view does not tell), so the world's own widow may be in its hand
            left = set(g.deck) - set(cards[:dealt])
            assert len(left) == 1
            rest = [ALL_CARDS[left.pop()]]
        for k, card in enumerate(rest, dealt):
            cards[k] = card.index
        return cards

    def _replayed(self, cards: list[int], moves: list[int]) -> TuteState | None:
        # through the public apply_action, so that OpenSpiel records the history
        state = TuteState(self.get_game())
        try:
            for a in (*cards, *moves):
                state.apply_action(a)
        except (IllegalActionError, TuteError):
            return None
        return state


class _Dealt(NamedTuple):
    """A world as dealt (from a :class:`~tute.worlds.World` or a replayed deal)."""

    hands: Sequence[CardSet]
    upcard: Card | None
    stock: Sequence[Card]
    table_card: Card | None
    widow: Card | None
    discard: Card | None  # subastado: the declarer's discard


_SAMPLER_CACHE = 8  # world samplers kept (by state and player)
_SAMPLERS: dict[tuple[int, tuple[int, ...], tuple[tuple[int, int], ...], int],
                WorldSampler] = {}


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
                    tricks[t, (e.seat - player) % n, e.card.index] = 1.0
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


# --------------------------------------------------------------------------- as a tute bot

def state_from_view(game: TuteGame, view: SeatView, rng: random.Random) -> tuple[TuteState, int]:
    """A state of ``game`` whose information state for one player is the view's, and that
    player: one world consistent with the view (:class:`tute.worlds.WorldSampler`), laid out
    as chance outcomes and replayed. ``python_tute`` always deals from its last seat, so the
    seats turn with the real deal's mano as player 0. What a search that resamples from the
    information state (IS-MCTS) needs; the world is one guess among many and the search
    never relies on it."""
    g = _spec(game.get_parameters())
    world = WorldSampler(view).deal(rng)
    turn = world.mano  # python_tute's player 0 is the mano
    size = g.hand_size
    turned = world.trump_card.index if world.trump_card is not None else -1
    cards: list[int] = []
    for p in g.receivers:
        hand = [c.index for c in world.initial_hands[(p + turn) % g.n]]
        rng.shuffle(hand)
        if turned in hand:  # the dealer's last card is the one turned for trumps
            hand.remove(turned)
            hand.append(turned)
        if len(hand) != size:
            raise TuteError(f"{view.variant}: a hand of {len(hand)} cards, not {size}: this "
                            "deal's seats cannot be laid out for python_tute")
        cards += hand
    if world.initial_upcard is not None:  # the stock: the upcard, then top first
        cards += [world.initial_upcard.index, *(c.index for c in world.initial_stock)]
    elif world.initial_table_card is not None:
        cards.append(world.initial_table_card.index)
    elif world.initial_widow is not None:
        cards.append(world.initial_widow.index)
    state = TuteState(game)
    for a in (*cards, *(g.catalogue.index[act] for act in world.actions)):
        state.apply_action(a)
    player = (view.seat - turn) % g.n
    mine = state._view(player)
    if mine.hand != view.hand or mine.legal_actions != view.legal_actions:
        raise TuteError(f"internal error: the state laid out for seat {view.seat} does not "
                        "show it its hand and choices")
    return state, player


_GAMES: dict[tuple[str, str], TuteGame] = {}


def game_for_view(view: SeatView) -> TuteGame:
    """The ``python_tute`` game of a view's variant and options (one per option set)."""
    from ..records import options_to_json
    from ..variants import find_variant

    var = find_variant(view.variant)
    options = json.dumps(options_to_json(view.options, var.defaults), sort_keys=True)
    key = (var.id, options)
    if key not in _GAMES:
        _GAMES[key] = pyspiel.load_game(_SHORT_NAME, {"variant": var.id, "options": options})
    return _GAMES[key]


@register("openspiel_ismcts", "OpenSpiel's own IS-MCTS (open_spiel.python.algorithms.ismcts) "
          "over python_tute, its worlds drawn by tute.worlds; simulations per move")
class OpenSpielIsmctsBot(Bot):
    """OpenSpiel's IS-MCTS as a tute bot, for arenas: it gets the seat's view like any bot,
    builds a ``python_tute`` state that shows the seat that view (:func:`state_from_view`)
    and lets OpenSpiel search from it with random rollouts."""

    def __init__(self, seed: int | None = None, simulations: int = 100, uct_c: float = 2.0,
                 **settings: Any):
        super().__init__(seed=seed, **settings)
        if isinstance(simulations, bool) or not isinstance(simulations, int) or not (
                1 <= simulations <= 100_000):
            raise TuteError(f"invalid simulations {simulations!r}: expected 1..100000")
        if isinstance(uct_c, bool) or not isinstance(uct_c, int | float) or not 0 < uct_c <= 100:
            raise TuteError(f"invalid uct_c {uct_c!r}: expected a number in (0, 100]")
        self.simulations, self.uct_c = simulations, float(uct_c)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        from open_spiel.python.algorithms import ismcts, mcts

        if len(legal) == 1:
            return legal[0]
        game = game_for_view(view)
        state, _player = state_from_view(game, view, self.rng)
        np_rng = np.random.RandomState(self.rng.randrange(1 << 31))
        search = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np_rng),
                                  self.uct_c, self.simulations, random_state=np_rng)
        # its own resampling draws from a fresh pyspiel sampler per world, seeded by the
        # clock: the worlds come from this bot's seed instead, so its choices repeat
        worlds = random.Random(self.rng.randrange(1 << 62))
        search.set_resampler(lambda st, player: st.resample_from_infostate(player, rng=worlds))
        act: Action = _spec(game.get_parameters()).catalogue.actions[search.step(state)]
        if act not in legal:
            raise TuteError(f"internal error: OpenSpiel's IS-MCTS chose {act}, not legal here")
        return act
