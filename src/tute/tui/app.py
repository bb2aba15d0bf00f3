"""``tute play``: the terminal game (Textual).

Screens: a setup screen (game, options with the rule book's defaults, the bots at the other
seats, seed), the table (your hand sorted by suit and rank with the legal cards highlighted,
trump and stock, the trick with who played what, points, score, whose turn; cantes,
exchanges and passes as buttons; keyboard and mouse), a deal summary between deals, and a
replay viewer for game records. All words come from :mod:`tute.i18n`.

Entry point for the command line: :func:`run`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, RichLog, Select, Static

from ..actions import Action
from ..bots import BOTS, LEVELS
from ..cards import Card
from ..errors import TuteError
from ..i18n import LANGS, tr
from ..records import load_record
from ..variants import OPTION_SPECS, VARIANTS, MatchSpec, find_variant
from .session import Replay, Session, action_label, opponent_names

__all__ = ["GameScreen", "ReplayScreen", "SetupScreen", "TuteApp", "run"]


class CardButton(Button, can_focus=False):
    """A card of the hand; not focusable, so the keys always reach the table."""

    def __init__(self, label: str, card: Card, *, legal: bool) -> None:
        super().__init__(label, variant="primary" if legal else "default",
                         classes="legal" if legal else "illegal", compact=True)
        self.card = card


class ActionButton(Button, can_focus=False):
    """A non-card action (or, with ``None``, "continue"); not ``Button.action``, which Textual
    runs as an action string."""

    def __init__(self, label: str, payload: Action | None) -> None:
        super().__init__(label, variant="warning" if payload is not None else "success",
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
    """Choose the game, its options and the bots."""

    def __init__(self, lang: str, variant: str = "tute_parejas",
                 opponents: Sequence[str] | None = None, seed: int | None = None) -> None:
        super().__init__()
        self.lang = lang
        self.variant_id = variant
        self.preset_opponents = list(opponents or [])
        self.seed = seed

    def t(self, key: str, **kw: Any) -> str:
        return tr(self.lang, key, **kw)

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="setup"):
            yield Label(self.t("setup_title"), classes="title")
            yield Label(self.t("variant"))
            games = [(f"{v.name if self.lang == 'es' else v.english} ({v.id})", v.id)
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

    async def on_select_changed(self, event: Select.Changed) -> None:
        value = event.value
        if event.select.id == "variant" and isinstance(value, str) and value != self.variant_id:
            self.variant_id = value
            self.preset_opponents = []
            await self._rebuild()

    async def _rebuild(self) -> None:
        var = find_variant(self.variant_id)
        opps = self.query_one("#opponents", Vertical)
        await opps.remove_children()
        n = var.seat_count(var.defaults)
        names = sorted({*LEVELS, *BOTS}, key=lambda x: (x not in LEVELS, x))
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
                       id=f"opp-{s}", classes="rowvalue"),
                classes="row"))
        await opps.mount_all(rows)
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        widgets = []
        for name in var.option_names:
            spec = OPTION_SPECS[name]
            current = _option_value_text(getattr(var.defaults, name))
            field: Select[str] | Input
            if spec.kind == "bool" or (spec.kind == "choice" and len(spec.choices) > 1):
                values = (["true", "false"] if spec.kind == "bool"
                          else [_option_value_text(c) for c in spec.choices])
                field = Select([(v, v) for v in values], value=current, allow_blank=False,
                               id=f"opt-{name}", classes="rowvalue")
            elif spec.kind == "choice":
                continue  # a single possible value: nothing to choose
            else:
                field = Input(current, id=f"opt-{name}", classes="rowvalue")
            label = Label(f"{name}", classes="rowlabel")
            label.tooltip = spec.doc
            widgets.append(Horizontal(label, field, classes="row"))
        await box.mount_all(widgets)

    def chosen(self) -> tuple[str, dict[str, Any], list[str], int | None]:
        var = find_variant(self.variant_id)
        options: dict[str, Any] = {}
        for name in var.option_names:
            try:
                widget = self.query_one(f"#opt-{name}")
            except Exception:  # an option without a field (single value)
                continue
            value = widget.value if isinstance(widget, (Select, Input)) else None
            if not isinstance(value, str):
                continue
            if value != _option_value_text(getattr(var.defaults, name)):
                options[name] = value
        opponents = []
        for s in range(1, var.seat_count(var.defaults)):
            sel = self.query_one(f"#opp-{s}", Select)
            opponents.append(str(sel.value))
        text = self.query_one("#seed", Input).value.strip()
        seed = int(text) if text.isdigit() else None
        return var.id, options, opponents, seed

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id != "start":
            return
        variant, options, opponents, seed = self.chosen()
        try:
            session = Session.new(variant, options=options, opponents=opponents, seed=seed,
                                  lang=self.lang, save_path=self.app_save_path())
        except TuteError as exc:
            self.query_one("#setup-msg", Static).update(self.t("bad_option", why=str(exc)))
            return
        app = self.app
        assert isinstance(app, TuteApp)
        app.start_session(session)

    def app_save_path(self) -> str | None:
        app = self.app
        return app.save_path if isinstance(app, TuteApp) else None


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

    def t(self, key: str, **kw: Any) -> str:
        return self.session.t(key, **kw)

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="game"):
            yield Static("", id="info")
            with Horizontal(id="middle"):
                yield Static("", id="table")
                yield RichLog(id="log", max_lines=200, wrap=True)
            yield Static("", id="summary")
            yield Static("", id="message")
            yield Label(self.t("hand"), id="hand-label")
            yield Horizontal(id="hand")
            yield Horizontal(id="actions")
            yield Static(self.t("legal_hint"), id="hint")
        yield Footer()

    async def on_mount(self) -> None:
        await self.redraw()
        self.advance()

    # ------------------------------------------------------------------ drawing

    async def redraw(self) -> None:
        s = self.session
        self.query_one("#info", Static).update("\n".join(s.info_lines()))
        summary = self.query_one("#summary", Static)
        if s.summary is not None:
            summary.update("\n".join(s.summary))
            summary.display = True
        else:
            summary.display = False
        self.query_one("#table", Static).update("\n".join(s.table_lines()))
        log = self.query_one("#log", RichLog)
        for line in s.log[self._log_seen:] if self._log_seen <= len(s.log) else s.log:
            log.write(line)
        self._log_seen = len(s.log)
        hand_box = self.query_one("#hand", Horizontal)
        await hand_box.remove_children()
        legal = set(s.legal())
        cards = [CardButton(f"{i % 10} {c}", c, legal=c in legal)
                 for i, c in enumerate(s.hand(), 1)]
        await hand_box.mount_all(cards)
        act_box = self.query_one("#actions", Horizontal)
        await act_box.remove_children()
        buttons: list[ActionButton] = []
        if s.summary is not None:
            buttons.append(ActionButton(self.t("continue"), None))
        else:
            trump = s.view().trump
            buttons.extend(ActionButton(f"[{k}] {action_label(s.lang, a, trump)}", a)
                           for k, a in s.action_keys())
        await act_box.mount_all(buttons)

    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(text)

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
        out = s.press(key)
        self.say(out.message)
        if out.applied is not None:
            await self.redraw()
            self.advance()

    async def on_key(self, event: events.Key) -> None:
        key = event.key
        event.stop()
        s = self.session
        if key in ("q", "escape"):
            self.app.exit(s.record())
        elif key in ("question_mark", "h") or event.character == "?":
            self.say(self.t("help"))
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
            out = s.play(button.card)
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
        self.query_one("#replay", Static).update("\n".join(self.replay.lines()))

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
    CSS = """
    #setup { padding: 0 1; }
    .title { text-style: bold; }
    .row { height: auto; }
    .rowlabel { width: 32; padding: 1 1 0 0; }
    .rowvalue { width: 40; }
    #game { padding: 0 1; }
    #info { height: auto; color: $accent; }
    #middle { height: 12; }
    #table { width: 1fr; border: round $primary; padding: 0 1; }
    #log { width: 1fr; border: round $secondary; }
    #summary { height: auto; border: double $success; padding: 0 1; }
    #message { height: auto; color: $warning; }
    #hand, #actions { height: auto; }
    CardButton { margin: 0 1 0 0; min-width: 6; }
    CardButton.illegal { opacity: 60%; }
    ActionButton { margin: 0 1 0 0; }
    #hint { color: $text-muted; }
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
) -> dict[str, Any] | None:
    """Run the terminal game; returns the match record when the game ends (None for replays).

    ``variant`` given (and ``setup`` not True): start straight at the table; otherwise the
    setup screen comes first, preset with ``variant``/``opponents``/``seed``. ``record_path``
    is where ``g`` saves the match (default ``tute-<variant>-<seed>.json``). ``replay``: show
    that record step by step. ``load``: resume the match saved in that file.
    Bad arguments raise :class:`~tute.errors.TuteError` (a ``ValueError``) before the screen
    opens, with a message naming the bad value.
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
    result = app.run()
    return result if isinstance(result, dict) else None
