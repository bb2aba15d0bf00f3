"""A zoo of agents any tute environment can play against (docs/rl.md, "The zoo").

``zoo.agent("random" | "rules" | "pimc" | "policy", seed=..., **settings)`` returns an
:class:`Agent` whose ``act(seen, mask)`` gives an action id of the environment's catalogue.
``seen`` is what one seat may know, in either form:

- the seat's view (:class:`tute.views.SeatView`): every environment hands it out for the seat
  to move -- ``env.unwrapped.view(agent)`` (PettingZoo), ``env.unwrapped.view()`` (Gymnasium:
  the agent's seat), ``vec.view(i)`` (``VectorEnv``: game ``i``'s seat to move);
- the observation vector (or PettingZoo's ``{"observation", "action_mask"}`` dict).

``random`` needs the mask alone and ``policy`` the observation; ``rules`` and ``pimc`` think
about cards, not vectors, so they need the view (``agent.needs_view``) and say so when given
a vector. Every agent is built on a bot of :mod:`tute.bots` and, like every bot, is only ever
given one seat's view: never the deal. The bots keep nothing between calls but memos of the
public record, so one agent may serve several seats and several games at once.

``zoo.duel(a, b, variant, deals=...)`` plays two agents on duplicate deals through the
PettingZoo environment and returns the mean margin per duplicate pair with its 95% interval:
the zoo's table in docs/rl.md is made of it, and it measures any object with ``act``.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..arena import Interval, deal_values, interval
from ..bots import Bot, make_bot
from ..errors import TuteError
from ..shuffle import derive_seed
from ..variants import find_variant
from ..views import SeatView
from .encoding import ActionCatalogue, ActionMask, encode_view

__all__ = [
    "AGENTS",
    "Actor",
    "Agent",
    "DuelResult",
    "agent",
    "default_policy",
    "duel",
    "shipped_policies",
]

#: the agents of the zoo and what each reads
AGENTS: dict[str, str] = {
    "random": "a uniformly random legal action (the mask alone)",
    "rules": "the rules bot: hand-written play from the seat's view (needs the view)",
    "pimc": "the pimc bot: samples worlds consistent with the view and solves each "
            "(needs the view; worlds and move_time bound it)",
    "policy": "a trained network (tute.bots.policy_bot file) on the observation vector; "
              "by default the one shipped for the game",
}

#: the settings that make the zoo's pimc quick enough for tables of hundreds of deals
PIMC_DEFAULTS: dict[str, Any] = {"worlds": 8, "move_time": 0.2}

_DATA = "data"  # the package folder of the shipped networks: policy_<variant>.npz


class Actor(Protocol):
    """Anything that plays: a zoo agent, or your own."""

    def act(self, seen: Any, mask: Any = None) -> int: ...


def shipped_policies() -> dict[str, Path]:
    """The trained networks that ship with tute, by variant id."""
    folder = resources.files("tute.rl") / _DATA
    out: dict[str, Path] = {}
    if folder.is_dir():
        for entry in folder.iterdir():
            name = entry.name
            if name.startswith("policy_") and name.endswith(".npz"):
                out[name[len("policy_"):-len(".npz")]] = Path(str(entry))
    return out


def default_policy(variant: str) -> Path:
    """The shipped network of ``variant``; a :class:`TuteError` names those that exist."""
    vid = find_variant(variant).id
    files = shipped_policies()
    if vid not in files:
        raise TuteError(f"no trained network ships for {vid}; shipped: "
                        f"{', '.join(sorted(files)) or 'none'} (give policy a file: "
                        "zoo.agent('policy', file='my.npz'))")
    return files[vid]


def _check_to_move(view: SeatView) -> None:
    if view.to_move != view.seat or not view.legal_actions:
        raise TuteError(f"seat {view.seat} is not to move: an agent acts on the view of the "
                        "seat to move")


class Agent:
    """A bot of :mod:`tute.bots` that answers with action ids (see the module's doc)."""

    def __init__(self, name: str, bot: Bot | None, needs_view: bool, seed: int | None):
        self.name = name
        self.bot = bot
        self.needs_view = needs_view
        self.rng = np.random.default_rng(seed)
        self._catalogues: dict[tuple[str, Any], ActionCatalogue] = {}

    def __repr__(self) -> str:
        return f"<zoo agent {self.name}>"

    def catalogue(self, view: SeatView) -> ActionCatalogue:
        key = (view.variant, view.options)
        cat = self._catalogues.get(key)
        if cat is None:
            cat = self._catalogues[key] = ActionCatalogue(find_variant(view.variant),
                                                          view.options)
        return cat

    def act(self, seen: Any, mask: Any = None) -> int:
        """The action id to play. ``seen``: the seat's view, or its observation (vector or
        PettingZoo dict); ``mask``: the legal-action mask (taken from the dict or the view
        when not given)."""
        if isinstance(seen, SeatView):
            return self._act_view(seen)
        obs, mask = _unpack(seen, mask)
        if self.needs_view:
            raise TuteError(f"zoo agent {self.name!r} reads a seat's view, not a vector: pass "
                            "env.unwrapped.view(agent) (PettingZoo), env.unwrapped.view() "
                            "(Gymnasium) or vec.view(i) (VectorEnv)")
        return self._act_vector(obs, mask)

    def act_batch(self, observations: Any, masks: Any,
                  views: Callable[[int], SeatView] | None = None) -> np.ndarray:
        """One action id per row (``VectorEnv``: ``agent.act_batch(obs, masks, vec.view)``);
        ``views(i)`` gives row ``i``'s seat view to the agents that need it."""
        masks = np.asarray(masks)
        if self.needs_view:
            if views is None:
                raise TuteError(f"zoo agent {self.name!r} reads a seat's view: pass "
                                "views=vec.view")
            return np.array([self._act_view(views(i)) for i in range(len(masks))], np.int64)
        return self._batch(np.asarray(observations), masks)

    def _act_view(self, view: SeatView) -> int:
        _check_to_move(view)
        if self.bot is None:  # the vector agents read the view as its observation
            cat = self.catalogue(view)
            return self._act_vector(encode_view(view), cat.mask(view.legal_actions))
        action = self.bot.choose(view, view.legal_actions)
        return self.catalogue(view).ids([action])[0]

    def _act_vector(self, obs: Any, mask: ActionMask) -> int:
        return int(self._batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])

    def _batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        raise NotImplementedError


class _Random(Agent):
    def _batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        # a random score per legal action; the highest wins: uniform among the legal ones
        scores = np.where(masks > 0, self.rng.random(masks.shape), -1.0)
        if (masks.sum(axis=1) == 0).any():
            raise TuteError("an empty mask: that seat has no legal action (not to move)")
        return np.asarray(scores.argmax(axis=1), np.int64)


class _Policy(Agent):
    def __init__(self, file: str | Path, temperature: float, seed: int | None):
        from ..bots.policy_bot import load_policy, prior_bot

        policy = load_policy(file)
        # a residual on the rules bot reads the view: the prior's choice needs it
        super().__init__("policy", None, policy.prior is not None, seed)
        self.policy = policy
        self.prior = prior_bot(policy, seed)
        if isinstance(temperature, bool) or not isinstance(temperature, int | float) or not (
                0 <= temperature < 1e6):
            raise TuteError(f"invalid temperature {temperature!r} for agent 'policy': "
                            "expected 0 (the best action) or a positive number (sampling)")
        self.temperature = float(temperature)

    def _act_view(self, view: SeatView) -> int:
        cat = self.catalogue(view)
        if cat.names != self.policy.actions:
            raise TuteError(f"policy file {self.policy.path!r} is for {self.policy.variant}'s "
                            f"{len(self.policy.actions)} actions; {view.variant} here has "
                            f"{len(cat)}")
        if self.prior is None:
            return super()._act_view(view)
        _check_to_move(view)
        mask = np.asarray(cat.mask(view.legal_actions))
        bonus = np.zeros(len(mask))
        if len(view.legal_actions) > 1:
            pick = self.prior.choose(view, view.legal_actions)
            bonus[cat.ids([pick])[0]] = self.policy.prior_weight
        return int(self._batch(encode_view(view)[None], mask[None], bonus[None])[0])

    def _batch(self, obs: np.ndarray, masks: np.ndarray,
               bonus: np.ndarray | None = None) -> np.ndarray:
        pol = self.policy
        if pol.prior is not None and bonus is None:
            raise TuteError(f"policy file {pol.path!r} has a {pol.prior} prior, which reads "
                            "the seat's view: pass the view (vec.view(i), env.view(agent)), "
                            "not a vector")
        if obs.ndim != 2 or obs.shape[1] != pol.obs_size or masks.shape != (
                len(obs), len(pol.actions)):
            raise TuteError(f"policy file {pol.path!r} reads observations of size "
                            f"{pol.obs_size} and masks of {len(pol.actions)} actions "
                            f"({pol.variant}); given {obs.shape} and {masks.shape}")
        logits = pol.logits(obs.astype(np.float32)).astype(np.float64)
        if bonus is not None:
            logits = logits + bonus
        legal = masks > 0
        if self.temperature > 0:  # Gumbel-max: a sample of the masked softmax
            logits = logits / self.temperature - np.log(-np.log(self.rng.random(logits.shape)))
        return np.asarray(np.where(legal, logits, -np.inf).argmax(axis=1), np.int64)


def _unpack(seen: Any, mask: Any) -> tuple[Any, ActionMask]:
    if isinstance(seen, Mapping):
        if mask is None:
            mask = seen.get("action_mask")
        seen = seen.get("observation")
    if mask is None:
        raise TuteError("no legal-action mask: pass act(observation, mask) (Gymnasium's is "
                        "info['action_mask'])")
    return seen, np.asarray(mask)


def agent(name: str, seed: int | None = 0, **settings: Any) -> Agent:
    """A zoo agent by name (:data:`AGENTS`), seeded; ``settings`` are its bot's
    (``zoo.agent("pimc", worlds=20, move_time=0.1)``, ``zoo.agent("rules", noise=0.2)``;
    ``policy`` takes ``file`` or ``variant`` -- the shipped network of that game, default
    Tute por parejas -- and ``temperature``). A bad name or setting raises :class:`TuteError`
    naming what is valid."""
    key = name.strip().lower()
    if key == "random":
        if settings:
            raise TuteError(f"agent 'random' has no setting {', '.join(map(repr, settings))}")
        return _Random("random", None, False, seed)
    if key == "policy":
        file = settings.pop("file", None)
        variant = settings.pop("variant", "tute_parejas")
        temperature = settings.pop("temperature", 0.0)
        if settings:
            raise TuteError(f"agent 'policy' has no setting {', '.join(map(repr, settings))}; "
                            "valid: file, variant, temperature")
        return _Policy(file if file is not None else default_policy(variant), temperature,
                       seed)
    if key in ("rules", "pimc"):
        if key == "pimc":
            settings = {**PIMC_DEFAULTS, **settings}
        return Agent(key, make_bot(key, seed=seed, **settings), True, seed)
    raise TuteError(f"unknown agent {name[:40]!r}; the zoo has {', '.join(AGENTS)}")


# ---------------------------------------------------------------------- duplicate duels


class DuelResult:
    """A's margin over B per duplicate pair (points, or the game's own measure)."""

    def __init__(self, variant: str, names: tuple[str, str], margins: Sequence[float],
                 measure: str, seconds: float):
        self.variant = variant
        self.names = names
        self.margins = list(margins)
        self.measure = measure
        self.margin: Interval = interval(self.margins)
        self.seconds = seconds

    def __str__(self) -> str:
        a, b = self.names
        return (f"{self.variant}: {a} - {b} = {self.margin} {self.measure} per duplicate pair "
                f"({len(self.margins)} pairs)")


def duel(a: Actor, b: Actor, variant: str = "tute_parejas", *, deals: int = 100,
         seed: int = 0, views: tuple[bool, bool] | None = None,
         **options: Any) -> DuelResult:
    """``deals`` duplicate deals of ``variant`` between actors ``a`` and ``b``, played through
    the PettingZoo environment: each deal once per seating (partnerships swap sides; two or
    more sides rotate A's seat), every seat given the same deal and dealer. An actor is given
    its seat's view where ``views`` says so (default: a zoo agent's ``needs_view``),
    otherwise its observation dict. Margin: A's side's value less the mean of the others'
    (:func:`tute.arena.deal_values`: points, or lost games, or balances)."""
    import time

    from ..arena import _seatings
    from .pettingzoo_env import raw_env

    if deals < 1:
        raise TuteError(f"deals must be at least 1, got {deals}")
    env = raw_env(variant, **options)
    table = env.table
    var, opts = table.variant, table.options
    want = views if views is not None else (getattr(a, "needs_view", False),
                                            getattr(b, "needs_view", False))
    start = time.perf_counter()
    margins: list[float] = []
    measure = "points"
    for i in range(deals):
        deal_seed = derive_seed(seed, i)
        pair = []
        for seating in _seatings(var, opts, True):
            env.reset(options={"deal_seed": deal_seed})
            actors = (a, b)
            for name in env.agent_iter():
                if env.terminations[name]:
                    env.step(None)
                    continue
                seat = env.agent_name_mapping[name]
                who = seating[seat]
                if want[who]:
                    action = actors[who].act(env.view(name))
                else:
                    action = actors[who].act(env.observe(name))
                env.step(action)
            assert table.deal is not None
            measure, values = deal_values(table.deal.result())
            side_a = {var.side_of(s, opts) for s, w in enumerate(seating) if w == 0}
            sides_b = {var.side_of(s, opts) for s, w in enumerate(seating) if w == 1}
            mine = statistics.fmean(values[s] for s in side_a)
            pair.append(mine - statistics.fmean(values[s] for s in sides_b))
        margins.append(statistics.fmean(pair))
    names = (getattr(a, "name", "A"), getattr(b, "name", "B"))
    return DuelResult(var.id, names, margins, measure, time.perf_counter() - start)
