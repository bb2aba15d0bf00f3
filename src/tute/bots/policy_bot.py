"""The ``policy`` bot: plays from a saved policy file (``policy:path/to/file.npz``).

A policy is a small multilayer perceptron over the observation vector of
:mod:`tute.bots.encoding` (docs/rl.md), computed from the bot's own seat view only
(:func:`tute.bots.encoding.encode_view`), with the illegal actions masked out. Playing needs
NumPy and nothing else (no torch): the file is written by :func:`write_policy` from plain
arrays, whatever trained them (``examples/train_policy.py`` trains one with NumPy alone).

**The file** is a NumPy ``.npz`` archive (``numpy.savez``, no pickled objects) holding

- ``format``: the string ``"tute-policy"``; ``version``: the integer 1;
- ``meta``: a JSON object: ``variant`` (its id), ``options`` (the game's options it was
  trained with, as given), ``obs_size`` (the observation length), ``actions`` (the notation
  of every action id, ``ActionCatalogue.names``), ``activation`` (``"relu"`` or ``"tanh"``,
  between layers) and ``layers`` (their number);
- ``W0``, ``b0``, ``W1``, ``b1``...: float32 weights ``(inputs, outputs)`` and biases
  ``(outputs,)``; ``W0`` takes ``obs_size`` inputs, the last layer gives one logit per action.

**A prior** (optional; such a file has ``version`` 2, so that an older tute refuses it rather
than play it without): ``meta`` holds ``prior`` (``"rules"``, the only one) and
``prior_weight`` (a finite number ``beta``); the bot then adds ``beta`` to the logit of the
action the ``rules`` bot would choose from the same seat view (seeded like the policy bot).
The network is then a residual on the rules bot: all-zero logits play exactly as ``rules``,
and a large ``beta`` too.

The bot plays the legal action of highest logit (``policy:FILE:temperature=1`` samples from the
softmax instead, with the bot's seeded rng). It refuses, naming the problem, a file that does
not exist, is not such an archive or is inconsistent, and a game whose observation size or
action catalogue differ from the file's.
"""

from __future__ import annotations

import json
import math
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..deal import SeatView
from ..errors import TuteError
from .base import Bot, register

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["FORMAT", "PRIORS", "VERSION", "Policy", "PolicyBot", "load_policy", "prior_bot",
           "write_policy"]

FORMAT = "tute-policy"
VERSION = 1
PRIOR_VERSION = 2  # a file with a prior: an older reader (version 1 only) refuses it
VERSIONS = (VERSION, PRIOR_VERSION)
ACTIVATIONS = ("relu", "tanh")
PRIORS = ("rules",)  # the bots a policy may be a residual on


class Policy:
    """A loaded policy file: the layers and what game they are for."""

    def __init__(self, path: str, meta: dict[str, Any],
                 layers: list[tuple[NDArray[np.float32], NDArray[np.float32]]]):
        self.path = path
        self.meta = meta
        self.variant: str = meta["variant"]
        self.obs_size: int = meta["obs_size"]
        self.actions: tuple[str, ...] = tuple(meta["actions"])
        self.activation: str = meta["activation"]
        self.layers = layers
        self.prior: str | None = meta.get("prior")
        self.prior_weight: float = float(meta.get("prior_weight", 0.0))

    def logits(self, obs: NDArray[np.float32]) -> NDArray[np.float32]:
        import numpy as np

        x = obs
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = np.maximum(x, 0.0) if self.activation == "relu" else np.tanh(x)
        return x


def prior_bot(policy: Policy, seed: int | None) -> Bot | None:
    """The bot whose choice a policy with a prior favours (None without a prior)."""
    if policy.prior is None:
        return None
    from .rules_bot import RulesBot

    return RulesBot(seed=seed)


def _bad(path: str, why: str) -> TuteError:
    return TuteError(f"policy file {path!r} {why}")


def load_policy(path: str | Path) -> Policy:
    """Read and check a policy file (:class:`TuteError` naming what is wrong)."""
    import numpy as np

    name = str(path)
    p = Path(path)
    if not p.is_file():
        raise _bad(name, "does not exist" if not p.exists() else "is not a file")
    if not zipfile.is_zipfile(p):
        raise _bad(name, "is not a policy file (a NumPy .npz archive written by "
                         "tute.bots.policy_bot.write_policy): not a zip archive")
    try:
        with np.load(p, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise _bad(name, f"is not a policy file (a NumPy .npz archive written by "
                         f"tute.bots.policy_bot.write_policy): {exc}") from None
    for key in ("format", "version", "meta"):
        if key not in arrays:
            raise _bad(name, f"is not a policy file: no {key!r} entry")
    if str(arrays["format"]) != FORMAT:
        raise _bad(name, f"is not a policy file: format {str(arrays['format'])[:40]!r}, "
                         f"expected {FORMAT!r}")
    try:
        version = int(arrays["version"])
    except (TypeError, ValueError):
        raise _bad(name, "is malformed: 'version' is not an integer") from None
    if version not in VERSIONS:
        raise _bad(name, f"has format version {version}; this tute reads versions "
                         f"{', '.join(map(str, VERSIONS))}")
    try:
        meta = json.loads(str(arrays["meta"]))
    except json.JSONDecodeError as exc:
        raise _bad(name, f"is malformed: 'meta' is not JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise _bad(name, "is malformed: 'meta' is not a JSON object")
    for key, kind in (("variant", str), ("options", dict), ("obs_size", int),
                      ("actions", list), ("activation", str), ("layers", int)):
        if not isinstance(meta.get(key), kind) or isinstance(meta.get(key), bool):
            raise _bad(name, f"is malformed: meta {key!r} missing or not a {kind.__name__}")
    _check_prior(name, meta, version)
    if meta["activation"] not in ACTIVATIONS:
        raise _bad(name, f"is malformed: activation {meta['activation']!r}, expected one of "
                         f"{', '.join(ACTIVATIONS)}")
    count = meta["layers"]
    if count < 1:
        raise _bad(name, "is malformed: no layers")
    layers = []
    width = meta["obs_size"]
    for i in range(count):
        w, b = arrays.get(f"W{i}"), arrays.get(f"b{i}")
        if w is None or b is None:
            raise _bad(name, f"is malformed: layer {i} ('W{i}', 'b{i}') is missing")
        if w.ndim != 2 or b.ndim != 1 or w.shape[1] != b.shape[0]:
            raise _bad(name, f"is malformed: layer {i} has shapes {w.shape} and {b.shape}")
        if w.shape[0] != width:
            raise _bad(name, f"is malformed: layer {i} takes {w.shape[0]} inputs, the "
                             f"previous layer gives {width}"
                             + (" (the observation size)" if i == 0 else ""))
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise _bad(name, f"is malformed: layer {i} holds NaN or infinite weights")
        layers.append((w.astype(np.float32), b.astype(np.float32)))
        width = w.shape[1]
    if width != len(meta["actions"]):
        raise _bad(name, f"is malformed: the last layer gives {width} logits for "
                         f"{len(meta['actions'])} actions")
    return Policy(name, meta, layers)


def _check_prior(name: str, meta: dict[str, Any], version: int) -> None:
    """A prior names a known bot and a finite weight, and only in a version-2 file."""
    prior = meta.get("prior")
    if prior is None:
        if "prior_weight" in meta:
            raise _bad(name, "is malformed: 'prior_weight' without a 'prior'")
        if version != VERSION:
            raise _bad(name, f"is malformed: version {version} but no 'prior'")
        return
    if version != PRIOR_VERSION:
        raise _bad(name, f"is malformed: a prior needs version {PRIOR_VERSION}, not {version}")
    if prior not in PRIORS:
        raise _bad(name, f"has an unknown prior {str(prior)[:40]!r}; valid: "
                         f"{', '.join(PRIORS)}")
    weight = meta.get("prior_weight")
    if weight is None:
        raise _bad(name, "is malformed: a prior needs a 'prior_weight'")
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not math.isfinite(
            weight):
        raise _bad(name, f"is malformed: prior_weight {str(weight)[:40]!r} is not a finite "
                         "number")


def write_policy(path: str | Path, layers: Sequence[tuple[Any, Any]], *, variant: str,
                 options: Mapping[str, Any] | None = None, activation: str = "relu",
                 prior: str | None = None, prior_weight: float = 0.0) -> Path:
    """Save ``layers`` (``(W, b)`` pairs, ``W`` of shape ``(inputs, outputs)``) as a policy
    file for ``variant`` with ``options``; checks the shapes against that game's observation
    size and action catalogue. ``prior="rules"`` makes it a residual on the rules bot:
    ``prior_weight`` is added to the logit of the rules bot's choice. Returns the path
    written (``.npz`` appended if missing)."""
    import numpy as np

    from ..variants import find_variant
    from .encoding import ActionCatalogue, Layout

    var = find_variant(variant)
    opts = var.resolve(dict(options or {}))
    size = Layout.of(var, opts).size
    names = list(ActionCatalogue(var, opts).names)
    if activation not in ACTIVATIONS:
        raise TuteError(f"invalid activation {activation!r}: expected one of "
                        f"{', '.join(ACTIVATIONS)}")
    if not layers:
        raise TuteError("a policy needs at least one layer")
    if prior is not None and prior not in PRIORS:
        raise TuteError(f"invalid prior {prior!r}: expected one of {', '.join(PRIORS)}")
    if isinstance(prior_weight, bool) or not isinstance(prior_weight, int | float) or not (
            math.isfinite(prior_weight)):
        raise TuteError(f"invalid prior_weight {prior_weight!r}: expected a finite number")
    arrays: dict[str, Any] = {}
    width = size
    for i, (w, b) in enumerate(layers):
        w = np.asarray(w, np.float32)
        b = np.asarray(b, np.float32)
        if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
            raise TuteError(f"layer {i}: W {w.shape} and b {b.shape} do not fit {width} "
                            "inputs" + (f" (the observation size of {var.id})" if i == 0
                                        else ""))
        arrays[f"W{i}"], arrays[f"b{i}"] = w, b
        width = w.shape[1]
    if width != len(names):
        raise TuteError(f"the last layer gives {width} logits; {var.id} has {len(names)} "
                        "actions")
    meta = {"variant": var.id, "options": dict(options or {}), "obs_size": size,
            "actions": names, "activation": activation, "layers": len(layers)}
    if prior is not None:
        meta.update(prior=prior, prior_weight=float(prior_weight))
    out = Path(path)
    if out.suffix != ".npz":
        out = out.with_name(out.name + ".npz")
    version = VERSION if prior is None else PRIOR_VERSION
    np.savez(out, format=np.array(FORMAT), version=np.array(version),
             meta=np.array(json.dumps(meta)), **arrays)
    return out


@register("policy", "plays a saved policy file: policy:path/to/file.npz (tute.rl encoding, "
          "NumPy only)")
class PolicyBot(Bot):
    positional = "file"  # policy:FILE is policy:file=FILE

    def __init__(self, seed: int | None = None, file: str | None = None,
                 temperature: float = 0.0, **settings: Any):
        super().__init__(seed, **settings)
        if not file:
            raise TuteError("bot 'policy' needs a file: policy:path/to/file.npz")
        if isinstance(temperature, bool) or not isinstance(temperature, int | float) or not (
                0 <= temperature < 1e6):
            raise TuteError(f"invalid temperature {temperature!r} for bot 'policy': expected "
                            "0 (the best action) or a positive number (sampling)")
        try:
            import numpy  # noqa: F401
        except ImportError:
            raise TuteError("bot 'policy' needs NumPy (pip install 'tute[rl]')") from None
        self.policy = load_policy(str(file))
        self.temperature = float(temperature)
        self.prior = prior_bot(self.policy, seed)
        self._games: dict[tuple[str, Any], Any] = {}  # per game: its action catalogue

    def _catalogue(self, view: SeatView) -> Any:
        key = (view.variant, view.options)
        cat = self._games.get(key)
        if cat is None:
            from ..variants import find_variant
            from .encoding import ActionCatalogue, Layout

            var = find_variant(view.variant)
            size = Layout.of(var, view.options).size
            pol = self.policy
            if size != pol.obs_size:
                raise TuteError(f"policy file {pol.path!r} is for observations of size "
                                f"{pol.obs_size} ({pol.variant}); {var.id} with these options "
                                f"has {size}")
            cat = ActionCatalogue(var, view.options)
            if cat.names != pol.actions:
                diff = next((i for i, (a, b) in enumerate(zip(cat.names, pol.actions,
                                                              strict=False)) if a != b),
                            min(len(cat), len(pol.actions)))
                raise TuteError(f"policy file {pol.path!r} is for another action catalogue "
                                f"({pol.variant}: {len(pol.actions)} actions; {var.id} here: "
                                f"{len(cat)}, first difference at id {diff})")
            self._games[key] = cat
        return cat

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        import numpy as np

        from .encoding import encode_view

        cat = self._catalogue(view)
        ids = cat.ids(legal)
        logits = self.policy.logits(encode_view(view))[ids].astype(np.float64)
        if self.prior is not None and len(legal) > 1:
            logits[legal.index(self.prior.choose(view, legal))] += self.policy.prior_weight
        if self.temperature <= 0:
            return legal[int(np.argmax(logits))]  # ties: the first legal action
        z = (logits - logits.max()) / self.temperature
        weights = [math.exp(v) for v in z]
        return self.rng.choices(legal, weights=weights)[0]
