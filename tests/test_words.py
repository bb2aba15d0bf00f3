"""One catalogue of words per language (tute.i18n): the page finds every word it asks for in
the served catalogue, every option and game has words in both languages, every engine event has
a code (tute.narration.describe) worded in both, and no English reaches a Spanish screen."""

from __future__ import annotations

import re
import string
import typing
from pathlib import Path
from typing import Any

import pytest

from glyphs import undrawn
from tute import events as ev_mod
from tute import i18n
from tute.bots import make_bot
from tute.cards import ALL_CARDS, Suit, parse_card
from tute.cli import _Words
from tute.events import Event
from tute.games.descriptions import describe as game_words
from tute.match import Match
from tute.narration import CARD_PARAMS, SEAT_PARAMS, describe
from tute.rules import parse_declaration
from tute.tui.session import Session
from tute.variants import OPTION_SPECS, VARIANTS

WEB = Path(i18n.__file__).parent / "web"


def _first_argument(text: str, start: int) -> str:
    """The text of a call's first argument, from just after its opening parenthesis."""
    depth, k, quote = 0, start, ""
    while k < len(text):
        ch = text[k]
        if quote:
            if ch == "\\":
                k += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'`":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            break
        k += 1
    return text[start:k]


def _page_keys() -> tuple[set[str], set[str]]:
    """Every key the page's scripts look up with t(...): the string literals of its first
    argument (t("key"), t(c ? "a" : "b"), t({...}[kind])), and the prefixes it builds keys
    from (t("suit_" + letter))."""
    keys: set[str] = set()
    prefixes: set[str] = set()
    for path in WEB.rglob("*.js"):
        text = path.read_text("utf-8")
        for m in re.finditer(r"(?<![\w.])t\(", text):
            arg = _first_argument(text, m.end())
            for lit, plus in re.findall(r'"([\w.]+)"(\s*\+)?', arg):
                (prefixes if plus else keys).add(lit)
    return keys, prefixes


def test_the_scan_finds_the_page_keys() -> None:
    keys, prefixes = _page_keys()
    assert len(keys) > 150
    assert {"yourTurn", "winnerIs", "lostGames", "duty_free"} <= keys
    assert {"suit_", "rank_", "ph_", "grp_"} <= prefixes


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_key_the_page_uses_is_served(lang: str) -> None:
    cat = i18n.catalogue(lang)
    page = cat["page"]
    keys, prefixes = _page_keys()
    missing = sorted(k for k in keys if not page.get(k))
    assert not missing, missing
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in page), prefix
    # the keys the page builds: the levels, the option groups
    for key in ("facil", "medio", "dificil", "maestro", "grp_other",
                *(f"grp_{g}" for g in set(i18n.OPTION_GROUPS.values()))):
        assert page[key], key
    # the keys the page builds: suits and ranks of every card, the cantes of actionLabel
    for card in ALL_CARDS:
        assert page[f"rank_{card.rank.letter}"] and page[f"suit_{card.suit.letter}"]
    for kind in ("cuarenta", "tute_reyes", "tute_caballos", "tute_sotas"):
        assert page[kind]


def test_both_languages_have_the_same_words() -> None:
    es, en = i18n.catalogue("es"), i18n.catalogue("en")
    for part in ("page", "errors", "events", "hints", "decls", "refusals", "choices",
                 "suit_names", "ranks"):
        assert es[part].keys() == en[part].keys(), part
        if part == "refusals":
            continue  # their own test (test_messages): the English bad_notation says more
        for key, text in es[part].items():
            # the same placeholders in both: a template never loses a parameter
            names = {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}
            other = {f for _, f, _, _ in string.Formatter().parse(en[part][key]) if f}
            assert names - {""} == other, (part, key, text, en[part][key])


def test_the_page_keeps_no_word_tables() -> None:
    script = (WEB / "i18n.js").read_text("utf-8")
    for table in ("const ES", "const EN", "const ERRORS", "OPT_GROUPS =", "CHOICES_ES"):
        assert table not in script
    assert "Mano {0}" not in script and "Te toca" not in script


def test_every_option_has_words_in_both_languages() -> None:
    groups = set(i18n.OPTION_GROUPS.values())
    assert groups <= {"match", "play", "cantes", "exchange", "auction", "deal", "other"}
    es_choices, en_choices = i18n.choice_words("es"), i18n.choice_words("en")
    for name, spec in OPTION_SPECS.items():
        words = i18n.option_words(name, spec.doc)
        assert set(words) == set(i18n.LANGS), name
        for lang in i18n.LANGS:
            label, line = words[lang]
            assert label and line, (name, lang)
        assert words["es"] != words["en"], name
        for choice in spec.choices:
            if choice is not None and not isinstance(choice, bool):
                assert es_choices[str(choice)] and en_choices[str(choice)], (name, choice)


def test_every_game_has_words_in_both_languages() -> None:
    for vid, variant in VARIANTS.items():
        words = game_words(vid)
        assert set(words) >= set(i18n.LANGS), vid
        assert words["es"] != words["en"], vid
        assert i18n.game_name("es", variant) == variant.name
        assert i18n.game_name("en", variant) == variant.english


# ------------------------------------------------------------------ every event has its words

def _event_types() -> list[type]:
    return list(typing.get_args(Event))


_SAMPLES: dict[str, Any] = {
    "seat": 1, "from_seat": 2, "winner": 3, "leader": 0, "offender": 2, "number": 4,
    "points": 21, "games": 1, "reason": "tricks", "public": False, "valid": True,
    "card": parse_card("Ac"), "given": parse_card("7o"), "taken": parse_card("Ao"),
    "cards": (), "seats": (), "suit": Suit(2), "declaration": parse_declaration("veinte:b"),
}


def _sample(cls: type) -> Any:
    return cls(**{f: _SAMPLES[f] for f in cls._fields})  # type: ignore[attr-defined]


def test_describe_covers_every_event_type() -> None:
    named = {n for n, c in vars(ev_mod).items()
             if isinstance(c, type) and issubclass(c, tuple) and hasattr(c, "_fields")}
    assert {c.__name__ for c in _event_types()} == named  # the union names them all
    for cls in _event_types():
        code, params = describe(_sample(cls))
        for lang in i18n.LANGS:
            assert code in i18n.EVENTS[lang], (cls.__name__, lang)
            text = i18n.event_text(lang, code, params, seat_name=lambda s: f"<{s}>", you=1)
            assert text and "{" not in text, (cls.__name__, text)
            assert not ({"who"} & params.keys()) or code + ".you" in i18n.EVENTS[lang]
    assert describe(ev_mod.Drew(1, None, False))[0] == "drew_hidden"
    assert describe(ev_mod.Discarded(1, None))[0] == "discarded"
    with pytest.raises(TypeError):
        describe(object())  # type: ignore[arg-type]


def test_every_event_code_is_described_with_plain_params() -> None:
    for cls in _event_types():
        _, params = describe(_sample(cls))
        for key, value in params.items():
            assert value is None or isinstance(value, int | str), (cls.__name__, key)
            if key in SEAT_PARAMS:
                assert isinstance(value, int)
            if key in CARD_PARAMS:
                assert parse_card(str(value))


# ------------------------------------------------------------------ no English on a Spanish screen

def _english_words() -> set[str]:
    """Words of the English templates that no Spanish text uses."""
    def words(texts: Any) -> set[str]:
        out: set[str] = set()
        for text in texts:
            out |= set(re.findall(r"[a-zA-Z']{3,}", re.sub(r"\{\w*\}", " ", text)))
        return {w.lower() for w in out}

    en = [*i18n.EVENTS["en"].values(), *i18n.SUIT_NAMES["en"].values(),
          *i18n.RANK_NAMES["en"].values(), *(i18n.TEXT["en"][k] for k in i18n.catalogue(
              "en")["decls"]), *i18n.CLI_TEXT["en"].values()]
    es = [*i18n.EVENTS["es"].values(), *i18n.TEXT["es"].values(), *i18n.CLI_TEXT["es"].values()]
    return words(en) - words(es) - {"tute"}


def _leaks(text: str, english: set[str]) -> set[str]:
    return {w for w in re.findall(r"[a-zA-Z']{3,}", text) if w.lower() in english}


def test_the_english_word_list_can_catch_a_leak() -> None:
    english = _english_words()
    assert {"plays", "trick", "declares", "cups", "knight"} <= english
    assert _leaks(i18n.event_text("en", "played", {"who": 0, "card": "Ac"}, seat_name=str),
                  english)


@pytest.mark.parametrize("vid", list(VARIANTS))
def test_no_english_reaches_a_spanish_screen(vid: str) -> None:
    """One deal of each game, played by bots and narrated in Spanish event by event through
    the CLI's narrator, the terminal game's and describe + the catalogue (as the page does)."""
    english = _english_words()
    match = Match.new(vid, seed=3)
    seats = match.deal.seats
    bots = {s: make_bot("random", seed=s) for s in range(seats)}
    session = Session(match, {s: bots[s] for s in range(1, seats)}, human=0, lang="es")
    words = _Words("es", match.variant, you=0)
    deal = match.deal
    while not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        match.apply(bots[seat].choose(view, view.legal_actions))
    lines: list[str] = []
    codes: set[str] = set()
    for event in [*deal.events, *deal.events_for(1)]:
        code, params = describe(event)
        codes.add(code)
        lines.append(i18n.event_text("es", code, params, you=0, seat_name=words.seat,
                                     card=lambda c: i18n.card_name("es", parse_card(c))))
        lines.append(words.say(event, deal))
        lines.append(session._event_line(event, before_play=True) or "")
    lines += words.result_lines(deal)
    assert {"played", "trick"} <= codes
    for line in lines:
        assert not _leaks(line, english), (vid, line)


def test_one_spanish_word_for_each_thing() -> None:
    """A deal is a *mano*, the stock the *montón*, the upcard the *pinta*, a game won a
    *juego*: in every Spanish text of the catalogue and of the games' descriptions."""
    cat = i18n.catalogue("es")
    texts = [*i18n.TEXT["es"].values(), *i18n.CLI_TEXT["es"].values(),
             *(v for part in ("page", "errors", "events", "hints", "refusals", "choices")
               for v in cat[part].values()),
             *(w for words in i18n.OPTION_WORDS_ES.values() for w in words)]
    for vid in VARIANTS:
        one, rules = game_words(vid)["es"]
        texts += [str(one), *rules]
    for text in texts:
        assert not re.search(r"\b(mazo|muestra|ronda de cartas|reparto \d)\b", text, re.I), text
    assert cat["page"]["dealN"] == "Mano {0}" and cat["page"]["stock"] == "Montón"
    assert "juegos" in i18n.TEXT["es"]["goal_games"]


def test_the_glyph_check_can_fail() -> None:
    assert undrawn("⏱ 30 s · ⏮") == {"⏱", "⏮"}
    # the icons that used to be glyphs, and the same written as escapes or entities
    assert undrawn("← ■ ✓ ✗ ● ○ ▶ ⏸ ⚙ ☰ 🔊 🔇 ♠") == set("←■✓✗●○▶⏸⚙☰🔊🔇♠")
    assert undrawn(r'"\u25B6" "\u{1F50A}" content: "\2713"; &#9654; &#x23F1;') == set("▶🔊✓▶⏱")
    assert not undrawn("Mano 3 de 6 · Año — “sí” … −10")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_page_shows_no_glyph_a_font_may_lack(lang: str) -> None:
    import json

    odd = {str(p.relative_to(WEB)): undrawn(p.read_text(encoding="utf-8"))
           for p in sorted(WEB.rglob("*")) if p.suffix in (".js", ".html", ".css")}
    odd["catalogue"] = undrawn(json.dumps(i18n.catalogue(lang), ensure_ascii=False))
    odd = {k: v for k, v in odd.items() if v}
    assert not odd, odd


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_goal_of_one_is_said_in_the_singular(lang: str) -> None:
    """"A 1 juegos" is no Spanish: every length a game offers reads right in both languages,
    here and in the page's catalogue (``goals[kind].one``)."""
    from tute.games import game_for

    plural = re.compile(r"\b1 (juegos|manos|partidas|cotos|games|deals|partidas)\b")
    goals = i18n.catalogue(lang)["goals"]
    for var in VARIANTS.values():
        for length in game_for(var).lengths(var.defaults):
            goal = length["goal"]
            text = i18n.goal_text(lang, goal)
            assert not plural.search(text), (var.id, goal, text)
            if all(goal[f] == 1 for f in goals[goal["kind"]]["params"].values()):
                assert goals[goal["kind"]]["one"] == text, (var.id, goal)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_page_words_refused_cards_with_their_article(lang: str) -> None:
    """The page says "supera el tres de copas" (card_the + the card's name), never "supera
    el 3c": each refusal naming a card has a form whose article the card's words bring."""
    cat = i18n.catalogue(lang)
    words = cat["refusal_words"]
    assert {"must_beat", "must_overtrump", "not_in_hand.you"} <= words.keys()
    for code, tpl in cat["refusals"].items():
        if "{card}" in tpl:
            assert not re.search(r"\b(el|la|the|del) (triunfo )?\{card\}", words[code]), code
    assert cat["card_the"]["*"] and (lang != "es" or cat["card_the"]["S"] == "la")
