// The lobby's one state object, L: the choices in its forms, the lists the server gives (open
// and live tables, the history, the lessons) and what holds a redraw back.
import { local, variantOf } from "../util.js";
import { seatCount } from "./forms.js";

export function lobbyState() {
  const L = {
    quickVariant: "tute_parejas", quickLevel: "medio", quickLength: 0, variant: "tute_parejas",
    seats: null, length: 0, public: true, chat: true, hints: false, clock: 0, opts: {}, rulesOpen: false, joinError: "",
    open: [], live: [], hist: [], lessons: [],
    gone: false,  // a list that arrives after the lobby was left must not draw it again
    pressed: false, owed: false, lastLists: "",
  };
  L.seats = defaultSeats(L);
  return L;
}

export function defaultSeats(L) {
  return ["you", ...Array(seatCount(variantOf(L.variant), L.opts) - 1).fill("open")];
}

// the visitor's own unfinished tables, the latest first
export function mine() {
  return Object.entries(local.seats()).sort((a, b) => b[1].at - a[1].at).slice(0, 6);
}
