"""The terminal game as a card player uses it: every key reachable in every game (the
subastado's 36 auction actions, hands of 11-14 cards), key letters visible on the buttons, the
setup form scrolling at 80x24 and 120x40, each game's goal, score and deal verdict from the
engine's data, the arrastrado's table card and exchanges, the totals *de vueltas*, the
end-of-deal box over the finished deal (not the next), the score sheet, and leaving only after
asking. Pilot tests run the Textual app headless (``asyncio.run`` inside sync tests)."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, Select, Static

from tute import Card
from tute.actions import Bid, Discard, Pass
from tute.i18n import tr
from tute.tui.app import (
    ActionButton,
    CardButton,
    GameScreen,
    QuitScreen,
    SetupScreen,
    SheetScreen,
    TuteApp,
)
from tute.tui.session import ACTION_KEYS, Session

SIZES = [(80, 24), (120, 40)]


def _to_human(s: Session, *, through_summaries: bool = True) -> None:
    while not s.human_to_move() and not s.match.is_over():
        if s.summary is not None:
            if not through_summaries:
                return
            s.acknowledge()
        else:
            s.bot_step()


def _play_deal(s: Session) -> None:
    """Play the current deal to its end (the human takes its last legal action)."""
    while s.summary is None and not s.match.is_over():
        if s.human_to_move():
            assert s.play(s.legal()[-1]).applied is not None
        else:
            s.bot_step()


def _shown(widget: Widget) -> bool:
    """The widget is drawn on screen, not clipped away by a container."""
    r = widget.region
    if not r.area:
        return False
    try:
        hit, _ = widget.screen.get_widget_at(r.x + 1, r.y + r.height // 2)
    except Exception:
        return False
    return hit is widget or widget in hit.ancestors


def _screen_text(app: TuteApp) -> str:
    """What the terminal shows, as text (from the app's SVG screenshot)."""
    svg = app.export_screenshot()
    text = re.sub(r"<[^>]+>", "", svg.split("</style>")[-1])
    return html.unescape(text).replace("\xa0", " ")


def _run(app: TuteApp, size: tuple[int, int],
         body: Callable[[Pilot[Any]], Awaitable[None]]) -> None:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(go())


def _bid_session(seed: int = 2, **options: object) -> Session:
    """Tute subastado where the human opens the auction: pass and 35 bids on offer."""
    s = Session.new("tute_subastado", seed=seed, opponents="random", options=options or None)
    _to_human(s)
    assert sum(isinstance(a, Bid) for a in s.legal()) == 35
    return s


# ---------------------------------------------------------------------------------------------
# Keys for every action


@pytest.mark.parametrize("size", SIZES)
def test_every_auction_bid_has_a_key_and_a_visible_button(size: tuple[int, int]) -> None:
    s = _bid_session()
    app = TuteApp(session=s, bot_delay=0)

    async def body(pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        seen: dict[Bid, str] = {}
        for _page in range(s.pages()):
            buttons = list(screen.query(ActionButton))
            assert buttons and all(_shown(b) for b in buttons), "a button is off the screen"
            for b in buttons:
                label = str(b.label)
                assert label.startswith("[") and label[2] == "]", label  # the key is shown
                if isinstance(b.payload, Bid):
                    seen[b.payload] = label[1]
            await pilot.press(">")
            await pilot.pause()
        assert set(seen) == {a for a in s.legal() if isinstance(a, Bid)}
        assert "[p] Pasar" in [str(b.label) for b in screen.query(ActionButton)]
        # the top bid sits on the last page: turn back to it and bid by its letter
        await pilot.press("<")
        await pilot.pause()
        await pilot.press(seen[Bid(230)])
        await pilot.pause()
        assert Bid(230) not in s.deal.actions  # over the lowest bid: asked again first
        await pilot.press("enter")
        await pilot.pause()
        assert Bid(230) in s.deal.actions

    _run(app, size, body)


def test_a_bid_is_typed_as_its_number() -> None:
    """70 then Enter bids 70 (asked again: the lowest is 60); 60 then Enter bids at once."""
    s = _bid_session()
    for key in "70":
        assert "70"[: "70".index(key) + 1] in s.press(key).message
    out = s.press("enter")
    assert not s.deal.actions and "70" in out.message and "60" in out.message
    assert s.press("enter").applied == Bid(70)
    s = _bid_session()
    s.press("6")
    s.press("0")
    assert s.press("enter").applied == Bid(60)


def test_a_typed_bid_can_be_corrected_or_dropped() -> None:
    s = _bid_session()
    for key in ("8", "5", "backspace", "0"):
        s.press(key)
    assert "80" in s.press("enter").message and not s.deal.actions
    assert s.press("x").message == tr("es", "bid_cancelled") and not s.deal.actions
    for key in "63":
        s.press(key)
    out = s.press("enter")  # not a multiple of the step: refused, nothing changes
    assert out.applied is None and "63" in out.message and not s.deal.actions


def test_a_letter_over_the_lowest_bid_asks_first() -> None:
    """A letter names another bid on each page: only the lowest one is made at once."""
    s = _bid_session()
    keys = dict((a, k) for k, a in s.action_keys())
    assert s.press(keys[Bid(60)]).applied == Bid(60)
    s = _bid_session()
    keys = dict((a, k) for k, a in s.action_keys())
    out = s.press(keys[Bid(100)])
    assert out.applied is None and "100" in out.message
    assert s.press("enter").applied == Bid(100)


def test_a_bid_typed_at_the_table() -> None:
    s = _bid_session()
    app = TuteApp(session=s, bot_delay=0)

    async def body(pilot: Pilot[Any]) -> None:
        for key in ("7", "0", "enter", "enter"):
            await pilot.press(key)
            await pilot.pause()
        assert s.deal.actions[0] == Bid(70)

    _run(app, SIZES[0], body)


def test_session_pages_cover_every_action_once() -> None:
    s = _bid_session()
    keys: list[tuple[str, object]] = []
    for _ in range(s.pages()):
        keys.extend(s.action_keys())
        s.press(">")
    assert s.page == 0  # the pages go round
    actions = [a for _k, a in keys if not isinstance(a, Pass)]
    assert sorted(a.points for a in actions if isinstance(a, Bid)) == list(range(60, 235, 5))
    assert all(k in ACTION_KEYS for k, a in keys if not isinstance(a, Pass))
    assert s.pages() == 2 and "1–20 de 35" in s.page_text()


def _arrastrado_lead() -> Session:
    s = Session.new("tute_arrastrado_3p", seed=2, opponents="random")
    assert s.human_to_move() and not s.view().trick and len(s.hand()) == 13
    return s


@pytest.mark.parametrize("size", SIZES)
def test_cards_eleven_to_thirteen_by_keyboard(size: tuple[int, int]) -> None:
    s = _arrastrado_lead()
    twelfth = s.hand()[11]
    app = TuteApp(session=s, bot_delay=0)

    async def body(pilot: Pilot[Any]) -> None:
        labels = [str(b.label) for b in app.screen.query(CardButton)]
        assert labels[9].startswith("10 ") and labels[12].startswith("13 "), labels
        assert all(_shown(b) for b in app.screen.query(CardButton))
        await pilot.press("1")
        await pilot.pause()
        assert not s.deal.actions  # 1 waits: the 1st or the 1x-th card
        await pilot.press("2")
        await pilot.pause()
        assert s.deal.actions[0] == twelfth

    _run(app, size, body)


def test_one_then_enter_is_the_first_card_and_zero_the_tenth() -> None:
    s = _arrastrado_lead()
    first = s.hand()[0]
    assert s.press("1").applied is None and s.pending == 1
    assert s.press("enter").applied == first
    s = _arrastrado_lead()
    tenth = s.hand()[9]
    assert s.press("0").applied == tenth
    s = _arrastrado_lead()
    s.press("1")
    assert "No tienes carta 19" in s.press("9").message  # 19 > 13: said, nothing played


def test_widow_discard_by_card_key() -> None:
    s = _bid_session(widow_card=True)
    s.play(Bid(230))  # the top bid: the others can only pass
    _to_human(s)
    assert all(isinstance(a, Discard) for a in s.legal()) and len(s.hand()) == 14
    assert not [k for k, a in s.action_keys() if isinstance(a, Discard)]  # not 14 buttons
    card = s.hand()[13]
    s.press("1")
    assert s.press("4").applied == Discard(card)


# ---------------------------------------------------------------------------------------------
# The setup screen


def _fields(screen: SetupScreen) -> Iterator[Widget]:
    for w in screen.query("Select, Input"):
        if w.id and w.id.startswith(("opt-", "opp-")):
            yield w


@pytest.mark.parametrize("size", SIZES)
def test_setup_form_scrolls_to_every_field(size: tuple[int, int]) -> None:
    app = TuteApp(setup={"variant": "tute_parejas"}, bot_delay=0)

    async def body(pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        fields = list(_fields(screen))
        assert len([f for f in fields if (f.id or "").startswith("opp-")]) == 3
        assert len(fields) >= 20
        box = screen.query_one("#setup")
        for field in [*fields, screen.query_one("#start")]:
            box.scroll_to_widget(field, animate=False)
            await pilot.pause(0)  # the scroll's messages handled, the screen's layout redone
            assert _shown(field), field.id

    _run(app, size, body)


def test_setup_seats_follow_the_options() -> None:
    app = TuteApp(setup={"variant": "tute_subastado", "seed": 7}, bot_delay=0)

    async def body(pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert len(screen.query("#opponents Select")) == 2
        screen.query_one("#opt-seats", Select).value = "4"
        await pilot.pause()
        await pilot.pause()
        assert len(screen.query("#opponents Select")) == 3
        screen.query_one("#seed", Input).value = "7"
        start = screen.query_one("#start")
        screen.query_one("#setup").scroll_to_widget(start, animate=False)
        await pilot.pause()
        await pilot.click(start)
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.session is not None and app.session.match.deal.seats == 4

    _run(app, (120, 40), body)


# ---------------------------------------------------------------------------------------------
# Each game's goal, score and verdict, from the engine's data


@pytest.mark.parametrize(("variant", "goal", "score"), [
    ("tute_arrastrado_3p", "hasta que alguien pierda 10 juegos", "Juegos perdidos:"),
    ("tute_cabron", "hasta que alguien pierda 10 juegos", "Juegos perdidos:"),
    ("tute_subastado", "gana quien llegue a 500 de saldo", "Saldo:"),
    ("tute_parejas", "serie de 6 manos", "Marcador:"),
    ("tute_2p_habanero", "a 3 juegos", "Marcador:"),
    ("guinote", "3 partidas el coto, gana quien haga 2 cotos", "Partidas:"),
])
def test_goal_and_score_in_the_games_own_terms(variant: str, goal: str, score: str) -> None:
    s = Session.new(variant, seed=5, opponents="random")
    info = s.info_lines()
    assert f"Objetivo: {goal}" in info[-1] and info[-1].startswith(score)
    assert not any(word in " ".join(info) for word in ("first to", "until", "series of"))


@pytest.mark.parametrize("variant", ["tute_arrastrado_3p", "tute_cabron", "tute_subastado"])
def test_the_score_moves_and_each_deal_names_its_losers_or_payments(variant: str) -> None:
    s = Session.new(variant, seed=5, opponents="random")
    for _ in range(12):
        _to_human(s)
        _play_deal(s)
        deal = s.finished
        assert deal is not None and s.summary is not None
        res = deal.result()
        text = "\n".join(s.summary)
        if res.void is None:
            assert "Empate" not in text  # no deal of these games is ever replayed
        if res.losses is not None and any(res.losses):
            losers = [s.side_name(i) for i, n in enumerate(res.losses) if n]
            assert ("Pierde un juego: " if len(losers) == 1 else "Pierden un juego: ") + (
                ", ".join(losers)) in text
        if res.balances is not None:
            assert "Pagos:" in text and "Contrato de" in text
        s.acknowledge()
        if any(s.match.losses) or any(s.match.balances):
            break
    else:
        pytest.fail("the score never moved")
    tally = s.match.losses if any(s.match.losses) else s.match.balances
    assert any(str(abs(n)) in s.info_lines()[-1] for n in tally if n)


def test_cabron_deal_names_the_loser_the_engine_names() -> None:
    s = Session.new("tute_cabron", seed=3, opponents="random")
    _to_human(s)
    _play_deal(s)
    assert s.finished is not None and s.summary is not None
    res = s.finished.result()
    assert res.losses is not None and sum(res.losses) >= 1 and not res.replay
    assert "Empate: se repite la mano." not in s.summary
    assert any(line.startswith(("Pierde un juego:", "Pierden un juego:")) for line in s.summary)


def test_arrastrado_table_card_and_compulsory_exchange_are_shown() -> None:
    for seed in range(40):
        s = Session.new("tute_arrastrado_3p", seed=seed, opponents="random")
        v = s.view()
        if v.exchanges:
            break
    else:
        pytest.fail("no compulsory exchange met")
    assert v.table_card is not None
    assert f"En la mesa: {v.table_card} (no se juega)" in s.info_lines()[1]
    for seat, given, taken in v.exchanges:  # in the log before anyone plays
        who = "Cambias el" if seat == s.human else f"{s.seat_name(seat)} cambia el"
        assert f"{who} {given} por el {taken} de la mesa" in s.log
    assert any(line.startswith("Cambios:") for line in s.table_lines())


def _vueltas_session() -> Session:
    for seed in range(60):
        s = Session.new("tute_2p_habanero", seed=seed, opponents="random")
        _to_human(s)
        _play_deal(s)
        assert s.finished is not None
        if s.finished.result().vueltas:
            return s
    pytest.fail("no deal de vueltas met")


def test_de_vueltas_totals_are_shown_while_playing_and_after() -> None:
    s = _vueltas_session()
    first = s.finished.result() if s.finished else None
    assert first is not None and "Nadie llega a 101" in "\n".join(s.summary or [])
    s.acknowledge()
    carry = s.view().carry
    assert carry is not None and tuple(carry) == tuple(first.running or ())
    assert "De vueltas, se traen: " + " · ".join(
        f"{s.short_name(i)} {c}" for i, c in enumerate(carry)) in s.info_lines()[1]
    _to_human(s)
    _play_deal(s)
    res = s.finished.result() if s.finished else None
    assert res is not None and res.running is not None
    assert "Con las de antes: " + " · ".join(
        f"{s.side_name(i)} {r}" for i, r in enumerate(res.running)) in (s.summary or [])
    row = s.sheet()[2][-1]
    assert row.points == tuple(f"{t} ({r})" for t, r in zip(res.totals, res.running,
                                                            strict=True))


# ---------------------------------------------------------------------------------------------
# The end of a deal, the score sheet, leaving


@pytest.mark.parametrize("size", SIZES)
def test_end_of_deal_box_covers_the_finished_deal_not_the_next(size: tuple[int, int]) -> None:
    s = Session.new("tute_parejas", seed=4, opponents="random")
    _to_human(s)
    while True:  # to the last card of the first deal, the human's
        if s.human_to_move() and len(s.hand()) == 1:
            break
        if s.human_to_move():
            s.play(s.legal()[0])
        else:
            s.bot_step()
        assert s.summary is None
    app = TuteApp(session=s, bot_delay=0)

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("1")
        for _ in range(50):
            await pilot.pause()
            if s.summary is not None:
                break
        screen = app.screen
        assert s.summary is not None and isinstance(screen, GameScreen)
        assert not screen.query_one("#hand").display and not list(screen.query(CardButton))
        assert screen.query_one("#summary-box").display
        assert not screen.query_one("#middle").display
        assert "Mano 1 de 6" in _screen_text(app)
        assert len(s.match.deals) == 2  # the next deal exists, but is not on the table
        await pilot.press("enter")
        await pilot.pause()
        assert list(screen.query(CardButton)) and "Mano 2 de 6" in _screen_text(app)

    _run(app, size, body)


@pytest.mark.parametrize("variant", ["tute_parejas", "guinote", "tute_2p_corriente",
                                     "tute_arrastrado_3p", "tute_subastado", "tute_cabron",
                                     "guinote_2p", "tute_2p_habanero"])
def test_score_sheet_deal_by_deal_for_every_game(variant: str) -> None:
    s = Session.new(variant, seed=6, opponents="random")
    for _ in range(3):
        _to_human(s)
        _play_deal(s)
        s.acknowledge()
        if s.match.is_over():
            break
    head, columns, rows = s.sheet()
    sides = len(s.match.games)
    assert len(columns) == 2 + 2 * sides and columns[0] == "Mano"
    assert len(rows) == len([d for d in s.match.deals if d.is_over()])
    assert "Objetivo: " + s.goal_text() in head
    last = rows[-1].tally
    m = s.match
    expected = {"losses": m.losses, "balance": m.balances}.get(s.goal.tally, m.games)
    assert [int(t.split()[0].replace("−", "-")) for t in last] == list(expected)
    lines = s.sheet_lines()
    assert lines[:3] == head and len(lines) == 3 + len(rows)


def test_deal_numbers_of_a_series_and_the_sheet_screen() -> None:
    s = Session.new("tute_parejas", seed=9, opponents="random")
    for _ in range(2):
        _to_human(s)
        _play_deal(s)
        s.acknowledge()
    assert s.info_lines()[0].startswith("Tute por parejas · Mano 3 de 6")
    app = TuteApp(session=s, bot_delay=0)

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen)
        text = _screen_text(app)
        assert "Anotación" in text and "Objetivo: serie de 6 manos" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)

    _run(app, (80, 24), body)


@pytest.mark.parametrize("size", SIZES)
def test_q_asks_before_leaving(size: tuple[int, int]) -> None:
    s = Session.new("guinote", seed=3, opponents="random")
    _to_human(s)
    app = TuteApp(session=s, bot_delay=0)

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen) and app.is_running
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.is_running
        for key in ("ctrl+q", "ctrl+c"):  # Textual's own quit key asks too, and so does Ctrl+C
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, QuitScreen) and app.is_running, key
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and app.is_running
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()

    _run(app, size, body)
    assert isinstance(app.return_value, dict) and app.return_value["kind"] == "match"


def test_the_sheet_survives_save_and_load(tmp_path: Path) -> None:
    s = Session.new("tute_cabron", seed=2, opponents="rules", save_path=tmp_path / "c.json")
    for _ in range(2):
        _to_human(s)
        _play_deal(s)
        s.acknowledge()
    s.save()
    again = Session.load(tmp_path / "c.json")
    assert again.sheet() == s.sheet() and len(again.sheet()[2]) == 2
    assert again.info_lines() == s.info_lines()


def test_help_screen_documents_the_keys() -> None:
    s = _arrastrado_lead()
    app = TuteApp(session=s, bot_delay=0)

    async def body(pilot: Pilot[Any]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        text = str(app.screen.query_one("#help-text", Static).content)
        for words in ("1 y 2 es la 12.ª", "RePág", "p es siempre pasar", "a: el anotador",
                      "q o Esc: salir"):
            assert words in text
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and not s.deal.actions

    _run(app, (80, 24), body)


def test_card_keys_and_clicks_agree() -> None:
    s = _arrastrado_lead()
    card: Card = s.hand()[12]
    out = s.click_card(card)
    assert out.applied == card


def test_setup_form_speaks_the_players_language_and_starts_focused() -> None:
    """The options carry the page's words (Spanish by default, the option's name in the
    tooltip), and the first field has the focus: a player can type at once."""
    from textual.widgets import Label, Select

    app = TuteApp(setup={"variant": "tute_cabrero"}, bot_delay=0)

    async def body(pilot: Pilot[Any]) -> None:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        await pilot.pause()
        labels = [str(w.render()) for w in screen.query("#options Label").results(Label)]
        assert "No cargar" in labels and "cabrero_no_cargar" not in labels
        assert isinstance(app.focused, Select) and app.focused.id == "variant"

    _run(app, (100, 40), body)
