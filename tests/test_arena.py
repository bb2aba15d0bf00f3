"""Self-play with duplicate deals: seatings, determinism, the interval arithmetic."""

from __future__ import annotations

import json
import math

import pytest

from tute.arena import _seatings, interval, selfplay, t_quantile
from tute.variants import find_variant


def test_t_quantiles_match_the_tables() -> None:
    for df, expected in [(5, 2.571), (10, 2.228), (30, 2.042), (100, 1.984), (10_000, 1.960)]:
        assert t_quantile(df) == pytest.approx(expected, abs=0.003)


def test_interval_of_known_samples() -> None:
    iv = interval([1.0, 2.0, 3.0, 4.0, 5.0])
    assert iv.mean == 3.0
    half = 2.776 * math.sqrt(2.5) / math.sqrt(5)
    assert iv.low == pytest.approx(3.0 - half, abs=0.01)
    assert iv.excludes(0.0) and not iv.excludes(3.0)


def test_duplicate_seatings_swap_the_sides() -> None:
    var = find_variant("tute_parejas")
    assert _seatings(var, var.defaults, True) == [[0, 1, 0, 1], [1, 0, 1, 0]]
    two = find_variant("guinote_2p")
    assert _seatings(two, two.defaults, True) == [[0, 1], [1, 0]]
    three = find_variant("tute_arrastrado_3p")
    assert len(_seatings(three, three.defaults, True)) == 3


def test_mirror_match_is_symmetric() -> None:
    """The same bot on both sides of duplicate deals: every pair's margin is 0 when the bots
    are deterministic functions of the view, so the interval is exactly zero."""
    res = selfplay(["random", "random"], "tute_2p_corriente", deals=5, seed=3)
    assert res.games == 10
    res = selfplay(["rules", "rules"], "tute_parejas", deals=20, seed=3)
    assert res.margin.mean == pytest.approx(0.0, abs=1e-9)


def test_an_interval_stays_inside_the_range_of_its_measure() -> None:
    # a win rate of 2 wins in 3: the t-interval alone reaches -4% and 138%
    iv = interval([1.0, 0.0, 1.0], (0.0, 1.0))
    assert iv.low == 0.0 and iv.high == 1.0 and iv.mean == pytest.approx(2 / 3)
    inside = interval([1.0, 0.5, 1.0, 0.5, 1.0, 1.0, 0.5, 1.0] * 4, (0.0, 1.0))
    assert 0.0 < inside.low < inside.mean < inside.high < 1.0
    one = interval([0.5], (0.0, 1.0))  # one sample bounds nothing but the range itself
    assert (one.low, one.high) == (0.0, 1.0)


def _strict(text: str) -> object:
    def refuse(name: str) -> object:
        raise ValueError(f"not JSON: {name}")
    return json.loads(text, parse_constant=refuse)


def test_one_pair_gives_strict_json_and_a_win_rate_within_0_and_1() -> None:
    """With one deal nothing bounds the margin: its interval is null in JSON (Python wrote
    -Infinity, which JSON does not have and strict parsers refuse)."""
    res = selfplay(["rules", "random"], "tute_parejas", deals=1, seed=4)
    data = _strict(json.dumps(res.to_json()))
    assert isinstance(data, dict)
    assert data["margin"]["low"] is None and data["margin"]["high"] is None
    assert data["margin"]["mean"] == res.margin.mean
    assert (data["win_rate"]["low"], data["win_rate"]["high"]) == (0.0, 1.0)
    few = selfplay(["rules", "random"], "tute_parejas", deals=3, seed=5)
    assert 0.0 <= few.win_rate.low <= few.win_rate.mean <= few.win_rate.high <= 1.0
    _strict(json.dumps(few.to_json()))


def test_selfplay_reports_and_is_reproducible() -> None:
    calls: list[tuple[int, int]] = []
    a = selfplay(["rules", "random"], "guinote", deals=30, seed=9,
                 progress=lambda done, total: calls.append((done, total)))
    b = selfplay(["rules", "random"], "guinote", deals=30, seed=9)
    assert calls[-1] == (60, 60) and len(calls) == 60
    assert a.margin == b.margin and a.win_rate == b.win_rate
    assert a.wins + a.losses + a.draws == 60
    assert a.margin.mean > 0
    assert set(a.ms_per_decision) == {"rules", "random"}
    data = a.to_json()
    assert data["margin"]["n"] == 30 and data["duplicate"] is True
    assert any("margin" in label for label, _ in a.rows())


def test_selfplay_matches_and_no_duplicate() -> None:
    res = selfplay(["rules", "random"], "tute_2p_habanero", deals=3, seed=1, matches=True,
                   duplicate=False)
    assert res.units == "matches" and res.games == 3


def test_selfplay_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="valid bots"):
        selfplay(["rules", "nobody"], deals=1)
    with pytest.raises(ValueError, match="two line-ups"):
        selfplay(["rules"], deals=1)
    with pytest.raises(ValueError, match="unknown variant"):
        selfplay(["rules", "random"], "poker", deals=1)


@pytest.mark.parametrize(("variant", "measure"), [
    ("tute_parejas", "points"), ("tute_cabrero", "lost games"), ("tute_gana_pierde", "lost games"),
    ("tute_arrastrado_3p", "lost games"), ("tute_subastado", "balance")])
def test_the_margin_is_in_the_games_own_currency(variant: str, measure: str) -> None:
    """Where points only decide who loses (or what a contract pays), the margin counts that:
    a lost game is -1 for its loser, never the points taken."""
    import tute
    from tute.arena import deal_values, play_deal
    from tute.bots import make_bot

    res = selfplay(["rules", "random"], variant, deals=3, seed=2)
    assert res.measure == measure and f"({measure}," in dict(res.rows()).__repr__()
    n = tute.Deal.new(variant, seed=1).seats
    deal = play_deal(tute.Deal.new(variant, seed=1), [make_bot("rules", seed=s) for s in range(n)])
    kind, values = deal_values(deal.result())
    assert kind == measure
    if measure == "lost games":
        assert values == [-x for x in deal.result().losses]
