"""Golden game records: deals and matches saved by the engine as it was before the one-home
refactor (issue 16), with their results and event logs. ``test_golden_records.py`` loads each
one and checks that it still means the same; ``python tests/golden_records.py`` rewrites them
(only do that when a record format change is intended and migrated). The stored records are
version 1, the engine that asked about the exchange after every stock-phase trick: they test
the migration to version 2, so they are not to be rewritten by today's engine.

Every case is played by a seeded random choice among the legal actions, so a case is fixed
by its variant, options and seeds alone. The ``*_hide_arrastre_suit_*`` records set
``guinote_hide_arrastre_suit``, retired for a while and an option again since (presentation
only: the play is the same); they were written by the engine of before and are not rewritten
by this script.

One set per released record version: ``golden_records/`` holds version 1's (with the
four-player cabrón records ``cabron_4_positions_*`` written by the engine of version 1 at
bf3d772^, whose deals its middle rule scored otherwise than today's), ``records_v2/``
version 2's. ``python tests/golden_records.py`` writes the set of today's version into
``records_v<VERSION>/``; it never rewrites an earlier version's set.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DIR = HERE / "data" / "golden_records"  # version 1's records


def version_dir(version: int) -> Path:
    """Where the records of a record version are kept."""
    return DIR if version == 1 else HERE / "data" / f"records_v{version}"


# (name, variant, options); each is saved as a deal record and as a match record
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("parejas", "tute_parejas", {"match": {"mode": "race", "games": 2}}),
    ("parejas_options", "tute_parejas", {
        "two_games_threshold": 101, "two_games_rule": "rs", "cante_by": "winning_side_each",
        "forty_first": "forfeit", "cante_restriction": "forfeit_if_skipped_first",
        "tie_break": "mano_side", "match": {"mode": "series", "deals": 3},
        "next_dealer": "last_trick_winner", "deal_packet": 5}),
    ("parejas_claims", "tute_parejas", {
        "renuncio_mode": "claim", "renuncio_penalty": "two_games_swing",
        "weak_hand_max_points": 10, "tute_dealt_wins_immediately": True,
        "first_dealer": "two_of_oros_mano", "partner_exemption": True,
        "match": {"mode": "race", "games": 2}}),
    ("habanero", "tute_2p_habanero", {"games_to_win": 1}),
    ("habanero_manual", "tute_2p_habanero", {
        "games_to_win": 2, "vueltas_claim": "manual", "cante_before_draw": True,
        "exchange_timing": "own_turn_any", "exchange_last_round_allowed": True}),
    ("habanero_per_deal", "tute_2p_habanero", {
        "scoring_2p": "per_deal", "games_to_win": 2, "exchange_timing": "start_and_after_win",
        "hand_size": 6}),
    ("corriente", "tute_2p_corriente", {"games_to_win": 1, "vueltas_claim": "end_of_deal",
                                        "both_over": "last_trick"}),
    ("arrastrado", "tute_arrastrado_3p", {"loss_limit": 2}),
    ("arrastrado_payments", "tute_arrastrado_3p", {
        "scoring_3p": "payments", "match_deals": 2, "exchange_mandatory": False,
        "two_exchanges_four": True}),
    ("arrastrado_winner", "tute_arrastrado_3p", {"scoring_3p": "winner_per_deal",
                                                 "games_to_win": 1}),
    ("arrastrado_4", "tute_arrastrado_3p", {"players": 4, "loss_limit": 2,
                                            "first_dealer": "first_king"}),
    ("subastado", "tute_subastado", {"match_deals": 2}),
    ("subastado_widow_4", "tute_subastado", {
        "seats": 4, "widow_card": True, "match_deals": 2, "auction_rounds": "open",
        "all_pass": "mano_forced"}),
    ("subastado_points", "tute_subastado", {
        "settlement": "points", "match_target": 60, "declarer_leads": True,
        "cantes_declarer_only": False, "dealer_takeover": False, "seats": 4,
        "renuncio_mode": "claim"}),
    ("guinote", "guinote", {"partidas_per_coto": 1, "cotos_to_win": 1}),
    ("guinote_options", "guinote", {
        "partidas_per_coto": 1, "cotos_to_win": 2, "thirty_malas": True,
        "exchange_side_requirement": "any_trick_won", "cante_by": "trick_winner"}),
    ("guinote_2p", "guinote_2p", {"partidas_per_coto": 1, "cotos_to_win": 1}),
    ("cabron", "tute_cabron", {"loss_limit": 2}),
    ("cabron_4", "tute_cabron", {"players": 4, "loss_limit": 2}),
    # games of version 2 on (not in version 1's set)
    ("gana_pierde", "tute_gana_pierde", {"loss_limit": 2}),
    ("gana_pierde_3", "tute_gana_pierde", {"players": 3, "loss_limit": 2}),
    ("cabrero", "tute_cabrero", {"loss_limit": 2}),
    ("cabrero_5", "tute_cabrero", {"players": 5, "loss_limit": 2}),
]

# deals de vueltas (a carry of the previous totals)
VUELTAS: list[tuple[str, str, dict[str, Any], list[int]]] = [
    ("habanero_vueltas", "tute_2p_habanero", {}, [70, 85]),
    ("habanero_vueltas_manual", "tute_2p_habanero", {"vueltas_claim": "manual"}, [90, 60]),
    ("guinote_vueltas", "guinote", {}, [95, 80]),
    ("guinote_2p_vueltas", "guinote_2p", {}, [40, 99]),
]

# played with the eager policy; the match starts with a misdeal
EAGER: list[tuple[str, str, dict[str, Any]]] = [
    ("parejas_eager", "tute_parejas", {
        "tute_dealt_wins_immediately": True, "weak_hand_max_points": 25,
        "renuncio_mode": "claim", "tute_award": "two_games", "misdeal_passes_after": 1,
        "match": {"mode": "race", "games": 3}}),
    ("habanero_eager", "tute_2p_habanero", {"tute_award": "match", "weak_hand_max_points": 15}),
    ("guinote_eager", "guinote", {"partidas_per_coto": 2, "cotos_to_win": 1,
                                  "tute_dealt_wins_immediately": True}),
    ("arrastrado_eager", "tute_arrastrado_3p", {"loss_limit": 3, "renuncio_mode": "claim",
                                                "weak_hand_max_points": 20}),
    ("subastado_eager", "tute_subastado", {"match_deals": 3, "all_pass": "redeal"}),
    ("subastado_eager_4", "tute_subastado", {"match_deals": 2, "seats": 4, "widow_card": True,
                                             "auction_rounds": "open"}),
    ("cabron_eager", "tute_cabron", {"loss_limit": 2, "renuncio_mode": "claim"}),
]

SEEDS = (1, 2, 3)

# explicit layouts where seat 1 holds the four kings (tutes); (name, variant, options)
TUTES: list[tuple[str, str, dict[str, Any]]] = [
    ("parejas_tute_dealt", "tute_parejas", {"tute_dealt_wins_immediately": True}),
    ("parejas_tute", "tute_parejas", {"tute_award": "two_games"}),
    ("habanero_tute", "tute_2p_habanero", {}),
    ("guinote_tute", "guinote", {"tute_award": "match"}),
    ("arrastrado_tute", "tute_arrastrado_3p", {}),
]


def _kings_layout(variant: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """A dealt layout of ``seed`` with the four kings moved into seat 1's hand."""
    import tute

    deal = tute.Deal.new(variant, seed=seed, dealer=0, options=options)
    rec: dict[str, Any] = deal.to_record()["deal"]
    hands = rec["hands"]
    kings = [f"R{s}" for s in "oceb"]
    where = {c: i for i, h in enumerate(hands) for c in h}
    for k in kings:
        if where.get(k, 1) == 1:
            continue
        give = next(c for c in hands[1] if c not in kings and c != rec.get("trump_card"))
        i = where[k]
        hands[i][hands[i].index(k)] = give
        hands[1][hands[1].index(give)] = k
        where[give], where[k] = i, 1
    return rec


def jsonable(value: Any) -> Any:
    """Events as JSON: cards and declarations by their notation, suits by their letter."""
    from tute.cards import Card, Suit
    from tute.rules import Declaration

    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, (Card, Declaration)):
        return str(value)
    if isinstance(value, tuple):
        return [jsonable(v) for v in value]
    return value


def event_log(events: Any) -> list[list[Any]]:
    return [[type(e).__name__, *(jsonable(v) for v in e)] for e in events]


def _choose(legal: list[Any], rng: random.Random, eager: bool) -> Any:
    """Random; ``eager`` takes declarations, throw-ins and claims at once and mostly passes
    in auctions (so that tutes, thrown-in hands and all-pass deals occur)."""
    if eager:
        texts = [str(a) for a in legal]
        for i, t in enumerate(texts):
            if t.startswith(("tute_", "throw", "claim")):
                return legal[i]
        if "pass" in texts and any(t.startswith("bid") for t in texts) and rng.random() < 0.8:
            return legal[texts.index("pass")]
    return rng.choice(legal)


def _play(game: Any, rng: random.Random, eager: bool = False, limit: int = 20_000) -> None:
    for _ in range(limit):
        if game.is_over():
            return
        game.apply(_choose(game.legal_actions(), rng, eager))
    raise RuntimeError("the game did not end")


def build() -> dict[str, dict[str, Any]]:
    import tute

    out: dict[str, dict[str, Any]] = {}
    for name, variant, options in CASES:
        for seed in SEEDS:
            deal = tute.Deal.new(variant, seed=seed, options=options)
            _play(deal, random.Random(seed))
            out[f"{name}_deal_{seed}"] = {
                "record": deal.to_record(), "result": deal.result().to_json(),
                "events": event_log(deal.events),
            }
        match = tute.Match.new(variant, seed=SEEDS[0], options=options)
        _play(match, random.Random(SEEDS[0]))
        out[f"{name}_match"] = {
            "record": match.to_record(), "result": match.result().to_json(),
            "events": [event_log(d.events) for d in match.deals],
        }
    for name, variant, options in EAGER:
        for seed in (*SEEDS, 4, 5, 6):
            deal = tute.Deal.new(variant, seed=seed, options=options)
            _play(deal, random.Random(seed), eager=True)
            out[f"{name}_deal_{seed}"] = {
                "record": deal.to_record(), "result": deal.result().to_json(),
                "events": event_log(deal.events),
            }
        match = tute.Match.new(variant, seed=SEEDS[0], options=options)
        match.misdeal()
        _play(match, random.Random(SEEDS[0]), eager=True)
        out[f"{name}_match"] = {
            "record": match.to_record(), "result": match.result().to_json(),
            "events": [event_log(d.events) for d in match.deals],
        }
    for name, variant, options in TUTES:
        for seed in SEEDS:
            layout = _kings_layout(variant, options, seed)
            deal = tute.Deal.new(variant, dealer=0, options=options, **layout)
            _play(deal, random.Random(seed), eager=True)
            out[f"{name}_{seed}"] = {
                "record": deal.to_record(), "result": deal.result().to_json(),
                "events": event_log(deal.events),
            }
    for name, variant, options, carry in VUELTAS:
        for seed in SEEDS:
            deal = tute.Deal.new(variant, seed=seed, options=options, carry=carry)
            _play(deal, random.Random(seed))
            out[f"{name}_{seed}"] = {
                "record": deal.to_record(), "result": deal.result().to_json(),
                "events": event_log(deal.events),
            }
    return out


def main() -> None:
    sys.path.insert(0, str(HERE.parent / "src"))
    from tute.records import VERSION

    out = version_dir(VERSION)
    if VERSION == 1 or out.exists():
        raise SystemExit(f"{out} is the set of a released version: it is never rewritten")
    out.mkdir(parents=True)
    for name, data in build().items():
        text = json.dumps(data, ensure_ascii=False, sort_keys=True)
        (out / f"{name}.json").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
