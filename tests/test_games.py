"""One home for each game (issue 16): the registry, the hooks' data, and the house rules that
keep it so — nothing outside ``tute.games`` and the registry tests a variant id or a family
name, no import circle, the kernel reads a documented snapshot."""

from __future__ import annotations

import ast
import dataclasses
import random
import re
from pathlib import Path
from typing import Any

import pytest

import tute
from tute.games import CLASSES, game_for
from tute.games.base import Game

SRC = Path(__file__).resolve().parents[1] / "src" / "tute"


def test_every_variant_has_its_game() -> None:
    assert set(CLASSES) == set(tute.VARIANTS)
    for vid, var in tute.VARIANTS.items():
        game = game_for(var)
        assert isinstance(game, CLASSES[vid]) and game.variant is var
        assert game_for(vid) is game and game_for(var.aliases[0]) is game
        n = game.seat_count(var.defaults)
        assert var.seat_count() == n and var.sides() == game.sides(var.defaults)
        deal = tute.Deal.new(var, seed=1)
        assert deal.game is game and deal.seats == n
        assert deal.total_tricks == game.total_tricks(var.defaults)
        deck, size = game.layout(var.defaults)
        assert all(h.mask & ~deck == 0 for h in deal.hands)
        assert max(len(h) for h in deal.hands) == size


def test_a_modified_variant_gets_its_own_game() -> None:
    var = dataclasses.replace(tute.VARIANTS["tute_parejas"], name="Otro tute")
    assert game_for(var).variant is var and type(game_for(var)) is CLASSES["tute_parejas"]
    assert tute.Deal.new(var, seed=3).game.variant is var  # the deal asks the same game


@pytest.mark.parametrize("vid", list(tute.VARIANTS))
def test_goal_words_and_data_agree(vid: str) -> None:
    match = tute.Match.new(vid, seed=1)
    info = match.goal_info()
    assert info["kind"] in ("series", "race", "games", "cotos", "losses", "balance",
                            "balance_deals")
    assert match.goal() == match.game.goal(match.options)
    numbers = [v for k, v in info.items() if k != "kind"]
    assert numbers and all(str(n) in match.goal() for n in numbers)


@pytest.mark.parametrize("vid", list(tute.VARIANTS))
def test_snapshot_follows_the_play(vid: str) -> None:
    deal = tute.Deal.new(vid, seed=5)
    rng = random.Random(5)
    while not deal.is_over():
        pos = deal.snapshot()
        assert pos.hands == tuple(h.mask for h in deal.hands)
        assert pos.trick == tuple(c.index for _s, c in deal.trick)
        assert pos.tricks_done == len(deal.tricks)
        assert pos.stock_left == deal.stock_count
        assert pos.trump == (None if deal.trump is None else int(deal.trump))
        if pos.poll is None and deal.to_move is not None:
            assert pos.to_move == deal.to_move
        deal.apply(rng.choice(deal.legal_actions()))


def test_undo_restores_every_component() -> None:
    for vid in tute.VARIANTS:
        deal = tute.Deal.new(vid, seed=9)
        rng = random.Random(9)
        shots = []
        while not deal.is_over():
            shots.append((deal.snapshot(), deal.view(deal.to_move or 0), len(deal.events)))
            deal.apply(rng.choice(deal.legal_actions()))
        while shots:
            deal.undo()
            pos, view, n = shots.pop()
            assert (deal.snapshot(), deal.view(deal.to_move or 0), len(deal.events)) == (
                pos, view, n)


# ---------------------------------------------------------------- the house rules

_ID_TEST = re.compile(  # variant.id == "x", vid in (...), x.family == ..., "tute_x" == ...
    r"""(\b(variant|var|v)\.id|\bvid|\.family|\border\.name)\s*(==|!=|\bin\b|\bnot\s+in\b)\s*[(\[{]?\s*["']"""
    r"""|\.family\s*(==|!=|\bin\b)"""
    r"""|["'](tute_\w+|guinote\w*|parejas|arrastrado|subastado|cabron)["']\s*(==|!=|\bin\b)""")


# the games' ids, aliases and families (tute.games), as a test of behaviour would name them;
# not the aliases that are ordinary words of the code ("stock" is also a phase, "auction" a
# field of the view)
_WORDS = frozenset({"stock", "tute", "auction", "2p", "3p"})
_NAMED = frozenset({n for v in tute.VARIANTS.values()
                    for n in (v.id, game_for(v).family, *v.aliases)} - _WORDS)
_NAMES = "|".join(sorted({re.escape(n) for v in tute.VARIANTS.values()
                          for n in (v.id, game_for(v).family)}, key=len, reverse=True))
_ALL_NAMES = "|".join(sorted((re.escape(n) for n in _NAMED), key=len, reverse=True))
_IDS = "|".join(sorted((re.escape(v) for v in tute.VARIANTS), key=len, reverse=True))
# behaviour keyed by variant ids: {"tute_parejas": ..., ...}
_ID_TABLE = re.compile(rf"""["']({_IDS})["']\s*:\s*\S""")
# the page: an id or a family compared or matched (variant === "x", .startsWith("guinote")),
# a switch on one (case "guinote":), a list of them asked (["parejas", ...].includes(v)), a
# game's family read at all, a table keyed by ids ({tute_parejas: ...})
_JS_ID_TEST = re.compile(
    r"""\bvariant\s*(===|!==|==|!=)\s*["']|\bvariant\??\.(startsWith|includes|endsWith)\("""
    rf"""|(===|!==|==|!=)\s*["']({_NAMES})["']|["']({_NAMES})["']\s*(===|!==|==|!=)"""
    rf"""|\bcase\s+["']({_ALL_NAMES})["']\s*:"""
    rf"""|["']({_ALL_NAMES})["']\s*[,\]][^;]*\]\s*\.\s*(includes|indexOf)\("""
    rf"""|\.(startsWith|endsWith|includes|indexOf)\(\s*["']({_ALL_NAMES})["']"""
    r"""|\.family\b"""
    rf"""|[{{,]\s*({_IDS})\s*:""")

#: attributes that name a game's family or its score shape: read only inside tute.games
_FAMILY_ATTRS = frozenset({"family", "schema", "score_schema"})


def _named(node: ast.AST) -> bool:
    """A string constant naming a game, or a tuple/list/set of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value in _NAMED
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_named(e) for e in node.elts)
    return False


def _ids_read(node: ast.AST) -> bool:
    """``variant.id``, ``var.id``, ``vid``..."""
    if isinstance(node, ast.Attribute) and node.attr == "id":
        return isinstance(node.value, ast.Name | ast.Attribute) and any(
            w in ast.unparse(node.value).lower() for w in ("var", "game"))
    return isinstance(node, ast.Name) and node.id in ("vid", "variant_id")


def _tests_a_game(node: ast.AST) -> bool:
    if isinstance(node, ast.Compare):
        sides = [node.left, *node.comparators]
        consts = [s for s in sides if isinstance(s, ast.Constant | ast.Tuple | ast.List | ast.Set)]
        return any(_named(s) for s in sides) or bool(consts and any(_ids_read(s) for s in sides))
    if isinstance(node, ast.match_case):
        return any(isinstance(p, ast.MatchValue) and _named(p.value)
                   for p in ast.walk(node.pattern))
    if isinstance(node, ast.Attribute):
        return node.attr in _FAMILY_ATTRS
    if isinstance(node, ast.Call):
        return (isinstance(node.func, ast.Attribute) and node.args
                and node.func.attr in ("startswith", "endswith") and _named(node.args[0]))
    if isinstance(node, ast.Dict):
        return sum(1 for k in node.keys if k is not None and _named(k)) >= 2
    return False


def python_family_tests(source: str) -> list[int]:
    """The lines of ``source`` that test which game this is: a comparison with a game's id,
    alias or family (or with a variant's id at all), a ``match`` on one, a string test of
    one (``.startswith("guinote")``), a family or score shape read, or a table keyed by ids."""
    lines = {getattr(node, "lineno", 0) or node.pattern.lineno  # type: ignore[attr-defined]
             for node in ast.walk(ast.parse(source)) if _tests_a_game(node)}
    for no, line in enumerate(source.splitlines(), 1):
        code = line.split("#", 1)[0]
        if _ID_TEST.search(code) or _ID_TABLE.search(code):
            lines.add(no)
    return sorted(lines)


def js_family_tests(source: str) -> list[int]:
    """The lines of the page's ``source`` that test which game this is (:data:`_JS_ID_TEST`)."""
    return [no for no, line in enumerate(source.splitlines(), 1)
            if _JS_ID_TEST.search(line.split("//", 1)[0])]


@pytest.mark.parametrize("snippet", [
    'if variant.id == "tute_parejas": pass',
    'if schema == "subastado": pass',
    'if game.family in ("stock", "guinote"): pass',
    'x = game_for(v).family',
    'if "cabrero" == name: pass',
    'match vid:\n    case "guinote_2p":\n        pass',
    'if var.id.startswith("guinote"): pass',
    'if var.id != "x": pass',
    'if game.score_schema() == "pairs": pass',
    'T = {"tute_parejas": 1, "guinote": 2}',
])
def test_the_python_guard_sees_a_family_test(snippet: str) -> None:
    assert python_family_tests(snippet)


@pytest.mark.parametrize("snippet", [
    'if variant === "guinote") {}',
    'switch (v) { case "tute_subastado": break; }',
    'if (["parejas", "guinote"].includes(v.id)) {}',
    'const f = info.family;',
    'if (id.startsWith("guinote")) {}',
    'const LABELS = {tute_parejas: "x", guinote: "y"};',
])
def test_the_page_guard_sees_a_family_test(snippet: str) -> None:
    assert js_family_tests(snippet)


@pytest.mark.parametrize("snippet", [
    'if phase == "stock": pass',
    'if game.auction and not game.trump_fixed: pass',
    'x = options.get("players")',
])
def test_the_python_guard_lets_capabilities_pass(snippet: str) -> None:
    assert python_family_tests(snippet) == []


def test_no_variant_id_tests_outside_the_games() -> None:
    """Behaviour by a variant's id or family name lives in tute.games (and the option
    checks of the registry, tute.variants), nowhere else: not in Python, not in the page."""
    hits = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("games/") or rel == "variants.py":
            continue
        text = path.read_text("utf-8")
        lines = text.splitlines()
        hits += [f"{rel}:{no}: {lines[no - 1].strip()}" for no in python_family_tests(text)]
    for path in SRC.rglob("*.js"):
        rel = path.relative_to(SRC).as_posix()
        lines = path.read_text("utf-8").splitlines()
        hits += [f"{rel}:{no}: {lines[no - 1].strip()[:120]}"
                 for no in js_family_tests("\n".join(lines))]
    assert hits == []


def test_every_game_reads_its_own_score_cases() -> None:
    """``tute score`` has one path: the game reads its deal (``Game.score_case``)."""
    for vid in tute.VARIANTS:
        assert type(game_for(vid)).score_case is not Game.score_case, vid


def test_a_subclassed_game_is_scored_by_its_own_class(monkeypatch: pytest.MonkeyPatch) -> None:
    from tute import cli, games

    base = type(game_for("tute_gana_pierde"))

    class Reversed(base):  # type: ignore[misc, valid-type]
        __slots__ = ()

        def score(self, tally: Any, options: Any) -> Any:  # the lowest total loses instead
            low = min(tally.totals)
            return super().score(tally, options)._replace(
                winner=None, losses=tuple(int(t == low) for t in tally.totals))

    var = tute.VARIANTS["tute_gana_pierde"]
    monkeypatch.setitem(games._BY_ID, var.id, Reversed(var))
    line = {"variant": var.id, "totals": {"seat0": 70, "seat1": 40, "seat2": 20},
            "all_took_tricks": True, "last_trick": 0, "players": 3}
    assert cli.score_line(line)["result"] == {"losses_added": {"seat2": 1}}
    monkeypatch.undo()
    assert cli.score_line(line)["result"] == {"losses_added": {"seat0": 1}}


def _imports(path: Path, module: str) -> set[str]:
    """The tute modules ``module`` imports at run time (``if TYPE_CHECKING`` left out)."""
    tree = ast.parse(path.read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            node.body = []
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            parts = [*base, *(node.module.split(".") if node.module else [])]
            where = SRC.joinpath(*parts[1:])
            names = [a.name for a in node.names]
            # "from . import routes" names a submodule, not the package's own code
            if node.module or not all((where / f"{n}.py").exists() or (where / n).is_dir()
                                      for n in names):
                out.add(".".join(parts))
            out.update(".".join([*parts, n]) for n in names)
    return out


def test_no_import_circle() -> None:
    modules = {}
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).with_suffix("").as_posix().replace("/", ".")
        name = "tute" if rel == "__init__" else "tute." + rel.removesuffix(".__init__")
        modules[name] = path
    graph = {m: {d for d in _imports(p, m) if d in modules and d != m} for m, p in
             modules.items()}
    graph = {m: ds - {"tute"} for m, ds in graph.items()}  # the package's own __init__
    seen: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(m: str, path: list[str]) -> None:
        seen[m] = 1
        for d in graph[m]:
            if seen.get(d) == 1:
                raise AssertionError(" -> ".join([*path[path.index(d):], d]))
            if d not in seen:
                visit(d, [*path, d])
        seen[m] = 2

    for m in graph:
        if m not in seen:
            visit(m, [m])


#: the layers of the package, bottom first: a module imports only from its layer or below
#: (CONTRIBUTING.md: engine <- worlds, solver, kernel <- bots <- analysis, arena, rl <- the
#: front ends); the top-level modules not named here are the engine
_LAYERS = {"worlds": 1, "solver": 1, "kernel": 1, "bots": 2, "analysis": 3, "arena": 3,
           "regressions": 3,
           "rl": 3, "hints": 3, "tutorials": 3, "puzzles": 3, "daily": 3, "server": 4, "cli": 4,
           "tui": 4, "console": 4, "__main__": 4}


def layer_breaches(modules: dict[str, Path]) -> list[str]:
    """The imports (run time, function-level ones too) that point up a layer."""
    def layer(m: str) -> int:
        parts = m.split(".")
        return _LAYERS.get(parts[1], 0) if len(parts) > 1 else 0

    return [f"{m} -> {d}" for m, p in sorted(modules.items())
            for d in sorted(_imports(p, m)) if d in modules and layer(d) > layer(m)]


def _modules() -> dict[str, Path]:
    modules = {}
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).with_suffix("").as_posix().replace("/", ".")
        modules["tute" if rel == "__init__" else "tute." + rel.removesuffix(".__init__")] = path
    return modules


def test_layers_point_down() -> None:
    assert layer_breaches(_modules()) == []


def test_the_layer_check_sees_a_bot_reading_rl(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text("def f():\n    from ..rl.encoding import encode_view\n", "utf-8")
    rl = tmp_path / "enc.py"
    rl.write_text("", "utf-8")
    assert layer_breaches({"tute.bots.x": bot, "tute.rl.encoding": rl}) == [
        "tute.bots.x -> tute.rl.encoding"]


def test_records_and_games_do_not_import_the_engines() -> None:
    for rel in ("records.py", *(p.relative_to(SRC).as_posix() for p in SRC.glob("games/*.py"))):
        module = "tute." + rel.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        found = _imports(SRC / rel, module)
        assert not found & {"tute.deal", "tute.match"}, rel


def test_the_kernel_reads_the_snapshot_not_private_state() -> None:
    text = (SRC / "kernel" / "__init__.py").read_text("utf-8")
    assert not re.search(r"\bdeal\._", text)


def test_hooks_are_data() -> None:
    """A hook answers with values: a game never holds a deal or a match."""
    for vid in tute.VARIANTS:
        game: Game = game_for(vid)
        assert set(vars(type(game))) >= {"__slots__"} or type(game).__slots__ == ()
        assert not hasattr(game, "__dict__")


@pytest.mark.parametrize("options, named", [
    ({"cabrero_match_end": "elimination"}, "cabrero_match_end"),
    ({"cabrero_no_cargar": True}, "cabrero_no_cargar"),
    ({"cabrero_trump": "rotation"}, "cabrero_trump"),
    ({"cabrero_three_deck": "remove_trump_two"}, "cabrero_three_deck"),
    ({"players": 6}, "players"),
    ({"players": 5, "cabrero_dealer_sits_out_from": 5}, "players"),
])
def test_cabrero_refuses_what_it_does_not_play_yet(options: dict[str, Any], named: str) -> None:
    with pytest.raises(tute.InvalidOptionError, match=f"'{named}'.*not supported yet"):
        tute.Deal.new("tute_cabrero", seed=1, options=options)


def test_new_games_own_domains_of_shared_flags() -> None:
    with pytest.raises(tute.InvalidOptionError, match=re.escape("valid values: 3 | 4") + "$"):
        tute.find_variant("tute_cabron").resolve({"players": 5})
    with pytest.raises(tute.InvalidOptionError, match="goes_out"):
        tute.find_variant("tute_gana_pierde").resolve({"tute_award": "deal"})
    assert not tute.find_variant("cabrero").resolve({"cabrero_tute_award": "none"}).tute_enabled
    deal = tute.Deal.new("tute_gana_pierde", seed=4, options={"players": 5})
    assert [len(deal.view(s).hand) for s in range(5)] == [8] * 5


@pytest.mark.parametrize("vid", list(tute.VARIANTS))
def test_every_game_offers_lengths_its_match_keeps(vid: str) -> None:
    """The lengths a player may pick (the lobby shows them) are the game's own: the default
    first, then shorter ones; each makes the goal it says, and the shortest match ends within
    a few deals (the lobby's "Duración" was ignored where the option was not the game's)."""
    var = tute.VARIANTS[vid]
    lengths = game_for(var).lengths(var.defaults)
    assert lengths[0] == {"options": {}, "goal": tute.Match.new(vid, seed=1).goal_info()}
    assert len(lengths) >= 2, vid
    for length in lengths:
        match = tute.Match.new(vid, seed=1, options=length["options"])
        assert match.goal_info() == length["goal"]
    shortest = tute.Match.new(vid, seed=2, options=lengths[-1]["options"])
    rng = random.Random(2)
    while not shortest.is_over() and len(shortest.deals) <= 12:
        acts = shortest.legal_actions()
        shortest.apply(acts[rng.randrange(len(acts))])
    assert shortest.is_over(), (vid, lengths[-1], len(shortest.deals))


def test_the_core_game_and_its_capabilities() -> None:
    """``Game`` holds what every game answers; what only some have comes with a mixin, and a
    game inherits it exactly when its flag says so (the deal asks those hooks by the flag)."""
    from tute.games.base import AuctionRules, IndividualScore, StockDraw

    core = {n for n, v in vars(Game).items() if callable(v)}
    assert not core & (set(vars(AuctionRules)) | set(vars(StockDraw)))
    for vid in tute.VARIANTS:
        game = game_for(vid)
        assert isinstance(game, AuctionRules) == game.auction, vid
        assert isinstance(game, StockDraw) == game.stock, vid
        assert not hasattr(game, "__dict__"), vid
    assert isinstance(game_for("tute_cabron"), IndividualScore)
    assert not isinstance(game_for("tute_parejas"), AuctionRules | StockDraw | IndividualScore)
