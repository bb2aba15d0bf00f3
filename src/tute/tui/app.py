"""``tute play``: the terminal game (Textual).

Screens: a setup screen (game, options with the rule book's defaults, the bots at the other
seats, seed; it scrolls), the table (your hand sorted by suit and rank with the playable cards
highlighted, trump, stock or table card, the auction, the trick with who played what, points,
score and goal, whose turn; cantes, exchanges, bids and passes as buttons; keyboard and
mouse), the end-of-deal box with the score sheet, and modal screens for the help, the score
sheet (*anotador*, key ``a``) and leaving (``q`` asks). A replay viewer shows game records.
All words come from :mod:`tute.i18n`.

Entry point for the command line: :func:`run`. A crash inside the app is re-raised from
:func:`run` as :class:`TuiCrash` (one line, no traceback unless ``TUTE_DEBUG`` is set), so the
command ends with a non-zero status.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.table import Table
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ItemGrid, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Header, Input, Label, RichLog, Select, Static

from .. import hints
from ..actions import Action
from ..bots import BOTS, LEVELS
from ..cards import Card
from ..errors import TuteError
from ..i18n import LANGS, game_name, option_words, tr
from ..records import load_record
from ..variants import VARIANTS, MatchSpec, find_variant
from .session import Replay, Session, action_label, card_key, opponent_names

__all__ = ["GameScreen", "HelpScreen", "QuitScreen", "ReplayScreen", "SetupScreen",
           "SheetScreen", "TuiCrash", "TuteApp", "run"]


class TuiCrash(RuntimeError):
    """The terminal game stopped on an unexpected error (a bug): the command must fail."""


class CardButton(Button, can_focus=False):
    """A card of the hand; not focusable, so the keys always reach the table."""

    def __init__(self, label: str, card: Card, *, legal: bool) -> None:
        super().__init__(Content(label), variant="primary" if legal else "default",
                         classes="legal" if legal else "illegal", compact=True)
        self.card = card


class ActionButton(Button, can_focus=False):
    """A non-card action (or, with ``None``, "continue"); not ``Button.action``, which Textual
    runs as an action string."""

    def __init__(self, label: str, payload: Action | None) -> None:
        # plain Content: a label such as "[b] Pujar 60" is not markup
        super().__init__(Content(label), variant="warning" if payload is not None else "success",
                         compact=True)
        self.payload = payload


# =============================================================================================
# Setup


def _option_value_text(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, MatchSpec):
        return f"{value.mode}:{value.n}"
    return str(value)


class SetupScreen(Screen[None]):
    """Choose the game, its options and the bots. The whole form scrolls (Tab moves from field
    to field and brings it into view), so it fits any terminal."""

    def __init__(self, lang: str, variant: str = "tute_parejas",
                 opponents: Sequence[str] | None = None, seed: int | None = None) -> None:
        super().__init__()
        self.lang = lang
        self.variant_id = variant
        self.preset_opponents = list(opponents or [])
        self.seed = seed
        self._seats = 0

    def t(self, key: str, **kw: Any) -> str:
        return tr(self.lang, key, **kw)

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="setup"):
            yield Label(self.t("setup_title"), classes="title")
            yield Static(self.t("setup_keys"), classes="muted")
            yield Label(self.t("variant"))
            games = [(f"{game_name(self.lang, v)} ({v.id})", v.id)
                     for v in VARIANTS.values()]
            yield Select(games, value=self.variant_id, allow_blank=False, id="variant")
            yield Label(self.t("opponents"))
            yield Vertical(id="opponents")
            yield Label(self.t("seed"))
            yield Input("" if self.seed is None else str(self.seed), id="seed",
                        restrict=r"[0-9]*")
            yield Label(self.t("options"))
            yield Vertical(id="options")
            yield Static("", id="setup-msg")
            yield Button(self.t("start"), variant="primary", id="start")
        yield Footer()

    async def on_mount(self) -> None:
        await self._rebuild()
        self.query_one("#variant", Select).focus()  # the first field: type at once

    async def on_select_changed(self, event: Select.Changed) -> None:
        value = event.value
        if event.select.id == "variant" and isinstance(value, str) and value != self.variant_id:
            self.variant_id = value
            self.preset_opponents = []
            await self._rebuild()
        elif (event.select.id or "").startswith("opt-"):
            await self._reseat()

    async def on_input_changed(self, event: Input.Changed) -> None:
        if (event.input.id or "").startswith("opt-"):
            await self._reseat()

    def _seat_count(self) -> int:
        """Seats under the options chosen so far (``players``, subastado's ``seats``)."""
        var = find_variant(self.variant_id)
        try:
            return var.seat_count(var.resolve(self._options()))
        except (TuteError, ValueError):  # a half-typed option: keep the seats shown
            return self._seats or var.seat_count(var.defaults)

    async def _reseat(self) -> None:
        if self._seat_count() != self._seats:
            await self._rebuild_opponents()

    async def _rebuild_opponents(self) -> None:
        var = find_variant(self.variant_id)
        opps = self.query_one("#opponents", Vertical)
        await opps.remove_children()
        n = self._seats = self._seat_count()
        # bots that need an argument (policy:FILE) only as given (--opponents)
        needs_arg = {b for b, i in BOTS.items() if getattr(i.factory, "positional", None)}
        names = sorted({*LEVELS, *(set(BOTS) - needs_arg),
                        *(p for p in self.preset_opponents if p.split(":")[0] in needs_arg)},
                       key=lambda x: (x not in LEVELS, x))
        rows = []
        for s in range(1, n):
            rel = ""
            if var.partnerships:
                rel = f" ({self.t('partner' if s % 2 == 0 else 'opponent')})"
            default = (self.preset_opponents[s - 1] if len(self.preset_opponents) == n - 1
                       else "medio")
            if default not in names:
                default = "medio"
            rows.append(Horizontal(
                Label(self.t("seat_label", n=s) + rel, classes="rowlabel"),
                Select([(x, x) for x in names], value=default, allow_blank=False,
                       id=f"opp-{s}", classes="rowvalue", compact=True),
                classes="row"))
        await opps.mount_all(rows)

    async def _rebuild(self) -> None:
        var = find_variant(self.variant_id)
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        widgets = []
        for name in var.option_names:
            spec = var.spec(name)
            current = _option_value_text(getattr(var.defaults, name))
            field: Select[str] | Input
            if spec.kind == "bool" or (spec.kind == "choice" and len(spec.choices) > 1):
                values = (["true", "false"] if spec.kind == "bool"
                          else [_option_value_text(c) for c in spec.choices])
                field = Select([(v, v) for v in values], value=current, allow_blank=False,
                               id=f"opt-{name}", classes="rowvalue", compact=True)
            elif spec.kind == "choice":
                continue  # a single possible value: nothing to choose
            else:
                field = Input(current, id=f"opt-{name}", classes="rowvalue", compact=True)
            words = option_words(name, spec.doc)  # the page's words: one catalogue
            text, line = words.get(self.lang) or words["en"]
            label = Label(text, classes="rowlabel")
            label.tooltip = f"{line} ({name})"
            widgets.append(Horizontal(label, field, classes="row"))
        await box.mount_all(widgets)
        self._seats = 0
        await self._rebuild_opponents()

    def _options(self) -> dict[str, Any]:
        var = find_variant(self.variant_id)
        options: dict[str, Any] = {}
        # the form's fields in one walk of the tree (a query per option walked it once each,
        # on every change while the form mounts: a second of CPU per setup screen)
        fields = {w.id: w for w in self.query("#options .rowvalue")}
        for name in var.option_names:
            widget = fields.get(f"opt-{name}")
            if widget is None:  # an option without a field (single value)
                continue
            value = widget.value if isinstance(widget, (Select, Input)) else None
            if not isinstance(value, str):
                continue
            if value != _option_value_text(getattr(var.defaults, name)):
                options[name] = value
        return options

    def chosen(self) -> tuple[str, dict[str, Any], list[str], int | None]:
        var = find_variant(self.variant_id)
        opponents = [str(sel.value) for sel in self.query("#opponents Select").results(Select)]
        text = self.query_one("#seed", Input).value.strip()
        seed = int(text) if text.isdigit() else None
        return var.id, self._options(), opponents, seed

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id != "start":
            return
        variant, options, opponents, seed = self.chosen()
        try:
            session = Session.new(variant, options=options, opponents=opponents, seed=seed,
                                  lang=self.lang, save_path=self.app_save_path())
        except TuteError as exc:
            self.query_one("#setup-msg", Static).update(
                Content(self.t("bad_option", why=str(exc))))
            return
        app = self.app
        assert isinstance(app, TuteApp)
        app.start_session(session)

    def app_save_path(self) -> str | None:
        app = self.app
        return app.save_path if isinstance(app, TuteApp) else None


# =============================================================================================
# Modal screens: help, score sheet, leaving


class HelpScreen(ModalScreen[None]):
    """The keys of the table; any key goes back."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):
            yield Label(tr(self.lang, "help_title"), classes="title")
            yield Static(Content(tr(self.lang, "help_keys")), id="help-text")
            yield Static(Content(tr(self.lang, "help_bids")), id="help-bids")
            yield Label(tr(self.lang, "help_close"), classes="muted")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key not in ("up", "down", "pageup", "pagedown"):
            self.dismiss()


def sheet_table(session: Session) -> Table:
    """The anotador as a Rich table: one row per finished deal, a column per side for its
    points and one for its running tally."""
    _head, columns, rows = session.sheet()
    sides = (len(columns) - 2) // 2
    table = Table(show_edge=False, pad_edge=False, expand=False)
    for i, name in enumerate(columns):
        table.add_column(name, justify="left" if i in (0, sides + 1) else "right",
                         style="bold" if i > sides + 1 else None)
    for r in rows:
        table.add_row(r.label, *r.points, r.note, *r.tally)
    return table


class SheetScreen(ModalScreen[None]):
    """The score sheet (*anotador*): the goal, deal by deal, the running totals."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        head, _columns, rows = self.session.sheet()
        with VerticalScroll(classes="dialog", id="sheet"):
            yield Static(Content("\n".join(head)), classes="title")
            if rows:
                yield Static(sheet_table(self.session), id="sheet-table")
            else:
                yield Label(self.session.t("sheet_empty"))
            yield Label(self.session.t("sheet_close"), classes="muted")

    def on_mount(self) -> None:
        self.query_one("#sheet", VerticalScroll).scroll_end(animate=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in ("a", "escape", "enter", "q", "space"):
            self.dismiss()


class QuitScreen(ModalScreen[str]):
    """Leave the match? ``s`` leave, ``g`` save and leave, ``n``/Esc keep playing."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        t = self.lang
        with Vertical(classes="dialog", id="quit"):
            yield Label(tr(t, "quit_title"), classes="title")
            yield Label(tr(t, "quit_body"))
            with Horizontal(classes="buttons"):
                yield Button(Content(tr(t, "quit_yes")), id="quit-yes", variant="error",
                             compact=True)
                yield Button(Content(tr(t, "quit_save")), id="quit-save", variant="primary",
                             compact=True)
                yield Button(Content(tr(t, "quit_no")), id="quit-no", compact=True)

    def on_key(self, event: events.Key) -> None:
        choice = {"s": "quit", "y": "quit", "g": "save", "n": "stay",
                  "escape": "stay"}.get(event.key)
        if choice is not None:
            event.stop()
            self.dismiss(choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss({"quit-yes": "quit", "quit-save": "save"}.get(event.button.id or "",
                                                                   "stay"))


# =============================================================================================
# The table


class GameScreen(Screen[None]):
    """The table seen from the human's seat."""

    def __init__(self, session: Session, bot_delay: float = 0.6) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self._bot_scheduled = False
        self._log_seen = 0
        self._reviewing: Any = None  # the finished deal whose review is being computed
        self._hinting = False

    def t(self, key: str, **kw: Any) -> str:
        return self.session.t(key, **kw)

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="game"):
            yield Static("", id="info")
            with Horizontal(id="middle"):
                yield Static("", id="table")
                yield RichLog(id="log", max_lines=200, wrap=True, min_width=20)
            with VerticalScroll(id="summary-box"):
                yield Static("", id="summary")
                yield Static("", id="summary-review")
                yield Static("", id="summary-sheet")
            yield Static("", id="message")
            yield Label(self.t("hand"), id="hand-label")
            yield ItemGrid(id="hand", min_column_width=8)
            yield Static("", id="pages")
            yield ItemGrid(id="actions", min_column_width=16)
            yield Static(self.t("hint_keys"), id="hint")
        yield Footer()

    async def on_mount(self) -> None:
        await self.redraw()
        self.advance()

    # ------------------------------------------------------------------ drawing

    async def redraw(self) -> None:
        s = self.session
        self.query_one("#info", Static).update(Content("\n".join(s.info_lines())))
        between = s.summary is not None  # the finished deal stays on the table, not the next
        box = self.query_one("#summary-box", VerticalScroll)
        box.display = between
        self.query_one("#middle").display = not between
        self.query_one("#hand-label").display = not between
        if s.summary is not None:
            self.query_one("#summary", Static).update(Content("\n".join(s.summary)))
            self._show_review()
            self.query_one("#summary-sheet", Static).update(sheet_table(s))
            box.scroll_home(animate=False)
        self.query_one("#table", Static).update(Content("\n".join(s.table_lines())))
        log = self.query_one("#log", RichLog)
        for line in s.log[self._log_seen:] if self._log_seen <= len(s.log) else s.log:
            log.write(Content(line))
        self._log_seen = len(s.log)
        hand_box = self.query_one("#hand", ItemGrid)
        await hand_box.remove_children()
        hand_box.display = not between
        playable = s.playable_cards()
        hand = s.hand()
        cards = [CardButton(f"{card_key(i, len(hand))} {c}", c, legal=c in playable)
                 for i, c in enumerate(hand, 1)]
        await hand_box.mount_all(cards)
        act_box = self.query_one("#actions", ItemGrid)
        await act_box.remove_children()
        buttons: list[ActionButton] = []
        if between:
            buttons.append(ActionButton(self.t("continue"), None))
        else:
            trump = s.view().trump
            buttons.extend(ActionButton(f"[{k}] {action_label(s.lang, a, trump)}", a)
                           for k, a in s.action_keys())
        await act_box.mount_all(buttons)
        pages = self.query_one("#pages", Static)
        pages.update(Content(s.page_text()))
        pages.display = bool(s.page_text()) and not between

    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(Content(text))

    # ------------------------------------------------------------------ flow

    def advance(self) -> None:
        """Schedule the bots while it is their turn; stop for the human or a summary."""
        s = self.session
        if s.over():
            app = self.app
            if isinstance(app, TuteApp):
                app.finish(s)
            return
        if s.summary is not None or s.human_to_move() or self._bot_scheduled:
            return
        self._bot_scheduled = True
        if self.bot_delay > 0:
            self.set_timer(self.bot_delay, self._bot_turn)
        else:
            self.call_later(self._bot_turn)

    async def _bot_turn(self) -> None:
        self._bot_scheduled = False
        try:
            self.session.bot_step()
        except TuteError as exc:  # a bot bug must not end the game: show it and stop
            self.say(str(exc))
            return
        await self.redraw()
        self.advance()

    async def act(self, key: str) -> None:
        s = self.session
        if s.summary is not None:
            if key in ("enter", "space"):
                s.acknowledge()
                self.say("")
                await self.redraw()
                self.advance()
            else:
                self.say(self.t("continue"))
            return
        page = s.page
        out = s.press(key)
        self.say(out.message)
        if out.applied is not None or s.page != page:
            await self.redraw()
        if out.applied is not None:
            self.advance()

    # ------------------------------------------------------------------ hint and review

    def ask_hint(self) -> None:
        """``!``: what would you play? Computed in a thread (seconds of search); shown if the
        position is still the one asked about."""
        job = self.session.hint_job()
        if isinstance(job, str):
            self.say(job)
            return
        if self._hinting:
            return
        self._hinting = True
        self.say(self.t("hint_thinking" if hints.analyser_ready() else "solver_preparing"))
        moves = self._moves()

        def work() -> None:
            try:
                text = job()
            except Exception as exc:  # a hint must never end the game
                text = " ".join(str(exc).split())
            self.app.call_from_thread(self._hint_ready, moves, text)

        self.run_worker(work, thread=True, group="hint")

    def _moves(self) -> int:
        return sum(len(d.actions) for d in self.session.match.deals)

    def _hint_ready(self, moves: int, text: str) -> None:
        self._hinting = False
        if moves == self._moves() and self.session.summary is None:
            self.say(text)

    def _show_review(self) -> None:
        """The finished deal's costliest decisions in the end-of-deal box: computed in a
        thread the first time (the exact solver over the deal), then shown."""
        s = self.session
        deal = s.finished
        box = self.query_one("#summary-review", Static)
        if deal is None:
            box.update("")
            return
        lines = s.reviewed(deal)
        if lines is not None:
            box.update(Content("\n".join(lines)))
            return
        ready = hints.analyser_ready()  # the first use compiles the solver: say so
        box.update(Content(self.t("review_wait" if ready else "solver_preparing")))
        if self._reviewing is deal:
            return
        self._reviewing = deal

        def work() -> None:
            s.review(deal)
            self.app.call_from_thread(self._review_ready, deal)

        self.run_worker(work, thread=True, group="review")

    def _review_ready(self, deal: Any) -> None:
        self._reviewing = None
        if self.session.finished is deal and self.is_attached:
            self._show_review()

    def ask_quit(self) -> None:
        """Leaving a match loses what is not saved: ask first (q, Esc, Ctrl+Q)."""
        self.app.push_screen(QuitScreen(self.session.lang), self._quit_chosen)

    def _quit_chosen(self, choice: str | None) -> None:
        s = self.session
        if choice == "save":
            self.say(s.save())
            self.app.exit(s.record())
        elif choice == "quit":
            self.app.exit(s.record())

    async def on_key(self, event: events.Key) -> None:
        key = event.key
        event.stop()
        s = self.session
        if key in ("q", "escape"):
            self.ask_quit()
        elif key in ("question_mark", "h", "f1") or event.character == "?":
            self.app.push_screen(HelpScreen(s.lang))
        elif key == "exclamation_mark" or event.character == "!":
            self.ask_hint()
        elif key == "a":
            self.app.push_screen(SheetScreen(s))
        elif key == "u":
            s.show_previous = not s.show_previous
            await self.redraw()
        elif key == "g":
            self.say(s.save())
        elif key in ("tab", "shift+tab"):
            return
        else:
            await self.act(key)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button
        s = self.session
        if isinstance(button, CardButton):
            out = s.click_card(button.card)
        elif isinstance(button, ActionButton):
            if button.payload is None:
                await self.act("enter")
                return
            out = s.play(button.payload)
        else:
            return
        self.say(out.message)
        if out.applied is not None:
            await self.redraw()
            self.advance()


# =============================================================================================
# Replay of a record


class ReplayScreen(Screen[None]):
    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="replay")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        self.query_one("#replay", Static).update(Content("\n".join(self.replay.lines())))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in ("enter", "right", "space"):
            self.replay.forward()
        elif event.key in ("left", "backspace"):
            self.replay.back()
        elif event.key in ("q", "escape"):
            self.app.exit(None)
            return
        self.redraw()


# =============================================================================================
# The application


class TuteApp(App[Any]):
    """The terminal game. Returns the match record (a dict) when a match is left or ends."""

    TITLE = "Tute"
    # Ctrl+C is what people press to leave a terminal program: at the table it asks first,
    # as q and Ctrl+Q do (Textual's own Ctrl+C only tells to press Ctrl+Q)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True)]
    CSS = """
    #setup { padding: 0 1; }
    /* height auto: a 1fr box inside the scroll would clip the rows instead of scrolling */
    #opponents, #options { height: auto; }
    .title { text-style: bold; }
    .muted { color: $text-muted; }
    .row { height: auto; }
    .rowlabel { width: 32; padding: 0 1 0 0; }
    .rowvalue { width: 40; }
    #game { padding: 0 1; }
    #info { height: auto; color: $accent; }
    #middle { height: 1fr; min-height: 5; }
    #table { width: 1fr; height: 100%; border: round $primary; padding: 0 1; }
    #log { width: 1fr; border: round $secondary; }
    #summary-box { height: 1fr; min-height: 5; border: double $success; padding: 0 1; }
    #summary-sheet { margin: 1 0 0 0; }
    #message { height: auto; color: $warning; }
    #hand, #actions { height: auto; grid-gutter: 0 1; }
    #pages { height: auto; color: $text-muted; }
    CardButton { min-width: 6; width: 100%; }
    CardButton.illegal { opacity: 60%; }
    ActionButton { width: 100%; }
    #hint { height: auto; color: $text-muted; }
    ModalScreen { align: center middle; }
    .dialog { width: 90%; max-width: 100; height: auto; max-height: 90%;
              border: thick $primary; background: $surface; padding: 0 1; }
    .buttons { height: auto; margin: 1 0 0 0; }
    .buttons Button { margin: 0 1 0 0; }
    """

    def __init__(self, *, lang: str = "es", session: Session | None = None,
                 replay: Replay | None = None, setup: Mapping[str, Any] | None = None,
                 bot_delay: float = 0.6, save_path: str | None = None) -> None:
        super().__init__()
        self.lang = lang
        self.session = session
        self.replay = replay
        self.setup_args = dict(setup or {})
        self.bot_delay = bot_delay
        self.save_path = save_path
        self.sub_title = tr(lang, "title")
        self.crash: BaseException | None = None

    def on_mount(self) -> None:
        if self.replay is not None:
            self.push_screen(ReplayScreen(self.replay))
        elif self.session is not None:
            self.push_screen(GameScreen(self.session, self.bot_delay))
        else:
            self.push_screen(SetupScreen(self.lang, **self.setup_args))

    def start_session(self, session: Session) -> None:
        self.session = session
        self.switch_screen(GameScreen(session, self.bot_delay))

    def finish(self, session: Session) -> None:
        """The match is over and its last summary was read."""
        self.exit(session.record())

    async def action_quit(self) -> None:
        """Textual's Ctrl+Q: at the table it asks like q; asked already, it leaves."""
        screen = self.screen
        if isinstance(screen, GameScreen):
            screen.ask_quit()
        elif isinstance(screen, QuitScreen):
            screen.dismiss("quit")
        else:  # the setup screen or a replay: nothing to lose
            self.exit()

    # Textual ends the app on an unhandled exception and prints a long traceback: keep the
    # error for run() to report in one line (the traceback only with TUTE_DEBUG=1).
    def _handle_exception(self, error: Exception) -> None:
        if self.crash is None:
            self.crash = error
        super()._handle_exception(error)

    def _fatal_error(self) -> None:
        if os.environ.get("TUTE_DEBUG"):
            super()._fatal_error()
            return
        self.bell()
        self._close_messages_no_wait()


def run(
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    opponents: str | Sequence[str] | None = None,
    lang: str = "es",
    seed: int | None = None,
    record_path: str | Path | None = None,
    replay: str | Path | None = None,
    load: str | Path | None = None,
    *,
    setup: bool | None = None,
    bot_delay: float = 0.6,
    headless: bool = False,
) -> dict[str, Any] | None:
    """Run the terminal game; returns the match record when the game ends (None for replays).

    ``variant`` given (and ``setup`` not True): start straight at the table; otherwise the
    setup screen comes first, preset with ``variant``/``opponents``/``seed``. ``record_path``
    is where ``g`` saves the match (default ``tute-<variant>-<seed>.json``). ``replay``: show
    that record step by step. ``load``: resume the match saved in that file.
    Bad arguments raise :class:`~tute.errors.TuteError` (a ``ValueError``) before the screen
    opens, with a message naming the bad value; a crash of the app raises :class:`TuiCrash`.
    """
    if lang not in LANGS:
        raise TuteError(f"invalid language {lang!r}: expected one of {', '.join(LANGS)}")
    save = None if record_path is None else str(record_path)
    app: TuteApp
    if replay is not None:
        rec = load_record(replay)
        app = TuteApp(lang=lang, replay=Replay(rec, lang=lang, source=str(replay)))
    elif load is not None:
        session = Session.load(load, lang=lang, opponents=opponents)
        if save:
            session.save_path = Path(save)
        app = TuteApp(lang=lang, session=session, bot_delay=bot_delay, save_path=save)
    elif variant is not None and not setup:
        session = Session.new(variant, options=options, opponents=opponents, seed=seed,
                              lang=lang, save_path=save)
        app = TuteApp(lang=lang, session=session, bot_delay=bot_delay, save_path=save)
    else:
        preset: dict[str, Any] = {"seed": seed}
        if variant is not None:
            var = find_variant(variant)
            preset["variant"] = var.id
            if opponents is not None:
                preset["opponents"] = opponent_names(opponents, var.seat_count(var.defaults))
        app = TuteApp(lang=lang, setup=preset, bot_delay=bot_delay, save_path=save)
    result = app.run(headless=headless)
    if app.crash is not None or (app.return_code or 0) != 0:
        why = app.crash
        text = f"{type(why).__name__}: {why}" if why is not None else "unexpected exit"
        raise TuiCrash(f"the terminal game stopped on an internal error ({' '.join(text.split())})"
                       "; set TUTE_DEBUG=1 for the traceback")
    return result if isinstance(result, dict) else None
