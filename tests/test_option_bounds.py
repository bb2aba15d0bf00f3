"""Every numeric option has a range: values outside it, floats and booleans are refused with an
error that names the option and the range; every variant's defaults lie inside; the ranges are
what `tute variants --options` and docs/rules-decisions.md show."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tute
from tute.cli import app
from tute.variants import MATCH_RANGES, OPTION_SPECS, MatchSpec, OptionSpec

ROOT = Path(__file__).resolve().parents[1]
INTS = [s for s in OPTION_SPECS.values() if s.kind in ("int", "int_or_null")]


def _variant_with(name: str) -> tute.Variant:
    return next(v for v in tute.VARIANTS.values() if name in v.option_names)


def _refused(spec: OptionSpec, value: Any, *needles: str) -> str:
    var = _variant_with(spec.name)
    with pytest.raises(tute.InvalidOptionError) as exc:
        var.resolve({spec.name: value})
    message = str(exc.value)
    assert repr(spec.name) in message
    for needle in needles:
        assert needle in message, message
    assert len(message) < 400, message  # a huge bad value is not echoed whole
    return message


def test_every_integer_option_has_a_real_range() -> None:
    assert INTS
    for spec in INTS:
        assert 0 <= spec.minimum < spec.maximum, spec.name
        assert f"{spec.minimum}..{spec.maximum}" in spec.describe()


@pytest.mark.parametrize("spec", INTS, ids=lambda s: s.name)
def test_each_bound_is_refused_just_outside_and_accepted_on_it(spec: OptionSpec) -> None:
    span = f"{spec.minimum}..{spec.maximum}"
    _refused(spec, spec.maximum + 1, span, "out of range")
    _refused(spec, 10**30, span)
    _refused(spec, str(spec.maximum + 1), span)
    if spec.minimum > 0 or spec.kind == "int":
        _refused(spec, spec.minimum - 1, span)
    for edge in (spec.minimum, spec.maximum, str(spec.maximum)):
        assert spec.validate(edge, "any") == int(edge)


@pytest.mark.parametrize("spec", INTS, ids=lambda s: s.name)
@pytest.mark.parametrize("value", [1e30, 3.0, float("inf"), float("nan"), True, False, "1e30",
                                   "x" * 100_000, [1], {"n": 1}])
def test_floats_bools_and_junk_are_refused(spec: OptionSpec, value: Any) -> None:
    _refused(spec, value, "expected an integer", f"{spec.minimum}..{spec.maximum}")


@pytest.mark.parametrize(("mode", "key"), [("series", "deals"), ("race", "games")])
def test_match_counts_are_bounded(mode: str, key: str) -> None:
    spec = OPTION_SPECS["match"]
    lo, hi = MATCH_RANGES[key]
    for n in (lo - 1, hi + 1, 10**30):
        _refused(spec, {"mode": mode, key: n}, f"{key!r}: out of range {lo}..{hi}")
    _refused(spec, f"{mode}:{hi + 1}", f"{lo}..{hi}")
    for junk in (1e30, 6.0, True, None, "6.5", "x" * 100_000):
        _refused(spec, {"mode": mode, key: junk}, f"{key!r}: expected an integer")
    for n in (lo, hi):
        assert spec.validate({"mode": mode, key: n}, "tute_parejas") == MatchSpec(mode, n)
        assert spec.validate(f"{mode}:{n}", "tute_parejas") == MatchSpec(mode, n)


def test_a_huge_unknown_option_name_is_not_echoed() -> None:
    with pytest.raises(tute.InvalidOptionError) as exc:
        tute.find_variant("parejas").resolve({"x" * 100_000: 1})
    assert "…" in str(exc.value) and len(str(exc.value)) < 2000


@pytest.mark.parametrize("variant", list(tute.VARIANTS))
def test_every_default_is_within_its_range(variant: str) -> None:
    var = tute.VARIANTS[variant]
    for name in var.option_names:
        spec = var.spec(name)  # the game's own domain where it has one
        value = getattr(var.defaults, name)
        raw = value.to_json() if isinstance(value, MatchSpec) else value
        assert spec.validate(raw, var.id) == value, name
        if isinstance(value, int) and not isinstance(value, bool) and spec.kind != "choice":
            assert spec.minimum <= value <= spec.maximum, name
    assert var.resolve({name: json.loads(json.dumps(
        v.to_json() if isinstance(v := getattr(var.defaults, name), MatchSpec) else v))
        for name in var.option_names}) == var.defaults


def test_variants_options_shows_the_ranges() -> None:
    result = CliRunner().invoke(app, ["variants", "--options"])
    assert result.exit_code == 0
    out = result.stdout
    for spec in [*INTS, OPTION_SPECS["match"]]:
        assert f"{spec.name} = " in out
        for lo, hi in spec.ranges().values():
            assert f"{lo}..{hi}" in out
    data = json.loads(CliRunner().invoke(app, ["variants", "--json"]).stdout)
    sub = next(v for v in data if v["id"] == "tute_subastado")
    assert sub["options"]["min_bid"]["domain"] == "an integer 0..230"
    assert sub["options"]["min_bid"]["range"] == [0, 230]


def test_the_docs_table_lists_every_range() -> None:
    text = (ROOT / "docs" / "rules-decisions.md").read_text("utf-8")
    section = text[text.index("## Ranges of the numeric options"):]
    rows = dict(re.findall(r"^\| `(\w+)`(?: \w+ `\w+`)? \| (?:null or )?(\d+\.\.\d+) \|",
                           section, re.M))
    found = {m.group(1): m.group(2) for m in re.finditer(
        r"^\| `match` \w+ `(\w+)` \| (\d+\.\.\d+) \|", section, re.M)}
    expected = {}
    for spec in [*INTS, OPTION_SPECS["match"]]:
        for name, (lo, hi) in spec.ranges().items():
            expected[name] = f"{lo}..{hi}"
    listed = {**{k: v for k, v in rows.items() if k != "match"},
              **{f"match.{k}": v for k, v in found.items()}}
    assert listed == expected


@pytest.mark.parametrize(("variant", "options"), [
    ("tute_parejas", {"match": {"mode": "series", "deals": 10**30}}),
    ("tute_parejas", {"match": {"mode": "race", "games": 1e30}}),
    ("tute_subastado", {"min_bid": 10**30}),
    ("tute_subastado", {"match_target": 1e30}),
    ("tute_2p_habanero", {"games_to_win": True}),
])
def test_matches_and_bot_games_refuse_unbounded_options(variant: str,
                                                        options: dict[str, Any]) -> None:
    """The server's tables and the CLI's bot games are built by Match.new / Deal.new."""
    with pytest.raises(tute.InvalidOptionError):
        tute.Match.new(variant, seed=1, options=options)
    name, value = next(iter(options.items()))
    result = CliRunner().invoke(app, ["selfplay", "--variant", variant, "--deals", "1",
                                      "-o", f"{name}={json.dumps(value)}"])
    assert result.exit_code == 2 and repr(name) in result.stderr
    result = CliRunner().invoke(app, ["selfplay", "--deals", str(10**30)])
    assert result.exit_code == 2
