"""Each game's description and summary of its rules, in Spanish and English, served to the
page with the games (``/api/variants``: ``words``). They live here, with the games, so that
a new game brings its own words; the rule book is docs/rules.md."""

from __future__ import annotations

from typing import Final

__all__ = ["DESCRIPTIONS", "describe"]

#: variant id -> language -> (one line, the rules in a few sentences)
DESCRIPTIONS: Final[dict[str, dict[str, tuple[str, tuple[str, ...]]]]] = {
    "tute_parejas": {
        "es": (
            "Cuatro jugadores en dos parejas, diez cartas cada uno; el triunfo es la última "
            "carta del que reparte.",
            (
                "Baraja española de 40 cartas. Orden: As, Tres, Rey, Caballo, Sota, 7, 6, 5, 4,"
                " 2. Valen: As 11, Tres 10, Rey 4, Caballo 3, Sota 2.",
                "Los compañeros se sientan enfrente. Se juega hacia la derecha; sale el mano (a"
                " la derecha del que reparte).",
                "Hay que asistir al palo; si se puede, montar (ganar la baza); sin palo, fallar"
                " con triunfo y montar el triunfo.",
                "Quien gana una baza puede cantar: rey y caballo del mismo palo valen 20 (las "
                "veinte) o 40 en triunfo (las cuarenta). Primero las cuarenta.",
                "Los cuatro reyes o los cuatro caballos son un tute: gana la mano entera.",
                "La última baza vale 10 (diez de últimas). Gana la mano el bando con más "
                "tantos; la partida, a una serie de manos.",
            ),
        ),
        "en": (
            "Four players in two pairs, ten cards each; trumps from the dealer's last card.",
            (
                "The 40-card Spanish pack. Rank: Ace, Three, King, Knight, Knave, 7, 6, 5, 4, "
                "2. Points: Ace 11, Three 10, King 4, Knight 3, Knave 2.",
                "Partners sit opposite. Play goes to the right; mano (right of the dealer) leads.",
                "Follow suit; beat the trick when you can; if void, trump and overtrump.",
                "The trick winner may declare: king and knight of a suit are 20, or 40 in "
                "trumps. The 40 first.",
                "Four kings or four knights are a tute: it wins the deal outright.",
                "The last trick scores 10. The side with more points wins the deal; the match "
                "is a series of deals.",
            ),
        ),
    },
    "tute_2p_habanero": {
        "es": (
            "Dos jugadores, ocho cartas y un montón: libre mientras haya montón, arrastre al "
            "final; a 101.",
            (
                "Ocho cartas cada uno; la siguiente se vuelve (la pinta) y marca el triunfo; "
                "queda bajo el montón.",
                "Mientras hay montón se juega libre; tras cada baza roba primero el que la gana.",
                "Quien gana una baza puede cambiar el 7 de triunfo por la pinta (el 2 por un "
                "7, 6, 5 o 4) y cantar 20 o 40.",
                "Acabado el montón (el arrastre) hay que asistir, montar y fallar.",
                "Quien llega a 101 tantos gana el juego. Si nadie llega, se juega otra mano de "
                "vueltas sumando los tantos.",
            ),
        ),
        "en": (
            "Two players, eight cards and a stock: free play while it lasts, strict play after;"
            " to 101.",
            (
                "Eight cards each; the next is turned (the upcard) and fixes trumps, under the "
                "stock.",
                "While the stock lasts play is free; after each trick the winner draws first.",
                "The trick winner may exchange the 7 of trumps for the upcard (the 2 for a 7, "
                "6, 5 or 4) and declare 20 or 40.",
                "Once the stock is over (the arrastre) you must follow suit, beat and trump.",
                "101 points win the game. If nobody reaches it, a deal de vueltas follows with "
                "the totals carried.",
            ),
        ),
    },
    "tute_2p_corriente": {
        "es": (
            "Dos jugadores con seis cartas: el tute corriente, con montón y arrastre.",
            (
                "Seis cartas cada uno, la pinta marca el triunfo; catorce bazas con montón y "
                "seis de arrastre.",
                "Con montón se juega libre; en el arrastre hay que asistir, montar y fallar.",
                "Se cambia el 7 de triunfo por la pinta y se canta al ganar una baza.",
                "A 101 tantos; si nadie llega, de vueltas.",
            ),
        ),
        "en": (
            "Two players with six cards: plain tute, with stock and arrastre.",
            (
                "Six cards each; the upcard fixes trumps; fourteen tricks with the stock, six "
                "without.",
                "Free play with the stock; strict play in the arrastre.",
                "Exchange the 7 of trumps for the upcard and declare after winning a trick.",
                "To 101; if nobody reaches it, de vueltas.",
            ),
        ),
    },
    "tute_arrastrado_3p": {
        "es": (
            "Tres jugadores con trece cartas; la carta de la mesa se cambia por el 7 o el 2; se"
            " apuntan los juegos perdidos.",
            (
                "Trece cartas cada uno; la carta cuarenta queda boca arriba en la mesa y marca "
                "el triunfo.",
                "Antes de la primera baza, quien tiene el 7 de triunfo lo cambia por una figura"
                " de la mesa; luego el 2 por un 7, 6 o 5.",
                "Se juega arrastrado desde la primera baza: asistir, montar y fallar.",
                "Solo canta quien gana la baza. Quien llega a 101 sale y los otros dos pierden "
                "un juego; si no, pierde el que menos tiene.",
                "Gana quien menos juegos pierda cuando alguien llega al límite.",
            ),
        ),
        "en": (
            "Three players with thirteen cards; the table card is exchanged for the 7 or 2; "
            "lost games are counted.",
            (
                "Thirteen cards each; the 40th card lies face up on the table and fixes trumps.",
                "Before the first trick the holder of the 7 of trumps takes a court card from "
                "the table; then the 2 takes a 7, 6 or 5.",
                "Strict play from the first trick: follow suit, beat, trump.",
                "Only the trick winner declares. Reaching 101 goes out and the other two lose a"
                " game; otherwise the lowest loses.",
                "When someone reaches the limit, the fewest losses win.",
            ),
        ),
    },
    "tute_subastado": {
        "es": (
            "Tres jugadores (o cuatro con el que reparte descansando), 36 cartas y una subasta:"
            " el que más puja elige triunfo.",
            (
                "Sin los doses: 36 cartas, doce cada uno. No se vuelve ninguna carta.",
                "Se puja por los tantos que uno se compromete a hacer (de 5 en 5, desde 60). El"
                " que gana la subasta elige triunfo.",
                "Los otros dos defienden juntos sus bazas, pero sin ayudarse: asistir, montar y"
                " fallar.",
                "Solo cuentan los cantes del que juega. Si llega a lo pujado cobra de cada uno;"
                " si no, paga a cada uno.",
                "Con cuatro, el que reparte puede quedarse la puja más alta (suma 10 y se paga "
                "doble).",
            ),
        ),
        "en": (
            "Three players (or four, the dealer sitting out), 36 cards and an auction: the top "
            "bidder names trumps.",
            (
                "No twos: 36 cards, twelve each. No card is turned.",
                "Bid the points you promise to make (steps of 5, from 60). The auction winner "
                "names trumps.",
                "The other two pool their tricks but play strictly: follow, beat, trump.",
                "Only the declarer's cantes count. A made contract is paid by each of the "
                "others; a failed one pays each.",
                "With four, the dealer may take over the top bid (10 more, double stakes).",
            ),
        ),
    },
    "guinote": {
        "es": (
            "El juego de Aragón: dos parejas, seis cartas, montón y arrastre, a 101; partidas y"
            " cotos.",
            (
                "Orden: As, Tres, Rey, Sota, Caballo, 7… La sota vale 3 y el caballo 2. Se "
                "canta con rey y sota.",
                "Seis cartas cada uno; la pinta marca el triunfo. Con montón se juega libre.",
                "En el arrastre hay que asistir y montar, salvo si la baza ya es del compañero.",
                "El 7 de triunfo se cambia por la pinta (el 2 por una carta baja) cuando tu "
                "bando gana una baza.",
                "El bando que llega a 101 gana la partida; si nadie llega, de vueltas. Tres "
                "partidas hacen un coto; se juega a dos cotos.",
            ),
        ),
        "en": (
            "Aragón's game: two pairs, six cards, stock then arrastre, to 101; partidas and cotos.",
            (
                "Rank: Ace, Three, King, Knave, Knight, 7… The knave is worth 3 and the knight "
                "2. Declare with king and knave.",
                "Six cards each; the upcard fixes trumps. Free play while the stock lasts.",
                "In the arrastre follow suit and beat, unless your partner holds the trick.",
                "The 7 of trumps takes the upcard (the 2 a low one) when your side wins a trick.",
                "101 wins the partida; if nobody gets there, de vueltas. Three partidas make a "
                "coto; the match is two cotos.",
            ),
        ),
    },
    "guinote_2p": {
        "es": (
            "Guiñote uno contra uno: seis cartas, catorce bazas con montón y seis de arrastre.",
            (
                "Como el guiñote de parejas, sin compañero: la sota vale 3, el caballo 2, se "
                "canta con rey y sota.",
                "Libre mientras hay montón; en el arrastre, asistir y montar.",
                "A 101; si nadie llega, de vueltas.",
            ),
        ),
        "en": (
            "Guiñote one against one: six cards, fourteen stock tricks and six in arrastre.",
            (
                "As partnership Guiñote without a partner: knave 3, knight 2, declare with king"
                " and knave.",
                "Free with the stock; follow and beat in the arrastre.",
                "To 101; if nobody reaches it, de vueltas.",
            ),
        ),
    },
    "tute_cabron": {
        "es": (
            "Cada uno para sí y sin triunfo hasta que un rey y un caballo del mismo palo caen "
            "en la misma baza.",
            (
                "Tres jugadores con 36 cartas o cuatro con 40. No hay triunfo al empezar.",
                "Cuando rey y caballo de un palo caen en la misma baza, quien la gana canta: el"
                " primer palo cantado es el triunfo (40), los siguientes 20.",
                "Pierde normalmente el del medio; quien no hace ninguna baza pierde siempre.",
                "Gana quien menos manos pierda cuando alguien llega al límite.",
            ),
        ),
        "en": (
            "Everyone for himself, no trumps until a king and knight of one suit fall in one "
            "trick.",
            (
                "Three players with 36 cards or four with 40. No trumps at the start.",
                "When king and knight of a suit fall in one trick its winner declares: the "
                "first suit declared is trumps (40), later ones 20.",
                "Normally the middle score loses; a player without a trick always loses.",
                "When someone reaches the limit, the fewest losses win.",
            ),
        ),
    },
    "tute_gana_pierde": {
        "es": (
            "Cada uno para sí y al revés: se trata de hacer pocos tantos, pero quien llega a "
            "101 sale ganando y pierden todos los demás.",
            (
                "Baraja de 40 cartas, todas repartidas: diez cada uno con cuatro, ocho con "
                "cinco; con tres, trece y una carta en la mesa.",
                "La última carta del que reparte marca el triunfo. Sale el mano y se juega "
                "hacia la derecha.",
                "Hay que asistir, montar y fallar, sin compañeros: eso hace difícil no llevarse"
                " tantos.",
                "Los cantes (20 y 40) y el tute son voluntarios: solo ayudan a quien va a por "
                "los 101.",
                "Si nadie llega a 101, pierde un juego el que más tantos tiene (con empate, "
                "todos los empatados). Si alguien llega, pierden todos los demás.",
                "Gana quien menos juegos pierda cuando alguien llega al límite.",
            ),
        ),
        "en": (
            "Everyone for himself and the other way round: take few points, but whoever reaches"
            " 101 goes out and everyone else loses.",
            (
                "40 cards, all dealt: ten each with four, eight with five; with three, thirteen"
                " and a table card.",
                "The dealer's last card fixes trumps. Mano leads and play goes to the right.",
                "Follow suit, beat and trump, with no partners: that is what makes taking few "
                "points hard.",
                "Declaring 20, 40 or a tute is up to you: it only helps someone heading for 101.",
                "If nobody reaches 101, the highest total loses a game (a tie: all of them). If"
                " someone does, all the others lose.",
                "When someone reaches the limit, the fewest losses win.",
            ),
        ),
    },
    "tute_cabrero": {
        "es": (
            "Más y menos, del Río de la Plata: nadie juega a ganar; sobrevive quien se va a más"
            " o a menos, y pierde el que queda en medio.",
            (
                "De tres a seis a la mesa, cada uno para sí; con seis descansa el que reparte. "
                "Se reparten las 40 cartas.",
                "La última carta repartida marca el triunfo. Se juega hacia la derecha y hay "
                "que asistir, montar y fallar.",
                "Quien gana una baza puede cantar 20 o 40; el tute acaba la mano y cada uno de "
                "los demás pierde un poroto.",
                "Capote: si uno se lleva todas las bazas y no cantó, pierden todos los demás; "
                "si cantó, pierde él.",
                "Si no, solo puede perder quien hizo baza: pierde el segundo en tantos (con "
                "empate, todos los empatados).",
                "Quien suma cuatro porotos se retira; los que quedan al final ganan.",
            ),
        ),
        "en": (
            "Más y menos, from the River Plate: nobody plays to win; you survive by going high "
            "or low, and the one left in the middle loses.",
            (
                "Three to six at the table, each for himself; with six the dealer sits out. All"
                " 40 cards are dealt.",
                "The last card dealt fixes trumps. Play goes to the right: follow suit, beat "
                "and trump.",
                "The trick winner may declare 20 or 40; a tute ends the deal and every other "
                "player loses a poroto.",
                "Capote: if one player takes every trick without having declared, all the "
                "others lose; if he declared, he loses.",
                "Otherwise only players who took a trick can lose: the second-highest total "
                "loses (ties: all of them).",
                "Four porotos and you retire; those left at the end win.",
            ),
        ),
    },
}


def describe(variant_id: str) -> dict[str, dict[str, object]]:
    """The words of a game for the page: {lang: {"desc": ..., "rules": [...]}}."""
    words = DESCRIPTIONS.get(variant_id, {})
    return {lang: {"desc": d, "rules": list(r)} for lang, (d, r) in words.items()}
