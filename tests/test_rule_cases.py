"""The worked cases of ``rules/rule_cases.md`` as parametrized tests.

Every case is loaded from the YAML blocks of the case file itself (see ``casefile.py``); there is
one test id per case and per ``alt`` entry (``P03``, ``P03-alt1``). Legality, trick winners,
declarations and scoring are checked through the pure functions of ``tute.rules`` and
``tute.scoring``; every case that depends on the state of a deal is also played through
``tute.Deal`` (or ``tute.match.Match``) on an explicit layout built to reach the case's moment
(``deal_builders.py``). No case is skipped.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import pytest
import yaml

import deal_builders
import tute
import tute.events
from casefile import CaseFileError, Entry, expand, load_cases, more_cases_path
from tute import scoring
from tute.cards import DECK_40, parse_suit
from tute.games import game_for
from tute.games.base import MatchStep, MatchTally, Tally
from tute.games.cabron import cabron_losers
from tute.match import Match
from tute.rules import (
    available_declarations,
    explain_plays,
    legal_mask,
    parse_declaration,
    trick_winner,
)
from tute.shuffle import shuffled

EXPECTED_CASE_COUNT = 119  # rule_cases.md
EXPECTED_MORE_COUNT = 21  # rule_cases_more.md
PREFIXES = "PWDXSFR"

try:
    FIRST: list[dict[str, Any]] = load_cases()
    MORE: list[dict[str, Any]] = load_cases(more_cases_path())
    CASES: list[dict[str, Any]] = FIRST + MORE
    ENTRIES: list[Entry] = [e for c in CASES for e in expand(c)]
    LOAD_ERROR: str | None = None
except CaseFileError as exc:  # reported by test_case_file_loaded, not skipped
    FIRST, MORE, CASES, ENTRIES, LOAD_ERROR = [], [], [], [], str(exc)


def entries(prefix: str) -> list[Any]:
    return [pytest.param(e, id=e.test_id) for e in ENTRIES if e.case_id.startswith(prefix)]


def test_case_file_loaded() -> None:
    if LOAD_ERROR is not None:
        pytest.fail(LOAD_ERROR, pytrace=False)
    ids = [c["id"] for c in CASES]
    assert len(FIRST) == EXPECTED_CASE_COUNT, f"loaded {len(FIRST)} cases, expected 119"
    assert len(MORE) == EXPECTED_MORE_COUNT, f"loaded {len(MORE)} more cases, expected 21"
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
        cabron_cante_from_case(entry)  # the engine plays it in test_declarations_in_engine
        return
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


# ----------------------------------------------------- D in the other variants (engine)


def two_player_scenario(entry: Entry, *, winners: Sequence[int | None],
                        holds: Mapping[tuple[int, int], Any], upcard: str,
                        drawn: Mapping[tuple[int, int], str] | None = None, exact: bool = False,
                        after: Sequence[str] = ()) -> tuple[tute.Deal, list[list[str]]]:
    """A habanero deal (dealer 1) whose stock tricks go to ``winners``, built from the cards
    not otherwise used, followed by the tricks ``after``."""
    var, _ = resolve(entry)
    used = {c for h in holds.values() for c in deal_builders.cards(h)}
    used |= {upcard} | {c for t in after for c in deal_builders.cards(t)}
    pool = [c for c in deal_builders.pack(var.id) if c not in used]
    tricks = deal_builders.auto_tricks(var.id, dealer=1, trump=upcard[1], winners=winners,
                                       pool=pool, options=entry.options, exact=exact)
    tricks += [deal_builders.cards(t) for t in after]
    layout = deal_builders.stock_layout(var.id, dealer=1, upcard=upcard, tricks=tricks,
                                        holds=holds, drawn=drawn, options=entry.options)
    return tute.Deal.new(var.id, **layout), tricks


def engine_d13(entry: Entry) -> None:
    """Seat 0 wins trick 11 and draws; 2 stock cards remain: the window is open."""
    hand = canon(entry["hand"])
    deal, tricks = two_player_scenario(entry, winners=[None] * 10 + [0], holds={(0, 11): hand},
                                       upcard="Ao")
    deal_builders.drive(deal, deal_builders.flat(tricks))
    deal_builders.finish_draw(deal)
    assert deal.stock_count == 2 and len(deal.tricks) == 11
    assert set(deal.hand(0).to_list()) == hand
    assert deal_builders.declarations(deal) == set(entry["legal_declarations"])
    assert deal.to_move == int(entry["seat"])


def engine_d14(entry: Entry) -> None:
    """Seat 1 wins trick 12 and the draw empties the stock: no window (with cante_before_draw
    the winner declares before drawing, while 2 cards remain)."""
    seat, hand = int(entry["seat"]), canon(entry["hand"])
    last = "4b"  # the card seat 1 draws after trick 12 (not part of a marriage)
    deal, tricks = two_player_scenario(entry, winners=[None] * 11 + [seat],
                                       holds={(seat, 12): hand}, upcard="3o",
                                       drawn={(seat, 12): last})
    deal_builders.drive(deal, deal_builders.flat(tricks))
    expected = set(entry["legal_declarations"])
    if deal.options.cante_before_draw:
        assert deal.stock_count == 2 and deal.to_move == seat
        assert set(deal.hand(seat).to_list()) == hand - {last}
        assert deal_builders.declarations(deal) == expected
        deal.apply(tute.PASS)
        expected = set()
    assert deal.stock_count == 0 and deal.to_move == seat
    assert set(deal.hand(seat).to_list()) == hand
    assert deal_builders.declarations(deal) == expected
    assert deal.why_illegal("veinte:e")


def engine_d15(entry: Entry) -> None:
    """Seat 0 sings the 20 in cups after trick 3 (holding Ro, not Co), draws Co after trick 5
    and wins trick 6: the 40 may follow the 20."""
    seat, hand = int(entry["seat"]), canon(entry["hand"])
    sung = [str(parse_declaration(d)) for d in entry["already_sung"]]
    assert entry["state"].startswith(f"seat {seat} sang {sung[0]} at trick 3 (then held Ro but "
                                     "not Co); drew Co after trick 5; has just won trick 6")
    deal, tricks = two_player_scenario(
        entry, winners=[None, None, seat, None, None, seat], upcard="3o",
        holds={(seat, 3): ["Ro", "Rc", "Cc"], (seat, 6): hand}, drawn={(seat, 5): "Co"})
    cards_ = deal_builders.flat(tricks)
    deal_builders.drive(deal, cards_[:6])
    deal_builders.finish_draw(deal)
    assert "Ro" in deal.hand(seat) and "Co" not in deal.hand(seat)
    assert deal_builders.declarations(deal) == {sung[0]}
    deal_builders.drive(deal, [sung[0], *cards_[6:]])
    deal_builders.finish_draw(deal)
    assert deal.stock_count > 0 and deal.to_move == seat
    assert set(deal.hand(seat).to_list()) == hand
    assert [(s, str(d)) for s, d, _p in deal.cantes] == [(seat, sung[0])]
    assert deal_builders.declarations(deal) == set(entry["legal_declarations"])


D16_ARRASTRE = ["4e Re", "Ae 5e", "3e 6e"]  # tricks 13-15: seat 1 leads, seat 0 wins them all
D16_SEAT1 = "7e Se Ce 7c 6c"


def engine_d16(entry: Entry) -> None:
    """Arrastre: seat 0 wins trick 15 holding a marriage; nothing may be declared (§3.5)."""
    seat, hand = int(entry["seat"]), canon(entry["hand"])
    assert seat == 0 and "Ao" in hand  # seat 0 draws the upcard Ao: seat 1 wins trick 12
    deal, tricks = two_player_scenario(
        entry, winners=[None] * 11 + [1], upcard="Ao", exact=True, after=D16_ARRASTRE,
        holds={(0, 15): hand, (1, 15): D16_SEAT1})
    deal_builders.drive(deal, deal_builders.flat(tricks))
    assert len(deal.tricks) == 15 and deal.stock_count == 0 and deal.to_move == seat
    assert set(deal.hand(seat).to_list()) == hand
    assert deal_builders.declarations(deal) == set(entry["legal_declarations"]), (
        "two-player Tute: no declarations in arrastre (rules.md §3.5)")
    for d in ("veinte:b", "cuarenta"):
        assert deal.why_illegal(d)


def guinote_window(deal: tute.Deal) -> dict[int, set[str]]:
    """After a trick (and its draw): the declarations offered to each seat asked, until the
    winner has led and the others follow (the window is then closed)."""
    offered: dict[int, set[str]] = {}
    while deal_builders.is_poll(deal):
        offered[deal.to_move or 0] = deal_builders.declarations(deal)
        deal.apply(tute.PASS)
    leader = deal.to_move
    assert leader is not None
    offered[leader] = deal_builders.declarations(deal)
    deal.apply(next(a for a in deal.legal_actions() if isinstance(a, tute.Card)))
    while deal.trick and deal.to_move is not None:
        offered.setdefault(deal.to_move, set()).update(deal_builders.declarations(deal))
        deal.apply(next(a for a in deal.legal_actions() if isinstance(a, tute.Card)))
    return offered


def guinote_scenario(entry: Entry, winners: Sequence[int | None],
                     holds: Mapping[tuple[int, int], Any], upcard: str = "2o") -> tute.Deal:
    """A Guiñote deal (dealer 3, an upcard nothing can take) whose stock tricks go to
    ``winners``; stopped after the last one is drawn."""
    var, _ = resolve(entry)
    used = {c for h in holds.values() for c in deal_builders.cards(h)} | {upcard}
    pool = [c for c in deal_builders.pack(var.id) if c not in used]
    tricks = deal_builders.auto_tricks(var.id, dealer=3, trump=upcard[1], winners=winners,
                                       pool=pool, options=entry.options)
    layout = deal_builders.stock_layout(var.id, dealer=3, upcard=upcard, tricks=tricks,
                                        holds=holds, options=entry.options)
    deal = tute.Deal.new(var.id, **layout)
    deal_builders.drive(deal, deal_builders.flat(tricks))
    deal_builders.finish_draw(deal)
    assert deal.tricks[-1].winner == winners[-1]
    return deal


def engine_guinote_stock(entry: Entry) -> None:
    """D17-D19: the winning side declares after the draw, the partner asked first."""
    winner = DECLARATION_MOMENTS[entry.case_id].winner
    assert isinstance(winner, int)
    checks = declaration_checks(entry)
    t = DECLARATION_MOMENTS[entry.case_id].trick or 1
    deal = guinote_scenario(entry, [None] * (t - 1) + [winner],
                            {(seat, t): canon(hand) for seat, hand, _ in checks})
    assert deal.stock_count > 0
    for seat, hand, _ in checks:
        assert set(deal.hand(seat).to_list()) == canon(hand)
    offered = guinote_window(deal)
    for seat, _hand, expected in checks:
        assert offered.get(seat, set()) == set(expected), f"seat {seat}"
        if expected:
            assert deal.side_of(seat) == deal.side_of(winner)


D20_STOCK = "So Co 7o 5o 4o 2o Sc 5e 4e 2e Rb Sb 6b 5b 4b 2b"  # tricks 1-4; seat 1 wins 4
D20_ARRASTRE = ["Ao 3b Cb 6o", "3o 4c 7b 6e", "Ro 5c 2c 7e"]  # tricks 5-7: seat 1 leads
D20_AFTER = {0: "Ae 3e Ce", 1: "Ac 3c Rc", 2: "Cc 7c 6c", 3: "Re Se Ab"}  # after trick 7


def engine_d20(entry: Entry) -> None:
    """Arrastre: seat 1 wins tricks 5-7 and its partner (seat 3) may declare each time.
    Interpretation: after trick 7 a hand holds 3 cards, so the case's 4-card hand is the one
    held after trick 6; after trick 7 seat 3 holds Re Se Ab (it played 2c)."""
    seat, hand = int(entry["seat"]), canon(entry["hand"])
    assert entry["state"] == "arrastre: seat 1 has just won trick 7"
    var, _ = resolve(entry)
    stock = deal_builders.auto_tricks(var.id, dealer=3, trump="o", winners=[None] * 3 + [1],
                                      pool=D20_STOCK.split(), exact=True)
    tricks = stock + [t.split() for t in D20_ARRASTRE]
    layout = deal_builders.stock_layout(
        var.id, dealer=3, upcard="6o", tricks=tricks, options=entry.options,
        holds={(s, 7): h for s, h in D20_AFTER.items()})
    deal = tute.Deal.new(var.id, **layout)
    script = deal_builders.flat(tricks)
    for t, held in ((6, hand), (7, set(D20_AFTER[seat].split()))):
        deal_builders.drive(deal, script[len(deal.tricks) * 4:t * 4])
        assert len(deal.tricks) == t and deal.tricks[-1].winner == 1 and deal.stock_count == 0
        assert set(deal.hand(seat).to_list()) == held
        assert deal.to_move == seat, "the winner's partner is asked first"
        assert deal_builders.declarations(deal) == set(entry["legal_declarations"])


D21_HANDS = ["Ae 3e Rc Cc Ab 4c Ac 3c Sc 7c 6c 6b", "Ro Co 7o Ao 3o Rb Cb 3b Sb 7b 5e 4e",
             "6e 5c Re Ce Se 7e So 6o 5o 4o 5b 4b"]


def engine_d21(entry: Entry) -> None:
    """Subastado, declarer seat 1: a defender who wins a trick may not declare; the declarer
    may (seat 0 wins trick 1 with Ae, seat 1 trumps trick 2)."""
    deal = tute.Deal.new("tute_subastado", dealer=2, hands=[h.split() for h in D21_HANDS],
                         options=entry.options)
    deal_builders.drive(deal, ["pass", "bid:60", "pass", f"trump:{entry['trump']}"])
    view = deal.view(0)
    assert view.contract is not None and view.contract[0] == 1
    seats = entry["seats"]
    for trick, winner in (("Ae 4e 6e", 0), ("4c 7o 5c", 1)):
        deal_builders.drive(deal, trick.split())
        assert deal.tricks[-1].winner == winner == deal.to_move
        check = seats[winner]
        assert canon(check["hand"]) <= set(deal.hand(winner).to_list())
        assert deal_builders.declarations(deal) == set(check["legal_declarations"])


D22_HANDS = ["4c Ac 3c Rc Cc 2c 3e Re Ce Se 7e 6e 5e", "5c Sc 7c 6c 4e Ab 3b Sb 7b 6b 5b 4b 2b",
             "Ro Co Rb Cb Ae 4o Ao 3o So 7o 6o 5o 2e"]


def engine_d22(entry: Entry) -> None:
    """Arrastrado (table card 2o: no exchange): seat 2, void in cups, trumps trick 1."""
    seat = int(entry["seat"])
    hands = [h.split() for h in D22_HANDS]
    assert canon(entry["hand"]) <= set(hands[seat])
    deal = tute.Deal.new("tute_arrastrado_3p", dealer=2, hands=hands, table_card="2o",
                         options=entry.options)
    assert not deal.events, "no exchange with a 2 on the table"
    deal_builders.drive(deal, ["4c", "5c", "4o"])
    assert deal.tricks[-1].winner == seat == deal.to_move
    assert deal_builders.declarations(deal) == set(entry["legal_declarations"])


def cabron_trick(entry: Entry) -> tuple[list[tuple[int, str]], int]:
    m = re.fullmatch(r"trick (\[\[.*\]\]) has just been won by seat (\d+); no cante yet in "
                     r"this deal", entry["state"])
    assert m, f"cannot read the state {entry['state']!r}"
    plays = [(int(s), str(card(c))) for s, c in yaml.safe_load(m.group(1))]
    return plays, int(m.group(2))


def cabron_cante_from_case(entry: Entry) -> None:
    """D23 on the rules alone: the trick holds a king and caballo of one suit, so the winner
    (highest card of the suit led, no trump yet) scores 40 and that suit becomes trumps."""
    plays, winner = cabron_trick(entry)
    var, _ = resolve(entry)
    pos = trick_winner([card(c).index for _, c in plays], None, var.order)
    assert plays[pos][0] == winner
    shown = {c for _, c in plays}
    suits = [x for x in "oceb" if {f"R{x}", f"C{x}"} <= shown]
    assert len(suits) == 1
    check_result(entry["result"], {"cante_points": 40, "new_trump": suits[0],
                                   "scored_by": winner})


def engine_d23(entry: Entry) -> None:
    """Tute cabrón: the cante happens by itself when Rc and Cc fall in one trick."""
    plays, winner = cabron_trick(entry)
    by_seat = dict(plays)
    suit = by_seat[plays[0][0]][1]
    others = {c for c in deal_builders.pack("tute_cabron") if c[1] == suit} - set(by_seat.values())
    high = [c for c in others if card(c).rank in (tute.Rank.AS, tute.Rank.TRES)]
    fixed: dict[int, list[str]] = {s: [c] for s, c in plays}
    leader = plays[0][0]
    fixed[leader] += high  # nobody else could head the lead
    followers = [s for s, c in plays[1:] if c[1] == suit]
    for s in followers:
        fixed[s] += sorted(others - set(high))  # lower cards of the suit: any may follow
    deck = [c for c in deal_builders.pack("tute_cabron") if c[1] != suit]
    hands = deal_builders.fill_hands(fixed, 3, 12, deck + [c for c in others
                                                           if c not in high])
    deal = tute.Deal.new("tute_cabron", dealer=(leader - 1) % 3, hands=hands,
                         options=entry.options)
    assert deal.trump is None and deal.to_move == leader
    deal_builders.drive(deal, [c for _, c in plays])
    assert deal.tricks[-1].winner == winner
    declared = [e for e in deal.events if isinstance(e, tute.events.Declared)]
    assert len(declared) == 1 and {str(c) for c in declared[0].cards} == {f"R{suit}", f"C{suit}"}
    (seat, decl, points), = deal.cantes
    check_result(entry["result"], {"cante_points": points, "new_trump": deal.trump.letter
                                   if deal.trump else None, "scored_by": seat})
    assert str(decl) == "cuarenta"
    play_out(deal)
    res = deal.result()
    assert res.cantes[winner][0] == 40 and sum(res.card_points) == 120
    assert res.totals[winner] == res.card_points[winner] + sum(res.cantes[winner]) + 10 * (
        deal.tricks[-1].winner == winner)


ENGINE_DECLARATIONS: dict[str, Callable[[Entry], None]] = {
    "D01": engine_first_trick, "D03": engine_first_trick, "D04": engine_first_trick,
    "D05": engine_first_trick, "D06": engine_first_trick, "D07": engine_first_trick,
    "D08": engine_d08, "D10": engine_d10, "D11": engine_d11, "D12": engine_d12,
    "D13": engine_d13, "D14": engine_d14, "D15": engine_d15, "D16": engine_d16,
    "D17": engine_guinote_stock, "D18": engine_guinote_stock, "D19": engine_guinote_stock,
    "D20": engine_d20, "D21": engine_d21, "D22": engine_d22, "D23": engine_d23,
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
    vueltas_in_engine(entry, var, keys, totals)
    vueltas_in_match(var, opts)


def vueltas_in_engine(entry: Entry, var: tute.Variant, keys: list[str],
                      carried: list[int]) -> None:
    """The second deal through the engine: ``carry`` holds the first deal's totals and the
    trick of ``deal2.event`` is played as trick 1."""
    deal2 = entry["deal2"]
    event = deal2["event"]
    listed = re.search(r"(\[\[.*\]\])", event)
    if listed:
        plays = [(int(s), str(card(c))) for s, c in yaml.safe_load(listed.group(1))]
    else:  # the winner leads the first card named; the others follow in order
        seat = int(re.search(r"seat (\d+)", event).group(1))  # type: ignore[union-attr]
        named = re.findall(r"\b[A3RCS2-7][oceb]\b", event)
        plays = [((seat + i) % len(named), str(card(c))) for i, c in enumerate(named)]
    n = var.seat_count(var.resolve(entry.options))
    assert len(plays) == n
    trump = next(x for x in "oceb" if all(c[1] != x for _, c in plays))
    upcard = f"A{trump}"
    layout = deal_builders.stock_layout(var.id, dealer=(plays[0][0] - 1) % n, upcard=upcard,
                                        tricks=[[c for _, c in plays]], options=entry.options)
    deal = tute.Deal.new(var.id, carry=carried, **layout)
    assert deal.carry == tuple(carried) and deal.view(1).carry == tuple(carried)
    deal_builders.drive(deal, [c for _, c in plays])
    res = deal.result() if deal.is_over() else None
    won = None if res is None else res.winner
    running = res.running if res else tuple(
        c + p for c, p in zip(carried, deal.card_points, strict=True))
    assert dict(zip(keys, running, strict=True)) == deal2["running_totals"]
    key = "partida_winner" if var.id == "guinote" else "winner"
    check_result(deal2["result"], {
        key: None if won is None else keys[won],
        "ends_immediately": res is not None and len(deal.tricks) == 1,
    })
    if res is not None:
        assert res.reason == "vueltas" and res.games[won or 0] == 1 and not res.last_trick[0]


def vueltas_in_match(var: tute.Variant, opts: tute.Options) -> None:
    """In a match, a deal where nobody reaches 101 is followed by one de vueltas that carries
    its totals."""
    for seed in range(60):
        match = Match.new(var.id, seed=seed, options=opts, first_dealer=0)
        first = match.deal
        while match.deal is first:
            match.apply(match.legal_actions()[0])
        res = first.result()
        if res.vueltas:
            assert res.winner is None and sum(res.games) == 0 and res.running == res.totals
            assert match.deal.carry == res.running and match.games == [0, 0]
            return
        assert match.deal.carry is None
    pytest.fail("no first deal ended below 101 in 60 seeded matches")


def score_per_deal(entry: Entry, var: tute.Variant, opts: tute.Options) -> None:
    for sub in blocks(entry):
        keys, totals, last, sang = totals_of(sub)
        out = scoring.score_per_deal_2p(totals, last, sang)
        check_result(sub["result"], {"winner": keys[out.winner or 0], "games": out.games})


def seeded_match_deal(variant: str, options: tute.Options, want: Callable[[tute.DealResult],
                      bool], set_up: Callable[[Match], None]) -> Match:
    """A match whose first deal (played with the first legal action each time) ends with a
    result ``want`` accepts; ``set_up`` sets the score before the deal. Seeds are tried in
    order."""
    for seed in range(200):
        match = Match.new(variant, seed=seed, options=options, first_dealer=0)
        set_up(match)
        first = match.deal
        while not first.is_over():
            match.apply(match.legal_actions()[0])
        if want(first.result()):
            return match
    pytest.fail("no seeded deal gives the wanted result")


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
    assert scoring.losses_3p(totals, None, opts) == {low: 1}
    start = [before[f"seat{s}"] for s in range(3)]

    def set_up(match: Match) -> None:
        match.losses = list(start)

    def only_low_loses(res: tute.DealResult) -> bool:
        assert res.losses is not None
        lowest = min(res.totals)
        return res.losses == tuple(int(s == low) for s in range(3)) and (
            res.totals[low] == lowest and res.totals.count(lowest) == 1)

    match = seeded_match_deal(var.id, opts, only_low_loses, set_up)
    over = match.is_over()
    winner = match.result().winner if over else None
    assert not over or match.result().reason == "losses"
    check_result(entry["result"], {
        "losses": {f"seat{s}": n for s, n in enumerate(match.losses)}, "match_over": over,
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


def score_guinote(entry: Entry, var: tute.Variant, opts: tute.Options) -> None:
    if "event" not in entry.data:
        score_target(entry, var, opts)
        return
    event = entry["event"]
    m = re.search(r"partidas so far A (\d+), B (\d+)", event)
    w = re.search(r"\b([AB]) wins a partida", event)
    assert m and w, f"cannot read the event {event!r}"
    side = "AB".index(w.group(1))
    start = [int(m.group(1)), int(m.group(2))]
    assert max(start) < opts.partidas_per_coto

    def set_up(match: Match) -> None:
        match.games = list(start)

    match = seeded_match_deal(var.id, opts, lambda res: res.winner == side, set_up)
    won = [i for i in range(2) if match.cotos[i]]
    assert match.games == [0, 0] or won == [], "partida counts restart after a coto"
    assert not match.is_over() and opts.cotos_to_win > 1
    check_result(entry["result"], {
        "coto_winner": "AB"[won[0]] if won else None,
        "cotos": dict(zip("AB", match.cotos, strict=True)),
    })


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
        losers = cabron_losers(totals, [i not in empty for i in range(len(seats))])
        assert sorted(f"seat{i}" for i in losers) == sorted(sub["losers"])


# the second file: the game's own score and match hooks, fed the case's numbers


def seat_map(block: Mapping[str, Any] | None, n: int, default: Any = 0) -> list[Any]:
    block = block or {}
    return [block.get(f"seat{s}", default) for s in range(n)]


def seats_named(names: Any) -> dict[str, int]:
    return {str(k): v for k, v in (names or {}).items()}


def tally_of(sub: Mapping[str, Any], n: int, opts: tute.Options, *, reason: str = "tricks",
             who: int | None = None) -> Tally:
    """The :class:`Tally` a finished deal would hand its game, from a case's numbers."""
    points = seat_map(sub.get("card_points"), n)
    cantes = [tuple(c) for c in seat_map(sub.get("cantes"), n, ())]
    last = side_index(sub["last_trick"]) if sub.get("last_trick") else None
    if reason == "tricks":
        assert sum(points) == 120, "card points must sum to 120"
    totals = tuple(p + sum(c) + (opts.last_trick_bonus if s == last else 0)
                   for s, (p, c) in enumerate(zip(points, cantes, strict=True)))
    if "totals" in sub:
        assert dict(zip([f"seat{s}" for s in range(n)], totals, strict=True)) == sub["totals"]
    tricks = seat_map(sub.get("tricks"), n, 1)
    return Tally(reason, who, None, totals, tuple(points), tuple(cantes), tuple(cantes), last,
                 n, tuple(range(n)), 0, None, tuple(tricks), None)


def added(losses: Sequence[int] | None) -> dict[str, int]:
    return {f"seat{s}": v for s, v in enumerate(losses or ()) if v}


def event_tute(entry: Entry) -> int:
    """The seat of ``event: seat N wins trick K and declares tute_...``, checked in the engine's
    own vocabulary."""
    m = re.fullmatch(r"seat (\d+) wins trick \d+ and declares (tute_\w+)", entry["event"])
    assert m, f"cannot read the event {entry['event']!r}"
    assert parse_declaration(m.group(2)).is_tute
    return int(m.group(1))


def after(game: Any, before: Sequence[int], losses: Sequence[int],
          opts: tute.Options) -> MatchStep:
    n = len(before)
    result: Any = types.SimpleNamespace(losses=tuple(losses), balances=None, games=(0,) * n,
                                        match_won=False, winner=None, replay=False)
    tally = MatchTally((0,) * n, (), tuple(before), (0,) * n, 0, 1)
    return cast(MatchStep, game.after_deal(tally, result, opts))


def score_gana_pierde(entry: Entry, var: tute.Variant, opts: tute.Options) -> None:
    game = game_for(var)
    n = entry["players"]  # the case's table size, over its options
    opts = var.resolve({**(entry.options or {}), "players": n})
    assert var.seat_count(opts) == n
    res = entry["result"]
    if "event" in entry.data:  # S129: a tute
        seat = event_tute(entry)
        assert res["deal_ends"] == opts.tute_enabled
        assert res.get("declaration_offered", True) == opts.tute_enabled
        if opts.tute_enabled:
            score = game.score(tally_of({}, n, opts, reason="tute", who=seat), opts)
            check_result(res, {"goes_out": f"seat{score.winner}",
                               "lost_games_added": added(score.losses),
                               "deal_ends": True})
        return
    if "lost_before" in entry.data:  # S130: the match
        before = seat_map(entry["lost_before"], n)
        out = side_index(re.search(r"(seat\d+) goes out", entry["deal"]).group(1))  # type: ignore[union-attr]
        losses = [int(s != out) for s in range(n)]
        step = after(game, before, losses, opts)
        assert step.end is not None and step.end[1] == "losses"
        check_result(res, {"lost": dict(zip([f"seat{s}" for s in range(n)], step.losses,
                                            strict=True)),
                           "match_over": True, "match_winner": f"seat{step.end[0]}"})
        return
    score = game.score(tally_of(entry.data, n, opts), opts)
    check_result(res, {"lost_games_added": added(score.losses),
                       "goes_out": None if score.winner is None else f"seat{score.winner}"})


def cabrero_blocks(entry: Entry) -> list[tuple[dict[str, Any], Mapping[str, Any]]]:
    """(options, block) for each block of a case and each ``alt`` nested in a block."""
    out = []
    for sub in blocks(entry):
        n = sub.get("players", entry.get("players"))
        base = {**(entry.options or {}), "players": n}
        out.append((base, sub))
        for alt in sub.get("alt") or []:
            out.append(({**base, **(alt.get("options") or {})}, {**sub, **alt}))
    return out


def score_cabrero(entry: Entry, var: tute.Variant, opts: tute.Options) -> None:
    game = game_for(var)
    refused = []
    for raw, sub in cabrero_blocks(entry):
        n = raw["players"]
        res = sub["result"]
        if res.get("match_over") is False and "eliminated" in res and res["eliminated"]:
            # retirement and play on (cabrero_match_end=elimination) is refused, not played
            with pytest.raises(tute.InvalidOptionError, match="not supported yet"):
                var.resolve({**raw, "cabrero_match_end": "elimination"})
            refused.append(sub.get("porotos_before"))
            continue
        o = var.resolve(raw)
        if "porotos_before" in sub and "deal_losers" in sub:  # S110: the match
            seats = sorted(sub["porotos_before"], key=side_index)
            before = [sub["porotos_before"][k] for k in seats]
            losers = {str(x) for x in sub["deal_losers"]}
            step = after(game, before, [int(k in losers) for k in seats], o)
            check_result(res, cabrero_match(seats, step, o))
            continue
        if "event" in entry.data:  # S108: a tute
            seat = event_tute(entry)
            before = seat_map(entry["porotos_before"], n)
            assert res["deal_ends"] == o.tute_enabled
            assert res.get("declaration_offered", True) == o.tute_enabled
            if not o.tute_enabled:
                continue
            score = game.score(tally_of({}, n, o, reason="tute", who=seat), o)
            step = after(game, before, score.losses or (), o)
            seats = [f"seat{s}" for s in range(n)]
            actual = {"deal_ends": True, "porotos_added": added(score.losses),
                      **cabrero_match(seats, step, o)}
            actual["porotos_after"] = dict(zip(seats, step.losses, strict=True))
            check_result(res, actual)
            continue
        score = game.score(tally_of(sub, n, o), o)
        full = [t for t in seat_map(sub.get("tricks"), n, 1)]
        capote = [s for s in range(n) if full[s] == sum(full)]
        check_result(res, {"porotos_added": added(score.losses),
                           "capote": f"seat{capote[0]}" if capote else None})
    if refused:  # everything else of the case passed; docs/rules-decisions.md says why
        pytest.xfail(f"cabrero_match_end=elimination is not supported yet ({refused})")


def cabrero_match(seats: Sequence[str], step: MatchStep, opts: tute.Options) -> dict[str, Any]:
    """The match after a deal as the cases name it: porotos, who retired, who won."""
    out = [k for k, p in zip(seats, step.losses, strict=True) if p >= opts.loss_limit]
    left = [k for k in seats if k not in out]
    return {"porotos": dict(zip(seats, step.losses, strict=True)), "eliminated": out,
            "match_over": step.end is not None,
            "match_losers": out if step.end is not None else [],
            "match_winners": left if step.end is not None else []}


SCORERS: dict[str, Callable[[Entry, tute.Variant, tute.Options], None]] = {
    "tute_parejas": score_parejas,
    "tute_2p_habanero": score_target,
    "tute_2p_corriente": score_target,
    "tute_arrastrado_3p": score_3p,
    "tute_subastado": score_subastado,
    "guinote": score_guinote,
    "tute_cabron": score_cabron,
    "tute_gana_pierde": score_gana_pierde,
    "tute_cabrero": score_cabrero,
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


def raw_alt(entry: Entry) -> dict[str, Any]:
    """The keys an ``alt`` entry sets itself (``{}`` for the case)."""
    if not entry.alt:
        return {}
    case = next(c for c in CASES if c["id"] == entry.case_id)
    return dict(case["alt"][entry.alt - 1])


# ------------------------------------------------------------------ X: upcard exchanges (stock)


@dataclass(frozen=True)
class Request:
    seat: int
    give: str
    allowed: bool

    @property
    def action(self) -> str:
        return f"cambio:{self.give}"


def requests_of(entry: Entry) -> list[Request]:
    if "requests" in entry.data:
        return [Request(int(r["seat"]), str(card(r["give"])), bool(r["allowed"]))
                for r in entry["requests"]]
    r = entry["request"]
    return [Request(int(r["seat"]), str(card(r["give"])), bool(entry["allowed"]))]


def x_trick_winner(entry: Entry) -> int:
    """The case's trick winner, or the one an alt's ``state`` puts instead."""
    state = raw_alt(entry).get("state")
    if state is None:
        return int(entry["trick_winner"])
    m = re.fullmatch(r"trick won by seat (\d+) instead", state)
    assert m, f"cannot read the state {state!r}"
    return int(m.group(1))


def stock_dealer(var: tute.Variant, opts: tute.Options) -> int:
    """The last seat deals, so seat 0 is mano."""
    return var.seat_count(opts) - 1


def exchange_scenario(entry: Entry, winner: int) -> tuple[tute.Deal, list[str], int]:
    """A deal in which ``winner`` wins every trick up to the one after which the stock (upcard
    included) holds ``stock_cards``; each requesting seat holds the card it gives. Returns the
    deal, the card script and the number of that trick."""
    var, opts = resolve(entry)
    n, size = var.seat_count(opts), opts.hand_size
    gap = 40 - n * size - int(entry["stock_cards"])
    assert gap >= 0 and gap % n == 0, "stock_cards does not fall before a draw"
    t = gap // n + 1  # the trick just won; its draw comes next
    trump, up = entry["trump"], str(card(entry["upcard"]))
    assert up[1] == trump
    holds: dict[tuple[int, int], list[str]] = {}
    for r in requests_of(entry):
        holds.setdefault((r.seat, -t), []).append(r.give)
    dealer = stock_dealer(var, opts)
    plain = [c for c in deal_builders.pack(var.id) if c[1] != trump]
    tricks = deal_builders.auto_tricks(var.id, dealer=dealer, trump=trump, winners=[winner] * t,
                                       pool=plain, options=entry.options)
    layout = deal_builders.stock_layout(var.id, dealer=dealer, upcard=up, tricks=tricks,
                                        holds=holds, options=entry.options)
    return tute.Deal.new(var.id, **layout), deal_builders.flat(tricks), t


def walk_exchanges(deal: tute.Deal, script: list[str], t: int, winner: int,
                   requests: list[Request], apply_allowed: bool) -> tuple[set[int], list[Any]]:
    """Play ``script`` (answering questions with ``pass``) and on through the next trick; at
    every moment from the end of the script's last trick (won by ``winner``, leaving the stock
    ``stock_cards`` before its draw) to the end of the next one, note which requests are
    legal for the seat to move (a refused one must say why): the right is asked before the
    draw only in the last round, and otherwise kept for the seat's turn in the next trick. With
    ``apply_allowed`` the allowed requests are made, in order, as soon as they are legal.
    Returns the indices of the requests found legal and the upcard after each exchange made."""
    found: set[int] = set()
    made: list[Any] = []
    todo = [i for i, r in enumerate(requests) if r.allowed] if apply_allowed else []
    i = 0
    while not deal.is_over():
        seat = deal.to_move
        if deal.tricks and deal.tricks[-1].winner == winner and len(deal.tricks) == t:
            legal = deal_builders.exchanges(deal)
            for k, r in enumerate(requests):
                if r.seat == seat:
                    if r.action in legal:
                        found.add(k)
                    else:
                        assert deal.why_illegal(r.action), f"{r.action} refused without reason"
            if todo and requests[todo[0]].seat == seat and requests[todo[0]].action in legal:
                deal.apply(requests[todo.pop(0)].action)
                made.append(deal.upcard)
                continue
        if i < len(script):
            if script[i] in {str(a) for a in deal.legal_actions()}:
                deal.apply(script[i])
                i += 1
            elif deal_builders.is_poll(deal):
                deal.apply(tute.PASS)
            else:
                deal.apply(script[i])  # raises with the reason: a script error
        elif deal_builders.is_poll(deal):
            deal.apply(tute.PASS)
        elif len(deal.tricks) == t:  # the next trick: every seat's turn to use a kept right
            deal.apply(next(a for a in deal.legal_actions() if isinstance(a, tute.Card)))
        else:
            break
    return found, made


def check_upcard_exchange(entry: Entry) -> None:
    """X01-X07, X12-X14: requests to exchange the upcard at the moment the case describes."""
    winner, requests = x_trick_winner(entry), requests_of(entry)
    for apply_allowed in (False, True):
        deal, script, t = exchange_scenario(entry, winner)
        assert str(deal.upcard) == str(card(entry["upcard"]))
        found, made = walk_exchanges(deal, script, t, winner, requests, apply_allowed)
        assert len(deal.tricks) in (t, t + 1) and deal.tricks[t - 1].winner == winner
        for k, r in enumerate(requests):
            if not r.allowed:
                assert k not in found, f"seat {r.seat} could give {r.give}"
            elif apply_allowed:  # chained requests are legal only once the earlier ones are made
                assert k in found, f"seat {r.seat} was never offered {r.action}"
        if not apply_allowed:
            continue
        given = [(s, str(g), str(tk)) for s, g, tk in deal.exchanges]
        assert given == [(r.seat, r.give, given[i][2]) for i, r in enumerate(
            [r for r in requests if r.allowed])], "exchanges made in another order"
        after = entry.get("after")
        if after:
            assert str(made[-1]) == str(card(after["upcard"]))
            seat = next(int(m.group(1)) for key in after
                        if (m := re.fullmatch(r"seat(\d+)_gains", key)))
            gains = after[f"seat{seat}_gains"]
            gains = [gains] if isinstance(gains, str) else gains
            assert [tk for s, _g, tk in given if s == seat] == [str(card(c)) for c in gains]
            loses = after.get(f"seat{seat}_loses")
            if loses is not None:
                assert [g for s, g, _tk in given if s == seat] == [str(card(c)) for c in loses]


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
    # next deal, through a match: this deal's mano deals
    nxt = entry["next_deal"]
    for seed in range(3):
        match = Match.new("tute_parejas", seed=seed, options=entry.options, first_dealer=dealer)
        first = match.deal
        assert (first.dealer, first.mano) == (dealer, mano)
        while match.deal is first:
            match.apply(match.legal_actions()[seed % len(match.legal_actions())])
        assert first.is_over() and not first.result().replay and not match.is_over()
        assert (match.deal.dealer, match.deal.mano) == (nxt["dealer"], nxt["mano"])
        assert match.deal.to_move == nxt["mano"]


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


# ------------------------------------------------------------ X: arrastrado's table card


def play_out(deal: tute.Deal, pick: int = 0) -> tute.Deal:
    """Play to the end, always taking legal action number ``pick`` (modulo their count)."""
    while not deal.is_over():
        legal = deal.legal_actions()
        deal.apply(legal[pick % len(legal)])
    return deal


def check_table_exchanges(entry: Entry) -> None:
    """X08-X10: the compulsory 7/2 exchanges with the table card are made at the start, as
    public events; the card left on the table is out of play."""
    var, opts = resolve(entry)
    table = str(card(entry["table_card"]))
    assert table[1] == entry["trump"]
    holders = {str(card(c)): int(s) for c, s in entry["holders"].items()}
    fixed: dict[int, list[str]] = {}
    for c, s in holders.items():
        fixed.setdefault(s, []).append(c)
    n = var.seat_count(opts)
    hands = deal_builders.fill_hands(fixed, n, 13, deal_builders.pack(var.id), exclude=[table])
    swaps = [(int(x["seat"]), str(card(x["give"])), str(card(x["take"])))
             for x in entry["compulsory"]]
    left = swaps[-1][1] if swaps else table
    alt = raw_alt(entry)
    after = entry.get("after")
    if after and "compulsory" in alt and "after" not in alt:
        # interpretation: an alt that changes the swaps inherits a stale `after` (X09-alt1)
        after = {**after, "table_card": left}
    if after:
        assert str(card(after["table_card"])) == left
        assert after["table_card_in_play"] is False
    for dealer in range(n):
        deal = tute.Deal.new(var.id, dealer=dealer, hands=hands, table_card=table,
                             options=entry.options)
        assert deal.initial_table_card is tute.parse_card(table)
        made = [(e.seat, str(e.given), str(e.taken)) for e in deal.events]
        assert all(isinstance(e, tute.events.Exchanged) for e in deal.events)
        assert made == swaps
        assert [(s, str(g), str(t)) for s, g, t in deal.exchanges] == swaps
        assert deal.actions == () and deal.to_move == deal.mano
        for seat in range(n):
            view = deal.view(seat)
            assert str(view.table_card) == left and view.trump == parse_suit(table[1])
            for s, _give, take in swaps:
                if take in deal.hand(s):  # a card taken from the table is known to all
                    assert take in view.known[s]
        assert all(left not in h for h in deal.hands)
        play_out(deal, dealer)
        played = {str(c) for t in deal.tricks for c in t.cards}
        assert left not in played and len(played) == 39 and len(deal.tricks) == 13
        assert sum(deal.result().card_points) == 120


# ------------------------------------------------------------------------------ F: deal flow


def draws_after(deal: tute.Deal) -> dict[int, list[tuple[int, str, bool]]]:
    """Trick number -> the draws made after it: (seat, card, face up)."""
    out: dict[int, list[tuple[int, str, bool]]] = {}
    trick = 0
    for e in deal.events:
        if isinstance(e, tute.events.TrickTaken):
            trick = e.number
        elif isinstance(e, tute.events.Drew):
            out.setdefault(trick, []).append((e.seat, str(e.card), e.public))
    return out


def play_recording_phases(deal: tute.Deal, pick: int) -> list[bool]:
    """Play to the end; per trick, whether the stock held cards when it was led."""
    phases: list[bool] = []
    k = 0
    while not deal.is_over():
        legal = deal.legal_actions()
        act = legal[(pick * 7 + k) % len(legal)]
        k += 1
        if isinstance(act, tute.Card) and not deal.trick:
            phases.append(deal.stock_count > 0)
            assert deal.in_stock_phase == (deal.stock_count > 0)
        deal.apply(act)
    return phases


def check_stock_flow(entry: Entry) -> None:
    """F01-F03: hand size, stock, the 20 tricks split into stock phase and arrastre, draws."""
    var, opts = resolve(entry)
    n = var.seat_count(opts)
    if "hand_size" in entry.data:
        assert opts.hand_size == entry["hand_size"]
    first, last = entry["stock_phase_tricks"]
    a_first, a_last = entry["arrastre_tricks"]
    assert first == 1 and a_first == last + 1 and a_last == entry["tricks"]
    for seed in range(6):
        deal = tute.Deal.new(var.id, seed=seed, dealer=seed % n, options=entry.options)
        assert deal.stock_count == entry["stock_cards_including_upcard"]
        assert len(deal.initial_stock) == deal.stock_count - 1
        assert all(len(h) == opts.hand_size for h in deal.hands)
        assert deal.total_tricks == entry["tricks"]
        phases = play_recording_phases(deal, seed)
        assert len(deal.tricks) == entry["tricks"] == len(phases)
        assert phases == [t <= last for t in range(1, entry["tricks"] + 1)]
        draws = draws_after(deal)
        assert sorted(draws) == list(range(1, last + 1))
        for t, drawn in draws.items():
            won = deal.tricks[t - 1].winner
            assert [s for s, _c, _p in drawn] == [(won + i) % n for i in range(n)], (
                "the trick winner draws first, then the others in playing order")
            assert [p for _s, _c, p in drawn] == [False] * (n - 1) + [t == last]
        loser = (deal.tricks[last - 1].winner + 1) % n
        up_seat, up_card, _ = draws[last][-1]
        assert entry.get("upcard_goes_to", f"loser of trick {last}") == f"loser of trick {last}"
        assert up_seat == loser
        swapped = [str(g) for _s, g, _t in deal.exchanges]
        assert up_card == (swapped[-1] if swapped else str(deal.initial_upcard))
        if "draw_order" in entry.data:
            assert entry["draw_order"] == "trick winner first, then loser"
        assert sum(deal.result().card_points) == 120


def check_guinote_flow(entry: Entry) -> None:
    """F04: packets of 3 from mano, the 25th card turned, 4 draw rounds, 6 arrastre tricks."""
    var, opts = resolve(entry)
    dealer, mano = int(entry["dealer"]), int(entry["mano"])
    m = re.fullmatch(r"(\d+) each in two packets of (\d+), starting with seat (\d+)",
                     entry["deal"])
    assert m and int(m.group(3)) == mano
    size, packet = int(m.group(1)), int(m.group(2))
    assert (opts.hand_size, opts.deal_packet) == (size, packet)
    up_pos = int(re.fullmatch(r"(\d+)th card", entry["upcard"]).group(1))  # type: ignore[union-attr]
    rounds = entry["draw_rounds_after_tricks"]
    a_first, a_last = entry["arrastre_tricks"]
    assert rounds == list(range(1, a_first))
    example = entry["example"]
    seen_example = False
    for seed in range(40):
        deal = tute.Deal.new(var.id, seed=seed, dealer=dealer, options=entry.options)
        assert (deal.mano, deal.to_move) == (mano, mano)
        order = shuffled(seed, [c.index for c in tute.ALL_CARDS])
        for seat in range(4):
            got = [order[k] for k in range(4 * size) if (k // packet) % 4 == (seat - mano) % 4]
            assert deal.hand(seat).mask == sum(1 << i for i in got)
        assert deal.upcard is tute.Card.from_index(order[up_pos - 1])
        assert [c.index for c in deal.initial_stock] == order[up_pos:]
        assert deal.stock_count == entry["stock_cards_including_upcard"]
        phases = play_recording_phases(deal, seed)
        assert len(phases) == a_last
        assert phases == [t < a_first for t in range(1, a_last + 1)]
        draws = draws_after(deal)
        assert sorted(draws) == rounds
        for t, drawn in draws.items():
            won = deal.tricks[t - 1].winner
            assert [s for s, _c, _p in drawn] == [(won + i) % 4 for i in range(4)]
        won4 = deal.tricks[rounds[-1] - 1].winner
        assert draws[rounds[-1]][-1][0] == (won4 + 3) % 4 and draws[rounds[-1]][-1][2]
        if won4 == example["trick4_winner"]:
            seen_example = True
            assert [s for s, _c, _p in draws[4]] == example["draw_order"]
            assert draws[4][-1][0] == example["upcard_goes_to"]
    assert seen_example


def check_arrastrado_flow(entry: Entry) -> None:
    """F06: 13 cards each from mano, the 40th card on the table (out of play after the
    compulsory exchanges), 13 tricks, 120 card points + 10 + cantes."""
    var, _ = resolve(entry)
    dealer, mano = int(entry["dealer"]), int(entry["mano"])
    size = int(re.fullmatch(r"(\d+) each", entry["deal"]).group(1))  # type: ignore[union-attr]
    assert entry["table_card"].startswith("40th card")
    assert entry["points_available"] == "120 + 10 + cantes"
    for seed in range(8):
        deal = tute.Deal.new(var.id, seed=seed, dealer=dealer, options=entry.options)
        assert deal.mano == mano == deal.to_move
        order = shuffled(seed, [c.index for c in tute.ALL_CARDS])
        for seat in range(3):
            got = [order[k] for k in range(3 * size) if (mano + k) % 3 == seat]
            assert deal.initial_hands[seat].mask == sum(1 << i for i in got)
        assert deal.initial_table_card is tute.Card.from_index(order[39])
        assert deal.trump == deal.initial_table_card.suit
        left = deal.view(0).table_card
        assert left is not None
        swaps = [(s, g, t) for s, g, t in deal.exchanges]
        assert left == (swaps[-1][1] if swaps else deal.initial_table_card)
        play_out(deal, seed)
        assert len(deal.tricks) == entry["tricks"]
        assert left not in {c for t in deal.tricks for c in t.cards}
        res = deal.result()
        assert sum(res.card_points) == 120
        last = deal.tricks[-1].winner
        for s in range(3):
            assert res.totals[s] == res.card_points[s] + sum(res.cantes[s]) + 10 * (s == last)
        assert sum(res.totals) == 130 + sum(p for _s, _d, p in deal.cantes)


def subastado_deal(entry: Entry, seed: int) -> tute.Deal:
    deal = tute.Deal.new("tute_subastado", seed=seed, dealer=int(entry["dealer"]),
                         options=entry.options)
    if "mano" in entry.data:
        assert deal.mano == entry["mano"]
    return deal


def check_auction(entry: Entry) -> None:
    """F07: bids below min_bid or off the step are refused; single round, dealer last; the
    declarer names trumps and mano leads."""
    assert re.fullmatch(r"36 cards \(2s removed\), (\d+) each", entry["deck"])
    size = int(entry["deck"].split(", ")[1].split()[0])
    for seed in range(3):
        deal = subastado_deal(entry, seed)
        assert all(len(h) == size for h in deal.hands)
        union = 0
        for h in deal.hands:
            union |= h.mask
        assert union == tute.find_variant("tute_subastado").deck
        assert not any(c.rank == tute.Rank.DOS for h in deal.hands for c in h)
        assert deal.trump is None
        for step in entry["auction"]:
            assert deal.to_move == step["seat"]
            act = "pass" if step["bid"] == "pass" else f"bid:{step['bid']}"
            if step["legal"]:
                deal.apply(act)
                continue
            why = deal.why_illegal(act)
            assert why is not None and step["why"] in why, why
            with pytest.raises(tute.IllegalActionError):
                deal.apply(act)
        res = entry["result"]
        declarer, contract = int(res["declarer"]), int(res["contract"])
        assert res["auction_closed"]
        assert deal.view(0).contract == (declarer, contract, False)
        m = re.fullmatch(r"seat (\d+) names trumps; seat (\d+) \(mano\) leads trick 1",
                         res["next"])
        assert m and int(m.group(1)) == declarer == deal.to_move
        assert {str(a) for a in deal.legal_actions()} == {f"trump:{s}" for s in "oceb"}
        assert all(deal.view(s).trump is None for s in range(3))
        deal.apply("trump:e")
        assert deal.to_move == int(m.group(2)) == deal.mano
        assert all(isinstance(a, tute.Card) for a in deal.legal_actions())
        play_out(deal, seed)
        result = deal.result()
        assert result.contract == (declarer, contract, "e", False)
        assert result.made == (result.totals[declarer] >= contract)


def check_all_pass(entry: Entry) -> None:
    """F08: everybody passes: the deal is void and passes on (or mano plays at min_bid)."""
    res = entry["result"]
    dealer = int(entry["dealer"])
    for seed in range(3):
        match = Match.new("tute_subastado", seed=seed, options=entry.options,
                          first_dealer=dealer)
        deal = match.deal
        for step in entry["auction"]:
            assert deal.to_move == step["seat"] and step["bid"] == "pass"
            match.apply("pass")
        if res.get("deal_void"):
            assert deal.is_over() and deal.result().void == "all_pass"
            assert not any(deal.result().balances or ()) and deal.result().contract is None
            assert match.deal is not deal and match.deal.dealer == res["next_dealer"]
            assert match.balances == [0, 0, 0]
            continue
        declarer, contract = int(res["declarer"]), int(res["contract"])
        assert not deal.is_over() and deal.to_move == declarer
        assert deal.view(declarer).contract == (declarer, contract, False)
        deal.apply("trump:b")
        play_out(deal, seed)
        assert deal.result().contract == (declarer, contract, "b", False)


# ------------------------------------------------------------------------------ R: renuncio


def proper_card(deal: tute.Deal) -> tute.Card:
    """The first card the rules allow (at a table that claims renuncios every card is
    offered)."""
    seat = deal.to_move
    assert seat is not None
    trick = [c.index for _, c in deal.trick]
    partner_winning = bool(trick) and (
        deal.trick[trick_winner(trick, deal.trump, deal.order)][0] - seat) % 2 == 0
    o = deal.options
    mask = legal_mask(deal.hand(seat).mask, trick, deal.trump, deal.order,
                      partner_winning=partner_winning, partner_exemption=o.partner_exemption,
                      must_undertrump=o.must_undertrump,
                      must_head_after_ruff=o.must_head_after_ruff)
    return next(iter(tute.CardSet(mask)))


R01_TRICKS = ["Ab 4b 5b 6b", "Ae 4e 5e 6e"]  # seat 0 leads and wins both


def check_r01(entry: Entry) -> None:
    """A renuncio claim is checked against the history; the penalty follows the options."""
    event = entry["event"]
    m = re.fullmatch(r"at trick (\d+) seat (\d+) trumped a (\w+) lead while holding (\w+); "
                     r"seat (\d+) claims after trick (\d+)", case_event(entry))
    assert m, f"cannot read the event {case_event(entry)!r}"
    t, offender, held = int(m.group(1)), int(m.group(2)), str(card(m.group(4)))
    claimant, after = int(m.group(5)), int(m.group(6))
    revoke = event != "claim made but the history shows no revoke"
    assert revoke or "no revoke" in event
    suit = next(x for x in tute.Suit if m.group(3) in (x.english, x.spanish))
    assert held[1] == suit.letter and t == len(R01_TRICKS) + 1 and offender == 1
    trump = "o"
    lead = f"A{suit.letter}"
    fixed = {0: [lead, "Ab", "Ae"], 1: [held, f"2{trump}", "4b", "4e"], 2: ["5b", "5e"],
             3: ["6b", "6e"]}
    hands, tc = complete_hands(fixed, trump=trump)
    deal = new_parejas(hands, tc, entry.options)
    assert deal.options.renuncio_mode == "claim"
    for trick in R01_TRICKS:
        deal_builders.drive(deal, trick.split())
    others = [c for c in deal.hand(2) if c.suit == suit][:1] + [
        c for c in deal.hand(3) if c.suit == suit][:1]
    assert len(others) == 2, "seats 2 and 3 must follow the lead"
    deal.apply(lead)
    offered = {str(a) for a in deal.legal_actions()}
    assert held in offered and f"2{trump}" in offered, "every card is offered when claiming"
    assert deal.why_illegal(f"2{trump}") is None
    deal.apply(f"2{trump}" if revoke else held)
    for c in others:
        deal.apply(c)
    assert deal.tricks[-1].winner == (offender if revoke else 0)
    while len(deal.tricks) < after or deal.to_move != claimant:
        deal.apply(proper_card(deal))
    assert "renuncio" in {str(a) for a in deal.legal_actions()}
    deal.apply("renuncio")
    res = deal.result()
    side = deal.side_of(claimant) if revoke else 1 - deal.side_of(claimant)
    claimed = [e for e in deal.events if isinstance(e, tute.events.RenuncioClaimed)]
    assert [(e.seat, e.valid, e.offender) for e in claimed] == [
        (claimant, revoke, offender if revoke else None)]
    assert res.claim == (claimant, revoke, offender if revoke else None)
    assert res.reason == "renuncio" and sum(res.games) == res.games[side]
    check_result(entry["result"], {
        "claim_valid": res.claim[1],
        "deal_ends": deal.is_over() and not deal.legal_actions(),
        "winner": f"side {{{side},{side + 2}}}",
        "games": res.games[side],
    })


def case_event(entry: Entry) -> str:
    """The case's own event (an alt may replace it with a variation of the same moment)."""
    return str(next(c for c in CASES if c["id"] == entry.case_id)["event"])


CHECKS: dict[str, Callable[[Entry], None]] = {
    "X11": check_x11, "F05": check_f05, "F09": check_tute_ends_deal, "R02": check_r02,
    **dict.fromkeys(["X01", "X02", "X03", "X04", "X05", "X06", "X07", "X12", "X13", "X14"],
                    check_upcard_exchange),
    **dict.fromkeys(["X08", "X09", "X10"], check_table_exchanges),
    **dict.fromkeys(["F01", "F02", "F03"], check_stock_flow),
    "F04": check_guinote_flow, "F06": check_arrastrado_flow, "F07": check_auction,
    "F08": check_all_pass, "R01": check_r01,
}


def check_of(entry: Entry) -> Callable[[Entry], None]:
    check = CHECKS.get(entry.case_id)
    if check is None:
        pytest.fail(f"{entry.case_id} ({entry.variant}) has no check: write one")
    return check


@pytest.mark.parametrize("entry", entries("X"))
def test_exchanges(entry: Entry) -> None:
    check_of(entry)(entry)


@pytest.mark.parametrize("entry", entries("F"))
def test_deal_flow(entry: Entry) -> None:
    check_of(entry)(entry)


@pytest.mark.parametrize("entry", entries("R"))
def test_renuncio(entry: Entry) -> None:
    check_of(entry)(entry)
