// The table page's one state object, T: what the server said (info, state, v), what the page
// shows (overlay, message, flash, log, chat) and its connection. Every part of the page
// (socket.js, render.js, input.js) reads and writes it; the browser tests read it as
// window.__tute. The functions here answer questions about it: names, sides, totals.
import { t, getLang } from "../i18n.js";
import { local, variantOf, blip } from "../util.js";
import { announcer } from "../words.js";
import { explainPref } from "../learn.js";

export function variantName(id) {
  const v = variantOf(id);
  if (!v) return id;
  return getLang() === "es" ? v.name : v.english;
}

export function tableState(id) {
  const held = local.seat(id);
  const T = {
    id, token: held?.token || null, seat: null, info: null, state: null, v: null,
    ws: null, queue: [], busy: false, flash: null, showLast: false, log: [], logN: 0,
    overlay: null, message: "", pending: false, closed: false, fatal: null, retry: 0,
    connected: false, chat: [], chatOpen: false, unread: 0, botAt: {}, from: null,
    rematch: null, rematchWaiting: false, skeleton: false, standIn: false,
    sideOpen: false, hint: null, hinting: false, hintN: 0, explain: explainPref.on,
    account: null, rated: null,  // the visitor's account ({name}), the table's rating terms
  };
  // the felt's notes and the screen reader's line, quiet once the page is left
  T.announce = announcer(() => T.closed);
  // what makes a sound (the browser tests put a spy in its place: no audio needed)
  T.blip = blip;
  return T;
}

// A sound, when the player turned them on (off by default; remembered in localStorage).
export function sound(T, kind) {
  if (local.sound) T.blip(kind);
}

// What the side panel and the dialogs draw from (side.js, dialogs.js).
export function context(T) {
  return {
    T, local,
    seatName: (s) => seatName(T, s),
    sideName: (side) => sideName(T, side),
    mySide: () => mySide(T),
    liveTotals: () => liveTotals(T),
    get title() { return title(T); },
  };
}

export function title(T) { return T.info ? variantName(T.info.variant) : "Tute"; }

export function seating(T) {
  const n = T.info.seats.length;
  return T.state?.seating || { seats: n, sides: n, partnerships: false, side_of: [...Array(n).keys()], idle: [] };
}

export function seatName(T, s) {
  const st = T.info?.seats?.[s];
  if (!st) return t("seatLabel", s + 1);
  if (st.kind === "open") return t("openSeat");
  return st.name || t("seatLabel", s + 1);
}

export function mySide(T) { return T.seat === null ? null : seating(T).side_of[T.seat]; }

// Partnerships and sides come from the server's seating (never from the seat count).
export function sideName(T, side) {
  const S = seating(T);
  const members = S.side_of.map((sd, s) => [sd, s]).filter(([sd]) => sd === side).map(([, s]) => s);
  if (S.partnerships) {
    if (T.seat === null) return members.map((s) => seatName(T, s)).join(" & ");
    return side === mySide(T) ? t("us") : t("them");
  }
  return seatName(T, members[0] ?? side);
}

// This deal's tantos per side: carried totals (de vueltas), card points and cantes.
export function liveTotals(T) {
  const d = T.state.deal;
  const S = seating(T);
  const out = d.card_points.map((p, sd) => p + (d.carry ? d.carry[sd] : 0));
  for (const [s, , p] of d.cantes) out[S.side_of[s]] += p;
  return out;
}

// Whether the game has a stock phase (its turned card may be exchanged during it).
export function stockGame(T) {
  const v = variantOf(T.info.variant);
  return !!v && v.options.includes("stock_phase_rule");
}
