"""The worked cases of ``rules/rule_cases.md`` as parametrized tests.

Every case is loaded from the YAML blocks of the case file itself (see ``casefile.py``); there is
one test id per case and per ``alt`` entry (``P03``, ``P03-alt1``). Legality, trick winners,
declarations and scoring are checked through the pure functions of ``tute.rules`` and
``tute.scoring``; the cases that need a whole deal are played through ``tute.Deal`` where the
engine can play them (Tute por parejas) and are skipped with the missing feature otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
import yaml

import tute
from casefile import CaseFileError, Entry, expand, load_cases
from tute import scoring
from tute.cards import DECK_40, parse_suit
from tute.rules import (
    available_declarations,
    explain_plays,
    legal_mask,
    parse_declaration,
    trick_winner,
)
from tute.shuffle import shuffled

EXPECTED_CASE_COUNT = 119
PREFIXES = "PWDXSFR"

try:
    CASES: list[dict[str, Any]] = load_cases()
    ENTRIES: list[Entry] = [e for c in CASES for e in expand(c)]
    LOAD_ERROR: str | None = None
except CaseFileError as exc:  # reported by test_case_file_loaded, not skipped
    CASES, ENTRIES, LOAD_ERROR = [], [], str(exc)


def entries(prefix: str) -> list[Any]:
    return [pytest.param(e, id=e.test_id) for e in ENTRIES if e.case_id.startswith(prefix)]


def test_case_file_loaded() -> None:
    if LOAD_ERROR is not None:
        pytest.fail(LOAD_ERROR, pytrace=False)
    ids = [c["id"] for c in CASES]
    assert len(ids) == EXPECTED_CASE_COUNT, f"loaded {len(ids)} cases, expected 119"
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    assert not dupes, f"duplicate case ids: {dupes}"
    unknown = [i for i in ids if i[:1] not in PREFIXES]
    assert not unknown, f"case ids with an unknown prefix (no test takes them): {unknown}"
    test_ids = [e.test_id for e in ENTRIES]
    assert len(set(test_ids)) == len(test_ids)


# ------------------------------------------------------------------------------ case vocabulary


def card(text: Any) -> tute.Card:
    assert isinstance(text, str), f"card {text!r} was not read as a string from the case file"
    return tute.parse_card(text)


def mask_of(cards: Sequence[Any]) -> int:
    mask = 0
    for c in cards:
        m = card(c).mask
        assert not mask & m, f"card {c} listed twice"
        mask |= m
    return mask


def names(mask: int) -> set[str]:
    return set(tute.CardSet(mask).to_list())


def canon(cards: Sequence[Any]) -> set[str]:
    return {str(card(c)) for c in cards}


def suit_or_none(letter: Any) -> int | None:
    return None if letter is None else int(parse_suit(letter))


def resolve(entry: Entry) -> tuple[tute.Variant, tute.Options]:
    var = tute.find_variant(entry.variant)
    return var, var.resolve(entry.options)


def side_index(name: Any) -> int:
    """``A``/``B`` (sides) or ``seat2``/``2`` (seats) as an index."""
    if isinstance(name, int):
        return name
    if name in ("A", "B"):
        return "AB".index(name)
    m = re.fullmatch(r"seat ?(\d+)", str(name))
    assert m, f"not a side or seat name: {name!r}"
    return int(m.group(1))


def check_result(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> None:
    """Compare the keys the case gives; a key this test does not compute is a failure, so new
    expectations in the case file cannot be ignored silently."""
    unchecked = sorted(set(expected) - set(actual))
    assert not unchecked, f"result keys not checked by this test (extend it): {unchecked}"
    assert {k: actual[k] for k in expected} == dict(expected)


def partners_of(partners: Any, a: int, b: int) -> bool:
    return partners is not None and any(a in group and b in group for group in partners)


# ------------------------------------------------------------------------------ P: legality


@pytest.mark.parametrize("entry", entries("P"))
def test_play_legality(entry: Entry) -> None:
    var, opts = resolve(entry)
    trump = suit_or_none(entry["trump"])
    trick = [(int(seat), card(c)) for seat, c in entry["trick"]]
    indices = [c.index for _, c in trick]
    to_play = int(entry["to_play"])
    hand = mask_of(entry["hand"])
    assert canon(entry["legal"]) <= names(hand), "case error: a legal card is not in the hand"
    partner_winning = False
    if trick:
        winner = trick[trick_winner(indices, trump, var.order)][0]
        partner_winning = winner != to_play and partners_of(entry["partners"], winner, to_play)
    kwargs: dict[str, Any] = dict(
        phase=entry["phase"], stock_phase_rule=opts.stock_phase_rule,
        partner_winning=partner_winning, partner_exemption=opts.partner_exemption,
        must_undertrump=opts.must_undertrump, must_head_after_ruff=opts.must_head_after_ruff,
    )
    legal = legal_mask(hand, indices, trump, var.order, **kwargs)
    assert names(legal) == canon(entry["legal"])
    explained, why = explain_plays(hand, indices, trump, var.order, **kwargs)
    assert explained == legal, "explain_plays and legal_mask disagree"
    refused = names(hand & ~legal)
    assert {str(tute.Card.from_index(i)) for i in why} == refused
    for i, reason in why.items():
        what = tute.Card.from_index(i)
        assert isinstance(reason, str) and reason.strip(), f"no reason for {what}"


# ------------------------------------------------------------------------------ W: trick winner


@pytest.mark.parametrize("entry", entries("W"))
def test_trick_winner(entry: Entry) -> None:
    var, _ = resolve(entry)
    trick = [(int(seat), card(c)) for seat, c in entry["trick"]]
    pos = trick_winner([c.index for _, c in trick], suit_or_none(entry["trump"]), var.order)
    assert trick[pos][0] == entry["winner"]
    assert var.order.points_of(mask_of([c for _, c in entry["trick"]])) == (
        entry["trick_card_points"])


# ------------------------------------------------------------------------------ D: declarations


@dataclass(frozen=True)
class Moment:
    """What a D case's free-text ``state`` says: who has just won a trick (None: before trick 1;
    a dict maps each checked seat to the winner at its own moment), the number of that trick
    where it matters, the subastado declarer, and whether the side let its first won trick go by
    without declaring."""

    winner: int | dict[int, int] | None
    trick: int | None = None
    declarer: int | None = None
    skipped_first_win: bool = False


DECLARATION_MOMENTS: dict[str, Moment] = {
    "D01": Moment(1, trick=1),
    "D02": Moment(1, trick=3),
    "D03": Moment(3),
    "D04": Moment(0),
    "D05": Moment(2),
    "D06": Moment(2),
    "D07": Moment(1),
    "D08": Moment(None),
    "D09": Moment(0),
    "D10": Moment(0),
    "D11": Moment(0, trick=5, skipped_first_win=True),
    "D12": Moment(1),
    "D13": Moment(0, trick=11),
    "D14": Moment(1, trick=12),
    "D15": Moment(0, trick=6),
    "D16": Moment(0, trick=15),
    "D17": Moment(0, trick=2),
    "D18": Moment(1),
    "D19": Moment(3),
    "D20": Moment(1, trick=7),
    "D21": Moment({0: 0, 1: 1}, declarer=1),
    "D22": Moment(2),
}


def entitlement(var: tute.Variant, opts: tute.Options, moment: Moment, seat: int,
                winner: int | None) -> str:
    """``all``, ``tute`` (a tute held from the deal) or ``none``: who may use the window
    (rules §1.5 cante_by / cante_restriction, §3.5 two-player windows, §5.8 subastado)."""
    if winner is None:
        return "tute" if opts.tute_dealt_wins_immediately and opts.tute_enabled else "none"
    if var.id == "tute_subastado":
        return "all" if seat == winner == moment.declarer else "none"
    if opts.cante_restriction == "forfeit_if_skipped_first" and moment.skipped_first_win:
        return "none"
    if opts.cante_restriction == "first_win_only":
        pytest.fail("cante_restriction=first_win_only is not modelled by this test yet")
    if var.stock and not var.partnerships and var.family == "tute":
        # two-player Tute: the stock must still hold cards after the draw (before it, with
        # cante_before_draw); every stock trick takes two cards
        assert moment.trick is not None, "a two-player declaration case needs its trick number"
        stock = 40 - 2 * opts.hand_size
        left = stock - 2 * (moment.trick - (1 if opts.cante_before_draw else 0))
        if left <= 0:
            return "none"
    if seat == winner:
        return "all"
    if var.partnerships and opts.cante_by != "trick_winner" and seat % 2 == winner % 2:
        return "all"
    return "none"


def declaration_checks(entry: Entry) -> list[tuple[int, list[Any], list[str]]]:
    if "seats" in entry.data:
        return [(int(s), v["hand"], v["legal_declarations"]) for s, v in entry["seats"].items()]
    return [(int(entry["seat"]), entry["hand"], entry["legal_declarations"])]


@pytest.mark.parametrize("entry", entries("D"))
def test_declarations(entry: Entry) -> None:
    if entry.variant == "tute_cabron":
        pytest.skip("not covered yet: tute cabrón cantes (king and knight of one suit falling in "
                    "the same trick make trumps) are not implemented")
    moment = DECLARATION_MOMENTS.get(entry.case_id)
    assert moment is not None, f"add {entry.case_id}'s state to DECLARATION_MOMENTS"
    state = entry["state"]
    winners = moment.winner.values() if isinstance(moment.winner, dict) else [moment.winner]
    for w in winners:  # guard against a table entry that does not match the case text
        assert w is None or f"seat {w}" in state, f"winner {w} not in state {state!r}"
    assert moment.trick is None or f"trick {moment.trick}" in state
    var, opts = resolve(entry)
    trump = suit_or_none(entry["trump"])
    sung = 0
    for text in entry.get("already_sung") or []:
        suit = parse_declaration(text).marriage_suit(trump)
        sung |= 0 if suit is None else 1 << suit
    for seat, hand, expected in declaration_checks(entry):
        winner = moment.winner.get(seat) if isinstance(moment.winner, dict) else moment.winner
        may = entitlement(var, opts, moment, seat, winner)
        decls = available_declarations(
            mask_of(hand), trump, var.order, sung_suits=sung, forty_forfeited=False,
            forty_first=opts.forty_first, tute_enabled=opts.tute_enabled,
        ) if may != "none" else []
        if may == "tute":
            decls = [d for d in decls if d.is_tute]
        got = [str(d) for d in decls]
        assert len(got) == len(set(got)), f"seat {seat}: a declaration offered twice: {got}"
        assert set(got) == set(expected), f"seat {seat} ({may})"


# ------------------------------------------------------------------------------ engine helpers


def complete_hands(fixed: Mapping[int, Sequence[str]], trump: str = "o",
                   trump_card: str | None = None, dealer: int = 3) -> tuple[list[list[str]], str]:
    """Four 10-card hands holding ``fixed``; the other cards are dealt round the open seats.
    The turned card (default: the dealer's first trump, else the lowest free trump) goes to
    the dealer."""
    hands = {s: [str(card(c)) for c in fixed.get(s, ())] for s in range(4)}
    used = {c for h in hands.values() for c in h}
    if trump_card is None:
        trump_card = next((c for c in hands[dealer] if c.endswith(trump)), None) or next(
            str(c) for c in tute.ALL_CARDS if c.suit.letter == trump and str(c) not in used)
    if trump_card not in hands[dealer]:
        assert trump_card not in used, f"{trump_card} is fixed outside the dealer's hand"
        hands[dealer].append(trump_card)
        used.add(trump_card)
    seat = 0
    for c in (str(c) for c in tute.ALL_CARDS if str(c) not in used):
        while len(hands[seat]) >= 10:
            seat = (seat + 1) % 4
        hands[seat].append(c)
        seat = (seat + 1) % 4
    return [hands[s] for s in range(4)], trump_card


def new_parejas(hands: Sequence[Sequence[str] | str], trump_card: str,
                options: Mapping[str, Any] | None = None) -> tute.Deal:
    laid = [h.split() if isinstance(h, str) else list(h) for h in hands]
    return tute.Deal.new("tute_parejas", dealer=3, hands=laid, trump_card=trump_card,
                         options=options)


def assert_engine_matches_rules(deal: tute.Deal) -> None:
    """The engine's legal cards equal ``rules.legal_mask`` on the same position."""
    seat = deal.to_move
    assert seat is not None
    opts = deal.options
    trick = [c.index for _, c in deal.trick]
    partner_winning = False
    if trick:
        winner = deal.trick[trick_winner(trick, deal.trump, deal.order)][0]
        partner_winning = (winner - seat) % 2 == 0
    expected = legal_mask(
        deal.hand(seat).mask, trick, deal.trump, deal.order, partner_winning=partner_winning,
        partner_exemption=opts.partner_exemption, must_undertrump=opts.must_undertrump,
        must_head_after_ruff=opts.must_head_after_ruff,
    )
    engine = sum(a.mask for a in deal.legal_actions() if isinstance(a, tute.Card))
    assert names(engine) == names(expected), f"engine and rules disagree at {deal.trick}"


def play(deal: tute.Deal, tricks: Sequence[tuple[str, int]]) -> None:
    """Play whole tricks (cards in playing order) and check who wins each; open declaration
    windows go unused (a polled partner passes)."""
    for cards, winner in tricks:
        for text in cards.split():
            if tute.PASS in deal.legal_actions():
                deal.apply(tute.PASS)
            assert_engine_matches_rules(deal)
            deal.apply(text)
        assert deal.tricks[-1].winner == winner, f"script error: {deal.tricks[-1]}"


def engine_declarations(deal: tute.Deal, seat: int) -> set[str]:
    assert deal.to_move == seat, f"seat {deal.to_move} is to move, not seat {seat}"
    return {str(a) for a in deal.legal_actions() if isinstance(a, tute.Declaration)}


# ------------------------------------------------------------------------- D through the engine


def engine_d08(entry: Entry) -> None:
    """Deal just dealt: nothing to declare, unless a dealt tute wins at once."""
    seat = int(entry["seat"])
    hands, tc = complete_hands({seat: entry["hand"]}, trump=entry["trump"])
    deal = new_parejas(hands, tc, entry.options)
    expected = set(entry["legal_declarations"])
    assert engine_declarations(deal, seat) == expected
    if expected:
        deal.apply(sorted(expected)[0])
        assert deal.is_over() and deal.result().winner == deal.side_of(seat)
        assert deal.result().reason == "tute" and not deal.tricks
    else:
        assert deal.why_illegal("tute_reyes")


D10_HANDS = {0: ["Cc", "Rc", "Ab", "2o", "Ac", "3c", "Ae", "3e", "7b", "6b"],
             1: ["Sc", "7c"], 2: ["6c", "5c"], 3: ["4c", "2c"]}


def engine_d10(entry: Entry) -> None:
    """Seat 0 plays Cc to trick 1, then wins trick 2 holding Rc: no 20 in cups."""
    seat = int(entry["seat"])
    hands, tc = complete_hands(D10_HANDS, trump=entry["trump"])
    deal = new_parejas(hands, tc, entry.options)
    play(deal, [("Cc Sc 6c 4c", 0), ("Ac 7c 5c 2c", 0)])
    assert canon(entry["hand"]) <= set(deal.hand(seat).to_list())
    assert engine_declarations(deal, seat) == set(entry["legal_declarations"])
    assert deal.why_illegal("veinte:c")
    # control: with Cc still in hand the 20 is offered, so the check above is meaningful
    control = new_parejas(hands, tc, entry.options)
    play(control, [("Ac Sc 6c 4c", 0)])
    assert "veinte:c" in engine_declarations(control, seat)


D11_HANDS = ["2e 3b Ao 3o Ro Rc Cc Ab 3e 6c", "Ae 2b Co So 7o Ac 3c Re Rb 7e",
             "4e 4b 6o 5o Sc 7c Ce Se Cb Sb", "5e 5b 4o 2o 5c 4c 2c 6e 7b 6b"]


def engine_d11(entry: Entry) -> None:
    """Side {0,2} first wins trick 2 (seat 0, holding Rc+Cc) and leads on without declaring;
    seat 0 then wins tricks 3-5."""
    seat = int(entry["seat"])
    deal = new_parejas(D11_HANDS, "2o", entry.options)
    play(deal, [("2e Ae 4e 5e", 1), ("2b 4b 5b 3b", 0)])
    assert "veinte:c" in engine_declarations(deal, 0), "the first win must offer the 20"
    play(deal, [("Ao 7o 6o 4o", 0), ("3o So 5o 2o", 0), ("Ro Co Sc 5c", 0)])
    assert len(deal.tricks) == 5
    assert canon(entry["hand"]) <= set(deal.hand(seat).to_list())
    assert engine_declarations(deal, seat) == set(entry["legal_declarations"])


D12_HANDS = ["2e 4e Re Ao 3o So 7o Ac 3c Ab", "Ro Co Rc Cc Ae 3e 2c 4c 2b 4b",
             "5e 6e Ce 6o 5o Sc 7c 3b Rb Sb", "7e Se 4o 2o 6c 5c Cb 7b 6b 5b"]


def engine_d12(entry: Entry) -> None:
    """Seat 1 wins trick 1 holding both marriages; under forty_first=forfeit a 20 first costs
    the 40 for the rest of the deal."""
    seat = int(entry["seat"])
    deal = new_parejas(D12_HANDS, "2o", entry.options)
    play(deal, [("2e Ae 5e 7e", 1)])
    assert canon(entry["hand"]) <= set(deal.hand(seat).to_list())
    expected = set(entry["legal_declarations"])
    assert engine_declarations(deal, seat) == expected
    if "veinte:c" in expected and "cuarenta" in expected:
        deal.apply("veinte:c")
        play(deal, [("3e 6e Se 4e", 1)])
        assert engine_declarations(deal, seat) == set()
        assert "40" in (deal.why_illegal("cuarenta") or "")


_HONOURS = (tute.Rank.REY, tute.Rank.CABALLO)


def engine_first_trick(entry: Entry) -> None:
    """No history needed: seat 0 leads trick 1 of a plain suit, the case's winner takes it with
    that suit's ace; the checked seat holds the case hand plus cards that make no declaration."""
    seat, trump = int(entry["seat"]), entry["trump"]
    winner = DECLARATION_MOMENTS[entry.case_id].winner
    assert isinstance(winner, int)
    hand = canon(entry["hand"])
    plain = [s for s in "oceb" if s != trump and f"A{s}" not in hand]
    clear = [s for s in plain if not any(c.endswith(s) for c in hand)]
    assert clear or seat == winner, "no lead suit keeps the case hand intact"
    lead = (clear or plain)[0]
    low = (str(c) for c in tute.ALL_CARDS if c.suit.letter == lead and str(c) not in hand)
    plays = {s: f"A{lead}" if s == winner else next(low) for s in range(4)}
    fixed = {s: [plays[s]] for s in range(4)}
    fixed[seat] += sorted(hand)
    used = {c for cs in fixed.values() for c in cs}
    quiet = [str(c) for c in tute.ALL_CARDS if str(c) not in used and c.suit.letter != lead
             and c.rank not in _HONOURS]
    if seat == 3 and not any(c.endswith(trump) for c in fixed[seat]):
        fixed[seat].append(quiet.pop(next(i for i, c in enumerate(quiet) if c.endswith(trump))))
    fixed[seat] += quiet[:10 - len(fixed[seat])]
    hands, tc = complete_hands(fixed, trump=trump)
    deal = new_parejas(hands, tc, entry.options)
    while len(deal.tricks) < 1:
        deal.apply(plays[deal.to_move or 0])
    assert deal.tricks[0].winner == winner
    expected = set(entry["legal_declarations"])
    if deal.to_move == seat:  # the winner, or its partner polled first
        assert engine_declarations(deal, seat) == expected
    else:
        assert expected == set(), f"seat {seat} is never asked (seat {deal.to_move} is)"
        assert not any(isinstance(a, tute.Declaration) and deal.to_move != winner
                       for a in deal.legal_actions())


ENGINE_DECLARATIONS: dict[str, Callable[[Entry], None]] = {
    "D01": engine_first_trick, "D03": engine_first_trick, "D04": engine_first_trick,
    "D05": engine_first_trick, "D06": engine_first_trick, "D07": engine_first_trick,
    "D08": engine_d08, "D10": engine_d10, "D11": engine_d11, "D12": engine_d12,
}


@pytest.mark.parametrize(
    "entry", [p for p in entries("D") if p.values[0].case_id in ENGINE_DECLARATIONS])
def test_declarations_in_engine(entry: Entry) -> None:
    ENGINE_DECLARATIONS[entry.case_id](entry)


# ------------------------------------------------------------------------- a tute ends the deal


def tute_layout(kings_seat: int) -> tuple[list[str], str, list[tuple[str, int]]]:
    """Hands and tricks where seat 0 wins tricks 1-3 and ``kings_seat`` (1-3), holding the four
    kings, wins trick 4 with Ab (every trick is led by seat 0 and followed in suit)."""
    x, y = (s for s in (1, 2, 3) if s != kings_seat)
    plays = {0: "Ac 3c Ae 2b", kings_seat: "5c Sc 5e Ab", x: "2c 6c 2e 4b", y: "4c 7c 4e 5b"}
    rest = {0: "Cc 3e Ce Se 7e 6e", kings_seat: "Ro Rc Re Rb 4o 2o", x: "Ao 3o Co 3b Cb Sb",
            y: "So 7o 6o 5o 7b 6b"}
    hands = [f"{plays[s]} {rest[s]}" for s in range(4)]
    trump_card = [c for c in hands[3].split() if c.endswith("o")][-1]
    by_seat = {s: plays[s].split() for s in range(4)}
    tricks = [(" ".join(by_seat[s][t] for s in range(4)), 0 if t < 3 else kings_seat)
              for t in range(4)]
    return hands, trump_card, tricks


def check_tute_ends_deal(entry: Entry) -> None:
    """S05 / F09: a seat declares a tute of kings after winning trick 4."""
    m = re.search(r"seat (\d+) declares (\w+) after (?:winning )?trick (\d+)", entry["event"])
    assert m, f"cannot read the event {entry['event']!r}"
    seat, trick = int(m.group(1)), int(m.group(3))
    decl = m.group(2) if m.group(2).startswith("tute_") else "tute_reyes"
    assert decl == "tute_reyes" and trick == 4 and seat in (1, 2, 3), "layout not available"
    hands, tc, tricks = tute_layout(seat)
    deal = new_parejas(hands, tc, entry.options)
    play(deal, tricks)
    assert decl in engine_declarations(deal, seat)
    deal.apply(decl)
    result = deal.result() if deal.is_over() else None
    assert result is not None, "the deal goes on after a tute"
    assert result.reason == "tute"
    side = result.winner
    actual: dict[str, Any] = {
        "deal_ends": deal.is_over() and deal.to_move is None and not deal.legal_actions(),
        "winner": None if side is None else "AB"[side],
        "games": None if side is None else result.games[side],
        "match_won": result.match_won,
        "remaining_tricks_played": len(deal.tricks) != trick or any(
            len(h) != 10 - trick for h in deal.hands),
        "last_trick_bonus_awarded": any(result.last_trick),
    }
    assert side == deal.side_of(seat)
    assert sum(result.games) == result.games[side]
    assert result.totals == tuple(
        result.card_points[i] + sum(result.cantes[i]) for i in range(2)), "no 10 de últimas"
    check_result(entry["result"], actual)


# ------------------------------------------------------------------------------ S: scoring


def parties(sub: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """The sides (``sides: {A, B}``, or ``A``/``B`` directly) or seats (``seat0``, ``seat1``)
    of a scoring block."""
    if "sides" in sub:
        return sorted(sub["sides"].items(), key=lambda kv: side_index(kv[0]))
    seats = [(k, v) for k, v in sub.items() if re.fullmatch(r"[AB]|seat\d+", str(k))]
    assert seats, "no sides or seats in the scoring block"
    return sorted(seats, key=lambda kv: side_index(kv[0]))


def totals_of(sub: Mapping[str, Any]) -> tuple[list[str], list[int], int | None, list[bool]]:
    """Names, totals (checked against the case), the last-trick party and who sang."""
    ps = parties(sub)
    assert sum(p["card_points"] for _, p in ps) == 120, "card points must sum to 120"
    totals = [scoring.deal_total(p["card_points"], p["cantes"], p["last_trick"]) for _, p in ps]
    keys = [k for k, _ in ps]
    if "totals" in sub:
        assert dict(zip(keys, totals, strict=True)) == sub["totals"]
    last = [i for i, (_, p) in enumerate(ps) if p["last_trick"]]
    assert len(last) <= 1
    return keys, totals, (last[0] if last else None), [bool(p["cantes"]) for _, p in ps]


def blocks(entry: Entry) -> list[Mapping[str, Any]]:
    return list(entry["cases"]) if "cases" in entry.data else [entry.data]


def score_parejas(entry: Entry, var: tute.Variant, opts: tute.Options) -> None:
    mano = side_index(entry.get("mano_side", "A"))
    for sub in blocks(entry):
        keys, totals, last, sang = totals_of(sub)
        out = scoring.score_partnership(totals, last, opts, mano_side=mano, sang=sang)
        check_result(sub["result"], {
            "winner": None if out.winner is None else keys[out.winner],
            "games": out.games, "replay": out.replay,
        })


def trick_event(event: str, order: tute.RankOrder, var: tute.Variant) -> tuple[int, int]:
    """(side, card points) of a ``dealN.event`` that tells of one won trick."""
    seat = int(re.search(r"seat (\d+)", event).group(1))  # type: ignore[union-attr]
    stated = int(re.search(r"(\d+) card points", event).group(1))  # type: ignore[union-attr]
    listed = re.search(r"(\[\[.*\]\])", event)
    if listed:  # the whole trick: check its winner too
        trick = [(int(s), card(c)) for s, c in yaml.safe_load(listed.group(1))]
        pos = trick_winner([c.index for _, c in trick], None, order)
        assert trick[pos][0] == seat
        cards = [c for _, c in trick]
    else:
        cards = [card(t) for t in re.findall(r"\b[A3RCS2-7][oceb]\b", event)]
    assert cards and order.points_of(sum(c.mask for c in cards)) == stated
    return var.side_of(seat), stated


def score_target(entry: Entry, var: tute.Variant, opts: tute.Options) -> None:
    """Two-player Tute and Guiñote: 101 wins (the partida), else de vueltas with carried totals."""
    key = "partida_winner" if var.id == "guinote" else "winner"
    if "deal1" not in entry.data:
        keys, totals, last, _ = totals_of(entry.data)
        won = scoring.target_winner(totals, last, opts.both_over)
        check_result(entry["result"], {key: None if won is None else keys[won]})
        return
    keys, totals, last, _ = totals_of(entry["deal1"])
    assert scoring.target_winner(totals, last, opts.both_over) is None
    assert "vueltas" in entry["deal1"]["result"]
    deal2 = entry["deal2"]
    side, points = trick_event(deal2["event"], var.order, var)
    running = list(totals)
    running[side] += points
    assert dict(zip(keys, running, strict=True)) == deal2["running_totals"]
    won = scoring.target_winner(running, None, opts.both_over)
    check_result(deal2["result"], {
        key: None if won is None else keys[won],
        "ends_immediately": won is not None and opts.vueltas_claim == "auto",
    })


def score_per_deal(entry: Entry, var: tute.Variant, opts: tute.Options) -> None:
    for sub in blocks(entry):
        keys, totals, last, sang = totals_of(sub)
        out = scoring.score_per_deal_2p(totals, last, sang)
        check_result(sub["result"], {"winner": keys[out.winner or 0], "games": out.games})


def match_after_deal_3p(losses: Mapping[int, int], added: Mapping[int, int],
                        loss_limit: int) -> tuple[dict[int, int], bool, int | None]:
    """Local bookkeeping (no engine function yet): add the deal's lost games; the match ends
    when someone reaches ``loss_limit`` and the fewest losses win (None if tied)."""
    now = {s: n + added.get(s, 0) for s, n in losses.items()}
    over = max(now.values()) >= loss_limit
    fewest = min(now.values())
    best = [s for s, n in now.items() if n == fewest]
    return now, over, (best[0] if over and len(best) == 1 else None)


def score_3p(entry: Entry, var: tute.Variant, opts: tute.Options) -> None:
    if "totals" in entry.data:
        seats = sorted(entry["totals"], key=side_index)
        totals = [entry["totals"][s] for s in seats]
        detail = entry.get("detail", "")
        m = re.search(r"(seat\d+)\W+(\d+) card points \+ last trick", detail)
        last = side_index(m.group(1)) if m else None
        if m:
            assert scoring.deal_total(int(m.group(2)), [], True) == entry["totals"][m.group(1)]
        added = scoring.losses_3p(totals, last, opts)
        check_result(entry["result"], {"losses_added": {f"seat{s}": n for s, n in added.items()}})
        return
    # S13: match bookkeeping after a deal in which one seat has the lowest total
    event = entry["event"]
    before = yaml.safe_load(re.search(r"\{.*?\}", event).group(0))  # type: ignore[union-attr]
    low = side_index(re.search(r"(seat\d+) has the lowest total", event).group(1))  # type: ignore[union-attr]
    limit = re.search(r"loss_limit=(\d+)", entry.get("note", ""))
    assert limit is None or int(limit.group(1)) == opts.loss_limit
    totals = [30 if s == low else 50 for s in range(3)]  # a deal where only `low` is lowest
    added = scoring.losses_3p(totals, None, opts)
    now, over, winner = match_after_deal_3p(
        {side_index(k): v for k, v in before.items()}, added, opts.loss_limit)
    check_result(entry["result"], {
        "losses": {f"seat{s}": n for s, n in now.items()}, "match_over": over,
        "match_winner": None if winner is None else f"seat{winner}",
    })


def score_subastado(entry: Entry, var: tute.Variant, opts: tute.Options) -> None:
    if "contract" in entry.data:
        contract = entry["contract"]
        declarer, bid = side_index(contract["declarer"]), contract["bid"]
        d = entry["declarer"]
        total = scoring.deal_total(d["card_points"], d["cantes"], d["last_trick"])
        assert total == entry["declarer_total"]
        made, balance = scoring.settle_subastado(declarer, bid, total, opts)
        assert made == entry["made"]
        actual: dict[str, Any] = {"seats3": {f"seat{s}": v for s, v in balance.items()}}
        for key in entry["result"]:
            idle = re.fullmatch(r"seats4_idle_dealer_(seat\d+)", key)
            if idle:
                people = (0, 1, 2, side_index(idle.group(1)))
                _, bal4 = scoring.settle_subastado(declarer, bid, total, opts, people=people)
                actual[key] = {f"seat{s}": v for s, v in bal4.items()}
        actual["stake_each"] = abs(next(v for s, v in balance.items() if s != declarer))
        check_result(entry["result"], actual)
        return
    # S17: the idle dealer takes over the top bid (4 people at the table)
    auction = entry["auction"]
    m = re.search(r"idle dealer (seat\d+) takes over (seat\d+)'s hand at (\d+)", auction)
    assert m, f"cannot read the auction {auction!r}"
    declarer, bid = side_index(m.group(1)), int(m.group(3))
    top = re.search(rf"{m.group(2)} (\d+)", auction)
    assert top and int(top.group(1)) + opts.takeover_increment == bid
    assert opts.seats == 4 and opts.dealer_takeover
    for sub in entry["cases"]:
        made, balance = scoring.settle_subastado(
            declarer, bid, sub["declarer_total"], opts, people=(0, 1, 2, 3), takeover=True)
        assert made == sub["made"]
        check_result(sub["result"], {f"seat{s}": v for s, v in balance.items()})


def coto_after_partida(partidas: Mapping[str, int], cotos: Mapping[str, int], winner: str,
                       per_coto: int) -> tuple[str | None, dict[str, int], dict[str, int]]:
    """Local bookkeeping (no engine function yet): a side winning ``per_coto`` partidas wins
    the coto, and the partida counts start again."""
    now = {**partidas, winner: partidas[winner] + 1}
    if now[winner] < per_coto:
        return None, now, dict(cotos)
    return winner, {k: 0 for k in now}, {**cotos, winner: cotos.get(winner, 0) + 1}


def score_guinote(entry: Entry, var: tute.Variant, opts: tute.Options) -> None:
    if "event" not in entry.data:
        score_target(entry, var, opts)
        return
    event = entry["event"]
    m = re.search(r"partidas so far A (\d+), B (\d+)", event)
    w = re.search(r"\b([AB]) wins a partida", event)
    assert m and w, f"cannot read the event {event!r}"
    coto, _, cotos = coto_after_partida(
        {"A": int(m.group(1)), "B": int(m.group(2))}, {"A": 0, "B": 0}, w.group(1),
        opts.partidas_per_coto)
    check_result(entry["result"], {"coto_winner": coto, "cotos": cotos})


def score_card_points(entry: Entry) -> None:
    t = tute.find_variant("tute_parejas")
    g = tute.find_variant("guinote")
    s = tute.find_variant("tute_subastado")
    assert t.order.points_of(DECK_40) == entry["tute_points_of_40_cards"]
    assert g.order.points_of(DECK_40) == entry["guinote_points_of_40_cards"]
    assert s.deck.bit_count() == 36
    assert s.order.points_of(s.deck) == entry["subastado_points_of_36_cards"]
    for ex in entry["examples"]:
        cards = mask_of(ex["cards"])
        assert (t.order.points_of(cards), g.order.points_of(cards)) == (ex["tute"], ex["guinote"])


def score_cabron(entry: Entry, var: tute.Variant, opts: tute.Options) -> None:
    for sub in entry["cases"]:
        seats = sorted(sub["totals"], key=side_index)
        totals = [sub["totals"][s] for s in seats]
        empty = {side_index(s) for s in sub.get("no_trick", [])}
        assert bool(empty) != sub["all_took_tricks"]
        losers = scoring.cabron_losers(totals, [i not in empty for i in range(len(seats))])
        assert sorted(f"seat{i}" for i in losers) == sorted(sub["losers"])


SCORERS: dict[str, Callable[[Entry, tute.Variant, tute.Options], None]] = {
    "tute_parejas": score_parejas,
    "tute_2p_habanero": score_target,
    "tute_2p_corriente": score_target,
    "tute_arrastrado_3p": score_3p,
    "tute_subastado": score_subastado,
    "guinote": score_guinote,
    "tute_cabron": score_cabron,
}


@pytest.mark.parametrize("entry", entries("S"))
def test_scoring(entry: Entry) -> None:
    if entry.variant == "any":
        score_card_points(entry)
        return
    if entry.variant == "tute_parejas" and "event" in entry.data:
        check_tute_ends_deal(entry)
        return
    var, opts = resolve(entry)
    if var.stock and not var.partnerships and opts.scoring_2p == "per_deal":
        score_per_deal(entry, var, opts)
        return
    SCORERS[var.id](entry, var, opts)


# ------------------------------------------------------------------------------ X, F, R


FEATURES = {
    "tute_2p_habanero": "two-player Tute deals (stock, draws, upcard exchange, arrastre)",
    "tute_2p_corriente": "two-player Tute deals (stock, draws, upcard exchange, arrastre)",
    "tute_arrastrado_3p": "three-player Tute deals (table card, compulsory exchanges)",
    "tute_subastado": "Tute subastado deals (auction, takeover, contract)",
    "guinote": "Guiñote deals (stock, draws, exchanges, arrastre)",
    "tute_cabron": "Tute cabrón deals",
}
MISSING = {"R01": "renuncio claims (renuncio_mode=claim, renuncio_penalty)"}


def skip_unplayable(entry: Entry) -> None:
    what = MISSING.get(entry.case_id) or FEATURES.get(entry.variant)
    if what is None:
        pytest.fail(f"{entry.case_id} ({entry.variant}) has no check: write one")
    pytest.skip(f"not playable yet: {what}")


def check_x11(entry: Entry) -> None:
    """The turned card belongs to the dealer and nothing can be exchanged in the 4-player game."""
    dealer, tc = int(entry["dealer"]), str(card(entry["trump_card"]))
    assert not entry["exchanges_possible"]
    hands, _ = complete_hands({}, trump=entry["trump"], trump_card=tc, dealer=dealer)
    for deal in [new_parejas(hands, tc, entry.options),
                 *(tute.Deal.new("tute_parejas", seed=s, dealer=dealer) for s in range(3))]:
        turned = deal.trump_card
        assert turned is not None and turned in deal.hand(dealer)
        assert deal.trump == turned.suit
        assert all(deal.view(s).trump_card is turned for s in range(4))
        while not deal.is_over():
            acts = deal.legal_actions()
            assert all(isinstance(a, (tute.Card, tute.Declaration, tute.Pass)) for a in acts)
            deal.apply(acts[-1])
        played_by = {c: s for t in deal.tricks for s, c in t.plays(4)}
        assert played_by[turned] == dealer
    assert str(new_parejas(hands, tc).trump_card) == tc


def check_f05(entry: Entry) -> None:
    """Dealing one card at a time from mano; the 40th card (the dealer's last) is turned."""
    dealer, mano = int(entry["dealer"]), int(entry["mano"])
    pack = [c.index for c in tute.ALL_CARDS]
    for seed in range(5):
        deal = tute.Deal.new("tute_parejas", seed=seed, dealer=dealer, options=entry.options)
        assert (deal.dealer, deal.mano, deal.to_move) == (dealer, mano, entry["first_lead"])
        order = shuffled(seed, pack)
        for seat in range(4):
            dealt = [order[k] for k in range(40) if (mano + k) % 4 == seat]
            assert deal.hand(seat).mask == sum(1 << i for i in dealt)
        assert deal.trump_card is tute.Card.from_index(order[39])
        assert deal.trump_card in deal.hand(dealer) and deal.trump == deal.trump_card.suit
        deal.apply(deal.legal_actions()[0])
        assert deal.trick[0][0] == entry["first_lead"]
        # next deal: this deal's mano deals (no Match yet: checked on Deal.new's seating)
        nxt = entry["next_deal"]
        assert mano == nxt["dealer"]
        assert tute.Deal.new("tute_parejas", seed=seed, dealer=mano).mano == nxt["mano"]


def check_r02(entry: Entry) -> None:
    """An illegal card is refused with the reason and leaves the deal untouched."""
    m = re.search(r"seat (\d+) holds (\w+) and tries to play (\w+) on a (\w+) lead",
                  entry["event"])
    assert m, f"cannot read the event {entry['event']!r}"
    seat, held, tried = int(m.group(1)), card(m.group(2)), card(m.group(3))
    lead_suit = next(s for s in tute.Suit if m.group(4) in (s.english, s.spanish))
    assert held.suit == lead_suit != tried.suit
    lead = next(c for c in reversed(tute.ALL_CARDS) if c.suit == lead_suit and c is not held)
    fixed = {seat: [str(held), str(tried)], 0: [str(lead)]}
    hands, tc = complete_hands(fixed, trump=tried.suit.letter)
    deal = new_parejas(hands, tc, entry.options)
    deal.apply(lead)
    while deal.to_move != seat:
        deal.apply(deal.legal_actions()[0])
    assert_refused(deal, tried)
    # the same for every illegal card at every turn of a few shuffled deals
    refused = 0
    for s in range(3):
        deal = tute.Deal.new("tute_parejas", seed=s, dealer=3, options=entry.options)
        while not deal.is_over():
            legal = deal.legal_actions()
            if any(isinstance(a, tute.Card) for a in legal):
                assert_engine_matches_rules(deal)
            for c in deal.hand(deal.to_move or 0):
                if c not in legal:
                    assert_refused(deal, c)
                    refused += 1
            deal.apply(legal[-1])
    assert refused


def assert_refused(deal: tute.Deal, c: tute.Card) -> None:
    def state() -> tuple[Any, ...]:
        return (deal.hands, deal.to_move, deal.actions, deal.trick, deal.tricks,
                deal.card_points, len(deal.events), [str(a) for a in deal.legal_actions()])

    before = state()
    with pytest.raises(tute.IllegalActionError) as err:
        deal.apply(str(c))
    assert isinstance(err.value, ValueError)
    reason = err.value.reason
    assert reason and reason in str(err.value) and str(c) in str(err.value)
    assert "not a legal card now" not in reason, "no specific reason"
    assert state() == before


CHECKS: dict[str, Callable[[Entry], None]] = {
    "X11": check_x11, "F05": check_f05, "F09": check_tute_ends_deal, "R02": check_r02,
}


@pytest.mark.parametrize("entry", entries("X"))
def test_exchanges(entry: Entry) -> None:
    CHECKS.get(entry.case_id, skip_unplayable)(entry)


@pytest.mark.parametrize("entry", entries("F"))
def test_deal_flow(entry: Entry) -> None:
    CHECKS.get(entry.case_id, skip_unplayable)(entry)


@pytest.mark.parametrize("entry", entries("R"))
def test_renuncio(entry: Entry) -> None:
    CHECKS.get(entry.case_id, skip_unplayable)(entry)
