"""tute.rl.text_env: a whole deal played by lines of text, in Spanish and English; refusals."""

from __future__ import annotations

import pytest

from tute.rl.text_env import TextEnv


def _scripted(text: str, legal: list[str], turn: int) -> str:
    """A stand-in for a language model: reads the listed moves off the prompt and answers
    one of them, in words (odd turns) or with capitals and a final stop (even turns)."""
    line = next(ln for ln in text.splitlines() if ln.startswith(("Jugadas legales",
                                                                   "Legal moves")))
    moves = line.split(": ", 1)[1].rstrip(".").split("; ")
    assert moves == legal
    pick = moves[turn % len(moves)]
    return pick if turn % 2 else pick.upper() + "."


@pytest.mark.parametrize("lang", ["es", "en"])
def test_scripted_agent_plays_a_whole_deal(lang: str) -> None:
    env = TextEnv("tute_parejas", lang=lang)
    seat, text = env.reset(seed=3)
    turns = 0
    while not env.done:
        assert seat == env.to_move
        seat, text, info = env.step(_scripted(text, env.legal(), turns))
        assert info["refused"] is None
        turns += 1
    assert seat is None and turns >= 40
    assert text.startswith("La mano ha terminado" if lang == "es" else "The deal is over")
    rewards = env.rewards()
    assert rewards[0] == rewards[2] == -rewards[1] != 0 or sum(map(abs, rewards)) == 0


@pytest.mark.parametrize(("lang", "words"), [("es", "no está en tu mano"),
                                             ("en", "is not in your hand")])
def test_illegal_line_is_refused_with_a_reason(lang: str, words: str) -> None:
    env = TextEnv("tute_parejas", lang=lang)
    seat, _text = env.reset(seed=3)
    deal = env.deal
    assert deal is not None
    hand = deal.view(seat).hand
    other = next(c for c in deal.view((seat + 1) % 4).hand if c not in hand)
    before = deal.snapshot()
    from tute.i18n import card_name

    again, _text, info = env.step(card_name(lang, other))
    assert again == seat and info["refused"] and words in info["refused"]
    assert deal.snapshot() == before and len(deal.history if hasattr(deal, "history")
                                             else deal.events) == 0
    again, _text, info = env.step("no sé qué jugar")
    assert again == seat and info["refused"]
    assert "no sé qué jugar" in info["refused"]
    assert deal.snapshot() == before


def test_notation_and_words_both_play() -> None:
    env = TextEnv("tute_parejas", lang="es")
    seat, _ = env.reset(seed=3)
    deal = env.deal
    assert deal is not None
    card = deal.legal_actions()[0]
    notation = str(card).replace("A", "1")
    seat2, _text, info = env.step(notation)
    assert info["refused"] is None and info["played"] == str(card) and seat2 != seat
