// Strings of the interface: Spanish first, English second. t(key, ...args) fills {0}, {1}…
const ES = {
  title: "Tute", tagline: "El juego de cartas español, en el navegador",
  yourName: "Tu nombre", namePlaceholder: "¿Cómo te llamas?",
  quickTitle: "Jugar contra bots", quickPlay: "Jugar ya",
  variant: "Juego", level: "Nivel", facil: "Fácil", medio: "Medio", dificil: "Difícil",
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
  tute_reyes: "Cantar tute de reyes", tute_caballos: "Cantar tute de caballos",
  tute_sotas: "Cantar tute de sotas", tute: "Cantar tute", cambio: "Cambiar {0} por la pinta",
  act_bid: "Pujar {0}", act_trump: "Triunfo: {0}", act_discard: "Descartar {0}",
  act_takeover: "Quedarse la puja (paga doble)", act_throw: "Tirar la mano", act_claim: "Reclamar renuncio",
  act_stop: "Cerrar: tengo 101", bidMore: "Otra puja", bidGo: "Pujar",
  suit_o: "oros", suit_c: "copas", suit_e: "espadas", suit_b: "bastos",
  rank_A: "as", rank_2: "dos", rank_3: "tres", rank_4: "cuatro", rank_5: "cinco",
  rank_6: "seis", rank_7: "siete", rank_S: "sota", rank_C: "caballo", rank_R: "rey",
  cardName: "{0} de {1}", vueltas: "de vueltas", reason_tute: "por tute",
  goal_series: "Serie de {0} manos", goal_race: "A {0} juegos", goal_games: "A {0} juegos",
  lostGames: "Perdidos", balance: "Saldo",
  goal_losses: "Pierde quien llegue a {0} juegos perdidos", goal_balance: "Gana quien llegue a {0} tantos",
  goal_balance_deals: "{0} manos; gana el saldo más alto",
  goal_cotos: "{0} partidas a coto · {1} cotos", noScoreYet: "—", side: "Bando {0}",
  info: "Mesa {0}", log: "Jugadas", closed: "Conexión cerrada: {0}",
};

const EN = {
  title: "Tute", tagline: "The Spanish card game, in your browser",
  yourName: "Your name", namePlaceholder: "What's your name?",
  quickTitle: "Play against bots", quickPlay: "Play now",
  variant: "Game", level: "Level", facil: "Easy", medio: "Medium", dificil: "Hard",
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
  tute_reyes: "Declare tute of kings", tute_caballos: "Declare tute of knights",
  tute_sotas: "Declare tute of knaves", tute: "Declare tute", cambio: "Exchange {0} for the upcard",
  act_bid: "Bid {0}", act_trump: "Trumps: {0}", act_discard: "Discard {0}",
  act_takeover: "Take over the bid (double stakes)", act_throw: "Throw in the hand", act_claim: "Claim a renuncio",
  act_stop: "Stop: I have 101", bidMore: "Another bid", bidGo: "Bid",
  suit_o: "coins", suit_c: "cups", suit_e: "swords", suit_b: "clubs",
  rank_A: "ace", rank_2: "two", rank_3: "three", rank_4: "four", rank_5: "five",
  rank_6: "six", rank_7: "seven", rank_S: "knave", rank_C: "knight", rank_R: "king",
  cardName: "{0} of {1}", vueltas: "de vueltas", reason_tute: "by tute",
  goal_series: "Series of {0} deals", goal_race: "Race to {0} games", goal_games: "First to {0} games",
  lostGames: "Lost", balance: "Balance",
  goal_losses: "Until someone loses {0} games; fewest losses wins", goal_balance: "First balance to {0}",
  goal_balance_deals: "{0} deals; highest balance wins",
  goal_cotos: "{0} games a coto · {1} cotos", noScoreYet: "—", side: "Side {0}",
  info: "Table {0}", log: "Moves", closed: "Connection closed: {0}",
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
  if (a.startsWith("cambio:")) return t("cambio", cardName(a.slice(7)));
  if (/^[A234567SCR][oceb]$/.test(a)) return cardName(a);
  return a;
}

// The engine's refusals ({code, params}) in the page's language, worded by the server's own
// catalogue (GET /api/messages/{lang}, built from tute.i18n): nothing here translates English.
const CATALOGUES = {};
function loadCatalogue(l) {
  if (CATALOGUES[l] === undefined) {
    CATALOGUES[l] = null;
    fetch(`/api/messages/${l}`).then((r) => (r.ok ? r.json() : null))
      .then((c) => { if (c) CATALOGUES[l] = c; }).catch(() => {});
  }
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
