"""Variants of the Tute family and their option flags (rules.md §9).

Every flag of the rule book is a field of :class:`Options`; each :class:`Variant` carries its
own defaults and the subset of flags that mean something for it. Validation errors name the
bad option and list what is valid.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from .cards import DECK_36, DECK_40, GUINOTE, TUTE, RankOrder
from .errors import InvalidOptionError, UnknownVariantError

__all__ = [
    "OPTION_SPECS",
    "VARIANTS",
    "OptionSpec",
    "Options",
    "Variant",
    "find_variant",
    "resolve_options",
]


# The most points one deal can give (120 in cards + 10 for the last trick + a 40 and three 20s):
# no bid above it can be made, so bid-valued options stop there (games.subastado.MAX_BID).
MOST_POINTS: Final = 230
# A partnership match: a series of 1..100 deals or a race to 1..50 games (rules.md §2.8 speaks
# of 6 or 8 deals and races to 3..12); a bound keeps every match, bots' included, finite.
MATCH_RANGES: Final[dict[str, tuple[int, int]]] = {"deals": (1, 100), "games": (1, 50)}
_QUOTE_MAX: Final = 60  # characters of a bad value quoted in an error message


def _short(value: Any) -> str:
    """``repr(value)``, cut to a short prefix: a huge bad value is not echoed back whole."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int past str()'s digit limit, a deep nesting
        text = f"<{type(value).__name__}>"
    return text if len(text) <= _QUOTE_MAX else text[:_QUOTE_MAX] + "…"


@dataclass(frozen=True)
class OptionSpec:
    """The domain of one flag: ``choices`` for enumerations, or a kind (bool, int, match).

    Integer options accept ``minimum..maximum`` only: an unbounded count or target (a match of
    10**30 deals) would make games, bots' games included, that never end.
    """

    name: str
    kind: str  # "choice" | "bool" | "int" | "int_or_null" | "match"
    choices: tuple[Any, ...] = ()
    minimum: int = 0
    maximum: int = 0
    doc: str = ""

    def describe(self) -> str:
        if self.kind == "choice":
            return " | ".join("null" if c is None else str(c) for c in self.choices)
        if self.kind == "bool":
            return "true | false"
        if self.kind == "int":
            return f"an integer {self.minimum}..{self.maximum}"
        if self.kind == "int_or_null":
            return f"null or an integer {self.minimum}..{self.maximum}"
        (d0, d1), (g0, g1) = MATCH_RANGES["deals"], MATCH_RANGES["games"]
        return (f'{{"mode": "series", "deals": {d0}..{d1}}} | '
                f'{{"mode": "race", "games": {g0}..{g1}}}')

    def ranges(self) -> dict[str, tuple[int, int]]:
        """The integer ranges of this option, by name (``match.deals``, ``match.games``)."""
        if self.kind in ("int", "int_or_null"):
            return {self.name: (self.minimum, self.maximum)}
        if self.kind == "match":
            return {f"{self.name}.{k}": r for k, r in MATCH_RANGES.items()}
        return {}

    def validate(self, value: Any, variant_id: str) -> Any:
        def bad(why: str) -> InvalidOptionError:
            return InvalidOptionError(
                f"invalid value {_short(value)} for option {self.name!r} of {variant_id}: "
                f"{why}; valid values: {self.describe()}"
            )

        def integer(raw: Any, what: str, lo: int, hi: int) -> int:
            # integers and their decimal strings only: no bools, no floats (1e30, 2.5)
            if isinstance(raw, str):
                try:
                    raw = int(raw)
                except ValueError:
                    raise bad(f"{what}expected an integer") from None
            if isinstance(raw, bool) or not isinstance(raw, int):
                raise bad(f"{what}expected an integer")
            if not lo <= raw <= hi:
                raise bad(f"{what}out of range {lo}..{hi}")
            return raw

        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower() == "true"
            raise bad("expected a boolean")
        if self.kind == "choice":
            for c in self.choices:
                if value == c and type(value) is type(c):
                    return c
                if isinstance(c, int) and isinstance(value, str) and value == str(c):
                    return c
                if c is None and value in ("null", "none", "off"):
                    return None
            raise bad("not one of the choices")
        if self.kind in ("int", "int_or_null"):
            if value is None or value in ("null", "none", "off"):
                if self.kind == "int_or_null":
                    return None
                raise bad("expected an integer")
            return integer(value, "", self.minimum, self.maximum)
        # match
        spec = value
        if isinstance(value, str):  # "series:6" / "race:3"
            text_mode, _, count = value.partition(":")
            spec = {"mode": text_mode,
                    ("deals" if text_mode == "series" else "games"): count or 0}
        if not isinstance(spec, Mapping):
            raise bad("expected an object")
        mode = spec.get("mode")
        key = {"series": "deals", "race": "games"}.get(mode) if isinstance(mode, str) else None
        if key is None or not isinstance(mode, str):
            raise bad("'mode' must be 'series' or 'race'")
        if set(spec) - {"mode", key}:
            raise bad(f"unexpected keys {_short(sorted(map(str, set(spec) - {'mode', key})))}")
        return MatchSpec(mode, integer(spec.get(key), f"{key!r}: ", *MATCH_RANGES[key]))


@dataclass(frozen=True)
class MatchSpec:
    """How a partnership match ends: a series of ``n`` deals, or a race to ``n`` games."""

    mode: str  # "series" | "race"
    n: int

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "deals" if self.mode == "series" else "games": self.n}


def _c(name: str, *choices: Any, doc: str = "") -> OptionSpec:
    return OptionSpec(name, "choice", tuple(choices), doc=doc)


def _b(name: str, doc: str = "") -> OptionSpec:
    return OptionSpec(name, "bool", doc=doc)


def _i(name: str, minimum: int, maximum: int, doc: str = "", null: bool = False) -> OptionSpec:
    return OptionSpec(name, "int_or_null" if null else "int", minimum=minimum, maximum=maximum,
                      doc=doc)


OPTION_SPECS: Final[dict[str, OptionSpec]] = {s.name: s for s in [
    _b("partner_exemption", "need not beat a partner who holds the trick (Guiñote)"),
    _b("must_undertrump", "void, cannot overtrump: must still play a trump"),
    _b("must_head_after_ruff", "after a ruff, following players must still head the led suit"),
    _c("stock_phase_rule", "free", "follow_trump_lead", "follow_suit", "full",
       doc="play duties while the stock lasts"),
    _c("hand_size", 6, 7, 8, doc="cards per hand in the stock games"),
    _c("cante_by", "trick_winner", "winning_side_one", "winning_side_each",
       doc="who may declare after a trick"),
    _c("forty_first", "enforce", "forfeit", "off", doc="the 40 before any 20"),
    _c("cante_restriction", "none", "forfeit_if_skipped_first", "first_win_only",
       doc="declarations tied to the side's first won trick"),
    _b("cante_before_draw", "two-player: declare before drawing"),
    _b("tute_enabled", "four kings / four knights may be declared"),
    _c("tute_award", "deal", "two_games", "match", "partida", doc="what a tute wins"),
    _b("tute_dealt_wins_immediately", "a tute held from the deal wins without play"),
    _c("exchange_timing", "after_winning_before_draw", "start_and_after_win", "own_turn_any",
       doc="when the upcard may be exchanged"),
    _b("exchange_last_round_allowed", "exchange allowed in the last draw round"),
    _b("exchange_two_enabled", "the 2 of trumps may take a low upcard"),
    _b("two_exchanges_four", "the 2 may take a 4"),
    _b("exchange_mandatory", "the 7/2 exchanges are compulsory (3 players)"),
    _c("exchange_side_requirement", "won_this_trick", "any_trick_won",
       doc="who may exchange in Guiñote"),
    _c("tie_break", "last_trick", "mano_side", "replay", doc="equal totals"),
    _c("two_games_threshold", None, 101, 121, doc="total that wins two games (or goes out)"),
    _c("two_games_rule", "total", "rs", doc="rs: 101 only without cantes, else 121"),
    OptionSpec("match", "match", doc="partnership match: series of N deals or race to N games"),
    _c("scoring_2p", "target_101", "per_deal", doc="two-player scoring"),
    _c("both_over", "highest", "last_trick", doc="both sides reach 101"),
    _c("vueltas_claim", "auto", "manual", "end_of_deal", doc="reaching 101 in vueltas"),
    _i("games_to_win", 1, 50, "two-player match length"),
    _c("scoring_3p", "losses", "winner_per_deal", "payments", doc="three-player scoring"),
    _i("loss_limit", 1, 50, "lost games that end the match"),
    _c("multi_over", "highest", "last_trick", doc="several players reach the threshold"),
    _c("seats", 3, 4, doc="subastado: people at the table (with 4 the dealer sits out)"),
    _c("players", 3, 4, doc="players in an individual game"),
    _b("widow_card", "subastado with 40 cards and a widow card"),
    _i("min_bid", 0, MOST_POINTS, "lowest opening bid"),
    _i("bid_step", 1, 50, "bids are multiples of this"),
    _c("auction_rounds", "single", "open", doc="each speaks once, or until all but one pass"),
    _c("all_pass", "redeal", "mano_forced", doc="everybody passes"),
    _b("dealer_takeover", "the idle dealer may take over the top bid"),
    _i("takeover_increment", 0, 50, "what the takeover adds to the bid"),
    _i("double_at_bid", 0, MOST_POINTS, "bids from this value double the stake"),
    _b("declarer_leads", "the declarer leads the first trick"),
    _b("cantes_declarer_only", "only the declarer's cantes count"),
    _c("settlement", "payments", "points", doc="subastado settlement"),
    _i("match_target", 1, 5000, "subastado: balance that wins the match"),
    _i("match_deals", 1, 200, "subastado: number of deals in the match", null=True),
    _i("partidas_per_coto", 1, 10, "Guiñote partidas per coto"),
    _i("cotos_to_win", 1, 10, "Guiñote cotos per match"),
    _b("thirty_malas", "Guiñote: cantes count only with 30 card points"),
    _b("guinote_hide_arrastre_suit",
       "Guiñote, presentation only: the suit of a 20 sung in the arrastre is told to its "
       "singer alone"),
    _c("next_dealer", "rotate", "last_trick_winner", doc="who deals next"),
    _c("first_dealer", "random", "first_king", "two_of_oros_mano", doc="who deals first"),
    _i("deal_packet", 1, 13, "cards per packet when dealing"),
    _b("reshuffle", "shuffle before every deal"),
    _c("renuncio_mode", "prevent", "claim", doc="illegal plays prevented, or claimed"),
    _c("renuncio_penalty", "lose_deal", "two_games_swing", doc="penalty for a proven revoke"),
    _i("weak_hand_max_points", 0, 30, "a hand worth at most this may be thrown in", null=True),
    _i("misdeal_passes_after", 1, 10, "consecutive misdeals before the deal passes on",
       null=True),
    _c("capote_award", None, doc="no source gives a capote bonus"),
    _c("last_trick_bonus", 10, 0, doc="points for taking the last trick"),
    _b("cantes_enabled", "20s and 40s may be declared"),
    _i("gp_out_threshold", 1, MOST_POINTS, "gana-pierde: a total that goes out (wins)"),
    _c("gp_tie_high", "all", "nobody", doc="gana-pierde: a tie for the highest total"),
    _c("cabron_middle", "levels", "positions",
       doc="cabrón: who is in the middle (rules.md §7.1; positions: the reading of records "
           "of version 1)"),
    _c("cabrero_loser", "second", "middle", doc="cabrero: who loses on points"),
    _c("cabrero_no_base", "safe", "ranked", doc="cabrero: a player who took no trick"),
    _c("cabrero_tute_award", "others_lose_one", "others_out", "others_lose_n", "none",
       doc="cabrero: what a tute costs the others"),
    _i("cabrero_tute_porotos", 1, 50, "cabrero: porotos each with others_lose_n"),
    _c("cabrero_trump", "last_card", "rotation", doc="cabrero: how trumps are named"),
    _c("cabrero_three_deck", "table_card", "remove_trump_two",
       doc="cabrero with 3 active: the 40th card"),
    _c("cabrero_dealer_sits_out_from", 6, 5, None,
       doc="cabrero: the dealer sits out with this many at the table"),
    _c("cabrero_match_end", "first_out", "elimination",
       doc="cabrero: stop at the first player out, or retire and play on"),
    _b("cabrero_no_cargar", "cabrero: a player who cannot win the trick plays his lowest"),
]}


@dataclass(frozen=True)
class Options:
    """Every option flag of rules.md §9, with the rule book's general defaults."""

    partner_exemption: bool = False
    must_undertrump: bool = False
    must_head_after_ruff: bool = False
    stock_phase_rule: str = "full"
    hand_size: int = 10
    cante_by: str = "trick_winner"
    forty_first: str = "enforce"
    cante_restriction: str = "none"
    cante_before_draw: bool = False
    tute_enabled: bool = True
    tute_award: str = "deal"
    tute_dealt_wins_immediately: bool = False
    exchange_timing: str = "after_winning_before_draw"
    exchange_last_round_allowed: bool = False
    exchange_two_enabled: bool = True
    two_exchanges_four: bool = True
    exchange_mandatory: bool = False
    exchange_side_requirement: str = "won_this_trick"
    tie_break: str = "last_trick"
    two_games_threshold: int | None = None
    two_games_rule: str = "total"
    match: MatchSpec = field(default_factory=lambda: MatchSpec("series", 6))
    scoring_2p: str = "target_101"
    both_over: str = "highest"
    vueltas_claim: str = "auto"
    games_to_win: int = 3
    scoring_3p: str = "losses"
    loss_limit: int = 10
    multi_over: str = "highest"
    seats: int = 3
    players: int = 4
    widow_card: bool = False
    min_bid: int = 60
    bid_step: int = 5
    auction_rounds: str = "single"
    all_pass: str = "redeal"
    dealer_takeover: bool = True
    takeover_increment: int = 10
    double_at_bid: int = 120
    declarer_leads: bool = False
    cantes_declarer_only: bool = True
    settlement: str = "payments"
    match_target: int = 500
    match_deals: int | None = None
    partidas_per_coto: int = 3
    cotos_to_win: int = 2
    thirty_malas: bool = False
    guinote_hide_arrastre_suit: bool = False
    next_dealer: str = "rotate"
    first_dealer: str = "random"
    deal_packet: int = 1
    reshuffle: bool = True
    renuncio_mode: str = "prevent"
    renuncio_penalty: str = "lose_deal"
    weak_hand_max_points: int | None = None
    misdeal_passes_after: int | None = None
    capote_award: None = None
    last_trick_bonus: int = 10
    cantes_enabled: bool = True
    gp_out_threshold: int = 101
    gp_tie_high: str = "all"
    cabron_middle: str = "levels"
    cabrero_loser: str = "second"
    cabrero_no_base: str = "safe"
    cabrero_tute_award: str = "others_lose_one"
    cabrero_tute_porotos: int = 2
    cabrero_trump: str = "last_card"
    cabrero_three_deck: str = "table_card"
    cabrero_dealer_sits_out_from: int | None = 6
    cabrero_match_end: str = "first_out"
    cabrero_no_cargar: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.to_json() if isinstance(v, MatchSpec) else v
        return out

    def get(self, name: str) -> Any:
        return getattr(self, name)


_COMMON: Final = (
    "must_undertrump", "must_head_after_ruff", "cante_by", "forty_first", "cante_restriction",
    "tute_enabled", "tute_award", "tute_dealt_wins_immediately", "tie_break", "next_dealer",
    "first_dealer", "deal_packet", "reshuffle", "renuncio_mode", "renuncio_penalty",
    "weak_hand_max_points", "misdeal_passes_after", "capote_award",
)
_STOCK: Final = (
    "stock_phase_rule", "hand_size", "cante_before_draw", "exchange_timing",
    "exchange_last_round_allowed", "exchange_two_enabled", "two_exchanges_four",
    "exchange_mandatory", "both_over", "vueltas_claim",
)


@dataclass(frozen=True)
class Variant:
    """One game of the family: its table, pack, rank order, applicable flags and defaults.

    What the game does with them lives in its module under :mod:`tute.games`
    (``tute.games.game_for(variant)``).
    """

    id: str
    name: str
    english: str
    players: int
    partnerships: bool
    deck: int
    order: RankOrder
    hand_size: int
    stock: bool
    option_names: tuple[str, ...]
    defaults: Options
    aliases: tuple[str, ...] = ()
    summary: str = ""
    #: this game's own domain of a shared flag (gana-pierde's ``players`` 3..5)
    overrides: tuple[OptionSpec, ...] = ()

    def __str__(self) -> str:
        return self.id

    def spec(self, name: str) -> OptionSpec:
        """The domain of option ``name`` in this game (its override, else the shared one)."""
        for o in self.overrides:
            if o.name == name:
                return o
        return OPTION_SPECS[name]

    @property
    def family(self) -> str:
        return self.order.name

    def resolve(self, options: Mapping[str, Any] | Options | None = None) -> Options:
        return resolve_options(self, options)

    def _game(self) -> Table:
        game = GAMES[self.id]
        return game if game.variant is self else GAME_CLASSES[self.id](self)

    def layout(self, options: Options | None = None) -> tuple[int, int]:
        """The pack (a card mask) and the cards dealt to each player under ``options``."""
        return self._game().layout(options or self.defaults)

    def sides(self, options: Options | None = None) -> int:
        """Number of scoring sides (2 in partnership and two-player games)."""
        return self._game().sides(options or self.defaults)

    def seat_count(self, options: Options | None = None) -> int:
        return self._game().seat_count(options or self.defaults)

    def side_of(self, seat: int, options: Options | None = None) -> int:
        return self._game().side_of(seat)


def check_json_types(variant: Variant, options: Mapping[str, Any]) -> None:
    """Refuse a JSON value of another type than its option's: a string where a number, a
    boolean or null is due ("3", "true", "off"). The text forms are for the command line,
    where every value is text; JSON says what it means."""
    for name, value in options.items():
        if not isinstance(value, str) or name not in variant.option_names:
            continue  # unknown names are refused by resolve_options, with the valid ones
        spec = variant.spec(name)
        if spec.kind == "choice" and value in [c for c in spec.choices if isinstance(c, str)]:
            continue
        raise InvalidOptionError(
            f"invalid value {_short(value)} for option {name!r} of {variant.id}: a string, "
            f"not {_json_kind(spec)}; valid values: {spec.describe()}")


def _json_kind(spec: OptionSpec) -> str:
    if spec.kind == "bool":
        return "true or false"
    if spec.kind in ("int", "int_or_null"):
        return "a number" + (" or null" if spec.kind == "int_or_null" else "")
    return "one of the choices as JSON values"


def resolve_options(variant: Variant, options: Mapping[str, Any] | Options | None) -> Options:
    """Validate ``options`` against ``variant`` and merge them over its defaults."""
    if options is None:
        return variant.defaults
    if isinstance(options, Options):
        return options
    if not isinstance(options, Mapping):
        raise InvalidOptionError(
            f"options for {variant.id} must be an object, got {_short(options)}")
    changes: dict[str, Any] = {}
    for name, value in options.items():
        spec = OPTION_SPECS.get(name)
        if spec is not None and name in variant.option_names:
            spec = variant.spec(name)
        if spec is None or name not in variant.option_names:
            what = "unknown option" if spec is None else "option that does not apply to this game:"
            raise InvalidOptionError(
                f"{what} {_short(name)} for {variant.id}; valid options: "
                + ", ".join(sorted(variant.option_names))
            )
        changes[name] = spec.validate(value, variant.id)
    opts = dataclasses.replace(variant.defaults, **changes)
    _check_combination(variant, opts)
    if variant.id in GAME_CLASSES:  # the game refuses what it does not play (yet)
        opts = variant._game().check_options(opts)
    return opts


def _check_combination(variant: Variant, opts: Options) -> None:
    if opts.two_games_rule == "rs" and opts.two_games_threshold is None and (
        variant.id == "tute_parejas"
    ):
        raise InvalidOptionError(
            "option 'two_games_rule'='rs' needs 'two_games_threshold' (101 or 121) for tute_parejas"
        )
    if variant.stock and opts.deal_packet > opts.hand_size:
        raise InvalidOptionError(
            f"invalid value {opts.deal_packet!r} for option 'deal_packet' of {variant.id}: "
            f"larger than the hand size {opts.hand_size}"
        )
    if not variant.stock and opts.deal_packet > variant.hand_size:
        raise InvalidOptionError(
            f"invalid value {opts.deal_packet!r} for option 'deal_packet' of {variant.id}: "
            f"larger than the hand size {variant.hand_size}"
        )
    turned = variant.id == "tute_parejas" or (
        variant.id == "tute_arrastrado_3p" and opts.players == 4)
    if opts.first_dealer == "two_of_oros_mano" and not turned:
        raise InvalidOptionError(
            f"invalid value 'two_of_oros_mano' for option 'first_dealer' of {variant.id}: it "
            "needs a game whose trump is turned from the dealer's hand (tute_parejas, "
            "tute_arrastrado_3p with players=4); valid values here: random | first_king"
        )
    if opts.min_bid % opts.bid_step:
        raise InvalidOptionError(
            f"invalid value {opts.min_bid!r} for option 'min_bid' of {variant.id}: "
            f"not a multiple of bid_step {opts.bid_step}"
        )


def _variant(id: str, name: str, english: str, *, table: int, partnerships: bool,
             deck: int = DECK_40, order: RankOrder = TUTE, hand_size: int, stock: bool = False,
             extra: tuple[str, ...] = (), aliases: tuple[str, ...] = (),
             summary: str = "", overrides: tuple[OptionSpec, ...] = (),
             **defaults: Any) -> Variant:
    names = tuple(dict.fromkeys(_COMMON + extra))
    opts = dataclasses.replace(Options(), hand_size=hand_size, **defaults)
    return Variant(id, name, english, table, partnerships, deck, order, hand_size, stock,
                   names, opts, aliases, summary, overrides)


VARIANTS: Final[dict[str, Variant]] = {v.id: v for v in [
    _variant(
        "tute_parejas", "Tute por parejas", "Partnership Tute", table=4, partnerships=True,
        hand_size=10,
        extra=("partner_exemption", "two_games_threshold", "two_games_rule", "match"),
        aliases=("parejas", "tute", "tute_4p", "tute_por_parejas", "pairs"),
        summary="4 players in two pairs, 10 cards each, trump turned from the dealer's last card",
    ),
    _variant(
        "tute_2p_habanero", "Tute habanero", "Two-player Tute (habanero)", table=2,
        partnerships=False, hand_size=8, stock=True,
        extra=(*_STOCK, "scoring_2p", "games_to_win"),
        aliases=("habanero", "tute_habanero", "tute_2p", "2p"),
        summary="2 players, 8 cards and a stock; a trump lead must be answered with a trump",
        stock_phase_rule="follow_trump_lead", two_exchanges_four=True,
    ),
    _variant(
        "tute_2p_corriente", "Tute corriente (dos jugadores)", "Two-player Tute (corriente)",
        table=2, partnerships=False, hand_size=6, stock=True,
        extra=(*_STOCK, "scoring_2p", "games_to_win"),
        aliases=("corriente", "tute_corriente"),
        summary="2 players, 6 cards and a stock; free play while the stock lasts",
        stock_phase_rule="free", two_exchanges_four=True,
    ),
    _variant(
        "tute_arrastrado_3p", "Tute arrastrado (tres jugadores)", "Three-player Tute (arrastrado)",
        table=3, partnerships=False, hand_size=13,
        extra=("two_games_threshold", "two_exchanges_four", "exchange_mandatory", "scoring_3p",
               "loss_limit", "multi_over", "players", "match_target", "match_deals",
               "games_to_win"),
        aliases=("arrastrado", "tute_arrastrado", "tute_3p", "3p", "tute_de_arrastre"),
        summary="3 players, 13 cards each, table card exchanged for the 7 and 2, lost games",
        two_games_threshold=101, two_exchanges_four=False, exchange_mandatory=True, players=3,
    ),
    _variant(
        "tute_subastado", "Tute subastado", "Auction Tute", table=3, partnerships=False,
        deck=DECK_36, hand_size=12,
        extra=("seats", "widow_card", "min_bid", "bid_step", "auction_rounds", "all_pass",
               "dealer_takeover", "takeover_increment", "double_at_bid", "declarer_leads",
               "cantes_declarer_only", "settlement", "match_target", "match_deals"),
        aliases=("subastado", "tute_de_remate", "remate", "auction"),
        summary="3 players (4 with an idle dealer), 36 cards, an auction; the declarer names "
        "trumps",
        tute_enabled=False, players=3,
    ),
    _variant(
        "guinote", "Guiñote", "Guiñote", table=4, partnerships=True, order=GUINOTE,
        hand_size=6, stock=True,
        extra=(*_STOCK, "partner_exemption", "exchange_side_requirement", "partidas_per_coto",
               "cotos_to_win", "thirty_malas", "guinote_hide_arrastre_suit"),
        aliases=("guiñote", "guinote_4p", "guiñote_4p"),
        summary="Aragón's game: 4 players in pairs, 6 cards, stock then arrastre, 101 points",
        partner_exemption=True, stock_phase_rule="free", cante_by="winning_side_each",
        tute_award="partida", both_over="last_trick", deal_packet=3, two_exchanges_four=True,
    ),
    _variant(
        "guinote_2p", "Guiñote para dos", "Two-player Guiñote", table=2, partnerships=False,
        order=GUINOTE, hand_size=6, stock=True,
        extra=(*_STOCK, "exchange_side_requirement", "partidas_per_coto", "cotos_to_win",
               "thirty_malas", "guinote_hide_arrastre_suit"),
        aliases=("guiñote_2p", "guinote_dos"),
        summary="Guiñote one against one: 6 cards, 14 stock tricks then 6 in arrastre",
        stock_phase_rule="free", tute_award="partida", both_over="last_trick", deal_packet=3,
        two_exchanges_four=True,
    ),
    _variant(
        "tute_cabron", "Tute cabrón", "Tute cabrón", table=3, partnerships=False,
        deck=DECK_36, hand_size=12,
        extra=("players", "loss_limit", "cabron_middle"),
        aliases=("cabron", "tute_cabrón", "cabrón", "pierde_en_medio"),
        summary="everyone for himself, no trump until a king and knight fall in one trick",
        players=3,
    ),
    _variant(
        "tute_gana_pierde", "Tute gana-pierde", "Win-lose Tute", table=4, partnerships=False,
        hand_size=10,
        extra=("players", "two_exchanges_four", "exchange_mandatory", "cantes_enabled",
               "last_trick_bonus", "gp_out_threshold", "gp_tie_high", "multi_over",
               "loss_limit"),
        aliases=("gana_pierde", "ganapierde", "tute_ganapierde", "gana-pierde"),
        summary="3 to 5 each for himself: take few points, the highest total loses a game, "
        "but 101 or more goes out and everyone else loses",
        overrides=(_c("players", 3, 4, 5, doc="players at the table"),
                   _c("tute_award", "goes_out", doc="a tute goes out (wins the deal)")),
        players=4, tute_award="goes_out", loss_limit=10, two_exchanges_four=False,
        exchange_mandatory=True,
    ),
    _variant(
        "tute_cabrero", "Tute cabrero (más y menos)", "Tute cabrero", table=4,
        partnerships=False, hand_size=10,
        extra=("players", "two_exchanges_four", "exchange_mandatory", "last_trick_bonus",
               "loss_limit", "cabrero_loser", "cabrero_no_base", "cabrero_tute_award",
               "cabrero_tute_porotos", "cabrero_trump", "cabrero_three_deck",
               "cabrero_dealer_sits_out_from", "cabrero_match_end", "cabrero_no_cargar"),
        aliases=("cabrero", "mas_y_menos", "más_y_menos", "tute_mas_y_menos"),
        summary="3 to 5 each for himself (6 with an idle dealer: not yet): the second-highest "
        "total loses a poroto; a capote or a tute costs the others",
        overrides=(_c("players", 3, 4, 5, 6, doc="players at the table"),),
        players=4, loss_limit=4, two_exchanges_four=False, exchange_mandatory=True,
    ),
]}

class Table(Protocol):
    """What the registry asks of a variant's game: its table. :mod:`tute.games` implements it
    (``tute.games.game_for`` gives the whole game)."""

    variant: Variant

    def layout(self, options: Options) -> tuple[int, int]: ...
    def seat_count(self, options: Options) -> int: ...
    def sides(self, options: Options) -> int: ...
    def side_of(self, seat: int) -> int: ...
    def check_options(self, options: Options) -> Options: ...


#: each variant's game and the game classes by variant id, filled in when :mod:`tute.games` is
#: imported (``import tute`` does): the games import this module, never the other way round
GAMES: Final[dict[str, Table]] = {}
GAME_CLASSES: Final[dict[str, Callable[[Variant], Table]]] = {}

_ALIASES: Final[dict[str, str]] = {}
for _v in VARIANTS.values():
    for _name in (_v.id, *_v.aliases):
        _ALIASES[_name] = _v.id


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.strip().lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return text.replace("-", "_").replace(" ", "_")


for _name, _id in list(_ALIASES.items()):
    _ALIASES.setdefault(_fold(_name), _id)


def find_variant(name: str | Variant) -> Variant:
    """The variant with this id or alias (any case, accents optional).

    >>> find_variant("Guiñote").id, find_variant("habanero").id
    ('guinote', 'tute_2p_habanero')
    """
    if isinstance(name, Variant):
        return name
    if not isinstance(name, str):
        raise UnknownVariantError(f"invalid variant {name!r}: expected a variant id")
    vid = _ALIASES.get(name) or _ALIASES.get(_fold(name))
    if vid is None:
        raise UnknownVariantError(
            f"unknown variant {name!r}; valid variants: " + ", ".join(VARIANTS)
        )
    return VARIANTS[vid]
