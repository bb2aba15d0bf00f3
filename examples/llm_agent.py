"""A language model plays Tute por parejas through tute.rl.TextEnv, all four seats.

Any OpenAI-compatible chat endpoint (a local server, a hosted one), called with urllib:

    PYTHONPATH=src python examples/llm_agent.py --url http://localhost:8000/v1 \\
        --model my-model [--lang en] [--seed 1] [--key $API_KEY]

Each turn sends the seat's observation (its view in words, the legal moves listed) and plays
the model's one-line answer; a refused line is sent back with the reason, up to --retries
times, then the first legal move is played. Not run by the tests (they use a scripted
stand-in: tests/test_rl_text.py).
"""

from __future__ import annotations

import argparse
import json
import urllib.request

from tute.rl.text_env import TextEnv

SYSTEM = ("You play a Spanish trick-taking card game. Answer with exactly one of the legal "
          "moves listed, nothing else.")


def ask(url: str, model: str, key: str | None, messages: list[dict[str, str]]) -> str:
    """One chat completion from ``url`` (its /chat/completions)."""
    body = json.dumps({"model": model, "messages": messages, "temperature": 0}).encode()
    req = urllib.request.Request(url.rstrip("/") + "/chat/completions", data=body,
                                 headers={"Content-Type": "application/json",
                                          **({"Authorization": f"Bearer {key}"} if key else {})})
    with urllib.request.urlopen(req, timeout=120) as resp:
        data = json.load(resp)
    return str(data["choices"][0]["message"]["content"]).strip().splitlines()[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", required=True, help="base URL, e.g. http://localhost:8000/v1")
    ap.add_argument("--model", required=True)
    ap.add_argument("--key", default=None, help="API key, if the endpoint wants one")
    ap.add_argument("--lang", default="es", choices=["es", "en"])
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--retries", type=int, default=2)
    args = ap.parse_args()
    env = TextEnv("tute_parejas", lang=args.lang)
    seat, text = env.reset(seed=args.seed)
    while seat is not None:
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": text}]
        for _ in range(args.retries + 1):
            line = ask(args.url, args.model, args.key, messages)
            print(f"P{seat}> {line}")
            seat, text, info = env.step(line)
            if info["refused"] is None:
                break
            messages += [{"role": "assistant", "content": line},
                         {"role": "user", "content": text}]
        else:
            seat, text, info = env.step(env.legal()[0])
    print(text)
    print("rewards per seat:", env.rewards())


if __name__ == "__main__":
    main()
