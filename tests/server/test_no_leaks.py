"""Every message every audience receives during whole games of every variant is checked against
what that audience may know: no hidden card ever leaves the server, in any field.

The audiences are every seat and a spectator, each on a real WebSocket connection. They drop
out mid-deal and come back with ``since`` (the welcome's ``missed``), and ask for ``sync``
catchups that replay the last updates, so every update is also seen as a ``missed`` entry by
every audience. Each message is serialized and searched for every card's notation as a token
(``discard:3o`` names ``3o``), and for the suit of every 20 (``veinte:o``: Guiñote's
``guinote_hide_arrastre_suit`` tells the suit of a 20 sung in the arrastre to its singer
alone). What an audience may know comes from the core alone, replayed from the finished game's
record, independently of how the server builds its messages: every card and 20 that was in
``deal.view(seat).to_json()`` (a spectator: the view without hand and choices, with the
cantes and known cards as ``Deal.cantes_for(None)``/``known_for(None)`` tell them) since the
deal began, and at the end of the deal before. The state each client rebuilds from
welcome, catchup and deltas must also be the core's view, field for field.
"""

from __future__ import annotations

import bisect
import dataclasses
import json
import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tute
from tute.match import Match
from tute.server.protocol import duty_json

from .conftest import Player, hello

pytestmark = pytest.mark.timeout(240)

# A card's notation as a whole token of the serialized message: "3o" in "discard:3o" too.
CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])([A2-7SCR][oceb])(?![0-9A-Za-z])")
# A 20 with its suit: what those not told the suit of a hidden 20 must never read.
VEINTE_TOKEN = re.compile(r"veinte:[oceb]")

# Every variant and every option that hides cards: the widow and its discard (with the idle
# dealer's takeover), the stock and its draws, the upcard and its exchanges, arrastrado's table
# card and its exchange (compulsory or asked), claims, throw-ins and stop claims. ``expect``:
# actions the game must have had, so that the audit is not vacuous (the deal is seeded).
GAMES = [
    pytest.param("tute_parejas", {"match": {"mode": "series", "deals": 2}}, 1, set(),
                 id="parejas"),
    pytest.param("tute_parejas", {"match": {"mode": "series", "deals": 2},
                                  "weak_hand_max_points": 30, "renuncio_mode": "claim",
                                  "first_dealer": "two_of_oros_mano"}, 2, set(),
                 id="parejas-claim-throw"),
    pytest.param("tute_2p_habanero", {"games_to_win": 1}, 3, set(), id="habanero"),
    pytest.param("tute_2p_habanero", {"games_to_win": 1, "exchange_timing": "start_and_after_win",
                                      "cante_before_draw": True}, 4, {"cambio"},
                 id="habanero-exchange-start"),
    pytest.param("tute_2p_corriente", {"games_to_win": 1, "exchange_timing": "own_turn_any",
                                       "vueltas_claim": "manual", "renuncio_mode": "claim"}, 5,
                 set(), id="corriente-own-turn-claim"),
    pytest.param("tute_arrastrado_3p", {"loss_limit": 1}, 6, set(), id="arrastrado"),
    pytest.param("tute_arrastrado_3p", {"loss_limit": 1, "exchange_mandatory": False}, 7,
                 {"cambio"}, id="arrastrado-asked-exchange"),
    pytest.param("tute_arrastrado_3p", {"loss_limit": 1, "players": 4}, 8, set(),
                 id="arrastrado-4"),
    pytest.param("tute_subastado", {"widow_card": True, "match_deals": 1,
                                    "all_pass": "mano_forced"}, 9, {"discard", "trump"},
                 id="subastado-widow"),
    pytest.param("tute_subastado", {"widow_card": True, "seats": 4, "match_deals": 2,
                                    "all_pass": "mano_forced"}, 10,
                 {"discard", "takeover"}, id="subastado-widow-idle-dealer"),
    pytest.param("tute_subastado", {"seats": 4, "match_deals": 1, "auction_rounds": "open",
                                    "weak_hand_max_points": 20}, 11, {"bid"},
                 id="subastado-idle-dealer-open"),
    pytest.param("guinote", {"partidas_per_coto": 1, "cotos_to_win": 1}, 12, set(),
                 id="guinote"),
    pytest.param("guinote_2p", {"partidas_per_coto": 1, "cotos_to_win": 1,
                                "renuncio_mode": "claim"}, 13, set(), id="guinote_2p-claim"),
    # a 20 sung in the arrastre whose suit only its singer is told: the seeds reach one, sung
    # by seat 0 (whose view the public state starts from) and by another seat
    pytest.param("guinote", {"partidas_per_coto": 1, "cotos_to_win": 1,
                             "guinote_hide_arrastre_suit": True}, 81, {"veinte"},
                 id="guinote-hide-arrastre-suit"),
    pytest.param("guinote", {"partidas_per_coto": 1, "cotos_to_win": 1,
                             "guinote_hide_arrastre_suit": True}, 58, {"veinte"},
                 id="guinote-hide-arrastre-suit-seat-2"),
    pytest.param("guinote_2p", {"partidas_per_coto": 1, "cotos_to_win": 1,
                                "renuncio_mode": "claim", "guinote_hide_arrastre_suit": True},
                 7, {"veinte"}, id="guinote_2p-claim-hide-arrastre-suit"),
    pytest.param("tute_cabron", {"loss_limit": 1}, 14, set(), id="cabron"),
    pytest.param("tute_cabron", {"loss_limit": 1, "players": 4}, 15, set(), id="cabron-4"),
    pytest.param("tute_gana_pierde", {"loss_limit": 1}, 16, set(), id="gana-pierde"),
    pytest.param("tute_gana_pierde", {"loss_limit": 1, "players": 3}, 17, set(),
                 id="gana-pierde-3"),
    pytest.param("tute_cabrero", {"loss_limit": 1, "players": 5}, 18, set(), id="cabrero-5"),
]

# Claims and throw-ins end a deal at once: chosen now and then, so that games get played out.
RARE = frozenset({"renuncio", "throw", "stop"})
# Exchanges and the takeover hide or move cards: always taken when offered.
EAGER = ("cambio:", "takeover")


def test_every_variant_is_audited() -> None:
    assert {p.values[0] for p in GAMES} == set(tute.VARIANTS)


def tokens(obj: Any, ignore: Iterable[str] = ()) -> set[str]:
    """Every card and every 20 with its suit named anywhere in a JSON value, whatever the
    field or the wording; but not inside the strings of ``ignore``: the table's random id and
    invite code, which may spell a card by chance ("2o-a1JPmYByE") and hold none."""
    text = json.dumps(obj)
    for s in ignore:
        text = text.replace(s, " ")
    return set(CARD_TOKEN.findall(text)) | set(VEINTE_TOKEN.findall(text))


class Oracle:
    """Replays the record through the core; after each action count, per audience (a seat, or
    None: a spectator), the cards of its views so far in the deal (``now``), those of the deal
    before (``before``), and its view itself."""

    def __init__(self, record: dict[str, Any]):
        self.m = Match.new(record["variant"], seed=record["seed"],
                           options=record.get("options") or {},
                           first_dealer=record["first_dealer"])
        self.actions = [a for d in record["deals"] for a in d["actions"]]
        self.n = self.m.deal.seats
        self.audiences: list[int | None] = [None, *range(self.n)]
        self.now: list[dict[int | None, set[str]]] = []
        self.before: list[dict[int | None, set[str]]] = []
        self.views: list[dict[int | None, dict[str, Any]]] = []
        self.hid = False  # some 20 was sung with its suit told to its singer alone
        cur = self._fresh()
        prev = self._fresh()
        self._record(cur, prev)
        for a in self.actions:
            deal = self.m.deal
            self.m.apply(a)
            if self.m.deal is not deal:  # the deal ended and the next one was dealt
                self._seen(cur, self._views(deal))
                prev, cur = cur, self._fresh()
            self._record(cur, prev)

    def _fresh(self) -> dict[int | None, set[str]]:
        return {a: set() for a in self.audiences}

    def _views(self, deal: Any) -> dict[int | None, dict[str, Any]]:
        views: dict[int | None, dict[str, Any]] = {
            s: {**deal.view(s).to_json(), "refusals": self._refusals(deal, s),
                "duty": duty_json(deal, deal.card_refusals()) if deal.to_move == s else None}
            for s in range(self.n)}
        public = dataclasses.replace(deal.view(0), cantes=deal.cantes_for(None),
                                     known=deal.known_for(None)).to_json()
        views[None] = {**public, "seat": None, "side": None, "hand": [], "legal_actions": [],
                       "refusals": [], "duty": None}
        self.hid = self.hid or deal.hides_cantes
        return views

    @staticmethod
    def _refusals(deal: Any, seat: int) -> list[dict[str, Any]]:
        """The engine's reasons for the cards of the mover's own hand it may not play, each
        once with its cards, in hand order (worked out card by card, apart from the server)."""
        if deal.to_move != seat:
            return []
        legal = {str(a) for a in deal.legal_actions()}
        out: list[dict[str, Any]] = []
        for card in deal.hand(seat).to_list():
            why = None if card in legal else deal.refusal(card)
            if why is None:
                continue
            value = why.as_json()
            group = next((g for g in out if g["code"] == value["code"]
                          and g["params"] == value["params"]), None)
            if group is None:
                out.append(group := {**value, "cards": []})
            group["cards"].append(card)
        return out

    @staticmethod
    def _seen(acc: dict[int | None, set[str]], views: dict[int | None, dict[str, Any]]) -> None:
        for a, view in views.items():
            acc[a] |= tokens(view)

    def _record(self, cur: dict[int | None, set[str]], prev: dict[int | None, set[str]]) -> None:
        views = self._views(self.m.deal)
        self._seen(cur, views)
        self.now.append({a: set(s) for a, s in cur.items()})
        self.before.append(prev)
        self.views.append(views)


@dataclass
class Audience:
    """A seat (or None: the spectator) across its connections: every message it got, with the
    state it had rebuilt after it."""

    seat: int | None
    token: str | None
    url: str
    cm: Any = None
    player: Player | None = None
    # The version up to which ``missed`` lists have replayed every update to it: each welcome
    # and catchup asks for everything after it, live updates included, so that every update
    # comes back as a missed entry too.
    synced: int = 0
    replayed: set[int] = field(default_factory=set)  # versions seen as missed entries
    got: list[tuple[dict[str, Any], dict[str, Any] | None]] = field(default_factory=list)

    @property
    def on(self) -> bool:
        return self.player is not None

    def connect(self, client: TestClient) -> None:
        self.cm = client.websocket_connect(self.url)
        extra = {"since": self.synced} if self.synced else {}
        self.player = hello(self.cm.__enter__(), self.token, **extra)
        welcome = self.player.msgs[0]
        assert welcome["seat"] == self.seat
        if self.synced:
            self._replayed(welcome)
        self.synced = welcome["v"]

    def sync(self) -> None:
        assert self.player is not None
        self.player.send({"type": "sync", "since": self.synced})
        self._replayed(self.player.until("catchup"))

    def _replayed(self, msg: dict[str, Any]) -> None:
        """Nothing lost: the missed updates are exactly those after ``synced``."""
        missed = msg["missed"]
        assert missed is not None
        assert [u["v"] for u in missed] == list(range(self.synced + 1, msg["v"] + 1)), msg
        self.replayed.update(u["v"] for u in missed)
        self.synced = msg["v"]

    def disconnect(self) -> None:
        assert self.player is not None
        self._keep()
        self.cm.__exit__(None, None, None)
        self.player = self.cm = None

    def _keep(self) -> None:
        assert self.player is not None
        self.got.extend(zip(self.player.msgs, self.player.states, strict=True))
        self.player.msgs.clear()
        self.player.states.clear()

    def messages(self) -> Iterator[tuple[dict[str, Any], dict[str, Any] | None]]:
        if self.player is not None:
            self._keep()
        yield from self.got


def choose(legal: list[str], rng: random.Random) -> str:
    eager = [a for a in legal if a.startswith(EAGER)]
    if eager:
        return eager[0]
    calm = [a for a in legal if a not in RARE]
    if calm and rng.random() > 0.1:
        return rng.choice(calm)
    return rng.choice(legal)


def _play(client: TestClient, variant: str, options: dict[str, Any], seed: int
          ) -> tuple[str, list[Audience], list[int], list[dict[str, Any]]]:
    """A whole game with every seat and a spectator connected: every sixth action all but the
    seat to move drop out for two actions and come back with ``since``; after each action one
    audience in turn asks for a catchup of the updates since its last one. Returns the table id, the
    audiences, the version of each action and the table info fetched along the way."""
    n = Match.new(variant, seed=1, options=options).deal.seats
    r = client.post("/api/tables", json={"variant": variant, "options": options,
                                         "seats": ["you"] + ["open"] * (n - 1)}).json()
    tokens_: dict[int, str] = {0: r["token"]}
    for s in range(1, n):
        tokens_[s] = client.post(f"/api/tables/{r['id']}/join", json={"name": f"P{s}"}).json()[
            "token"]
    url = f"/ws/{r['id']}"
    auds = [Audience(None, None, url), *(Audience(s, tokens_[s], url) for s in range(n))]
    rng = random.Random(seed)
    versions: list[int] = []
    infos: list[dict[str, Any]] = []
    try:
        for a in auds:
            a.connect(client)
        state = auds[1].player.state  # type: ignore[union-attr]
        assert state is not None
        while not state["over"]:
            i = len(versions)
            mover = auds[1 + state["deal"]["to_move"]]
            if i % 6 == 1:
                for a in auds:
                    if a is not mover and a.on:
                        a.disconnect()
                infos.append(client.get(f"/api/tables/{r['id']}").json())
                for what in ("record", "replay"):  # a running game's record holds the seed
                    assert client.get(f"/api/games/{r['id']}/{what}").status_code == 409
            if i % 6 == 3 or not mover.on:
                for a in auds:
                    if not a.on and (i % 6 == 3 or a is mover):
                        a.connect(client)
            p = mover.player
            assert p is not None and p.state is not None
            p.send({"type": "act", "action": choose(p.state["deal"]["legal_actions"], rng)})
            v = p.until("update")["v"]
            versions.append(v)
            for a in auds:
                if a.on and a is not mover:
                    a.player.until("update", v)  # type: ignore[union-attr]
            asker = auds[i % len(auds)]
            if asker.on:
                asker.sync()
            state = p.state
        for a in auds:  # the last updates come back too
            if not a.on:
                a.connect(client)
            a.sync()
    finally:
        for a in auds:
            if a.on:
                a._keep()
                a.cm.__exit__(None, None, None)
                a.player = None
    return r["id"], auds, versions, infos


@pytest.mark.parametrize(("variant", "options", "seed", "expect"), GAMES)
def test_no_hidden_card_reaches_anyone(client: TestClient, seeded_tables: list[int], variant: str,
                                       options: dict[str, Any], seed: int,
                                       expect: set[str]) -> None:
    seeded_tables[0] = seed
    table_id, auds, versions, infos = _play(client, variant, options, seed)
    oracle = Oracle(client.get(f"/api/games/{table_id}/record").json())
    assert len(oracle.actions) == len(versions)
    heads = {a.partition(":")[0] for a in oracle.actions}
    assert expect <= heads, f"the game never had {expect - heads}"
    if options.get("guinote_hide_arrastre_suit"):
        assert oracle.hid, "the game never had a 20 sung hidden"

    def k_of(v: int) -> int:  # how many actions the table had applied at version v
        return bisect.bisect_right(versions, v)

    random_ids = {table_id, *(info["code"] for info in infos)}

    def check(audience: int | None, obj: Any, v: int, what: str) -> None:
        k = k_of(v)
        leaked = (tokens(obj, random_ids) - oracle.now[k][audience]
                  - oracle.before[k][audience])
        assert not leaked, f"{audience} saw {sorted(leaked)} in {what} at v{v} ({k} actions)"

    for info in infos:
        check(None, info, info["v"], "the table info")
    for a in auds:
        assert set(versions) <= a.replayed, f"{a.seat}: some updates never came back as missed"
        for m, state in a.messages():
            text = json.dumps(m)
            assert "seed" not in text and "token" not in text
            v = m.get("v", versions[-1])
            for u in m.get("missed") or ():
                check(a.seat, u, u["v"], f"a missed entry of {m['type']}")
            check(a.seat, {k: x for k, x in m.items() if k != "missed"}, v, m["type"])
            if "state" in m or "delta" in m:
                assert state is not None
                k = k_of(v)
                deal = state["deal"]
                leaked = tokens(deal) - oracle.now[k][a.seat]
                assert not leaked, f"{a.seat} saw {leaked} in its deal at v{v} ({k} actions)"
                # the state rebuilt from deltas is the core's view, field for field
                assert deal == oracle.views[k][a.seat], f"{a.seat} at v{v} ({k} actions)"


def test_the_checker_catches_a_leak(client: TestClient, seeded_tables: list[int],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Sanity check of the oracle: a server that lets the public part of the state (sent to
    spectators and every seat, in deltas) hold seat 0's hand fails."""
    from tute.server import protocol

    honest = protocol.spectator_deal_json

    def leaky(deal: Any) -> dict[str, Any]:
        out = honest(deal)
        out["peek"] = deal.hand(0).to_list()
        return out

    monkeypatch.setattr(protocol, "spectator_deal_json", leaky)
    with pytest.raises(AssertionError, match="None saw"):
        test_no_hidden_card_reaches_anyone(client, seeded_tables, "tute_2p_corriente",
                                           {"games_to_win": 1}, 3, set())


WIDOW = ("tute_subastado", {"widow_card": True, "match_deals": 1, "all_pass": "mano_forced"}, 9,
         {"discard"})


@pytest.mark.parametrize("path", ["everywhere", "missed"])
def test_the_checker_catches_an_action_leak(client: TestClient, seeded_tables: list[int],
                                            monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    """Sanity check: an action sent alike to every audience (the widow's face-down discard in
    ``discard:3o``) fails, whether in live updates and missed entries or in missed alone."""
    from tute.server import table

    if path == "everywhere":
        monkeypatch.setattr(table, "action_for", lambda action, events: action)
        match = "saw"
    else:
        def raw(self: table.Table, u: Any, seat: int | None) -> dict[str, Any]:
            return {"v": u.v, "kind": u.kind, "seat": u.seat, "action": u.action,
                    "events": self._events_json(u, seat)}

        monkeypatch.setattr(table.Table, "_update_json", raw)
        match = "saw .* in a missed entry"
    with pytest.raises(AssertionError, match=match):
        test_no_hidden_card_reaches_anyone(client, seeded_tables, *WIDOW)


def test_the_audit_reads_no_card_into_a_random_id() -> None:
    """A table id is random URL-safe text and may spell a card between its dashes (CI met
    "2o-a1JPmYByE"): the audit blanks the ids it knows, and still finds a card elsewhere."""
    info = {"id": "2o-a1JPmYByE", "code": "AYNPKMR4", "note": "has 3b"}
    assert tokens(info) == {"2o", "3b"}
    assert tokens(info, {"2o-a1JPmYByE", "AYNPKMR4"}) == {"3b"}
