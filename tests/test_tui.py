"""The terminal game: the session logic, the Spanish reasons, and whole deals played through
the Textual app headlessly with its pilot (``asyncio.run`` inside sync tests)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from textual.widgets import Static

from tute import VARIANTS, Card
from tute.actions import Discard
from tute.i18n import TEXT, card_name, refusal_text, tr
from tute.match import Match
from tute.messages import Refusal
from tute.tui.app import ActionButton, CardButton, GameScreen, ReplayScreen, SetupScreen, TuteApp
from tute.tui.session import Replay, Session, card_key, opponent_names

# ---------------------------------------------------------------------------------------------
# i18n


@pytest.mark.parametrize(("refusal", "english", "spanish"), [
    (Refusal.of("must_follow", suit="c"), "must follow suit: copas", "hay que asistir: copas"),
    (Refusal.of("must_beat", card="Rc"), "must beat Rc", "hay que montar: supera el Rc"),
    (Refusal.of("must_trump", suit="c", trump="o"), "must trump: void in copas, so a oros card",
     "hay que fallar: no tienes copas, juega un oros"),
    (Refusal.of("must_overtrump", card="Co"), "must overtrump Co",
     "hay que pisar: supera el triunfo Co"),
    (Refusal.of("must_play_trump", trump="o"), "must play a trump: oros",
     "hay que jugar triunfo: oros"),
    (Refusal.of("must_answer_trump", suit="o"), "must answer the trump lead with a trump: oros",
     "al arrastre de triunfo hay que responder con triunfo: oros"),
    (Refusal.of("forty_first"), "the 40 must be declared before any 20",
     "hay que cantar las cuarenta antes que las veinte"),
    (Refusal.of("last_round"), "no exchange in the last draw round",
     "en el último robo no se cambia"),
])
def test_engine_reasons_in_spanish(refusal: Refusal, english: str, spanish: str) -> None:
    assert refusal_text("es", refusal) == spanish
    assert refusal_text("en", refusal) == english


def test_both_languages_have_the_same_words() -> None:
    assert set(TEXT["es"]) == set(TEXT["en"])
    assert tr("en", "your_turn") == "Your turn."
    assert tr("xx", "your_turn") == tr("es", "your_turn")


# ---------------------------------------------------------------------------------------------
# The session (no widgets)


def test_opponent_names() -> None:
    assert opponent_names("rules", 4) == ["rules"] * 3
    assert opponent_names("rules,random,medio", 4) == ["rules", "random", "medio"]
    with pytest.raises(ValueError, match="expected 1 or 3"):
        opponent_names("rules,random", 4)
    with pytest.raises(ValueError, match="valid bots"):
        opponent_names("nobody", 2)


def _to_human(s: Session) -> None:
    while not s.human_to_move() and not s.match.is_over():
        if s.summary is not None:
            s.acknowledge()
        else:
            s.bot_step()


def test_session_explains_bad_input_in_spanish() -> None:
    s = Session.new("tute_parejas", seed=4, opponents="rules")
    _to_human(s)
    assert "Tecla" in s.press("z").message or "tecla" in s.press("z").message
    big = s.press("9") if len(s.hand()) < 9 else None
    assert big is None or "No tienes carta" in big.message
    # find a follow situation where some card is refused and check the Spanish reason
    for _ in range(200):
        _to_human(s)
        legal = s.legal()
        refused = [c for c in s.hand() if c not in legal]
        if refused:
            out = s.play(refused[0])
            assert out.applied is None and out.message.startswith("No se puede: hay que")
            break
        s.play(legal[0])
    else:
        pytest.fail("no refused card met")
    _to_human(s)
    missing = next(c for c in (Card.parse("Ao"), Card.parse("2b")) if c not in s.hand())
    # cards in words with their article, as a player says them, never in notation
    named = card_name("es", missing)
    assert s.play(missing).message == f"No se puede: el {named} no está en tu mano"


def test_session_names_the_card_to_beat_in_words() -> None:
    for seed in range(60):
        s = Session.new("tute_parejas", seed=seed, opponents="rules")
        _to_human(s)
        whys = [s.deal.refusal(c) for c in s.hand() if c not in s.legal()]
        why = next((w for w in whys if w is not None and "card" in w.params), None)
        if why is None:
            continue
        card = next(c for c in s.hand() if s.deal.refusal(c) == why)
        message = s.play(card).message
        shown = Card.parse(str(why.params["card"]))
        assert card_name("es", shown) in message and f" {shown}" not in message, message
        return
    pytest.fail("no refusal naming a card met")


def test_session_save_and_load(tmp_path: Path) -> None:
    s = Session.new("guinote_2p", seed=8, opponents="rules", save_path=tmp_path / "m.json")
    for _ in range(15):
        _to_human(s)
        s.play(s.legal()[0])
    msg = s.save()
    assert "m.json" in msg
    rec = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert rec["tui"]["opponents"] == ["rules"]
    again = Session.load(tmp_path / "m.json")
    assert again.match.to_record()["deals"] == s.match.to_record()["deals"]
    assert again.opponents == ["rules"]


def test_replay_steps_through_a_record() -> None:
    m = Match.new("tute_2p_corriente", seed=2, options={"games_to_win": 1})
    while not m.is_over():
        m.apply(m.legal_actions()[-1])
    r = Replay(m.to_record(), lang="en", source="x.json")
    assert r.total == sum(len(d.actions) for d in m.deals)
    first = r.lines()
    r.forward()
    r.forward()
    assert r.lines() != first
    r.step = r.total
    assert "End of the record." in r.lines()
    r.back()
    assert r.step == r.total - 1


def test_replay_tells_how_each_deal_ended() -> None:
    """The viewer stops at each deal's last action and says why and how it ended: each
    side's points and who won it (before, only the last deal of a record showed its totals,
    bare numbers)."""
    m = Match.new("tute_parejas", seed=3, options={"match": {"mode": "series", "deals": 2}})
    while not m.is_over():
        m.apply(m.legal_actions()[-1])
    r = Replay(m.to_record(), lang="en", source="x.json")
    for k, deal in enumerate(m.deals):
        r.step = sum(r.sizes[:k + 1])
        text = "\n".join(r.lines())
        res = deal.result()
        assert f"Deal {k + 1}" in text
        for i, side in enumerate(("Side A", "Side B")):
            assert f"{side}: {res.totals[i]} = {res.card_points[i]} in tricks" in text
        if res.winner is not None and res.reason != "tute":
            assert f"Deal won by: {('Side A', 'Side B')[res.winner]}" in text


# ---------------------------------------------------------------------------------------------
# The Textual app, driven by its pilot


async def _play_through_ui(app: TuteApp, s: Session, deals: int = 1) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0)
        for _ in range(3000):
            if s.over() or len(s.match.deals) > deals:
                break
            deal, done = s.deal, len(s.deal.actions)
            if s.summary is not None:  # the "continue" button, by mouse
                await pilot.click(app.screen.query(ActionButton).first())
            elif s.human_to_move():
                legal = s.legal()
                # a mix of keyboard and mouse: cards by number keys, actions by letter, the
                # page of a long action list turned until the action shows
                choice = legal[(len(s.deal.actions) * 7) % len(legal)]
                card = choice.card if isinstance(choice, Discard) else choice
                if isinstance(card, Card):
                    hand = s.hand()
                    i = hand.index(card) + 1
                    for digit in card_key(i, len(hand)):
                        await pilot.press(digit)
                    if len(hand) > 10 and i == 1:
                        await pilot.press("enter")
                else:
                    for _page in range(s.pages()):
                        keys = {a: k for k, a in s.action_keys()}
                        if choice in keys:
                            break
                        await pilot.press(">")
                    await pilot.press(keys[choice])
                    if s.confirm is not None:  # a bid over the lowest one: asked again
                        await pilot.press("enter")
                await pilot.pause(0)
                assert deal.actions[done] == choice  # the key played exactly that
            await pilot.pause(0)
        assert len(s.match.deals) > deals or s.match.is_over()
        assert isinstance(app.screen, GameScreen)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_whole_deal_through_the_ui(variant: str) -> None:
    s = Session.new(variant, seed=21, opponents="rules")
    app = TuteApp(session=s, bot_delay=0)
    asyncio.run(_play_through_ui(app, s))
    assert len(s.match.deals[0].tricks) > 0 and s.match.deals[0].is_over()


def test_illegal_click_and_keys_do_not_crash() -> None:
    s = Session.new("tute_parejas", seed=4, opponents="random", lang="en")
    app = TuteApp(session=s, bot_delay=0, lang="en")

    async def go() -> None:
        async with app.run_test(size=(120, 45)) as pilot:
            await pilot.pause()
            for key in ("x", "9", "0", "enter", "question_mark", "u", "left"):
                await pilot.press(key)
                await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            # click an illegal card when there is one (else play the first card by key)
            clicked = False
            for _ in range(300):
                if s.human_to_move():
                    refused = [c for c in s.hand() if c not in s.legal()]
                    if refused:
                        button = next(b for b in app.screen.query(CardButton)
                                      if b.card == refused[0])
                        await pilot.click(button)
                        await pilot.pause()
                        message = app.screen.query_one("#message", Static)
                        assert "Not allowed" in str(message.render())
                        clicked = True
                        break
                    await pilot.press("1")
                await pilot.pause()
            assert clicked

    asyncio.run(go())


def test_setup_screen_starts_a_game() -> None:
    app = TuteApp(lang="es", setup={"variant": "guinote_2p", "seed": 5}, bot_delay=0)

    async def go() -> None:
        async with app.run_test(size=(120, 60)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            start = app.screen.query_one("#start")
            app.screen.query_one("#setup").scroll_to_widget(start, animate=False)
            await pilot.pause()
            await pilot.click(start)
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            assert app.session is not None and app.session.match.variant.id == "guinote_2p"
            assert app.session.match.seed == 5

    asyncio.run(go())


def test_replay_screen(tmp_path: Path) -> None:
    m = Match.new("tute_2p_corriente", seed=2, options={"games_to_win": 1})
    while not m.is_over():
        m.apply(m.legal_actions()[0])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(m.to_record()), encoding="utf-8")
    from tute.records import load_record

    replay = Replay(load_record(path), source=str(path))
    app = TuteApp(replay=replay)

    async def go() -> None:
        async with app.run_test() as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            for _ in range(5):
                await pilot.press("enter")
            await pilot.press("left")
            await pilot.pause()
            assert replay.step == 4
            await pilot.press("q")

    asyncio.run(go())


def test_an_action_keeps_its_letter_when_another_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The letters of the actions on show stay put while they are shown: one going away (a
    cante sung, an exchange made) moves no other key; a new one takes a free letter."""
    from tute.actions import parse_action

    s = Session.new("tute_2p_habanero", seed=3, opponents="random")
    offered = [parse_action(a) for a in ("cuarenta", "veinte:o", "veinte:c", "cambio:7e")]
    monkeypatch.setattr(s, "legal", lambda: list(offered))
    first = {str(a): k for k, a in s.action_keys()}
    assert sorted(first.values()) == ["b", "c", "d", "e"]
    offered.pop(1)  # the 20 of oros is no longer on offer
    again = {str(a): k for k, a in s.action_keys()}
    assert again == {a: k for a, k in first.items() if a != "veinte:o"}
    offered.append(parse_action("veinte:e"))  # a new one: the first free letter
    assert {str(a): k for k, a in s.action_keys()}["veinte:e"] == first["veinte:o"]
