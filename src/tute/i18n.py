"""Words of the user interfaces in Spanish (the default) and English, and the one catalogue of
the engine's refusals (:class:`tute.messages.Refusal`) in both.

>>> tr("es", "your_turn")
'Te toca jugar.'
>>> from tute.messages import Refusal
>>> refusal_text("es", Refusal.of("must_follow", suit="c"))
'hay que asistir: copas'
>>> refusal_text("en", Refusal.of("must_trump", suit="c", trump="o"))
'must trump: void in copas, so a oros card'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .cards import Card, Suit, parse_card, parse_suit
from .i18n_page import PAGE, PAGE_ERRORS
from .messages import Refusal
from .variants import OPTION_SPECS

__all__ = ["LANGS", "REFUSALS", "TEXT", "card_name", "catalogue", "refusal_text", "suit_name",
           "tr"]

LANGS: Final = ("es", "en")

TEXT: Final[dict[str, dict[str, str]]] = {
    "es": {
        "title": "Tute",
        "setup_title": "Nueva partida",
        "variant": "Juego",
        "options": "Opciones (por defecto, las del reglamento)",
        "opponents": "Rivales y compañero",
        "seat_label": "Asiento {n}",
        "partner": "compañero",
        "opponent": "rival",
        "seed": "Semilla (vacío: al azar)",
        "start": "Empezar",
        "bad_option": "Opción no válida: {why}",
        "bad_seed": "La semilla debe ser un número entero no negativo.",
        "you": "Tú",
        "seat": "J{n}",
        "side_a": "Pareja A",
        "side_b": "Pareja B",
        "deal_no": "Mano {k}",
        "trump": "Triunfo: {suit} ({card})",
        "trump_plain": "Triunfo: {suit}",
        "no_trump": "Sin triunfo todavía",
        "stock": "Montón: {n} cartas",
        "upcard": "pinta {card}",
        "score": "Marcador: {score}",
        "goal": "Objetivo: {goal}",
        "points": "Puntos de esta mano: {pts}",
        "cantes": "Cantes: {list}",
        "turn_of": "Le toca a {who}.",
        "your_turn": "Te toca jugar.",
        "your_lead": "Sales tú.",
        "trick": "Baza en juego",
        "trick_empty": "(mesa vacía)",
        "last_trick": "Última baza (gana {who}, {p} puntos)",
        "previous_trick": "Baza anterior {n}: {plays} → gana {who} (+{p})",
        "no_previous": "Todavía no hay baza anterior.",
        "hand": "Tu mano",
        "actions": "Acciones",
        "legal_hint": "Cartas jugables resaltadas. Teclas: 1-9 y 0 cartas · letras acciones · "
                      "u baza anterior · g guardar · ? ayuda · q salir",
        "help": "Elige una carta con su número (1-9, 0 = la décima) o con el ratón; las "
                "acciones (cantar, cambiar, pasar) con la letra entre corchetes. Intro: "
                "continuar. u: ver la baza anterior. g: guardar la partida. q: salir.",
        "illegal": "No se puede: {why}",
        "no_card_n": "No tienes carta {n} (tienes {m}).",
        "unknown_key": "La tecla «{name}» no hace nada aquí. Pulsa ? para la ayuda.",
        "wait": "Espera: le toca a {who}.",
        "choose": "Elige una de las opciones resaltadas.",
        "new_deal": "— Mano {k} —",
        "cuarenta": "las cuarenta",
        "veinte": "las veinte en {suit}",
        "veinte_hidden": "las veinte (palo sin enseñar)",
        "tute_reyes": "tute de reyes",
        "tute_caballos": "tute de caballos",
        "tute_sotas": "tute de sotas",
        "pass": "Pasar",
        "cambio": "Cambiar {card} por la pinta",
        "bid": "Pujar {points}",
        "trump_choice": "Triunfo: {suit}",
        "discard": "Descartar {card}",
        "takeover": "Quedarse la puja (paga doble)",
        "throw": "Tirar la mano (mano floja)",
        "claim": "Reclamar renuncio",
        "stop": "Cerrar: tengo 101",
        "cantar": "Cantar {what}",
        "deal_over": "Fin de la mano {k}",
        "continue": "Continuar (Intro)",
        "match_over": "Fin de la partida",
        "match_winner": "Gana la partida: {who}",
        "match_none": "La partida termina sin ganador.",
        "saved": "Partida guardada en {path}",
        "save_failed": "No se pudo guardar: {why}",
        "load_failed": "No se pudo cargar la partida: {why}",
        "replay_title": "Repetición de {path}",
        "replay_step": "Paso {k} de {n} · Intro/→ avanzar · ← retroceder · q salir",
        "replay_end": "Fin del registro.",
        "quit": "Salir",
        "you_side": "(tu lado)",
        "bot_level": "{name}",
        # the terminal game: deals, auctions and scores of every game (tui/session.py)
        "deal_of": "Mano {k} de {n}",
        "deal_extra": "Mano {k} (desempate)",
        "dealer": "reparte: {who}",
        "goal_games": "a {n} juegos",
        "goal_series": "serie de {n} manos",
        "goal_cotos": "{p} partidas el coto, gana quien haga {c} cotos",
        "goal_losses": "hasta que alguien pierda {n} juegos; gana quien menos haya perdido",
        "goal_deals_balance": "{n} manos; gana el mejor saldo",
        # the same with every number 1 (plural rules: "a 1 juegos" is no Spanish)
        "goal_games_one": "a un juego",
        "goal_series_one": "una sola mano",
        "goal_cotos_one": "una partida el coto, gana quien haga un coto",
        "goal_losses_one": "hasta el primer juego perdido: quien lo pierda, pierde la partida",
        "goal_deals_balance_one": "una sola mano; gana el mejor saldo",
        "goal_balance": "gana quien llegue a {n} de saldo",
        "score_cotos": "Partidas: {score} · cotos {cotos}",
        "score_losses": "Juegos perdidos: {score}",
        "score_balance": "Saldo: {score}",
        "side_a_short": "A",
        "side_b_short": "B",
        "carry": "De vueltas, se traen: {pts}",
        "table_card": "En la mesa: {card} (no se juega)",
        "exchanges_line": "Cambios: {list}",
        "auction_none": "Subasta: nadie ha pujado",
        "auction_bid": "Subasta: {who} puja {points}",
        "contract": "Contrato: {who} a {bid}",
        "contract_taken": " (el que reparte se queda las cartas: paga doble)",
        "sitting_out": "Descansas esta mano: repartes tú.",
        "card_pending": "Carta {d}…: pulsa otra cifra para la {d}0–{hi}, o Intro para la {d}.",
        "page": "Acciones {a}–{b} de {n} (página {p} de {pages}) · < > o RePág/AvPág: más",
        "no_pages": "No hay más acciones que ver.",
        "running": "Con las de antes: {pts}",
        "made": "cumplido",
        "failed": "fallado",
        "sheet_title": "Anotador · {game}",
        "sheet_now": "En juego: {deal}",
        "sheet_deal": "Mano",
        "sheet_note": "Anotación",
        "sheet_empty": "Todavía no ha terminado ninguna mano.",
        "sheet_close": "a, Esc o Intro: volver a la mesa",
        "tally_cotos": "{g} (cotos {c})",
        "note_win": "gana {who}",
        "note_lose": "pierde: {who}",
        "note_contract": "{who} a {bid}: {verdict}",
        "note_replay": "se repite",
        "note_vueltas": "de vueltas",
        "note_tute": "¡tute!",
        "note_void": "anulada",
        # the terminal game: keys, help and leaving (tui/app.py)
        "setup_keys": (
            "Tab y Mayús+Tab: de campo en campo · flechas, rueda o AvPág: desplazar la página · "
            "Intro: elegir"
        ),
        "hint_keys": (
            "Cartas: su número · acciones: su letra · a anotador · u baza anterior · g guardar · "
            "! ¿qué jugarías? · ? ayuda · q salir"
        ),
        "help_title": "Ayuda: las teclas de la mesa",
        "help_keys": (
            "Cartas: la cifra que llevan delante, 1-9 y 0 para la décima. Con más de diez cartas "
            "(arrastrado, cabrón, subastado) se teclea el número: 1 y 2 es la 12.ª, 1 e Intro la "
            "primera. También con el ratón.\n"
            "Descartarse (subastado con carta de viuda): la carta, igual que al jugarla.\n"
            "Acciones (cantar, cambiar, pujar, elegir triunfo): la letra entre corchetes; p es "
            "siempre pasar. Si no caben todas (las pujas de la subasta), van por páginas: < y > o "
            "RePág y AvPág.\n"
            "Intro: continuar tras el final de una mano, o la única jugada posible.\n"
            "a: el anotador (mano a mano, los totales y el objetivo). u: ver la baza anterior. g: "
            "guardar la partida (se sigue con tute play --load FICHERO). q o Esc: salir, "
            "preguntando antes.\n"
            "!: ¿qué jugarías? La jugada que elegiría el bot de búsqueda (pimc) con lo que tú "
            "sabes (nunca mira otras manos) y por qué; tarda unos segundos.\n"
            "Al acabar cada mano: las tres decisiones más caras de cada pareja o jugador, con "
            "todas las cartas a la vista."
        ),
        "help_close": "Cualquier tecla: volver a la mesa",
        "quit_title": "¿Dejar la partida?",
        "quit_body": "Lo que no esté guardado se pierde.",
        "quit_yes": "s: salir",
        "quit_save": "g: guardar y salir",
        "quit_no": "n: seguir jugando",
        # the line-by-line game (tute play --plain, cli.py)
        "plain_title": "{game} (semilla {seed}). Eres {you} ({seat}). Escribe ? para la ayuda.",
        "plain_loaded": "Partida cargada de {path}: se sigue en la mano {k}.",
        "record_rules": "Registro de la versión {version}: se juega con {rules}, la regla "
                        "de cuando se escribió.",
        "plain_help": "g: guardar la partida (se sigue con --load). En la subasta, una puja se "
                      "escribe con su número (65) o como bid:65.",
        "plain_replay_prompt": "Intro: avanzar · -: atrás · q: salir> ",
        "plain_hint": "!: ¿qué jugarías? (la jugada del bot de búsqueda con lo que tú sabes).",
        # hints and the end-of-deal review (tute.hints, tute.analysis)
        "hint_thinking": "Pensando qué jugarías…",
        "hint_turn": "La pista es para tu turno.",
        "hint_line": "¿Qué jugarías? {action}. {why}",
        "review_title": "Lo más caro de la mano, con todas las cartas a la vista (puntos de "
                        "diferencia perdidos):",
        "review_side": "{side}: {list}",
        "review_item": "baza {trick}, {who}{played} (mejor {best}, −{loss})",
        "review_clean": "{side}: ni un punto perdido",
        "review_uncovered": "El análisis exacto no llega a las jugadas de esta mano.",
        "review_wait": "Revisando la mano…",
        "review_failed": "No se pudo revisar la mano: {why}",
        # --- the auction typed as numbers; the analyser's first start (hooks branch)
        "bid_typed": "Puja: {points} · Intro para pujar",
        "bid_confirm": "¿Pujar {points}? La mínima es {minimum}. Intro confirma; otra tecla "
                       "la deja.",
        "bid_cancelled": "Puja sin hacer.",
        "solver_preparing": "Preparando el analizador… (la primera vez tarda un poco)",
        "help_bids": "Pujas: también con su cifra (7, 0 e Intro puja 70; Retroceso borra). Una "
                     "puja por encima de la mínima se confirma con Intro.",
    },
    "en": {
        "title": "Tute",
        "setup_title": "New match",
        "variant": "Game",
        "options": "Options (defaults from the rule book)",
        "opponents": "Opponents and partner",
        "seat_label": "Seat {n}",
        "partner": "partner",
        "opponent": "opponent",
        "seed": "Seed (empty: random)",
        "start": "Start",
        "bad_option": "Invalid option: {why}",
        "bad_seed": "The seed must be a non-negative integer.",
        "you": "You",
        "seat": "P{n}",
        "side_a": "Side A",
        "side_b": "Side B",
        "deal_no": "Deal {k}",
        "trump": "Trumps: {suit} ({card})",
        "trump_plain": "Trumps: {suit}",
        "no_trump": "No trumps yet",
        "stock": "Stock: {n} cards",
        "upcard": "upcard {card}",
        "score": "Score: {score}",
        "goal": "Goal: {goal}",
        "points": "Points this deal: {pts}",
        "cantes": "Declarations: {list}",
        "turn_of": "{who} to play.",
        "your_turn": "Your turn.",
        "your_lead": "Your lead.",
        "trick": "Trick in play",
        "trick_empty": "(empty table)",
        "last_trick": "Last trick ({who} won, {p} points)",
        "previous_trick": "Previous trick {n}: {plays} → {who} wins (+{p})",
        "no_previous": "There is no previous trick yet.",
        "hand": "Your hand",
        "actions": "Actions",
        "legal_hint": "Playable cards are highlighted. Keys: 1-9 and 0 cards · letters actions · "
                      "u previous trick · g save · ? help · q quit",
        "help": "Pick a card by its number (1-9, 0 = the tenth) or with the mouse; actions "
                "(declare, exchange, pass) with the letter in brackets. Enter: continue. "
                "u: show the previous trick. g: save the match. q: quit.",
        "illegal": "Not allowed: {why}",
        "no_card_n": "You have no card {n} (you hold {m}).",
        "unknown_key": "The key '{name}' does nothing here. Press ? for help.",
        "wait": "Wait: it is {who}'s turn.",
        "choose": "Choose one of the highlighted options.",
        "new_deal": "— Deal {k} —",
        "cuarenta": "the forty (trump marriage)",
        "veinte": "twenty in {suit}",
        "veinte_hidden": "twenty (suit not shown)",
        "tute_reyes": "tute of kings",
        "tute_caballos": "tute of knights",
        "tute_sotas": "tute of knaves",
        "pass": "Pass",
        "cambio": "Exchange {card} for the upcard",
        "bid": "Bid {points}",
        "trump_choice": "Trumps: {suit}",
        "discard": "Discard {card}",
        "takeover": "Take over the bid (double stakes)",
        "throw": "Throw in the hand (weak hand)",
        "claim": "Claim a renuncio",
        "stop": "Stop: I have 101",
        "cantar": "Declare {what}",
        "deal_over": "End of deal {k}",
        "continue": "Continue (Enter)",
        "match_over": "End of the match",
        "match_winner": "Match won by: {who}",
        "match_none": "The match ends without a winner.",
        "saved": "Match saved to {path}",
        "save_failed": "Could not save: {why}",
        "load_failed": "Could not load the match: {why}",
        "replay_title": "Replay of {path}",
        "replay_step": "Step {k} of {n} · Enter/→ forward · ← back · q quit",
        "replay_end": "End of the record.",
        "quit": "Quit",
        "you_side": "(your side)",
        "bot_level": "{name}",
        # the terminal game: deals, auctions and scores of every game (tui/session.py)
        "deal_of": "Deal {k} of {n}",
        "deal_extra": "Deal {k} (tie-break)",
        "dealer": "dealer: {who}",
        "goal_games": "first to {n} games",
        "goal_series": "series of {n} deals",
        "goal_cotos": "{p} partidas per coto, first to {c} cotos",
        "goal_losses": "until someone loses {n} games; fewest losses wins",
        "goal_deals_balance": "{n} deals; highest balance wins",
        "goal_games_one": "first to one game",
        "goal_series_one": "a single deal",
        "goal_cotos_one": "one partida per coto, first to one coto",
        "goal_losses_one": "until the first game lost: whoever loses it loses the match",
        "goal_deals_balance_one": "a single deal; highest balance wins",
        "goal_balance": "first balance to {n}",
        "score_cotos": "Partidas: {score} · cotos {cotos}",
        "score_losses": "Games lost: {score}",
        "score_balance": "Balance: {score}",
        "side_a_short": "A",
        "side_b_short": "B",
        "carry": "De vueltas, carried over: {pts}",
        "table_card": "On the table: {card} (out of play)",
        "exchanges_line": "Exchanges: {list}",
        "auction_none": "Auction: no bid yet",
        "auction_bid": "Auction: {who} bids {points}",
        "contract": "Contract: {who} at {bid}",
        "contract_taken": " (taken over by the dealer: double stakes)",
        "sitting_out": "You sit this deal out: you are dealing.",
        "card_pending": "Card {d}…: another digit for {d}0–{hi}, or Enter for card {d}.",
        "page": "Actions {a}–{b} of {n} (page {p} of {pages}) · < > or PageUp/PageDown: more",
        "no_pages": "There are no more actions to see.",
        "running": "With the earlier deal: {pts}",
        "made": "made",
        "failed": "failed",
        "sheet_title": "Score sheet · {game}",
        "sheet_now": "In play: {deal}",
        "sheet_deal": "Deal",
        "sheet_note": "Note",
        "sheet_empty": "No deal has finished yet.",
        "sheet_close": "a, Esc or Enter: back to the table",
        "tally_cotos": "{g} (cotos {c})",
        "note_win": "{who} wins",
        "note_lose": "loses: {who}",
        "note_contract": "{who} at {bid}: {verdict}",
        "note_replay": "replayed",
        "note_vueltas": "de vueltas",
        "note_tute": "tute!",
        "note_void": "void",
        # the terminal game: keys, help and leaving (tui/app.py)
        "setup_keys": (
            "Tab and Shift+Tab: field to field · arrows, wheel or PageDown: scroll the page · "
            "Enter: choose"
        ),
        "hint_keys": (
            "Cards: their number · actions: their letter · a score sheet · u previous trick · g "
            "save · ! what would you play? · ? help · q quit"
        ),
        "help_title": "Help: the keys of the table",
        "help_keys": (
            "Cards: the digit in front of them, 1-9 and 0 for the tenth. With more than ten cards "
            "(arrastrado, cabrón, subastado) type the number: 1 then 2 is the 12th, 1 then Enter "
            "the first. The mouse works too.\n"
            "Discarding (subastado with a widow card): the card, as when playing it.\n"
            "Actions (declare, exchange, bid, name trumps): the letter in brackets; p always "
            "passes. When they do not all fit (the auction's bids) they come in pages: < and > or "
            "PageUp and PageDown.\n"
            "Enter: continue after the end of a deal, or the only possible move.\n"
            "a: the score sheet (deal by deal, the totals and the goal). u: show the previous "
            "trick. g: save the match (resume with tute play --load FILE). q or Esc: quit, after "
            "asking.\n"
            "!: what would you play? The move the search bot (pimc) would choose from what you "
            "know (it never looks at other hands) and why; it takes a few seconds.\n"
            "After each deal: the three costliest decisions of each side or player, with every "
            "hand open."
        ),
        "help_close": "Any key: back to the table",
        "quit_title": "Leave the match?",
        "quit_body": "Whatever is not saved is lost.",
        "quit_yes": "s: leave",
        "quit_save": "g: save and leave",
        "quit_no": "n: keep playing",
        # the line-by-line game (tute play --plain, cli.py)
        "plain_title": "{game} (seed {seed}). You are {you} ({seat}). Type ? for help.",
        "plain_loaded": "Match loaded from {path}: play goes on at deal {k}.",
        "record_rules": "A version {version} record: played with {rules}, the rule of when "
                        "it was written.",
        "plain_help": "g: save the match (resume with --load). In the auction, type a bid as "
                      "its number (65) or as bid:65.",
        "plain_replay_prompt": "Enter: forward · -: back · q: quit> ",
        "plain_hint": "!: what would you play? (the search bot's move from what you know).",
        # hints and the end-of-deal review (tute.hints, tute.analysis)
        "hint_thinking": "Thinking what you would play…",
        "hint_turn": "Hints are for your turn.",
        "hint_line": "What would you play? {action}. {why}",
        "review_title": "The costliest decisions of the deal, all hands open (points of margin "
                        "lost):",
        "review_side": "{side}: {list}",
        "review_item": "trick {trick}, {who}{played} (best {best}, −{loss})",
        "review_clean": "{side}: not a point lost",
        "review_uncovered": "The exact analysis does not reach the moves of this deal.",
        "review_wait": "Reviewing the deal…",
        "review_failed": "The deal could not be reviewed: {why}",
        # --- the auction typed as numbers; the analyser's first start (hooks branch)
        "bid_typed": "Bid: {points} · Enter to bid",
        "bid_confirm": "Bid {points}? The lowest is {minimum}. Enter confirms; any other key "
                       "drops it.",
        "bid_cancelled": "No bid made.",
        "solver_preparing": "Preparing the analyser… (the first time takes a while)",
        "help_bids": "Bids: by their number too (7, 0 and Enter bids 70; Backspace deletes). A "
                     "bid over the lowest one is confirmed with Enter.",
    },
}

_EN_RANKS: Final = {"A": "ace", "3": "three", "R": "king", "C": "knight", "S": "knave",
                    "7": "seven", "6": "six", "5": "five", "4": "four", "2": "two"}


# The narration of the command line (tute play --plain, replay, selfplay, score): its own
# phrases, kept apart from TEXT's because the same keys read differently in a running text.
CLI_TEXT: Final[dict[str, dict[str, str]]] = {
    "es": {
        "seat": "J{n}",
        "side": "pareja {s}",
        "side_seats": "pareja {s} ({a} y {b})",
        "trick": "Baza {n}: {plays} → {said}",
        "deal_header": "— Mano {k} · reparte {dealer} · es mano {mano} —",
        "trump": "Pinta: {card} ({name}); triunfo: {suit}",
        "trump_suit": "Triunfo: {suit}",
        "the_side": "la {side}",
        "score_pair": "{a} a {b}",
        "score": "Marcador: {score} ({goal})",
        "match_winner": "¡Gana la partida {who}, {score}!",
        "match_none": "La partida termina sin ganador ({score}).",
        "demo_title": "Tute por parejas: partida de demostración entre bots (semilla {seed})",
        "demo_sides": "{a} contra {b}",
        "you": "tú",
        "play_title": "{game} (semilla {seed}). Eres {you} ({seat}); tu compañero es "
                      "{partner}. Escribe ? para la ayuda.",
        "hand": "Tu mano: {cards}",
        "playable": "Puedes jugar: {cards}",
        "can_declare": "Puedes cantar: {decls} (o jugar carta)",
        "poll": "Tienes la palabra: {acts}",
        "table": "En la mesa: {plays}",
        "you_lead": "Sales tú.",
        "points": "Puntos en bazas: {pts}",
        "prompt": "Tu jugada> ",
        "illegal": "No se puede: {why}",
        "bad_number": "No hay carta {n} en tu mano (1-{m}).",
        "quit": "Hasta otra.",
        "help": ("Escribe una carta (Ao, 3c, Rb...), su número en la lista, un cante "
                 "(cuarenta, veinte:c, tute_reyes), 'pass' para no cantar, '?' para esta ayuda "
                 "o 'q' para salir. Rangos A 3 R C S 7 6 5 4 2; palos o=oros c=copas "
                 "e=espadas b=bastos."),
        "goal": "Objetivo: {goal}",
        "record_ok": "Registro válido: {what}",
        "record_deal": "{variant}, reparte {dealer}",
        "record_unfinished": "El registro está sin terminar: le toca a {who} ({n} acciones).",
        "record_match": "partida de {variant}, {deals} manos",
        "deal_title": "{variant} · semilla {seed}",
        "deal_dealer": "Reparte {dealer}; es mano {mano}",
        "deal_stock": "Montón: {n} cartas (con la pinta)",
        "deal_hand": "{who}: {cards}",
        "deal_exchange": "{who} cambia {given} por {taken}",
        "deal_table": "Queda en la mesa (fuera de juego): {card}",
    },
    "en": {
        "seat": "P{n}",
        "side": "side {s}",
        "side_seats": "side {s} ({a} and {b})",
        "trick": "Trick {n}: {plays} → {said}",
        "deal_header": "— Deal {k} · dealer {dealer} · {mano} leads —",
        "trump": "Trump card: {card} ({name}); trumps: {suit}",
        "trump_suit": "Trumps: {suit}",
        "the_side": "{side}",
        "score_pair": "{a}–{b}",
        "score": "Score: {score} ({goal})",
        "match_winner": "{who} wins the match, {score}!",
        "match_none": "The match ends without a winner ({score}).",
        "demo_title": "Partnership Tute: demo match between bots (seed {seed})",
        "demo_sides": "{a} against {b}",
        "you": "you",
        "play_title": "{game} (seed {seed}). You are {you} ({seat}); your partner is "
                      "{partner}. Type ? for help.",
        "hand": "Your hand: {cards}",
        "playable": "You may play: {cards}",
        "can_declare": "You may declare: {decls} (or play a card)",
        "poll": "Your call: {acts}",
        "table": "On the table: {plays}",
        "you_lead": "You lead.",
        "points": "Card points taken: {pts}",
        "prompt": "Your move> ",
        "illegal": "Not allowed: {why}",
        "bad_number": "There is no card {n} in your hand (1-{m}).",
        "quit": "Bye.",
        "help": ("Type a card (Ao, 3c, Rb...), its number in the list, a declaration "
                 "(cuarenta, veinte:c, tute_reyes), 'pass' to decline, '?' for this help or "
                 "'q' to quit. Ranks A 3 R C S 7 6 5 4 2; suits o=coins c=cups e=swords "
                 "b=clubs."),
        "goal": "Goal: {goal}",
        "record_ok": "Valid record: {what}",
        "record_deal": "{variant}, dealer {dealer}",
        "record_unfinished": "The record is unfinished: {who} is to move ({n} actions).",
        "record_match": "{variant} match, {deals} deals",
        "deal_title": "{variant} · seed {seed}",
        "deal_dealer": "Dealer {dealer}; {mano} leads",
        "deal_stock": "Stock: {n} cards (upcard included)",
        "deal_hand": "{who}: {cards}",
        "deal_exchange": "{who} gives {given} for {taken}",
        "deal_table": "Left on the table (out of play): {card}",
    },
}


#: the names the server gives its bots, by seat: people's names at a Spanish card table (the
#: page adds each bot's level beside it)
BOT_NAMES: Final = ("Paco", "Lola", "Manolo", "Carmen", "Pepe", "Rocío")


def bot_name(seat: int) -> str:
    return BOT_NAMES[seat % len(BOT_NAMES)]


def tr(lang: str, key: str, **kw: Any) -> str:
    """The phrase ``key`` in ``lang`` (falls back to Spanish, then to the key itself)."""
    table = TEXT.get(lang, TEXT["es"])
    text = table.get(key) or TEXT["es"].get(key) or key
    return text.format(**kw) if kw else text


# A match goal as data (``Match.goal_info()``: its kind and numbers) -> its phrase and the
# names of the phrase's numbers, so that every front end words it from the data alone.
GOAL_PHRASES: Final[dict[str, tuple[str, dict[str, str]]]] = {
    "games": ("goal_games", {"n": "n"}),
    "race": ("goal_games", {"n": "n"}),
    "series": ("goal_series", {"n": "n"}),
    "cotos": ("goal_cotos", {"p": "partidas", "c": "cotos"}),
    "losses": ("goal_losses", {"n": "n"}),
    "balance_deals": ("goal_deals_balance", {"n": "n"}),
    "balance": ("goal_balance", {"n": "n"}),
}


def goal_text(lang: str, info: dict[str, Any]) -> str:
    """How the match is won, in ``lang``, from ``Match.goal_info()``.

    >>> goal_text("es", {"kind": "cotos", "partidas": 3, "cotos": 2})
    '3 partidas el coto, gana quien haga 2 cotos'
    >>> goal_text("en", {"kind": "series", "n": 6})
    'series of 6 deals'
    """
    key, names = GOAL_PHRASES[info["kind"]]
    values = {k: info[v] for k, v in names.items()}
    if all(x == 1 for x in values.values()) and key + "_one" in TEXT[_lang(lang)]:
        return tr(lang, key + "_one")
    return tr(lang, key, **values)


def suit_name(lang: str, suit: Suit) -> str:
    return SUIT_NAMES[_lang(lang)][suit.letter]


#: the ranks by letter, and how a card's name is put together, by language
RANK_NAMES: Final[dict[str, dict[str, str]]] = {
    "es": {"A": "as", "3": "tres", "R": "rey", "C": "caballo", "S": "sota", "7": "siete",
           "6": "seis", "5": "cinco", "4": "cuatro", "2": "dos"},
    "en": _EN_RANKS,
}
CARD_NAME: Final = {"es": "{rank} de {suit}", "en": "{rank} of {suit}"}


def card_name(lang: str, card: Card) -> str:
    """
    >>> from tute.cards import parse_card
    >>> card_name("es", parse_card("Ro")), card_name("en", parse_card("Ro"))
    ('rey de oros', 'king of coins')
    """
    lg = _lang(lang)
    return CARD_NAME[lg].format(rank=RANK_NAMES[lg][card.rank.letter],
                                suit=SUIT_NAMES[lg][card.suit.letter])


# ---------------------------------------------------------------------------------------------
# The engine's refusals (tute.messages.Refusal): one template per code and language. English is
# also the engine's own text (Deal.why_illegal, IllegalActionError): suits keep their Spanish
# names there, as the game is played with them, and cards stay in notation (Ac) in both.

REFUSALS: Final[dict[str, dict[str, str]]] = {
    "es": {
        "bad_notation": "no se entiende «{text}»",
        "deal_over": "la mano ha terminado",
        "not_legal_now": "no se puede ahora",
        "not_legal_card": "esa carta no se puede jugar ahora",
        "poll_first": "el asiento {seat} debe antes {poll}",
        "poll_first.you": "antes debes {poll}",
        "poll_now": "el asiento {seat} debe {poll}",
        "poll_now.you": "debes {poll}",
        "not_in_hand": "el {card} no está en la mano del asiento {seat}",
        "not_in_hand.you": "el {card} no está en tu mano",
        "must_follow": "hay que asistir: {suit}",
        "must_answer_trump": "al arrastre de triunfo hay que responder con triunfo: {suit}",
        "must_beat": "hay que montar: supera el {card}",
        "must_trump": "hay que fallar: no tienes {suit}, juega un {trump}",
        "must_overtrump": "hay que pisar: supera el triunfo {card}",
        "must_play_trump": "hay que jugar triunfo: {trump}",
        "bid_below_min": "la puja {bid} es menor que el mínimo {minimum}",
        "bid_not_multiple": "la puja {bid} no es múltiplo de {step}",
        "bid_not_higher": "la puja {bid} no supera la actual {current}",
        "bid_above_max": "la puja {bid} supera lo máximo que da una mano ({maximum})",
        "discard_not_held": "el {card} no está entre las cartas del asiento {seat}",
        "discard_not_held.you": "el {card} no está entre tus cartas",
        "throw_in_too_strong": "solo se tira una mano que valga como mucho {points} puntos",
        "claim_no_play": "ningún rival ha jugado todavía",
        "claim_disabled": "aquí no se reclama renuncio: las jugadas ilegales no se admiten",
        "stop_not_now": "solo cierra quien ganó la baza, antes de salir, en una mano de "
                        "vueltas que se cierra a mano",
        "nothing_to_pass": "ahora no hay nada que pasar: juega carta",
        "other_moment": "esa acción es de otro momento de la mano: juega una carta",
        "declare_before_lead": "solo se canta antes de salir a la baza siguiente",
        "declare_needs_trick": "para cantar hay que ganar antes una baza",
        "declare_arrastre": "en el arrastre ya no se canta",
        "declare_not_now": "el asiento {seat} no puede cantar ahora",
        "declare_not_now.you": "ahora no puedes cantar",
        "tute_disabled": "en este juego no se canta tute",
        "declare_needs": "para {decl} hace falta tener {missing}",
        "marriage_sung": "las de {suit} ya se cantaron",
        "forty_lost": "se perdió el derecho a las cuarenta al cantar antes unas veinte",
        "forty_first": "hay que cantar las cuarenta antes que las veinte",
        "declare_unavailable": "{decl} no se puede ahora",
        "no_upcard": "en este juego no hay pinta que cambiar",
        "stock_exhausted": "el montón se ha acabado: no hay pinta que cambiar",
        "upcard_untakable": "el {card} no se puede cambiar",
        "two_disabled": "no está permitido cambiar con el 2",
        "two_not_four": "aquí el 2 no puede tomar un 4 ({card})",
        "seven_takes": "el 7 solo cambia por as, tres, rey, caballo o sota; la pinta es el {card}",
        "two_takes": "el 2 solo cambia por 7, 6, 5 o 4; la pinta es el {card}",
        "only_takes": "solo el {target} puede cambiarse por la pinta {card}",
        "last_round": "en el último robo no se cambia",
        "exchange_winner_only": "solo cambia quien acaba de ganar la baza, en su turno y "
                                "con una carta que ya tenía antes de robar",
        "exchange_not_now": "ahora no se puede cambiar",
        "not_your_turn": "no es tu turno",
        "poll.exchange": "cambiar la pinta o pasar (antes de robar)",
        "poll.tute": "enseñar el tute de mano o pasar",
        "poll.cante": "cantar o pasar",
        "poll.bid": "pujar o pasar",
        "poll.takeover": "quedarse la puja o pasar",
        "poll.discard": "descartarse de una carta (se tomó la baceta)",
        "poll.trump": "elegir el triunfo",
        "poll.throw": "tirar la mano o pasar",
        "poll.claim": "reclamar renuncio o pasar",
    },
    "en": {
        "bad_notation": "{detail}",
        "deal_over": "the deal is over",
        "not_legal_now": "not legal now",
        "not_legal_card": "not a legal card now",
        "poll_first": "seat {seat} must first {poll}",
        "poll_first.you": "you must first {poll}",
        "poll_now": "seat {seat} must now {poll}",
        "poll_now.you": "you must now {poll}",
        "not_in_hand": "{card} is not in seat {seat}'s hand",
        "not_in_hand.you": "{card} is not in your hand",
        "must_follow": "must follow suit: {suit}",
        "must_answer_trump": "must answer the trump lead with a trump: {suit}",
        "must_beat": "must beat {card}",
        "must_trump": "must trump: void in {suit}, so a {trump} card",
        "must_overtrump": "must overtrump {card}",
        "must_play_trump": "must play a trump: {trump}",
        "bid_below_min": "bid {bid} is below min_bid {minimum}",
        "bid_not_multiple": "bid {bid} is not a multiple of {step}",
        "bid_not_higher": "bid {bid} does not beat the current bid {current}",
        "bid_above_max": "bid {bid} is above the most a deal can give ({maximum})",
        "discard_not_held": "{card} is not among seat {seat}'s cards",
        "discard_not_held.you": "{card} is not among your cards",
        "throw_in_too_strong": "only a hand worth at most {points} card points may be thrown in",
        "claim_no_play": "no opponent has played a card yet",
        "claim_disabled": "renuncio claims need renuncio_mode=claim (illegal plays are "
                          "prevented)",
        "stop_not_now": "only the trick winner, before leading, in a deal de vueltas with "
                        "vueltas_claim=manual may stop play",
        "nothing_to_pass": "there is nothing to pass on now: play a card",
        "other_moment": "that action belongs to another moment of the deal: play a card",
        "declare_before_lead": "declarations are only possible before the next trick is led",
        "declare_needs_trick": "a declaration needs a won trick first",
        "declare_arrastre": "no declarations once the stock is exhausted (arrastre)",
        "declare_not_now": "seat {seat} may not declare now",
        "declare_not_now.you": "you may not declare now",
        "tute_disabled": "tute is not enabled in this game",
        "declare_needs": "{decl} needs {missing} in hand",
        "marriage_sung": "the {suit} marriage has already been declared",
        "forty_lost": "the right to the 40 was lost by singing a 20 first",
        "forty_first": "the 40 must be declared before any 20",
        "declare_unavailable": "{decl} is not available now",
        "no_upcard": "there is no upcard to exchange in {variant}",
        "stock_exhausted": "the stock is exhausted: no upcard to exchange",
        "upcard_untakable": "nothing can take the {card}",
        "two_disabled": "exchanging with the 2 is not enabled",
        "two_not_four": "the 2 may not take a 4 here ({card})",
        "seven_takes": "the 7 only takes an A, 3, R, C or S; the upcard is {card}",
        "two_takes": "the 2 only takes a 7, 6, 5 or 4; the upcard is {card}",
        "only_takes": "only {target} may take the upcard {card}",
        "last_round": "no exchange in the last draw round",
        "exchange_winner_only": "only the side that has just won a trick may exchange, on its "
                                "turn, a card it held before the draw",
        "exchange_not_now": "an exchange is not possible at this moment",
        "not_your_turn": "it is not your turn",
        "poll.exchange": "exchange the upcard or pass (before the draw)",
        "poll.tute": "show the tute held from the deal or pass",
        "poll.cante": "declare or pass",
        "poll.bid": "bid or pass",
        "poll.takeover": "take over the bid or pass",
        "poll.discard": "discard a card (the widow was taken)",
        "poll.trump": "name the trump suit",
        "poll.throw": "throw in the hand or pass",
        "poll.claim": "claim a renuncio or pass",
    },
}

# Parameters that name a suit (by its letter) or a poll; the rest are shown as they are.
_SUIT_PARAMS: Final = frozenset({"suit", "trump"})


#: the article before a card's name, by rank ("*": the others): "la sota de copas"
CARD_THE: Final[dict[str, dict[str, str]]] = {"es": {"S": "la", "*": "el"}, "en": {"*": "the"}}


_ARTICLE_LEFT = (("el triunfo {card}", "{card}"), ("el {card}", "{card}"),
                 ("the {card}", "{card}"), ("el {target}", "{target}"),
                 ("pinta {card}", "pinta, {card}"), ("upcard {card}", "upcard, {card}"))


def refusal_words(lang: str) -> dict[str, str]:
    """The refusals that name a card, for a reader who sees the card in words with its
    article ("supera el tres de copas", not "supera el 3o"): their template with the
    article left to the card's name, which the page puts in (``card_the``)."""
    out = {}
    for code, tpl in REFUSALS[_lang(lang)].items():
        if "{card}" in tpl:
            for old, new in _ARTICLE_LEFT:
                tpl = tpl.replace(old, new)
            out[code] = tpl
    return out


def _card_or_none(notation: str) -> Card | None:
    """The card of ``notation``, or None when it is not a card."""
    try:
        return parse_card(notation)
    except ValueError:  # TuteError too
        return None


def _card_the(lang: str, card: Card) -> str:
    """``card`` in words with its article ("el tres de copas")."""
    the = CARD_THE[_lang(lang)]
    return f"{the.get(card.rank.letter, the['*'])} {card_name(lang, card)}"


def refusal_text(lang: str, refusal: Refusal, *, you: int | None = None,
                 words: bool = False) -> str:
    """``refusal`` in ``lang`` (English for unknown languages); ``you``: the reader's seat,
    so "seat 0's hand" reads "your hand" where the catalogue has a ``.you`` template.
    ``words``: cards named in words with their article, as a player reads them ("supera el
    tres de copas"; the page does the same with :func:`refusal_words`), not in notation
    ("supera el 3c", the engine's own text)."""
    table = REFUSALS.get(lang, REFUSALS["en"])
    params = refusal.params
    kw: dict[str, object] = dict(params)
    if words:
        named = {k: c for k in ("card", "target")
                 if k in kw and (c := _card_or_none(str(kw[k]))) is not None}
        if "card" in named:
            table = {**table, **refusal_words(lang)}
        kw.update({k: _card_the(lang, c) for k, c in named.items()})
        if "missing" in kw:
            cards = [_card_or_none(c) for c in str(kw["missing"]).split()]
            kw["missing"] = ", ".join(card_name(lang, c) for c in cards if c is not None)
    template = table[refusal.code]
    if you is not None and params.get("seat") == you:
        template = table.get(refusal.code + ".you", template)
    for key in _SUIT_PARAMS & kw.keys():
        kw[key] = parse_suit(str(kw[key])).spanish
    if "poll" in kw:
        kw["poll"] = table[f"poll.{kw['poll']}"]
    return template.format(**kw)


def catalogue(lang: str) -> dict[str, Any]:
    """Every word the web page shows, in ``lang``: its own phrases (``page``, positional
    ``{0}`` placeholders) and the server's error codes (``errors``); the engine's refusals as
    :func:`refusal_text` words them (``refusals``: ``code`` and ``code.you``, ``poll.<kind>``;
    ``suits``: their suit names by letter); the events as :func:`event_text` words them
    (``events``, ``decls``, ``suit_names``, ``ranks``, ``card_name``); the hints' reasons;
    the match goal's phrases as :func:`goal_text` words them; the options' choices and groups
    (their labels come with their specs, :func:`option_words`); and the names of the cantes
    the page has no notation of its own for (``veinte``: a 20 whose suit is not told)."""
    lg = _lang(lang)
    table = TEXT[lg]
    return {"lang": lg, "refusals": dict(REFUSALS[lg]),
            # the page's: cards in words with their article (refusal_words, CARD_THE)
            "refusal_words": refusal_words(lg), "card_the": dict(CARD_THE[lg]),
            "suits": {s.letter: s.spanish for s in Suit},
            "suit_params": sorted(_SUIT_PARAMS),
            # the match goal by kind: its phrase and which field of goal_info fills each name
            # (``one``: the phrase when every number is 1)
            "goals": {kind: {"text": table[key], "one": table.get(key + "_one"), "params": names}
                      for kind, (key, names) in GOAL_PHRASES.items()},
            "cantes": {"veinte": table["veinte_hidden"]},
            "page": dict(PAGE[lg]), "errors": dict(PAGE_ERRORS[lg]),
            "events": dict(EVENTS[lg]), "suit_names": dict(SUIT_NAMES[lg]),
            "ranks": dict(RANK_NAMES[lg]), "card_name": CARD_NAME[lg],
            "decls": {k: table[k] for k in ("cuarenta", "veinte", "veinte_hidden",
                                            "tute_reyes", "tute_caballos", "tute_sotas")},
            "hints": dict(HINT_REASONS[lg]),
            "choices": choice_words(lg), "option_groups": dict(OPTION_GROUPS),
            "account": dict(ACCOUNT_TEXT[lg])}

# ---------------------------------------------------------------------------------------------
# What happened: the engine's events as tute.narration.describe codes them, worded alike by the
# CLI, the terminal game and the page. ``code.you``: the reader's own seat did it.

EVENTS: Final[dict[str, dict[str, str]]] = {
    "es": {
        "played": "{who} juega {card}",
        "played.you": "Juegas {card}",
        "trick": "{who} gana la baza (+{points})",
        "trick.you": "Ganas la baza (+{points})",
        "declared": "{who} canta {what} (+{points})",
        "declared.you": "Cantas {what} (+{points})",
        "declared_tute": "{who} canta {what}",
        "declared_tute.you": "Cantas {what}",
        "drew": "{who} roba {card}",
        "drew.you": "Robas {card}",
        "drew_hidden": "{who} roba una carta",
        "drew_hidden.you": "Robas una carta",
        "exchanged": "{who} cambia {given} por la pinta {taken}",
        "exchanged.you": "Cambias {given} por la pinta {taken}",
        "exchanged_table": "{who} cambia el {given} por el {taken} de la mesa",
        "exchanged_table.you": "Cambias el {given} por el {taken} de la mesa",
        "passed": "{who} pasa",
        "passed.you": "Pasas",
        "deal_ended": "Termina la mano",
        # how a deal ended (tute.narration.describe_result): {side} is a side (or a seat
        # where each plays for himself), {who}/{other} seats
        "result.totals": "{side}: {total} = {cards} en bazas",
        "result.totals_cantes": "{side}: {total} = {cards} en bazas + {n} de cantes",
        "result.totals_last": "{side}: {total} = {cards} en bazas + 10 de últimas",
        "result.totals_cantes_last":
            "{side}: {total} = {cards} en bazas + {n} de cantes + 10 de últimas",
        "result.running": "Con las de antes: {payments}",
        "result.claim_ok": "Renuncio de {other}, reclamado por {who}.",
        "result.claim_bad": "{who} reclamó renuncio sin razón.",
        "result.contract_made": "Contrato de {who} a {bid}: cumplido con {total}.",
        "result.contract_made_trump":
            "Contrato de {who} a {bid}, triunfo {suit}: cumplido con {total}.",
        "result.contract_failed": "Contrato de {who} a {bid}: fallado, solo {total}.",
        "result.contract_failed_trump":
            "Contrato de {who} a {bid}, triunfo {suit}: fallado, solo {total}.",
        "result.contract_taken": "El que reparte se quedó las cartas: paga doble.",
        "result.tute": "¡Tute! Gana {side}",
        "result.replay": "Empate: se repite la mano.",
        "result.vueltas": "Nadie llega a 101: se juega de vueltas.",
        "result.lose": "Pierde un juego: {sides}",
        "result.lose_many": "Pierden un juego: {sides}",
        "result.pays": "Pagos: {payments}",
        "result.winner": "Gana la mano: {side}",
        "result.winner_games": "Gana la mano: {side}, y se apunta {g}",
        "result.no_winner": "Mano sin ganador.",
        "result.void_all_pass": "Todos pasan: se vuelve a repartir.",
        "result.void_weak_hand": "Mano floja tirada: se vuelve a repartir.",
        "result.void_other": "Mano anulada ({why}).",
        "bid": "{who} puja {points}",
        "bid.you": "Pujas {points}",
        "auction_won": "{who} se lleva la subasta con {points}",
        "auction_won.you": "Te llevas la subasta con {points}",
        "took_over": "{who} se queda las cartas de {other} por {points} (paga doble)",
        "took_over.you": "Te quedas las cartas de {other} por {points} (pagas doble)",
        "discarded": "{who} se descarta de una carta",
        "discarded.you": "Te descartas de una carta",
        "discarded_card": "{who} se descarta del {card}",
        "discarded_card.you": "Te descartas del {card}",
        "trump_named": "{who} elige triunfo: {suit}",
        "trump_named.you": "Eliges triunfo: {suit}",
        "thrown_in": "{who} tira la mano floja",
        "thrown_in.you": "Tiras la mano floja",
        "renuncio_ok": "{who} reclama renuncio a {other}: con razón",
        "renuncio_ok.you": "Reclamas renuncio a {other}: con razón",
        "renuncio_bad": "{who} reclama renuncio sin razón",
        "renuncio_bad.you": "Reclamas renuncio sin razón",
    },
    "en": {
        "played": "{who} plays {card}",
        "played.you": "You play {card}",
        "trick": "{who} wins the trick (+{points})",
        "trick.you": "You win the trick (+{points})",
        "declared": "{who} declares {what} (+{points})",
        "declared.you": "You declare {what} (+{points})",
        "declared_tute": "{who} declares {what}",
        "declared_tute.you": "You declare {what}",
        "drew": "{who} draws {card}",
        "drew.you": "You draw {card}",
        "drew_hidden": "{who} draws a card",
        "drew_hidden.you": "You draw a card",
        "exchanged": "{who} exchanges {given} for the upcard {taken}",
        "exchanged.you": "You exchange {given} for the upcard {taken}",
        "exchanged_table": "{who} exchanges the {given} for the {taken} on the table",
        "exchanged_table.you": "You exchange the {given} for the {taken} on the table",
        "passed": "{who} passes",
        "passed.you": "You pass",
        "deal_ended": "The deal is over",
        "result.totals": "{side}: {total} = {cards} in tricks",
        "result.totals_cantes": "{side}: {total} = {cards} in tricks + {n} in declarations",
        "result.totals_last": "{side}: {total} = {cards} in tricks + 10 for the last trick",
        "result.totals_cantes_last":
            "{side}: {total} = {cards} in tricks + {n} in declarations + 10 for the last trick",
        "result.running": "With the earlier deal: {payments}",
        "result.claim_ok": "Renuncio by {other}, claimed by {who}.",
        "result.claim_bad": "{who} claimed a renuncio wrongly.",
        "result.contract_made": "{who}'s contract at {bid}: made with {total}.",
        "result.contract_made_trump":
            "{who}'s contract at {bid}, trumps {suit}: made with {total}.",
        "result.contract_failed": "{who}'s contract at {bid}: failed, only {total}.",
        "result.contract_failed_trump":
            "{who}'s contract at {bid}, trumps {suit}: failed, only {total}.",
        "result.contract_taken": "The dealer took the cards over: double stakes.",
        "result.tute": "Tute! {side} wins",
        "result.replay": "Tie: the deal is replayed.",
        "result.vueltas": "Nobody reached 101: a deal de vueltas follows.",
        "result.lose": "Loses a game: {sides}",
        "result.lose_many": "Lose a game: {sides}",
        "result.pays": "Payments: {payments}",
        "result.winner": "Deal won by: {side}",
        "result.winner_games": "Deal won by: {side}, who scores {g}",
        "result.no_winner": "Nobody won this deal.",
        "result.void_all_pass": "Everybody passed: the cards are dealt again.",
        "result.void_weak_hand": "A weak hand was thrown in: the cards are dealt again.",
        "result.void_other": "Deal void ({why}).",
        "bid": "{who} bids {points}",
        "bid.you": "You bid {points}",
        "auction_won": "{who} wins the auction with {points}",
        "auction_won.you": "You win the auction with {points}",
        "took_over": "{who} takes over {other}'s cards at {points} (double stakes)",
        "took_over.you": "You take over {other}'s cards at {points} (double stakes)",
        "discarded": "{who} discards a card",
        "discarded.you": "You discard a card",
        "discarded_card": "{who} discards the {card}",
        "discarded_card.you": "You discard the {card}",
        "trump_named": "{who} names trumps: {suit}",
        "trump_named.you": "You name trumps: {suit}",
        "thrown_in": "{who} throws in a weak hand",
        "thrown_in.you": "You throw in a weak hand",
        "renuncio_ok": "{who} claims a renuncio by {other}: rightly",
        "renuncio_ok.you": "You claim a renuncio by {other}: rightly",
        "renuncio_bad": "{who} claims a renuncio wrongly",
        "renuncio_bad.you": "You claim a renuncio wrongly",
    },
}

#: the suits by letter, as each language names them on a screen
SUIT_NAMES: Final[dict[str, dict[str, str]]] = {
    "es": {s.letter: s.spanish for s in Suit},
    "en": {s.letter: s.english for s in Suit},
}


def declaration_text(lang: str, notation: str) -> str:
    """A declaration by its notation (``veinte:o``; ``veinte``: a 20 whose suit is not told).

    >>> declaration_text("es", "veinte:o"), declaration_text("en", "tute_reyes")
    ('las veinte en oros', 'tute of kings')
    """
    kind, _, suit = notation.partition(":")
    if kind == "veinte":
        if not suit:
            return tr(lang, "veinte_hidden")
        return tr(lang, "veinte", suit=SUIT_NAMES[_lang(lang)][suit])
    return tr(lang, kind)


def _lang(lang: str) -> str:
    return lang if lang in LANGS else "es"


def event_text(lang: str, code: str, params: dict[str, Any], *,
               seat_name: Callable[[int], str], you: int | None = None,
               card: Callable[[str], str] = str,
               side_name: Callable[[int], str] | None = None) -> str:
    """One event (:func:`tute.narration.describe`, or a line of a deal's ending,
    :func:`tute.narration.describe_result`) in ``lang``: seats named by ``seat_name``
    (``you``: the reader's seat, which takes the ``.you`` form), sides by ``side_name`` (the
    seat's name by default), cards by ``card`` (from their notation; the notation itself by
    default).

    >>> event_text("es", "played", {"who": 1, "card": "Ac"}, seat_name=lambda s: f"J{s}")
    'J1 juega Ac'
    >>> event_text("es", "bid", {"who": 0, "points": 70}, seat_name=str, you=0)
    'Pujas 70'
    """
    table = EVENTS[_lang(lang)]
    template = table[code]
    if you is not None and params.get("who") == you:
        template = table.get(code + ".you", template)
    kw: dict[str, Any] = dict(params)
    for key in ("who", "other"):
        if key in kw:
            kw[key] = "" if kw[key] is None else seat_name(kw[key])
    for key in ("card", "given", "taken"):
        if key in kw:
            kw[key] = card(kw[key])
    side = side_name or seat_name
    if "side" in kw:
        kw["side"] = side(kw["side"])
    if "sides" in kw:
        kw["sides"] = ", ".join(side(x) for x in kw["sides"])
    if "payments" in kw:
        kw["payments"] = " · ".join(f"{side(x)} {amount}" for x, amount in kw["payments"])
    if "suit" in kw:
        kw["suit"] = SUIT_NAMES[_lang(lang)][kw["suit"]]
    if "what" in kw:
        kw["what"] = declaration_text(lang, kw["what"])
    return template.format(**kw)


#: tute.hints' reason codes -> the reason in words, with the parameters in braces
HINT_REASONS: Final[dict[str, dict[str, str]]] = {
    "es": {
        "only": "Es la única jugada posible.",
        "tute": "Canta el tute: gana la mano.",
        "forty": "Canta las cuarenta: 40 puntos.",
        "twenty": "Canta las veinte en {suit}: 20 puntos.",
        "exchange": "Cambia tu {give} por el {take}.",
        "trump": "Triunfo a {suit}: tienes {n} cartas de ese palo.",
        "bid": "Puja {points}: de media, la mano lo vale.",
        "pass_bid": "Pasa: de media, pujar más pierde.",
        "wins_trick": "Gana la baza: {points} puntos.",
        "heads_trick": "Se pone por delante en la baza ({points} puntos en la mesa).",
        "feeds_partner": "La baza es de tu compañero: cárgale {points} puntos.",
        "partner_has_it": "La baza es de tu compañero: no gastes puntos.",
        "trick_lost": "La baza está perdida: tira una carta baja.",
        "saves": "Guarda el {card} para más adelante: ahora, una carta baja.",
        "lead_trump": "Arrastra: quedan {n} triunfos fuera.",
        "trumps_drawn": "No queda ningún triunfo fuera: esta baza no se la pueden ganar.",
        "lead_master": "El {card} es la carta más alta que queda de {suit}.",
        "lead_low": "Sal con una carta baja: poco que perder.",
        "equal": "Todas valen lo mismo de media en {worlds} repartos posibles.",
        "search": "La mejor de media en {worlds} repartos posibles (+{edge} puntos).",
    },
    "en": {
        "only": "It is the only legal move.",
        "tute": "Sing the tute: it wins the deal.",
        "forty": "Sing the 40: 40 points.",
        "twenty": "Sing the 20 in {suit}: 20 points.",
        "exchange": "Exchange your {give} for the {take}.",
        "trump": "Name {suit} trumps: you hold {n} of them.",
        "bid": "Bid {points}: on average the hand is worth it.",
        "pass_bid": "Pass: on average bidding more loses.",
        "wins_trick": "It wins the trick: {points} points.",
        "heads_trick": "It heads the trick ({points} points on it so far).",
        "feeds_partner": "Your partner has the trick: give them {points} points.",
        "partner_has_it": "Your partner has the trick: spend no points on it.",
        "trick_lost": "The trick is lost: throw a low card.",
        "saves": "Keep the {card} for later: a low card now.",
        "lead_trump": "Lead trumps: {n} more are still out.",
        "trumps_drawn": "No trump is left out: nobody can beat this lead.",
        "lead_master": "The {card} is the highest card left in {suit}.",
        "lead_low": "Lead a low card: little to lose.",
        "equal": "All are worth the same on average over {worlds} possible deals.",
        "search": "The best on average over {worlds} possible deals (+{edge} points).",
    },
}


#: a lesson's expected moves in words (tute.tutorials), ``{0}``: the suit or card
LESSON_MOVES: Final[dict[str, dict[str, str]]] = {
    "es": {"pass": "pasar", "cuarenta": "cantar las cuarenta",
           "veinte": "cantar las veinte en {0}", "cambio": "cambiar {0} por la pinta",
           "tute": "cantar el tute"},
    "en": {"pass": "passing", "cuarenta": "singing the forty",
           "veinte": "singing the twenty in {0}", "cambio": "exchanging {0} for the upcard",
           "tute": "declaring the tute"},
}


def hint_reason(lang: str, code: str) -> str:
    """The template of a hint's reason (:class:`tute.hints.Hint`) in ``lang``."""
    return HINT_REASONS[_lang(lang)][code]


def game_name(lang: str, variant: Any) -> str:
    """A game's name as a screen in ``lang`` shows it (``Variant.name`` is the Spanish)."""
    return str(variant.name if _lang(lang) == "es" else variant.english)


# ---------------------------------------------------------------------------------------------
# The options of the games: a label and a line each, served with their specs (/api/variants)

#: option name -> (label, line) in Spanish; English labels come from the name, lines from
#: the option's own doc (tute.variants.OPTION_SPECS)
OPTION_WORDS_ES: Final[dict[str, tuple[str, str]]] = {
    "partner_exemption": (
        "Sin montar al compañero",
        "No hay que montar si la baza es del compañero"),
    "must_undertrump": (
        "Fallar aunque no se monte",
        "Sin palo y sin poder montar, hay que echar triunfo"),
    "must_head_after_ruff": (
        "Montar tras un fallo",
        "Tras un fallo, los demás deben montar el palo"),
    "stock_phase_rule": ("Con montón", "Obligaciones mientras queda montón"),
    "hand_size": ("Cartas por mano", "En los juegos con montón"),
    "cante_by": ("Quién canta", "El que gana la baza o su bando"),
    "forty_first": ("Las cuarenta primero", "Antes de cualquier veinte"),
    "cante_restriction": ("Cantes y primera baza", "Cantes ligados a la primera baza del bando"),
    "cante_before_draw": ("Cantar antes de robar", "A dos: se canta antes de robar"),
    "tute_enabled": ("Tute", "Se puede cantar tute (cuatro reyes o caballos)"),
    "tute_award": ("Qué gana el tute", "La mano, dos juegos, la partida…"),
    "tute_dealt_wins_immediately": ("Tute de mano", "Un tute repartido gana sin jugar"),
    "exchange_timing": ("Cuándo se cambia", "Momento de cambiar la pinta"),
    "exchange_last_round_allowed": (
        "Cambio en la última ronda",
        "Se puede cambiar en el último robo"),
    "exchange_two_enabled": ("Cambio del dos", "El 2 de triunfo se lleva una pinta baja"),
    "two_exchanges_four": ("El dos por el cuatro", "El 2 se lleva un 4"),
    "exchange_mandatory": ("Cambios obligados", "El 7 y el 2 se cambian por fuerza (a tres)"),
    "exchange_side_requirement": (
        "Quién cambia (guiñote)",
        "El bando que ganó esta baza o cualquiera"),
    "tie_break": ("Empate", "Lo decide la última baza, el bando mano o se repite"),
    "two_games_threshold": ("Dos juegos con", "Tantos que valen dos juegos (o salir)"),
    "two_games_rule": ("Regla de los dos juegos", "rs: 101 solo sin cantes, si no 121"),
    "match": ("Duración", "Serie de N manos o carrera a N juegos"),
    "scoring_2p": ("Tanteo a dos", "A 101 o una mano por juego"),
    "both_over": ("Si los dos pasan de 101", "Gana el más alto o el de la última baza"),
    "vueltas_claim": ("Llegar a 101 de vueltas", "Al momento, reclamándolo o al final de la mano"),
    "games_to_win": ("Juegos para ganar", "Juegos que gana la partida"),
    "scoring_3p": ("Tanteo a tres", "Perdidos, ganador por mano o pagos"),
    "loss_limit": ("Límite de perdidos", "Juegos perdidos que acaban la partida"),
    "multi_over": ("Si varios pasan del límite", "Gana el más alto o el de la última baza"),
    "seats": ("Personas en la mesa", "Con cuatro, el que reparte descansa"),
    "players": ("Jugadores", "Jugadores en un juego individual"),
    "widow_card": ("Carta viuda", "40 cartas y una carta boca abajo para el que gana la subasta"),
    "min_bid": ("Puja mínima", "La primera puja más baja"),
    "bid_step": ("Paso de la puja", "Las pujas son múltiplos de esto"),
    "auction_rounds": ("Vueltas de subasta", "Cada uno una vez, o hasta que pasen todos menos uno"),
    "all_pass": ("Si todos pasan", "Se reparte de nuevo o el mano juega a la mínima"),
    "dealer_takeover": ("El que reparte se queda la puja", "Con cuatro en la mesa"),
    "takeover_increment": ("Suma al quedarse", "Lo que añade quedarse la puja"),
    "double_at_bid": ("Doble desde", "Pujas desde aquí pagan doble"),
    "declarer_leads": ("Sale el que juega", "El ganador de la subasta sale a la primera baza"),
    "cantes_declarer_only": ("Solo canta el que juega", "Solo cuentan sus cantes"),
    "settlement": ("Liquidación", "Pagos o tantos"),
    "match_target": ("Saldo para ganar", "Saldo que gana la partida"),
    "match_deals": ("Número de manos", "Vacío: se juega hasta el saldo"),
    "partidas_per_coto": ("Partidas por coto", "Partidas que hacen un coto"),
    "cotos_to_win": ("Cotos para ganar", "Cotos que ganan la partida"),
    "thirty_malas": ("Treinta malas", "Los cantes solo cuentan con 30 tantos de cartas"),
    "guinote_hide_arrastre_suit": (
        "Veinte sin enseñar en el arrastre",
        "Presentación: el palo de unas veinte cantadas en el arrastre solo lo sabe quien las "
        "canta"),
    "next_dealer": ("Quién reparte después", "Por turno o el que ganó la última baza"),
    "first_dealer": ("Quién reparte primero", "Al azar, a reyes o el dos de oros es mano"),
    "deal_packet": ("Cartas por paquete", "Al repartir"),
    "reshuffle": ("Barajar cada mano", "Barajar antes de cada mano"),
    "renuncio_mode": ("Renuncio", "Se impide o se reclama"),
    "renuncio_penalty": ("Castigo del renuncio", "Pierde la mano o dos juegos"),
    "weak_hand_max_points": (
        "Tirar una mano floja",
        "Una mano de estos tantos o menos se puede tirar"),
    "misdeal_passes_after": ("Manos tiradas seguidas", "Tras estas, el reparto pasa"),
    "capote_award": (
        "Premio del capote",
        "Tantos extra por llevarse todas las bazas (ninguna fuente da premio)"),
    "last_trick_bonus": ("Diez de últimas", "Tantos por llevarse la última baza"),
    "cantes_enabled": ("Cantes", "Se pueden cantar las veinte y las cuarenta"),
    "gp_out_threshold": (
        "Tantos para salir",
        "Quien llega a estos tantos sale ganando y pierden los demás"),
    "gp_tie_high": (
        "Empate en lo más alto",
        "Si varios empatan con más tantos: pierden todos o ninguno"),
    "cabron_middle": (
        "Quién queda en medio",
        "Pierden los tantos entre el más alto y el más bajo (o, en registros antiguos, los "
        "puestos de en medio)"),
    "cabrero_loser": ("Quién pierde por tantos", "El segundo en tantos, o el del medio"),
    "cabrero_no_base": ("Sin base", "Quien no hizo baza: se salva, o cuenta con cero tantos"),
    "cabrero_tute_award": (
        "Lo que cuesta un tute",
        "Un poroto a cada uno, la partida, N porotos o nada"),
    "cabrero_tute_porotos": (
        "Porotos del tute",
        "Porotos que pierde cada uno cuando el tute cuesta N"),
    "cabrero_trump": (
        "Cómo se elige el triunfo",
        "La última carta repartida, o por turno: oros, copas, espadas, bastos"),
    "cabrero_three_deck": (
        "La carta 40 con tres",
        "Queda en la mesa, o se quita el dos de triunfo"),
    "cabrero_dealer_sits_out_from": (
        "El que reparte descansa desde",
        "Con tantos jugadores a la mesa, el que reparte no juega la mano"),
    "cabrero_match_end": (
        "Fin de la partida",
        "Se acaba con el primero que llega al límite, o se retira y siguen los demás"),
    "cabrero_no_cargar": ("No cargar", "Quien no puede ganar la baza echa su carta de menos valor"),
}


def option_words(name: str, doc: str) -> dict[str, list[str]]:
    """An option's label and line in each language: {lang: [label, line]}."""
    english = name.replace("_", " ")
    out = {"en": [english[:1].upper() + english[1:], doc]}
    if name in OPTION_WORDS_ES:
        out["es"] = list(OPTION_WORDS_ES[name])
    return out


#: the options by the group the page shows them in (others: "other")
OPTION_GROUPS: Final[dict[str, str]] = {name: group for group, names in {
    "match": ("match", "games_to_win", "loss_limit", "partidas_per_coto", "cotos_to_win",
        "match_target", "match_deals", "two_games_threshold", "two_games_rule", "scoring_2p",
        "scoring_3p", "both_over", "multi_over", "vueltas_claim", "tie_break", "settlement",
        "thirty_malas", "players", "seats",),
    "play": ("partner_exemption", "must_undertrump", "must_head_after_ruff", "stock_phase_rule",
        "renuncio_mode", "renuncio_penalty", "hand_size",),
    "cantes": ("cante_by", "forty_first", "cante_restriction", "cante_before_draw",
        "guinote_hide_arrastre_suit", "tute_enabled", "tute_award",
        "tute_dealt_wins_immediately",),
    "exchange": ("exchange_timing", "exchange_last_round_allowed", "exchange_two_enabled",
        "two_exchanges_four", "exchange_mandatory", "exchange_side_requirement",),
    "auction": ("widow_card", "min_bid", "bid_step", "auction_rounds", "all_pass",
        "dealer_takeover", "takeover_increment", "double_at_bid", "declarer_leads",
        "cantes_declarer_only",),
    "deal": ("next_dealer", "first_dealer", "deal_packet", "reshuffle", "weak_hand_max_points",
        "misdeal_passes_after",),
}.items() for name in names}

#: an option's choice (its value) in Spanish; English reads the value itself
CHOICES_ES: Final[dict[str, str]] = {
    "free": "libre",
    "follow_trump_lead": "responder al arrastre",
    "follow_suit": "asistir",
    "full": "asistir y montar",
    "trick_winner": "el que gana la baza",
    "winning_side_one": "un jugador del bando",
    "winning_side_each": "cada jugador del bando",
    "enforce": "obligatorio",
    "forfeit": "se pierde",
    "off": "no",
    "none": "ninguna",
    "forfeit_if_skipped_first": "se pierde si no se canta en la primera",
    "first_win_only": "solo en la primera baza ganada",
    "deal": "la mano",
    "two_games": "dos juegos",
    "match": "la partida",
    "partida": "la partida",
    "after_winning_before_draw": "tras ganar, antes de robar",
    "start_and_after_win": "al empezar y tras ganar",
    "own_turn_any": "en su turno",
    "won_this_trick": "el bando que ganó la baza",
    "any_trick_won": "quien haya ganado alguna baza",
    "last_trick": "la última baza",
    "mano_side": "el bando mano",
    "replay": "se repite",
    "total": "total",
    "rs": "rs",
    "target_101": "a 101",
    "per_deal": "por mano",
    "highest": "el más alto",
    "auto": "al momento",
    "manual": "reclamándolo",
    "end_of_deal": "al final de la mano",
    "losses": "perdidos",
    "winner_per_deal": "ganador por mano",
    "payments": "pagos",
    "points": "tantos",
    "single": "una vuelta",
    "open": "abierta",
    "redeal": "repartir de nuevo",
    "mano_forced": "juega el mano",
    "rotate": "por turno",
    "last_trick_winner": "el de la última baza",
    "random": "al azar",
    "first_king": "a reyes",
    "two_of_oros_mano": "el dos de oros es mano",
    "prevent": "se impide",
    "claim": "se reclama",
    "lose_deal": "pierde la mano",
    "two_games_swing": "dos juegos",
    "series": "serie de manos",
    "race": "carrera a juegos",
}

_CHOICES: Final = {"es": CHOICES_ES}


def choice_words(lang: str) -> dict[str, str]:
    """Every option choice's words in ``lang``, by value."""
    values = {str(c) for spec in OPTION_SPECS.values() for c in spec.choices
              if c is not None and not isinstance(c, bool)}
    english = {v: v.replace("_", " ") for v in sorted(values | CHOICES_ES.keys())}
    return {**english, **_CHOICES.get(_lang(lang), {})}


# ---------------------------------------------------------------------------------------------
# Accounts and ratings: the words of the page's account widget, leaderboard and player pages
# (web/account.js, leaderboard.js, player.js read them from the catalogue's "account").

ACCOUNT_TEXT: Final[dict[str, dict[str, str]]] = {
    "es": {
        "account": "Cuenta",
        "signup": "Crear cuenta",
        "login": "Entrar",
        "logout": "Salir",
        "delete": "Borrar la cuenta",
        "delete_confirm": "Se borran tu cuenta, tus puntuaciones y estadísticas; tus partidas "
                          "quedan, a nombre de «Anónimo». Escribe tu contraseña para borrarla.",
        "deleted": "Cuenta borrada.",
        "name": "Nombre",
        "password": "Contraseña",
        "optional": "La cuenta es opcional: se juega igual sin ella. Con ella, tus partidas, "
                    "estadísticas, ajustes y puntuación te siguen en cualquier dispositivo.",
        "claim": "Las partidas de este navegador pasan a tu cuenta.",
        "hello": "Hola, {name}",
        "leaderboard": "Clasificación",
        "player": "Jugador",
        "mode_parejas": "Tute por parejas",
        "mode_guinote": "Guiñote por parejas",
        "mode_two": "Juegos de dos",
        "mode_three": "Juegos de tres",
        "mode_many": "Juegos de cuatro o más",
        "period_week": "Semana",
        "period_month": "Mes",
        "period_all": "Siempre",
        "rating": "Puntuación",
        "games": "Partidas",
        "gain": "Cambio",
        "provisional": "provisional",
        "bots": "Bots (referencias fijas)",
        "nobody": "Nadie tiene aún partidas puntuadas aquí.",
        "rated_game": "Partida puntuada",
        "rated_play": "Jugar puntuada contra bots ({level})",
        "chance": "Tu probabilidad de ganar: {pct} %",
        "history": "Evolución de la puntuación",
        "no_history": "Sin partidas puntuadas todavía.",
        "stats": "Estadísticas",
        "game": "Juego",
        "deals": "Manos",
        "wins": "Ganadas",
        "cantes": "Cantes",
        "tutes": "Tutes",
        "daily_played": "Retos jugados",
        "daily_event": "Reto",
        "daily_day": "Mano del día, {period}",
        "daily_week": "Manos de la semana, {period}",
        "daily_place": "Puesto",
        "daily_place_of": "{rank}.º de {players}",
        "daily_score": "Resultado",
        "level": "Nivel",
        "left": "abandono",
        "my_page": "Mi página",
        "leave": "Abandonar",
        "leave_confirm": "¿Abandonar esta partida puntuada? Un bot jugará por ti hasta el "
                         "final, y tu puntuación pierde {penalty} puntos además del resultado "
                         "de la partida.",
        "rated_table": "Partida puntuada: cuenta para tu puntuación.",
        "cookie_lost": "Has entrado, pero el navegador no guardó la sesión: las cuentas "
                       "necesitan https (o localhost). En una red local, quien lleva el "
                       "servidor puede arrancarlo con «tute serve --insecure-cookies».",
        "error": "No se pudo: {why}",
    },
    "en": {
        "account": "Account",
        "signup": "Sign up",
        "login": "Log in",
        "logout": "Log out",
        "delete": "Delete the account",
        "delete_confirm": "Your account, ratings and statistics are deleted; your games stay, "
                          "under the name “Anónimo”. Type your password to delete it.",
        "deleted": "Account deleted.",
        "name": "Name",
        "password": "Password",
        "optional": "An account is optional: you play the same without one. With one, your "
                    "games, statistics, settings and rating follow you on any device.",
        "claim": "The games of this browser become your account's.",
        "hello": "Hello, {name}",
        "leaderboard": "Leaderboard",
        "player": "Player",
        "mode_parejas": "Tute in pairs",
        "mode_guinote": "Guiñote in pairs",
        "mode_two": "Two-player games",
        "mode_three": "Three-player games",
        "mode_many": "Games of four or more",
        "period_week": "Week",
        "period_month": "Month",
        "period_all": "All time",
        "rating": "Rating",
        "games": "Games",
        "gain": "Change",
        "provisional": "provisional",
        "bots": "Bots (fixed anchors)",
        "nobody": "Nobody has rated games here yet.",
        "rated_game": "Rated game",
        "rated_play": "Play rated against bots ({level})",
        "chance": "Your chance to win: {pct} %",
        "history": "Rating history",
        "no_history": "No rated games yet.",
        "stats": "Statistics",
        "game": "Game",
        "deals": "Deals",
        "wins": "Won",
        "cantes": "Cantes",
        "tutes": "Tutes",
        "daily_played": "Challenges played",
        "daily_event": "Challenge",
        "daily_day": "Deal of the day, {period}",
        "daily_week": "Deals of the week, {period}",
        "daily_place": "Place",
        "daily_place_of": "{rank} of {players}",
        "daily_score": "Score",
        "level": "Level",
        "left": "left",
        "my_page": "My page",
        "leave": "Leave",
        "leave_confirm": "Leave this rated game? A bot plays for you to the end, and your "
                         "rating loses {penalty} points besides the game's result.",
        "rated_table": "Rated game: it counts for your rating.",
        "cookie_lost": "You logged in, but the browser did not keep the session: accounts "
                       "need https (or localhost). On a local network, whoever runs the "
                       "server can start it with “tute serve --insecure-cookies”.",
        "error": "It failed: {why}",
    },
}


# ---------------------------------------------------------------------------------------------
# tute.rl.text_env: a seat in words for language models (docs/rl.md)

TEXT_SEAT: Final[dict[str, dict[str, str]]] = {
    "es": {
        "seat": "J{n}",
        "intro": "{game}. Eres {you}{partner}; reparte {dealer}.",
        "partner": " y tu compañero es {who}",
        "trump": "Triunfo: {suit}{card}.",
        "trump_card": " (pinta: {card})",
        "hand": "Tu mano: {cards}.",
        "since": "Desde tu última jugada: {events}.",
        "table": "En la mesa: {plays}.",
        "table_empty": "La mesa está vacía: sales tú.",
        "points": "Puntos en bazas: {parts}.",
        "side_points": "{who} {n}",
        "legal": "Jugadas legales: {acts}.",
        "answer": "Responde con una sola línea: una de las jugadas legales, en palabras o en "
                  "notación (por ejemplo «as de oros» o «1o»).",
        "pass": "paso",
        "refused": "No se puede: {why}. Prueba otra vez.",
        "over": "La mano ha terminado: {parts}.",
    },
    "en": {
        "seat": "P{n}",
        "intro": "{game}. You are {you}{partner}; {dealer} deals.",
        "partner": " and your partner is {who}",
        "trump": "Trumps: {suit}{card}.",
        "trump_card": " (turned card: {card})",
        "hand": "Your hand: {cards}.",
        "since": "Since your last move: {events}.",
        "table": "On the table: {plays}.",
        "table_empty": "The table is empty: you lead.",
        "points": "Card points taken: {parts}.",
        "side_points": "{who} {n}",
        "legal": "Legal moves: {acts}.",
        "answer": "Answer with one line: one of the legal moves, in words or in notation "
                  "(for example \"ace of coins\" or \"1o\").",
        "pass": "pass",
        "refused": "Not allowed: {why}. Try again.",
        "over": "The deal is over: {parts}.",
    },
}


def seat_text(lang: str, key: str, **kw: Any) -> str:
    """A phrase of the text seat (:mod:`tute.rl.text_env`) in ``lang``."""
    return TEXT_SEAT[_lang(lang)][key].format(**kw)
