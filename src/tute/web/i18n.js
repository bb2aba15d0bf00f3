// Strings of the interface: Spanish first, English second. t(key, ...args) fills {0}, {1}…
const ES = {
  title: "Tute", tagline: "El juego de cartas español, en el navegador",
  yourName: "Tu nombre", namePlaceholder: "¿Cómo te llamas?",
  quickTitle: "Jugar contra bots", quickPlay: "Jugar ya",
  variant: "Juego", level: "Nivel", facil: "Fácil", medio: "Medio", dificil: "Difícil", maestro: "Maestro",
  createTitle: "Crear una mesa", seats: "Asientos", seat: "Asiento {0}",
  you: "Tú", open: "Libre (amigo)", bot: "Bot {0}", public: "Mesa pública (aparece en la lista)",
  create: "Crear mesa", joinTitle: "Unirse con un código", code: "Código", join: "Unirse",
  openTables: "Mesas abiertas", noOpenTables: "No hay mesas abiertas ahora.",
  sit: "Sentarse", watch: "Mirar", history: "Partidas terminadas",
  noHistory: "Todavía no se ha terminado ninguna partida.", replay: "Ver", download: "Descargar",
  myGames: "Tus partidas", resume: "Volver", options: "Opciones",
  matchLength: "Duración", seriesOf: "{0} manos", seriesOf1: "Una sola mano", raceTo: "A {0} juegos", gamesTo: "A {0} juegos",
  cotos: "{0} partidas por coto, {1} cotos",
  lobby: "Salón", sound: "Sonido", soundOn: "Sonido: sí", soundOff: "Sonido: no",
  lang: "English", trump: "Triunfo", stock: "Montón", stockCount: "{0} en el montón",
  yourTurn: "Te toca", waitingFor: "Esperando a {0}…", lastTrick: "Última baza",
  hideLastTrick: "Ocultar baza", points: "Tantos", games: "Juegos", matchScore: "Marcador",
  us: "Nosotros", them: "Ellos", cantes: "Cantes", dealN: "Mano {0}",
  dealOver: "Fin de la mano", matchOver: "Fin de la partida", continue: "Seguir",
  youWin: "¡Habéis ganado!", youWin1: "¡Has ganado!", youLose: "Habéis perdido",
  youLose1: "Has perdido", winnerIs: "Gana {0}", cardPoints: "Puntos de cartas",
  lastTrickBonus: "Diez de últimas", total: "Total", deals: "manos",
  waitingSeats: "Esperando jugadores", invite: "Invita a tus amigos con este enlace o código:",
  copy: "Copiar", copied: "¡Copiado!", fillBots: "Completar con bots y empezar",
  openSeat: "libre", away: "ausente · juega un bot", offline: "desconectado",
  connecting: "Conectando…", reconnecting: "Reconectando…", spectating: "Estás mirando",
  joinPrompt: "Hay un asiento libre en esta mesa.", backToLobby: "Volver al salón",
  notFound: "Esa mesa no existe.", error: "Error", playAgain: "Otra partida",
  illegal: "No puedes: {0}", dragHint: "Toca o arrastra una carta para jugarla",
  replayTitle: "Repetición", prev: "Anterior", next: "Siguiente", play: "Reproducir",
  pause: "Pausa", start: "Inicio", end: "Final", step: "Jugada {0} de {1}",
  played: "{0} juega {1}", won: "{0} gana la baza ({1})", declared: "{0} canta {1}",
  exchanged: "{0} cambia {1} por {2}", passed: "{0} pasa", drew: "{0} roba {1}",
  dealEnded: "Termina la mano", mano: "mano", dealer: "reparte", seatLabel: "Jugador {0}",
  pass: "Paso", cuarenta: "Cantar las cuarenta", veinte: "Cantar las veinte en {0}",
  declareWhat: "Cantar {0}", veinteHidden: "las veinte (palo sin enseñar)",
  tute_reyes: "Cantar tute de reyes", tute_caballos: "Cantar tute de caballos",
  tute_sotas: "Cantar tute de sotas", tute: "Cantar tute", cambio: "Cambiar {0} por la pinta",
  act_bid: "Pujar {0}", act_trump: "Triunfo: {0}", act_discard: "Descartar {0}",
  act_takeover: "Quedarse la puja (paga doble)", act_throw: "Tirar la mano", act_claim: "Reclamar renuncio",
  act_stop: "Cerrar: tengo 101", bidMore: "Otra puja", bidGo: "Pujar",
  suit_o: "oros", suit_c: "copas", suit_e: "espadas", suit_b: "bastos",
  rank_A: "as", rank_2: "dos", rank_3: "tres", rank_4: "cuatro", rank_5: "cinco",
  rank_6: "seis", rank_7: "siete", rank_S: "sota", rank_C: "caballo", rank_R: "rey",
  cardName: "{0} de {1}", vueltas: "de vueltas", reason_tute: "por tute",
  lostGames: "Perdidos", balance: "Saldo",
  noScoreYet: "—", side: "Bando {0}",
  info: "Mesa {0}", log: "Jugadas", closed: "Conexión cerrada: {0}",
  us2: "Nosotros", cotosCol: "Cotos", noTrumpYet: "Sin triunfo todavía", sheet: "Anotador", sheetTitle: "Anotador", dealOfN: "Mano {0} de {1}",
  thisDeal: "Esta mano", carried: "Traen", running: "Llevan", cumulative: "Acumulado",
  vueltasNext: "Nadie llega a 101: se juega de vueltas", vueltasNow: "De vueltas: {0}",
  vueltasTag: "de vueltas", trickWinner: "Gana la baza {0} (+{1})", trickWinnerYou: "Ganas la baza (+{0})",
  stockOver: "Se acabó el montón: ahora hay que asistir, montar y fallar",
  stockOverGuinote: "Arrastre: se acabó el montón; hay que asistir y montar",
  announceCante: "{0} canta {1} (+{2})", announceExchange: "{0} cambia {1} por la muestra",
  announceBid: "{0} puja {1}", announcePass: "{0} pasa", announceContract: "Contrato: {0} juega {1}",
  announceTrump: "{0} elige triunfo: {1}", announceTakeover: "{0} se queda la puja de {1}: {2} (paga doble)",
  announceThrown: "{0} tira la mano", announceRenuncio: "{0} reclama renuncio", renuncioOk: "con razón", renuncioBad: "sin razón",
  contract: "Contrato", declarer: "Juega", bid: "Puja", topBid: "Puja más alta", noBidYet: "Nadie ha pujado",
  contractMade: "Contrato cumplido", contractFailed: "Contrato fallado", sitsOut: "descansa",
  tableCard: "Carta de la mesa", stockLeft: "Montón: {0}", botIn: "un bot juega en {0} s", clockLeft: "⏱ {0} s",
  playsLegal: "Te toca. Puedes jugar: {0}", liveTrick: "Baza", lastTrickBy: "Última baza: gana {0}",
  lobbyRules: "Reglas", rulesTitle: "Reglas: {0}", help: "Ayuda", helpTitle: "Cómo se juega",
  helpPage: "Toca una carta dorada para jugarla (o arrástrala a la mesa). Con el teclado: Tab y flechas, Intro para jugar.",
  houseRules: "Reglas de la casa", defaultsNote: "Por defecto: {0}", resetRules: "Restablecer",
  grp_match: "Duración y tanteo", grp_play: "Obligaciones de juego", grp_cantes: "Cantes",
  grp_exchange: "Cambio de la muestra", grp_auction: "Subasta", grp_deal: "Reparto", grp_other: "Otras",
  yes: "sí", no: "no", none: "ninguno", chat: "Charla", chatOn: "Charla en la mesa", hintsOn: "Pistas para todos («¿Qué jugarías?»)", termsHints: "Pistas para todos: cada jugador puede preguntar «¿Qué jugarías?»", termsNoHints: "Sin pistas (juegan personas)", clockLabel: "Reloj por jugada", clockNone: "sin reloj", clockSecs: "{0} s (luego juega un bot)", chatOff: "La charla está desactivada en esta mesa",
  chatPlaceholder: "Escribe un mensaje…", send: "Enviar", quick: "Frases",
  ph_hola: "¡Hola!", ph_bien: "¡Bien jugado!", ph_suerte: "¡Suerte!", ph_gracias: "Gracias",
  ph_uy: "¡Uy!", ph_otra: "¿Otra partida?", ph_adios: "¡Hasta luego!", ph_espera: "Un momento, por favor",
  rematchWait: "Preparando la revancha…", liveTables: "Partidas en juego", noLive: "No hay partidas públicas en juego.",
  myHistory: "Tus partidas terminadas", noMyHistory: "Aún no has terminado ninguna partida.",
  gameWon: "Ganaste", gameLost: "Perdiste", noWinner: "Sin ganador", abandoned: "abandonada", joinError: "No hay ninguna mesa con ese código.",
  codeShort: "Un código tiene 8 letras o números.", aboutGame: "El juego", gameFor: "{0} jugadores",
  trickStep: "Baza {0}", prevTrick: "Baza anterior", nextTrick: "Baza siguiente",
  cantesNone: "Sin cantes todavía", seats2: "Jugadores", watching: "{0} mirando",
  firstLoad: "", pts: "{0} tantos", of: "de", closeBtn: "Cerrar", rulesLink: "Ver las reglas",
  err_generic: "Algo ha fallado: {0}",
  hintBtn: "¿Qué jugarías?", hintWait: "Pensando…", hintSays: "Yo jugaría: {0}",
  explain: "Explicar", explainOn: "Explicar las obligaciones: sí", explainOff: "Explicar las obligaciones: no",
  obligation: "Ahora: {0}", ob_lead: "sales tú: cualquier carta vale", ob_free: "libre: cualquier carta vale",
  ob_must_follow: "asistir al palo", ob_must_answer_trump: "responder al arrastre con triunfo",
  ob_must_beat: "montar (superar la baza)", ob_must_trump: "fallar (sin palo, triunfo)",
  ob_must_overtrump: "montar el triunfo (pisar)", ob_must_play_trump: "jugar triunfo",
  ob_other: "primero, otra decisión", ob_and: " y ",
  analysis: "Análisis", analysisTitle: "Análisis", analysisOf: "Análisis · {0}",
  analysisMeasure: "Medida: doble muerto (el resolvedor exacto, con todas las manos a la vista), mientras llega la de búsqueda (pimc: lo que cada jugador podía saber desde su asiento).",
  analysisMeasureSearch: "Errores según la búsqueda (pimc desde lo que sabía cada jugador: {0} repartos posibles por decisión, semilla {1}); al lado, la pérdida a doble muerto (todas las manos a la vista).",
  analysisMeasurePartial: "Errores según la búsqueda (pimc, {0} repartos posibles por decisión) hasta donde llegó en su tiempo ({1} s por partida); en las demás decisiones, doble muerto (todas las manos a la vista).",
  analysisMeasureOff: "Medida: doble muerto (el resolvedor exacto, con todas las manos a la vista). Este servidor no hace la búsqueda (pimc): «tute analyze».",
  analysisMeasureFailed: "Medida: doble muerto (el resolvedor exacto, con todas las manos a la vista). La búsqueda (pimc) ha fallado en esta partida.",
  searchRunning: "Analizando con la búsqueda: mano {0} de {1} · {2} %", searchRunning1: "Analizando con la búsqueda: {0} %",
  searchQueued: "La búsqueda espera su turno ({0} partidas delante)…", searchStarting: "La búsqueda empieza enseguida…",
  searchBusy: "El servidor está ocupado: la búsqueda empezará en cuanto pueda.",
  ddBetter: "doble muerto: mejor era {0} (+{1})", ddSame: "doble muerto: también la mejor", ddNone: "doble muerto: —",
  ddOnly: "solo a doble muerto", chartMarks: "● error según la búsqueda · ○ error solo a doble muerto (las cartas no estaban donde se podía esperar)",
  searchCol: "Búsqueda", ddCol: "Doble muerto", decisionsShort: "Dec.", lossShort: "Pérd.", accuracyShort: "Prec.",
  summaryNote: "Pérd.: tantos perdidos por decisión. Prec.: decisiones a {0} tantos o menos de la mejor.", gameSummary: "Toda la partida",
  analysisChart: "Margen esperado de {0} a lo largo de la mano (con juego perfecto desde cada decisión)",
  analysisChartSeat: "Margen esperado de cada jugador en sus decisiones",
  analysisMistakes: "Errores", analysisNoMistakes: "Ningún error de más de {0} tantos.",
  betterWas: "Baza {0} · {1} jugó {2}: mejor era {3} (+{4})",
  analysisSummary: "Resumen por jugador", decisionsCol: "Decisiones", lossCol: "Tantos perdidos por decisión",
  accuracyCol: "Precisión", analysisNone: "El resolvedor no cubre ninguna decisión de esta mano.",
  analysisWait: "Analizando la partida…", dealPick: "Mano",
  learnTitle: "Aprende a jugar", learnLine: "Lecciones cortas en la mesa: las obligaciones, los cantes, el cambio del siete, el arrastre, el diez de últimas y las vueltas.",
  lessonStep: "Paso {0} de {1}", lessonDone: "¡Lección terminada!", lessonRestart: "Empezar de nuevo",
  lessonNext: "Siguiente", lessonPartner: "Compañero", lessonRival: "Rival {0}",
};

const EN = {
  title: "Tute", tagline: "The Spanish card game, in your browser",
  yourName: "Your name", namePlaceholder: "What's your name?",
  quickTitle: "Play against bots", quickPlay: "Play now",
  variant: "Game", level: "Level", facil: "Easy", medio: "Medium", dificil: "Hard", maestro: "Master",
  createTitle: "Create a table", seats: "Seats", seat: "Seat {0}",
  you: "You", open: "Open (a friend)", bot: "Bot {0}", public: "Public table (listed in the lobby)",
  create: "Create table", joinTitle: "Join with a code", code: "Code", join: "Join",
  openTables: "Open tables", noOpenTables: "No open tables right now.",
  sit: "Sit down", watch: "Watch", history: "Finished games",
  noHistory: "No game has finished yet.", replay: "Replay", download: "Download",
  myGames: "Your games", resume: "Resume", options: "Options",
  matchLength: "Length", seriesOf: "{0} deals", seriesOf1: "A single deal", raceTo: "Race to {0} games", gamesTo: "First to {0} games",
  cotos: "{0} games per coto, {1} cotos",
  lobby: "Lobby", sound: "Sound", soundOn: "Sound: on", soundOff: "Sound: off",
  lang: "Español", trump: "Trumps", stock: "Stock", stockCount: "{0} in the stock",
  yourTurn: "Your turn", waitingFor: "Waiting for {0}…", lastTrick: "Last trick",
  hideLastTrick: "Hide trick", points: "Points", games: "Games", matchScore: "Score",
  us: "Us", them: "Them", cantes: "Declarations", dealN: "Deal {0}",
  dealOver: "End of the deal", matchOver: "End of the match", continue: "Continue",
  youWin: "Your side wins!", youWin1: "You win!", youLose: "Your side lost",
  youLose1: "You lost", winnerIs: "{0} wins", cardPoints: "Card points",
  lastTrickBonus: "Last trick bonus", total: "Total", deals: "deals",
  waitingSeats: "Waiting for players", invite: "Invite your friends with this link or code:",
  copy: "Copy", copied: "Copied!", fillBots: "Fill with bots and start",
  openSeat: "open", away: "away · a bot plays", offline: "offline",
  connecting: "Connecting…", reconnecting: "Reconnecting…", spectating: "You are watching",
  joinPrompt: "There is an open seat at this table.", backToLobby: "Back to the lobby",
  notFound: "That table does not exist.", error: "Error", playAgain: "Play again",
  illegal: "Not allowed: {0}", dragHint: "Tap or drag a card to play it",
  replayTitle: "Replay", prev: "Previous", next: "Next", play: "Play",
  pause: "Pause", start: "Start", end: "End", step: "Move {0} of {1}",
  played: "{0} plays {1}", won: "{0} takes the trick ({1})", declared: "{0} declares {1}",
  exchanged: "{0} exchanges {1} for {2}", passed: "{0} passes", drew: "{0} draws {1}",
  dealEnded: "The deal is over", mano: "leads", dealer: "deals", seatLabel: "Player {0}",
  pass: "Pass", cuarenta: "Declare forty", veinte: "Declare twenty in {0}",
  declareWhat: "Declare {0}", veinteHidden: "twenty (suit not shown)",
  tute_reyes: "Declare tute of kings", tute_caballos: "Declare tute of knights",
  tute_sotas: "Declare tute of knaves", tute: "Declare tute", cambio: "Exchange {0} for the upcard",
  act_bid: "Bid {0}", act_trump: "Trumps: {0}", act_discard: "Discard {0}",
  act_takeover: "Take over the bid (double stakes)", act_throw: "Throw in the hand", act_claim: "Claim a renuncio",
  act_stop: "Stop: I have 101", bidMore: "Another bid", bidGo: "Bid",
  suit_o: "coins", suit_c: "cups", suit_e: "swords", suit_b: "clubs",
  rank_A: "ace", rank_2: "two", rank_3: "three", rank_4: "four", rank_5: "five",
  rank_6: "six", rank_7: "seven", rank_S: "knave", rank_C: "knight", rank_R: "king",
  cardName: "{0} of {1}", vueltas: "de vueltas", reason_tute: "by tute",
  lostGames: "Lost", balance: "Balance",
  noScoreYet: "—", side: "Side {0}",
  info: "Table {0}", log: "Moves", closed: "Connection closed: {0}",
  us2: "Us", cotosCol: "Cotos", noTrumpYet: "No trumps yet", sheet: "Score sheet", sheetTitle: "Score sheet", dealOfN: "Deal {0} of {1}",
  thisDeal: "This deal", carried: "Carried", running: "Running", cumulative: "Total",
  vueltasNext: "Nobody reached 101: a deal de vueltas follows", vueltasNow: "De vueltas: {0}",
  vueltasTag: "de vueltas", trickWinner: "{0} takes the trick (+{1})", trickWinnerYou: "You take the trick (+{0})",
  stockOver: "The stock is over: now you must follow suit, head and trump",
  stockOverGuinote: "Arrastre: the stock is over; follow suit and head the trick",
  announceCante: "{0} declares {1} (+{2})", announceExchange: "{0} exchanges {1} for the upcard",
  announceBid: "{0} bids {1}", announcePass: "{0} passes", announceContract: "Contract: {0} plays {1}",
  announceTrump: "{0} names trumps: {1}", announceTakeover: "{0} takes over {1}'s bid: {2} (double stakes)",
  announceThrown: "{0} throws in the hand", announceRenuncio: "{0} claims a revoke", renuncioOk: "rightly", renuncioBad: "wrongly",
  contract: "Contract", declarer: "Declarer", bid: "Bid", topBid: "Top bid", noBidYet: "No bid yet",
  contractMade: "Contract made", contractFailed: "Contract failed", sitsOut: "sits out",
  tableCard: "Table card", stockLeft: "Stock: {0}", botIn: "a bot plays in {0} s", clockLeft: "⏱ {0} s",
  playsLegal: "Your turn. You may play: {0}", liveTrick: "Trick", lastTrickBy: "Last trick: {0} took it",
  lobbyRules: "Rules", rulesTitle: "Rules: {0}", help: "Help", helpTitle: "How to play",
  helpPage: "Tap a golden card to play it (or drag it onto the table). Keyboard: Tab and arrows, Enter to play.",
  houseRules: "House rules", defaultsNote: "Default: {0}", resetRules: "Reset",
  grp_match: "Length and scoring", grp_play: "Play duties", grp_cantes: "Declarations",
  grp_exchange: "Exchanging the upcard", grp_auction: "Auction", grp_deal: "Dealing", grp_other: "Other",
  yes: "yes", no: "no", none: "none", chat: "Chat", chatOn: "Table chat", hintsOn: "Hints for everyone (“What would you play?”)", termsHints: "Hints for everyone: any player may ask “What would you play?”", termsNoHints: "No hints (people play here)", clockLabel: "Turn clock", clockNone: "no clock", clockSecs: "{0} s (then a bot plays)", chatOff: "Chat is turned off at this table",
  chatPlaceholder: "Write a message…", send: "Send", quick: "Phrases",
  ph_hola: "Hello!", ph_bien: "Well played!", ph_suerte: "Good luck!", ph_gracias: "Thanks",
  ph_uy: "Oops!", ph_otra: "Another game?", ph_adios: "See you!", ph_espera: "One moment, please",
  rematchWait: "Setting up the rematch…", liveTables: "Games being played", noLive: "No public game is being played.",
  myHistory: "Your finished games", noMyHistory: "You have not finished a game yet.",
  gameWon: "You won", gameLost: "You lost", noWinner: "No winner", abandoned: "abandoned", joinError: "No table has that code.",
  codeShort: "A code has 8 letters or digits.", aboutGame: "The game", gameFor: "{0} players",
  trickStep: "Trick {0}", prevTrick: "Previous trick", nextTrick: "Next trick",
  cantesNone: "No declarations yet", seats2: "Players", watching: "{0} watching",
  firstLoad: "", pts: "{0} points", of: "of", closeBtn: "Close", rulesLink: "Read the rules",
  err_generic: "Something went wrong: {0}",
  hintBtn: "What would you play?", hintWait: "Thinking…", hintSays: "I would play: {0}",
  explain: "Explain", explainOn: "Explain the duties: on", explainOff: "Explain the duties: off",
  obligation: "Now: {0}", ob_lead: "your lead: any card will do", ob_free: "free: any card will do",
  ob_must_follow: "follow suit", ob_must_answer_trump: "answer the trump lead with a trump",
  ob_must_beat: "beat the trick", ob_must_trump: "trump (void in the suit)",
  ob_must_overtrump: "overtrump", ob_must_play_trump: "play a trump",
  ob_other: "first, another decision", ob_and: " and ",
  analysis: "Analysis", analysisTitle: "Analysis", analysisOf: "Analysis · {0}",
  analysisMeasure: "Measure: double dummy (the exact solver, every hand known), until the search's comes (pimc: what each player could know from their seat).",
  analysisMeasureSearch: "Mistakes by the search (pimc from what each player knew: {0} possible deals a decision, seed {1}); beside them, the double-dummy loss (every hand known).",
  analysisMeasurePartial: "Mistakes by the search (pimc, {0} possible deals a decision) as far as it got in its time ({1} s a game); elsewhere, double dummy (every hand known).",
  analysisMeasureOff: "Measure: double dummy (the exact solver, every hand known). This server does not run the search (pimc): “tute analyze”.",
  analysisMeasureFailed: "Measure: double dummy (the exact solver, every hand known). The search (pimc) failed on this game.",
  searchRunning: "Analysing with the search: deal {0} of {1} · {2} %", searchRunning1: "Analysing with the search: {0} %",
  searchQueued: "The search waits for its turn ({0} games ahead)…", searchStarting: "The search starts in a moment…",
  searchBusy: "The server is busy: the search will start as soon as it can.",
  ddBetter: "double dummy: better was {0} (+{1})", ddSame: "double dummy: the best too", ddNone: "double dummy: —",
  ddOnly: "double dummy only", chartMarks: "● a mistake by the search · ○ a mistake double dummy only (the cards were not where one could expect)",
  searchCol: "Search", ddCol: "Double dummy", decisionsShort: "Dec.", lossShort: "Lost", accuracyShort: "Acc.",
  summaryNote: "Lost: points lost per decision. Acc.: decisions within {0} points of the best.", gameSummary: "The whole game",
  analysisChart: "{0}'s expected margin through the deal (perfect play from each decision)",
  analysisChartSeat: "Each player's expected margin at their decisions",
  analysisMistakes: "Mistakes", analysisNoMistakes: "No mistake of more than {0} points.",
  betterWas: "Trick {0} · {1} played {2}: better was {3} (+{4})",
  analysisSummary: "Summary per player", decisionsCol: "Decisions", lossCol: "Points lost per decision",
  accuracyCol: "Accuracy", analysisNone: "The solver covers no decision of this deal.",
  analysisWait: "Analysing the game…", dealPick: "Deal",
  learnTitle: "Learn to play", learnLine: "Short lessons at the table: the duties, the cantes, exchanging the seven, the arrastre, the last ten and de vueltas.",
  lessonStep: "Step {0} of {1}", lessonDone: "Lesson complete!", lessonRestart: "Start again",
  lessonNext: "Next", lessonPartner: "Partner", lessonRival: "Opponent {0}",
};

const DICTS = { es: ES, en: EN };
let lang = localStorage.getItem("tute.lang") || "es";
if (!DICTS[lang]) lang = "es";

export function getLang() { return lang; }
export function setLang(l) {
  lang = DICTS[l] ? l : "es";
  loadCatalogue(lang);
  localStorage.setItem("tute.lang", lang);
  document.documentElement.lang = lang;
}
document.documentElement.lang = lang;

export function t(key, ...args) {
  const s = DICTS[lang][key] ?? EN[key] ?? key;
  return s.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ""));
}

export function cardName(card) {
  const rank = card.slice(0, -1), suit = card.slice(-1);
  return t("cardName", t("rank_" + rank), t("suit_" + suit));
}

// A label for any action in record notation; an unknown kind shows as its notation.
export function actionLabel(a) {
  if (a === "pass") return t("pass");
  if (a.startsWith("bid:")) return t("act_bid", a.slice(4));
  if (a.startsWith("trump:")) return t("act_trump", t("suit_" + a.slice(6)));
  if (a.startsWith("discard:")) return t("act_discard", cardName(a.slice(8)));
  const token = { takeover: "act_takeover", throw: "act_throw", renuncio: "act_claim", stop: "act_stop" }[a];
  if (token) return t(token);
  if (a === "cuarenta" || a.startsWith("tute")) return t(a);
  if (a.startsWith("veinte:")) return t("veinte", t("suit_" + a.slice(7)));
  // another seat's 20 whose suit is not told (guinote_hide_arrastre_suit): the server's words
  if (a === "veinte") return t("declareWhat", canteWord("veinte") || t("veinteHidden"));
  if (a.startsWith("cambio:")) return t("cambio", cardName(a.slice(7)));
  if (/^[A234567SCR][oceb]$/.test(a)) return cardName(a);
  return a;
}

// The engine's refusals ({code, params}) in the page's language, worded by the server's own
// catalogue (GET /api/messages/{lang}, built from tute.i18n): nothing here translates English.
const CATALOGUES = {};
const LOADING = {};
function loadCatalogue(l) {
  if (CATALOGUES[l] === undefined) {
    CATALOGUES[l] = null;
    LOADING[l] = fetch(`/api/messages/${l}`).then((r) => (r.ok ? r.json() : null))
      .then((c) => { if (c) CATALOGUES[l] = c; }).catch(() => {});
  }
}
// Resolves once the page's language has its catalogue (or it could not be had): a page that
// words data by it (the goals of the lobby's lengths) waits for it before it draws.
export function wordsReady() { return LOADING[lang] || Promise.resolve(); }

// A cante the page has no notation of its own for, as the server's catalogue names it
// (tute.i18n.catalogue: "cantes"); undefined until the catalogue has come.
function canteWord(kind) {
  const cat = CATALOGUES[lang];
  return cat && cat.cantes ? cat.cantes[kind] : undefined;
}

// The match goal ({kind, n...}: goal_info) in the page's language, worded by the server's
// catalogue as tute.i18n.goal_text words it; "" until the catalogue has come.
export function goalWords(g) {
  const cat = CATALOGUES[lang];
  const spec = cat && cat.goals && cat.goals[g.kind];
  if (!spec) return "";
  return spec.text.replace(/\{(\w+)\}/g, (_, k) => String(g[spec.params[k]] ?? ""));
}

// ------------------------------------------------------------------ server messages by code

// The server's `reason` is English for people and logs: the page shows its own words for the
// stable `code`, and the English reason only for a code it does not know.
const ERRORS = {
  es: {
    not_found: "Esa mesa no existe o ya caducó.", table_full: "Hay demasiada gente mirando esta mesa.",
    replaced: "Has abierto este asiento en otra ventana.", rate_limited: "Demasiado deprisa: espera un momento.",
    not_seated: "Estás mirando: no puedes jugar aquí.", not_started: "La partida aún no ha empezado.",
    over: "La partida ha terminado.", not_your_turn: "No es tu turno.", bad_action: "Esa jugada no se entiende.",
    not_host: "Solo quien creó la mesa puede hacer eso.", not_waiting: "La partida ya ha empezado.",
    storage: "El servidor no pudo guardar la jugada; inténtalo otra vez.", chat_off: "La charla está desactivada en esta mesa.",
    not_finished: "La partida aún no ha terminado.", no_open_seat: "No queda ningún asiento libre.",
    seat_taken: "Ese asiento ya está ocupado.", busy: "El servidor está lleno; prueba dentro de un rato.",
    unavailable: "Los datos de esta mesa están dañados.", server_full: "El servidor está lleno; prueba dentro de un rato.",
    too_many_connections: "Demasiadas conexiones desde tu dirección.", bad_token: "Ese asiento ya no es tuyo.",
    protocol: "Esta página es antigua: recárgala.", bad_message: "Mensaje no válido.", too_long: "Mensaje demasiado largo.",
    hints_off: "En esta mesa no hay pistas: juegan otras personas.", hint_failed: "No se pudo calcular la pista; prueba otra vez.",
    bad_table: "No se puede crear esa mesa: {0}", bad_request: "Petición no válida: {0}", timeout: "Se agotó el tiempo.",
  },
  en: {
    hints_off: "No hints at this table: other people play here.", hint_failed: "No hint could be computed; try again.",
    rate_limited: "Too fast: wait a moment.",
  },
};

export function errorText(code, reason, refusal, you) {
  const table = ERRORS[lang] || {};
  // a refusal is worded from the server's catalogue (its code and parameters), never by
  // translating the English reason
  if (refusal) return code === "illegal" ? t("illegal", refusalText(refusal, reason || "", you))
    : refusalText(refusal, reason || "", you);
  if (code === "illegal") return t("illegal", reason || "");
  if (table[code]) return table[code].replace("{0}", reason || "");
  return reason || code || "?";
}

// ------------------------------------------------------------------ house rules

// Each game's description and rules come with the game (util.js gameInfo, tute.games).

// The engine's options: their labels and lines come with their specs (tute.i18n.option_words).
const OPT_GROUPS = {
  match: "match", games_to_win: "match", loss_limit: "match", partidas_per_coto: "match", cotos_to_win: "match",
  match_target: "match", match_deals: "match", two_games_threshold: "match", two_games_rule: "match",
  scoring_2p: "match", scoring_3p: "match", both_over: "match", multi_over: "match", vueltas_claim: "match",
  tie_break: "match", settlement: "match", thirty_malas: "match", players: "match", seats: "match",
  partner_exemption: "play", must_undertrump: "play", must_head_after_ruff: "play", stock_phase_rule: "play",
  renuncio_mode: "play", renuncio_penalty: "play", hand_size: "play",
  cante_by: "cantes", forty_first: "cantes", cante_restriction: "cantes", cante_before_draw: "cantes",
  guinote_hide_arrastre_suit: "cantes",
  tute_enabled: "cantes", tute_award: "cantes", tute_dealt_wins_immediately: "cantes",
  exchange_timing: "exchange", exchange_last_round_allowed: "exchange", exchange_two_enabled: "exchange",
  two_exchanges_four: "exchange", exchange_mandatory: "exchange", exchange_side_requirement: "exchange",
  widow_card: "auction", min_bid: "auction", bid_step: "auction", auction_rounds: "auction", all_pass: "auction",
  dealer_takeover: "auction", takeover_increment: "auction", double_at_bid: "auction", declarer_leads: "auction",
  cantes_declarer_only: "auction",
  next_dealer: "deal", first_dealer: "deal", deal_packet: "deal", reshuffle: "deal", weak_hand_max_points: "deal",
  misdeal_passes_after: "deal",
};
const CHOICES_ES = {
  free: "libre", follow_trump_lead: "responder al arrastre", follow_suit: "asistir", full: "asistir y montar",
  trick_winner: "el que gana la baza", winning_side_one: "un jugador del bando", winning_side_each: "cada jugador del bando",
  enforce: "obligatorio", forfeit: "se pierde", off: "no", none: "ninguna", forfeit_if_skipped_first: "se pierde si no se canta en la primera",
  first_win_only: "solo en la primera baza ganada", deal: "la mano", two_games: "dos juegos", match: "la partida", partida: "la partida",
  after_winning_before_draw: "tras ganar, antes de robar", start_and_after_win: "al empezar y tras ganar", own_turn_any: "en su turno",
  won_this_trick: "el bando que ganó la baza", any_trick_won: "quien haya ganado alguna baza", last_trick: "la última baza",
  mano_side: "el bando mano", replay: "se repite", total: "total", rs: "rs", target_101: "a 101", per_deal: "por mano",
  highest: "el más alto", auto: "al momento", manual: "reclamándolo", end_of_deal: "al final de la mano",
  losses: "perdidos", winner_per_deal: "ganador por mano", payments: "pagos", points: "tantos", single: "una vuelta",
  open: "abierta", redeal: "repartir de nuevo", mano_forced: "juega el mano", rotate: "por turno",
  last_trick_winner: "el de la última baza", random: "al azar", first_king: "a reyes", two_of_oros_mano: "el dos de oros es mano",
  prevent: "se impide", claim: "se reclama", lose_deal: "pierde la mano", two_games_swing: "dos juegos",
  series: "serie de manos", race: "carrera a juegos",
};

export function optionLabel(spec) {
  const [label, line] = spec.words?.[lang] || spec.words?.en || [spec.name, spec.doc];
  return { label, line };
}
export function optionGroup(name) { return OPT_GROUPS[name] || "other"; }
export function choiceLabel(v) {
  if (v === null) return t("none");
  if (v === true) return t("yes");
  if (v === false) return t("no");
  if (lang === "es" && CHOICES_ES[v]) return CHOICES_ES[v];
  return String(v).replace(/_/g, " ");
}

loadCatalogue(lang);

// The refusal in words (as tute.i18n.refusal_text), else the server's English reason.
export function refusalText(refusal, reason, you) {
  const cat = CATALOGUES[lang];
  const tpl = cat && refusal && cat.refusals[refusal.code];
  if (!tpl) return reason;
  const p = { ...refusal.params };
  const mine = you !== null && you !== undefined && p.seat === you && cat.refusals[refusal.code + ".you"];
  for (const k of cat.suit_params) if (k in p) p[k] = cat.suits[p[k]];
  if ("poll" in p) p.poll = cat.refusals["poll." + p.poll];
  return (mine || tpl).replace(/\{(\w+)\}/g, (_, k) => String(p[k] ?? ""));
}
