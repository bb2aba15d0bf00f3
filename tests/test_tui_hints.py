"""The terminal game's hint key (``!``: what would you play?) and its end-of-deal review (the
costliest decisions of each side, all hands open), in the Textual app through its pilot and in
the line-by-line game."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static
from typer.testing import CliRunner

from tute import Card
from tute.analysis import costliest, double_dummy
from tute.cli import app as cli_app
from tute.i18n import tr
from tute.tui.app import GameScreen, HelpScreen, TuteApp
from tute.tui.session import Session, action_label, card_key, deal_review

pytest.importorskip("numba")
pytestmark = pytest.mark.timeout(240)


def _text(screen: GameScreen, widget: str) -> str:
    return str(screen.query_one(widget, Static).render())


async def _human_plays(pilot: object, s: Session) -> None:
    """The human plays the first legal action by its key."""
    choice = s.legal()[0]
    if isinstance(choice, Card):
        hand = s.hand()
        i = hand.index(choice) + 1
        for digit in card_key(i, len(hand)):
            await pilot.press(digit)  # type: ignore[attr-defined]
        if len(hand) > 10 and i == 1:
            await pilot.press("enter")  # type: ignore[attr-defined]
    else:
        keys = {a: k for k, a in s.action_keys()}
        await pilot.press(keys[choice])  # type: ignore[attr-defined]


def test_hint_key_and_the_end_of_deal_review() -> None:
    s = Session.new("guinote_2p", seed=5, opponents="rules", lang="en")
    app = TuteApp(session=s, bot_delay=0, lang="en")

    async def go() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            for _ in range(100):
                if s.human_to_move():
                    break
                await pilot.pause()
            legal = {action_label("en", a, s.view().trump) for a in s.legal()}
            await pilot.press("!")
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            message = _text(screen, "#message")
            assert message.startswith("What would you play? ")
            assert any(f"? {label}. " in message for label in legal), message
            # the help screen names the key
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            assert "what would you play" in str(app.screen.query_one("#help-text",
                                                                     Static).render())
            await pilot.press("x")
            await pilot.pause()
            # play the deal to its end: the box then shows the review
            for _ in range(400):
                if s.summary is not None:
                    break
                if s.human_to_move():
                    await _human_plays(pilot, s)
                await pilot.pause()
            assert s.summary is not None and s.finished is not None
            await app.workers.wait_for_complete()
            await pilot.pause()
            review = _text(screen, "#summary-review")
            assert review.startswith(tr("en", "review_title"))
            # between deals a hint is refused at once
            await pilot.press("!")
            await pilot.pause()
            assert _text(screen, "#message") == tr("en", "hint_turn")

    asyncio.run(go())
    assert s.finished is not None or s.match.deals[0].is_over()


def test_the_review_is_the_double_dummy_costliest_of_each_side() -> None:
    s = Session.new("tute_parejas", seed=3, opponents="rules", lang="es")
    while s.summary is None:
        if s.human_to_move():
            s.play(s.legal()[-1])
        else:
            s.bot_step()
    deal = s.finished
    assert deal is not None
    lines = s.review(deal)
    assert lines[0] == tr("es", "review_title") and len(lines) == 3
    decisions = double_dummy(deal)
    for side, line in zip((0, 1), lines[1:], strict=True):
        assert line.startswith(s.side_name(side) + ": ")
        worst = costliest([d for d in decisions if d.side == side], "dd_loss")
        assert line.count("baza ") == len(worst)
        for d in worst:
            assert f"−{d.dd_loss})" in line
    assert s.review(deal) is lines  # computed once


def test_a_game_the_solver_does_not_cover_says_so() -> None:
    s = Session.new("tute_cabron", seed=2, opponents="random", lang="en")
    while s.summary is None:
        if s.human_to_move():
            s.play(s.legal()[0])
        else:
            s.bot_step()
    assert s.finished is not None
    assert deal_review(s.finished, "en", s.side_name, s.seat_name)[1] == tr(
        "en", "review_uncovered")


def _plain(args: list[str], stdin: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli_app, ["play", "--plain", *args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout


def test_plain_hint_and_review() -> None:
    code, out = _plain(["--variant", "tute_2p_corriente", "--seed", "3"], "!\nq\n")
    assert code == 0 and "¿Qué jugarías? " in out
    moves = "".join(f"{k}\n" for _ in range(60) for k in range(1, 11))
    code, out = _plain(["--variant", "tute_parejas", "--seed", "4", "--option",
                        'match={"mode": "series", "deals": 1}'], moves)
    assert code == 0
    assert tr("es", "review_title") in out
    review = out[out.index(tr("es", "review_title")):].splitlines()
    assert review[1].lower().startswith("pareja a: ") and review[2].lower().startswith(
        "pareja b: ")


def test_the_first_hint_says_the_analyser_is_preparing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until the solver's compiled code is loaded (half a minute on a fresh install) the status
    line says so, then gives the hint."""
    import threading

    from tute import hints

    monkeypatch.setattr(hints, "analyser_ready", lambda: False)
    s = Session.new("guinote_2p", seed=5, opponents="rules", lang="es")
    gate = threading.Event()

    def job() -> str:
        gate.wait(30)
        return "listo"

    monkeypatch.setattr(s, "hint_job", lambda: job)
    app = TuteApp(session=s, bot_delay=0)

    async def go() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            for _ in range(100):
                if s.human_to_move():
                    break
                await pilot.pause()
            await pilot.press("!")
            await pilot.pause()
            assert _text(screen, "#message") == tr("es", "solver_preparing")
            gate.set()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert _text(screen, "#message") == "listo"

    asyncio.run(go())


def test_the_line_game_says_the_analyser_is_preparing(monkeypatch: pytest.MonkeyPatch) -> None:
    from tute import hints

    monkeypatch.setattr(hints, "analyser_ready", lambda: False)
    result = CliRunner().invoke(cli_app, ["play", "--plain", "--variant", "tute_2p_corriente",
                                          "--seed", "3"], input="!\nq\n")
    assert result.exit_code == 0
    assert tr("es", "solver_preparing") in result.stderr
    assert tr("es", "solver_preparing") not in result.stdout
