"""``guinote_hide_arrastre_suit`` (rules.md §1.5, docs/rules-decisions.md): in Guiñote, a 20
sung once the stock is gone tells its suit to its singer alone. The other seats and a
spectator see a 20 of no suit (who sang it and its points stay public) and not its cards, in
their views and event logs; the full record keeps everything; play, legality and scores are
the same as without the flag. Every consumer of a seat's view copes with a suitless cante.
"""

from __future__ import annotations

import importlib.util
import json
import pickle
import random

import pytest
from typer.testing import CliRunner

import tute
from deal_builders import arrastre_twenty
from golden_records import DIR
from tute.cli import app
from tute.events import Declared
from tute.i18n import catalogue
from tute.records import RETIRED_OPTIONS
from tute.rules import HIDDEN_VEINTE, parse_declaration
from tute.tui.session import declaration_name

OPTION = "guinote_hide_arrastre_suit"
GUINOTES = ["guinote", "guinote_2p"]


def _sung(deal: tute.Deal) -> tuple[int, tute.Declaration, set[str]]:
    """The last cante: its singer, its 20 and the 20's two cards."""
    singer, decl, points = deal.cantes[-1]
    assert decl.kind == "veinte" and decl.suit is not None and points == 20
    return singer, decl, {f"R{decl.suit.letter}", f"S{decl.suit.letter}"}


def _names(cards: tute.CardSet) -> set[str]:
    return set(cards.to_list())


def test_the_option_is_listed_and_validated() -> None:
    for vid in GUINOTES:
        var = tute.VARIANTS[vid]
        assert OPTION in var.option_names and var.defaults.guinote_hide_arrastre_suit is False
        assert var.resolve({OPTION: "true"}).guinote_hide_arrastre_suit is True
        with pytest.raises(tute.InvalidOptionError, match=f"{OPTION}.*true \\| false"):
            tute.Deal.new(vid, seed=1, options={OPTION: "sometimes"})
    for vid in set(tute.VARIANTS) - set(GUINOTES):
        with pytest.raises(tute.InvalidOptionError, match="does not apply"):
            tute.VARIANTS[vid].resolve({OPTION: True})
    out = CliRunner().invoke(app, ["variants", "--options"]).stdout
    assert out.count(f"{OPTION} = false   (true | false)") == 2
    data = json.loads(CliRunner().invoke(app, ["variants", "--json"]).stdout)
    for v in data:
        assert (OPTION in v["options"]) == (v["id"] in GUINOTES)
    assert OPTION not in RETIRED_OPTIONS


@pytest.mark.parametrize("variant", GUINOTES)
def test_other_seats_are_not_told_the_suit(variant: str) -> None:
    deal, _seed = arrastre_twenty(variant)
    singer, decl, pair = _sung(deal)
    assert deal.stock_count == 0 and deal.hides_cantes
    assert set(deal.hand(singer).to_list()) >= pair  # sung cards stay in the hand
    for seat in [*range(deal.seats), None]:
        events = deal.events_for(seat)
        told = [e for e in events if isinstance(e, Declared)][-1]
        cantes = deal.cantes_for(seat)
        known = deal.known_for(seat)
        if seat is not None:
            view = deal.view(seat)
            assert view.cantes == cantes and view.known == known
            assert list(view.history) == events
        if seat == singer:
            assert told.declaration is decl and {str(c) for c in told.cards} == pair
            assert cantes[-1] == (singer, decl, 20)
            assert _names(known[singer]) >= pair
            continue
        assert told == Declared(singer, HIDDEN_VEINTE, 20, ())
        assert cantes[-1] == (singer, HIDDEN_VEINTE, 20)
        assert not _names(known[singer]) & pair
        if seat is not None:
            text = json.dumps(deal.view(seat).to_json())
            assert [singer, "veinte", 20] in deal.view(seat).to_json()["cantes"]
            assert f"veinte:{decl.suit.letter}" not in text
            assert not pair & set(text.replace('"', " ").replace(",", " ").split())
    # the deal itself and its record keep everything
    assert deal.cantes[-1] == (singer, decl, 20)
    assert [e for e in deal.events if isinstance(e, Declared)][-1].declaration is decl
    assert str(decl) in deal.to_record()["actions"]


@pytest.mark.parametrize("variant", GUINOTES)
def test_with_the_flag_off_every_seat_is_told(variant: str) -> None:
    deal, _seed = arrastre_twenty(variant, hide=False)
    singer, decl, pair = _sung(deal)
    assert not deal.hides_cantes
    for seat in [*range(deal.seats), None]:
        told = [e for e in deal.events_for(seat) if isinstance(e, Declared)][-1]
        assert told.declaration is decl and {str(c) for c in told.cards} == pair
        assert deal.cantes_for(seat) == deal.cantes
        assert _names(deal.known_for(seat)[singer]) >= pair
        if seat is not None:
            assert deal.view(seat).cantes[-1] == (singer, decl, 20)


@pytest.mark.parametrize("variant", GUINOTES)
def test_presentation_only_the_same_play_and_scores(variant: str) -> None:
    """The flag changes what the others are told, never the play: the same seeded deal, played
    to its end by the same choices, takes the same actions, events and result either way."""
    deals = []
    for hide in (True, False):
        deal, seed = arrastre_twenty(variant, hide=hide)
        rng = random.Random(seed)
        while not deal.is_over():
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
        deals.append(deal)
    hidden, shown = deals
    assert [str(a) for a in hidden.actions] == [str(a) for a in shown.actions]
    assert hidden.events == shown.events
    assert hidden.result() == shown.result()


@pytest.mark.parametrize("variant", GUINOTES)
def test_the_record_round_trips(variant: str) -> None:
    deal, _seed = arrastre_twenty(variant)
    singer, decl, _pair = _sung(deal)
    other = (singer + 1) % deal.seats
    for d in (deal, _finished(deal)):
        record = d.to_record()
        assert record["options"] == {OPTION: True}
        again = tute.Deal.from_record(json.loads(json.dumps(record)))
        assert again.options.guinote_hide_arrastre_suit is True
        assert again.events == d.events and again.to_record() == record
        assert again.view(other) == d.view(other)
        assert again.view(other).cantes[-1][1] is HIDDEN_VEINTE
        assert again.view(singer).cantes[-1][1] is decl


def _finished(deal: tute.Deal) -> tute.Deal:
    out = deal.copy()
    while not out.is_over():
        out.apply(out.legal_actions()[0])
    return out


def test_records_that_set_the_flag_load_with_it_on() -> None:
    """The records written while the flag was first an option (then retired for a while) now
    load with it on, and replay to their stored results: it never changed the play."""
    files = sorted(DIR.glob("*hide_arrastre_suit*.json"))
    assert len(files) == 4
    for path in files:
        data = json.loads(path.read_text("utf-8"))
        record = data["record"]
        assert record["options"][OPTION] is True
        game = (tute.Match if record["kind"] == "match" else tute.Deal).from_record(record)
        assert game.options.guinote_hide_arrastre_suit is True
        assert game.result().to_json() == data["result"]
        assert game.to_record()["options"][OPTION] is True


def test_undo_copy_and_pickle() -> None:
    deal, _seed = arrastre_twenty("guinote")
    singer, decl, _pair = _sung(deal)
    other = (singer + 1) % 4
    view = deal.view(other)
    back = pickle.loads(pickle.dumps(view))
    assert back == view and back.cantes[-1][1] is HIDDEN_VEINTE
    assert deal.copy().view(other) == view
    deal.undo()
    assert not deal.hides_cantes and deal.cantes_for(None) == deal.cantes
    deal.apply(decl)
    assert deal.view(other) == view


def test_nobody_can_sing_a_20_of_no_suit() -> None:
    deal, _seed = arrastre_twenty("guinote")
    deal.undo()
    with pytest.raises(tute.InvalidNotationError):
        parse_declaration("veinte")
    with pytest.raises(tute.IllegalActionError):
        deal.apply("veinte")
    with pytest.raises(tute.IllegalActionError):
        deal.apply(HIDDEN_VEINTE)
    assert HIDDEN_VEINTE.points == 20 and HIDDEN_VEINTE.marriage_suit(0) is None


def test_words_for_a_20_of_no_suit() -> None:
    assert declaration_name("es", HIDDEN_VEINTE) == "las veinte (palo sin enseñar)"
    assert declaration_name("en", HIDDEN_VEINTE) == "twenty (suit not shown)"
    assert catalogue("es")["cantes"] == {"veinte": "las veinte (palo sin enseñar)"}
    assert catalogue("en")["cantes"] == {"veinte": "twenty (suit not shown)"}
    from tute.cli import _Words

    for lang, text in (("es", "las veinte (palo sin enseñar)"), ("en", "twenty (suit not shown)")):
        words = _Words(lang, tute.VARIANTS["guinote"])
        assert words.declaration(HIDDEN_VEINTE, None) == text
        said = words.event(Declared(1, HIDDEN_VEINTE, 20, ()), tute.Deal.new("guinote", seed=1))
        assert said is not None and text in said


def test_bots_choose_from_a_view_with_a_20_of_no_suit() -> None:
    from tute.bots import make_bot

    names = ["random", "rules"]
    if importlib.util.find_spec("numba") is not None:
        names += ["pimc:worlds=2:move_time=30", "ismcts:worlds=2:move_time=30"]
    for variant in GUINOTES:
        deal, _seed = arrastre_twenty(variant)
        singer, _decl, _pair = _sung(deal)
        while deal.to_move == singer and not deal.is_over():  # the singer leads on
            deal.apply(deal.legal_actions()[0])
        seat = deal.to_move
        assert seat is not None and deal.hides_cantes
        view = deal.view(seat)
        for name in names:
            assert make_bot(name, seed=1).choose(view, view.legal_actions) in view.legal_actions


@pytest.mark.parametrize("variant", GUINOTES)
@pytest.mark.parametrize("reward", ["deal", "match"])
def test_rl_observations_hold_only_what_the_seat_is_told(variant: str, reward: str) -> None:
    """Each seat's observation is the encoding of its own view: the singer's shows the 20's
    suit, the others' do not (no shared encoding of the singer's knowledge)."""
    pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
    from tute.rl.encoding import encode_view
    from tute.rl.table import Table

    opts = {OPTION: True, "partidas_per_coto": 1, "cotos_to_win": 1}
    table = Table(variant, reward=reward, **opts)
    seed = 0
    while True:  # seeded random cards till a 20 is offered in the arrastre (as arrastre_twenty)
        table.new(seed)
        rng = random.Random(seed)
        while not table.is_over() and table.deal is not None and not table.deal.hides_cantes:
            deal = table.deal
            for s in range(deal.seats):
                table.observe(s)  # the shared encoder follows the deal up to the cante
            legal, ids = table.legal()
            twenties = [i for a, i in zip(legal, ids, strict=True)
                        if isinstance(a, tute.Declaration) and a.kind == "veinte"]
            plays = [i for a, i in zip(legal, ids, strict=True) if isinstance(a, tute.Card)]
            pick = (twenties[0] if twenties and not deal.stock_count else
                    rng.choice(plays) if plays else ids[legal.index(tute.PASS)]
                    if tute.PASS in legal else ids[0])
            table.apply(pick, deal.to_move)
        if table.deal is not None and table.deal.hides_cantes:
            break
        seed += 1
    deal = table.deal
    singer, decl, _pair = _sung(deal)
    cantes = table.layout.offset("cantes")
    for s in range(deal.seats):
        obs = table.observe(s)
        mine = table.match.view(s) if table.match is not None else deal.view(s)
        assert (obs == encode_view(mine)).all()
        rel = (singer - s) % deal.seats
        assert obs[cantes + 5 * rel + int(decl.suit)] == (1.0 if s == singer else 0.0)


class _Script:
    """A bot that plays the next action of a shared script."""

    def __init__(self, script: list[str]):
        self.script = script

    def choose(self, view: tute.SeatView, legal: list[tute.Action]) -> tute.Action:
        want = self.script.pop(0)
        return next(a for a in legal if str(a) == want)


@pytest.mark.parametrize("variant", GUINOTES)
def test_the_terminal_game_shows_a_20_of_no_suit(variant: str) -> None:
    from tute.match import Match
    from tute.tui.session import Session

    opts = {OPTION: True, "partidas_per_coto": 1, "cotos_to_win": 1}
    for seed in range(200):  # a match that reaches a 20 in the arrastre (as arrastre_twenty)
        m = Match.new(variant, seed=seed, options=opts)
        rng = random.Random(seed)
        actions: list[str] = []
        while not m.is_over() and not m.deal.hides_cantes:
            legal = m.legal_actions()
            twenties = [a for a in legal if isinstance(a, tute.Declaration)]
            plays = [a for a in legal if isinstance(a, tute.Card)]
            act = (twenties[0] if twenties and not m.deal.stock_count else rng.choice(plays)
                   if plays else tute.PASS if tute.PASS in legal else legal[0])
            actions.append(str(m.apply(act)))
        if m.deal.hides_cantes:
            break
    singer, decl, _p = m.deal.cantes[-1]
    assert decl.suit is not None
    for human in (singer, (singer + 1) % m.deal.seats):
        for lang, hidden, told in (("es", "las veinte (palo sin enseñar)",
                                    f"las veinte en {decl.suit.spanish}"),
                                   ("en", "twenty (suit not shown)",
                                    f"twenty in {decl.suit.english}")):
            script = list(actions)
            match = Match.new(variant, seed=seed, options=opts)
            bots = {s: _Script(script) for s in range(match.deal.seats) if s != human}
            session = Session(match, bots, human=human, lang=lang)  # type: ignore[arg-type]
            while script:
                if session.human_to_move():
                    assert session.play(script.pop(0)).applied is not None
                else:
                    session.bot_step()
            shown = "\n".join([*session.table_lines(), *session.log[-3:]])
            assert (told if human == singer else hidden) in shown
            assert (hidden if human == singer else told) not in shown
