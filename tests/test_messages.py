"""Refusals as values: every refusal the engine produces has a code of tute.messages.CODES
and words in both languages of tute.i18n's catalogue, with no English in the Spanish."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tute import VARIANTS, Deal
from tute.cards import ALL_CARDS, Suit
from tute.errors import IllegalActionError
from tute.i18n import REFUSALS, refusal_text
from tute.messages import CODES, POLLS, Refusal

SRC = Path(__file__).resolve().parents[1] / "src" / "tute"

# Every action notation: the cards, the cantes, exchanges, bids, trump choices, discards, the
# one-word actions and one the parser refuses.
ACTIONS = [
    *(str(c) for c in ALL_CARDS),
    "cuarenta", *(f"veinte:{s.letter}" for s in Suit), "tute_reyes", "tute_caballos", "tute_sotas",
    *(f"cambio:{c}" for c in ALL_CARDS), *(f"discard:{c}" for c in ALL_CARDS),
    *(f"trump:{s.letter}" for s in Suit), *(f"bid:{b}" for b in (1, 55, 61, 65, 70, 500)),
    "pass", "takeover", "throw", "renuncio", "stop", "Zz",
]

# Words that only an English sentence would hold (the Spanish templates use none of them).
ENGLISH = re.compile(r"\b(must|the|not|seat|hand|is|only|bid|trick|declare|pass on|exchange|"
                     r"play|card|needs|your|may|no opponent|stock)\b")


def _params(code: str) -> dict[str, str | int]:
    sample: dict[str, str | int] = {"suit": "c", "trump": "o", "card": "Ac", "target": "7o",
                                    "seat": 1, "poll": "bid", "decl": "cuarenta",
                                    "missing": "Ro Co", "variant": "guinote", "text": "Zz",
                                    "detail": "invalid action 'Zz'", "bid": 65, "minimum": 60,
                                    "step": 5, "current": 70, "maximum": 230, "points": 20}
    return {k: sample[k] for k in CODES[code]}


def _check(why: Refusal) -> None:
    assert why.code in CODES and set(why.params) == set(CODES[why.code]), why
    for you in (None, why.params.get("seat")):
        es = refusal_text("es", why, you=you if isinstance(you, int) else None)
        en = refusal_text("en", why, you=you if isinstance(you, int) else None)
        assert es and en and "{" not in es + en, why
        assert not ENGLISH.search(es), (why, es)


def test_the_catalogue_covers_every_code_in_both_languages() -> None:
    extra = {f"poll.{p}" for p in POLLS}
    for lang, table in REFUSALS.items():
        plain = {k for k in table if not k.endswith(".you")} - extra
        assert plain == set(CODES), lang
        assert extra <= set(table) and {k[:-4] for k in table if k.endswith(".you")} <= set(CODES)
    for code in CODES:
        _check(Refusal.of(code, **_params(code)))
        if "poll" in CODES[code]:
            for poll in POLLS:
                _check(Refusal.of(code, **{**_params(code), "poll": poll}))


def test_refusal_codes_are_checked() -> None:
    with pytest.raises(ValueError):
        Refusal.of("nope")
    with pytest.raises(ValueError):
        Refusal.of("must_follow")


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_refusal_of_random_games_has_a_code_and_words(variant: str) -> None:
    """Random deals of every variant; at each position every action that is not legal is
    refused with a code, why_illegal is its English, apply raises it as the error's value."""
    seen: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        deal = Deal.new(variant, seed=seed)
        step = 0
        while True:
            legal = {str(a) for a in deal.legal_actions()}
            for text in ACTIONS if step % 3 == 0 else rng.sample(ACTIONS, 12):
                why = deal.refusal(text)
                if text in legal:
                    assert why is None
                    continue
                if why is None:  # a spelling of a legal action (e.g. a bid written otherwise)
                    continue
                _check(why)
                seen.add(why.code)
                assert deal.why_illegal(text) == refusal_text("en", why)
            if step % 7 == 0:
                bad = next((t for t in ACTIONS if t not in legal and deal.refusal(t)), None)
                if bad is not None:
                    with pytest.raises(IllegalActionError) as err:
                        deal.apply(bad)
                    assert err.value.refusal == deal.refusal(bad)
            if deal.is_over():
                break
            deal.apply(rng.choice(deal.legal_actions()))
            step += 1
    assert {"bad_notation", "not_in_hand", "deal_over"} <= seen, seen


def test_the_cli_words_refusals_in_spanish() -> None:
    why = Refusal.of("not_in_hand", card="Ac", seat=2)
    assert refusal_text("es", why) == "el Ac no está en la mano del asiento 2"
    assert refusal_text("es", why, you=2) == "el Ac no está en tu mano"
    assert refusal_text("en", why) == "Ac is not in seat 2's hand"
    poll = Refusal.of("poll_first", seat=0, poll="cante")
    assert refusal_text("es", poll) == "el asiento 0 debe antes cantar o pasar"


def test_no_translation_of_english_text_is_left() -> None:
    """The regex translators of English reasons are gone from the CLI, i18n and the page."""
    for path in [*SRC.rglob("*.py"), *(SRC / "web").rglob("*.js")]:
        text = path.read_text(encoding="utf-8")
        for old in ("_REASONS_ES", "REASONS_ES", "reasonText", "def _reason(lang", "_EN_RANK ="):
            assert old not in text, (path, old)


def test_every_goal_is_worded_from_its_data_in_both_languages() -> None:
    """The terminal game and the CLI word the match goal from Match.goal_info(), not from the
    engine's English words: a Spanish screen never shows "first to", "series of", "per coto"."""
    from tute.cli import _Words
    from tute.i18n import goal_text
    from tute.match import Match
    from tute.tui.session import goal_of

    english = re.compile(r"\b(first|series|per|until|deals|highest|balance to)\b")
    for vid in VARIANTS:
        match = Match.new(vid, seed=1)
        info = match.goal_info()
        es, en = goal_text("es", info), goal_text("en", info)
        assert es and en and es != en, vid
        assert not english.search(es), (vid, es)
        assert _Words("es", match.variant).goal(match) == es
        goal = goal_of(match)
        assert goal.text("es") == es and goal.text("en") == en
        # the words of the engine are not what the screens read
        match.goal = lambda: "nonsense"  # type: ignore[method-assign]
        assert goal_of(match).text("es") == es, vid
        assert goal_of(match).tally == {"cotos": "cotos", "losses": "losses", "balance":
                                        "balance", "balance_deals": "balance"}.get(
                                            info["kind"], "games")


def test_consistent_spanish_for_the_deal_and_the_stock() -> None:
    """One word for each thing in every Spanish text (the engine's, the CLI's, the terminal
    game's, the page's): the stock is the *montón*, never the *mazo*; a deal is a *mano*."""
    import re
    from pathlib import Path

    from tute import i18n

    texts = [v for table in (i18n.TEXT["es"], i18n.CLI_TEXT["es"]) for v in table.values()]
    page = (Path(i18n.__file__).parent / "web" / "i18n.js").read_text("utf-8")
    for text in [*texts, page]:
        assert not re.search(r"\bmazo\b", text, re.IGNORECASE), text[:80]
    assert "Mano {k}" in i18n.CLI_TEXT["es"]["deal_header"]
