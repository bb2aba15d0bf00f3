// The table's WebSocket (docs/protocol.md): the hello, the server's messages kept exact in T
// with the deltas, and the updates shown one at a time, so that a trick can be a moment.
import { t, cardName, errorText } from "../i18n.js";
import { sleep, applyDelta, local, CARD_RE } from "../util.js";
import { app, nav } from "../shell.js";
import { legalText } from "../hand.js";
import { flyIn, collect, seatRect, TIMING } from "../trick.js";
import { lineText } from "../chat.js";
import { eventLine, FELT } from "../words.js";
import { hintText } from "../learn.js";
import { seatName, sideName, sound } from "./state.js";
import { render } from "./render.js";

const PROTOCOL = 2;

export function connect(T) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(T.id)}`);
  T.ws = ws;
  ws.onopen = () => {
    T.retry = 0;
    const hello = { type: "hello", protocol: PROTOCOL };
    if (T.token) hello.token = T.token;
    if (T.v !== null) hello.since = T.v;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    onMessage(T, m);
  };
  ws.onclose = () => {
    T.connected = false;
    if (T.closed || T.fatal) return;
    render(T);
    const wait = Math.min(5000, 400 * 2 ** T.retry++);
    setTimeout(() => { if (!T.closed) connect(T); }, wait);
  };
}

export function send(T, msg) {
  if (T.ws && T.ws.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify(msg));
}

// ---------------------------------------------------------------- words: log, felt, screen readers

const eventText = (T, e) => eventLine(e, (s) => seatName(T, s), T.seat);

function logLine(T, line) {
  T.logN += 1;
  T.log.push([T.logN, line]);
  if (T.log.length > 80) T.log.shift();
}

function onEvents(T, events, prev) {
  const { note } = T.announce;
  for (const e of events) {
    const line = eventText(T, e);
    if (line) logLine(T, line);
    if (FELT.has(e.e) && line) note(line, e.e === "Declared" ? "cante" : "");
    else if (e.e === "Passed" && T.info.game?.auction && line) note(line);
  }
  const d = T.state.deal, p = prev?.deal;
  // the end of the stock: the strict duties of the arrastre start now
  if (p && p.stock_count > 0 && d.stock_count === 0 && prev.deal_number === T.state.deal_number) {
    note(t(T.info.game?.stock_over || "stockOver"), "phase");
  }
  if (prev && T.state.deal_number !== prev.deal_number && d.carry) vueltasNote(T);
}

// A bot made a decision for a human seat: its turn clock ran out ("clock"), or it was gone
// and the stand-in held the seat ("away"). The player is told, until they act themselves;
// the others read it in the log when a clock ran out.
function standIn(T, u) {
  const mine = u.seat === T.seat && T.seat !== null;
  if (!mine && u.stand_in !== "clock") return;
  const line = mine ? t("standInYou") : t("standInFor", seatName(T, u.seat));
  logLine(T, line);
  if (mine) { T.standIn = true; T.announce.note(line, "phase"); }
}

function vueltasNote(T) {
  const tot = T.state.deal.carry.map((c, sd) => `${sideName(T, sd)} ${c}`).join(" · ");
  T.announce.note(t("vueltasNow", tot), "phase");
}

// ---------------------------------------------------------------- messages

function setSeats(T, seats) {
  T.info.seats = seats;
  const now = performance.now();
  T.botAt = {};
  seats.forEach((s, i) => { if (s.bot_in !== null && s.bot_in !== undefined) T.botAt[i] = now + s.bot_in * 1000; });
}

function welcome(T, m) {
  const first = !T.state;
  T.connected = true;
  if (m.table) { T.info = m.table; setSeats(T, m.table.seats); }
  if (m.seat !== undefined) T.seat = m.seat;
  (m.missed || []).forEach((u) => {
    u.events.forEach((e) => { const l = eventText(T, e); if (l) logLine(T, l); });
    if (u.stand_in && u.seat === T.seat && T.seat !== null) { logLine(T, t("standInYou")); T.standIn = true; }
  });
  if (m.chat) T.chat = m.chat;
  T.state = m.state; T.v = m.v; T.pending = false; T.queue = [];
  if (T.state.over) T.overlay = "match";
  render(T);
  if (first && T.state.deal.carry && !T.state.over) vueltasNote(T);
}

function refused(T, m) {
  T.pending = false;
  if (m.ref && m.ref.startsWith("hint")) T.hinting = false;
  if (m.fatal) {
    if (m.code === "bad_token") { local.forget(T.id); T.token = null; return; }
    T.fatal = errorText(m.code, m.reason);
    render(T);
    return;
  }
  if (m.code === "stale") { send(T, { type: "sync", since: T.v ?? 0 }); return; }
  T.rematchWaiting = false;
  T.message = errorText(m.code, m.reason, m.refusal, T.seat);
  T.announce.say(T.message);
  sound(T, "refused");
  render(T);
}

export function onMessage(T, m) {
  const { say } = T.announce;
  switch (m.type) {
    case "welcome":
    case "catchup":
      welcome(T, m);
      break;
    case "update":
      T.queue.push(m);
      pump(T);
      break;
    case "seats":
      if (T.info) { setSeats(T, m.seats); T.info.status = m.status; }
      render(T);
      break;
    case "chat":
      T.chat.push(m);
      if (T.chat.length > 50) T.chat.shift();
      if (!T.chatOpen) T.unread += 1;
      say(`${m.name || seatName(T, m.seat)}: ${lineText(m)}`);
      render(T);
      break;
    case "hint":
      T.hinting = false;
      if (m.v === T.v) { T.hint = m; say(hintText(m)); }
      render(T);
      break;
    case "rematch":
      T.rematch = m;
      if (m.token) local.keep(m.id, m.seat, m.token, T.info.variant);
      if (T.rematchWaiting && m.token) { nav(m.url); return; }
      render(T);
      break;
    case "error":
      refused(T, m);
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------- updates, one at a time

// Updates are shown one by one. A card flies from its player to the table; a finished trick
// stays with its winner marked and named, then goes to the winner.
async function pump(T) {
  if (T.busy) return;
  T.busy = true;
  while (T.queue.length && !T.closed) {
    const u = T.queue.shift();
    if (T.v !== null && u.v <= T.v) continue;
    await show(T, u);
  }
  T.busy = false;
}

async function show(T, u) {
  const { say } = T.announce;
  const prev = T.state;
  const trick = u.events.find((e) => e.e === "TrickTaken");
  const ended = u.events.find((e) => e.e === "DealEnded");
  const plays = u.events.filter((e) => e.e === "CardPlayed");
  // where each card comes from, measured before the redraw moves anything
  const froms = plays.map((e) => [e.seat, T.from && T.from.card === e.card ? T.from.rect : seatRect(app, e.seat, T.seat)]);
  T.from = null;
  if (u.seat === T.seat) T.pending = false;
  T.state = applyDelta(T.state, u.delta); T.v = u.v;
  if (u.kind === "action") T.message = "";
  onEvents(T, u.events, prev);
  if (u.stand_in) standIn(T, u);
  else if (u.seat === T.seat && u.kind === "action") T.standIn = false;  // they act again
  plays.forEach((e) => say(t("played", seatName(T, e.seat), cardName(e.card))));
  if (plays.length) sound(T, "card");
  if (trick) {
    T.flash = { cards: trick.cards.map((c, i) => [trick.seats[i], c]), winner: null };
    render(T);
    await Promise.all(froms.map(([s, r]) => flyIn(app, s, r)));
    T.flash.winner = trick.winner;
    T.flash.points = trick.points;
    render(T);
    sound(T, "trick");
    say(trick.winner === T.seat ? t("trickWinnerYou", trick.points) : t("trickWinner", seatName(T, trick.winner), trick.points));
    await sleep(T.state.deal.to_move === T.seat ? TIMING.showMine : TIMING.show);
    await collect(app, seatRect(app, trick.winner, T.seat));
    T.flash = null;
  } else if (plays.length) {
    render(T);
    await Promise.all(froms.map(([s, r]) => flyIn(app, s, r)));
  }
  if (ended) T.overlay = T.state.over ? "match" : "deal";
  render(T);
  const d = T.state.deal;
  if (d.to_move === T.seat && T.seat !== null && !T.state.over) {
    sound(T, "turn");
    if (!T.queue.length) say(legalText(d.legal_actions.filter((a) => CARD_RE.test(a))));
  }
}
