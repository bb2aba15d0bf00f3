// The trick as a moment: a card travels from its player to the table, the finished trick
// stays with its winner marked and named, then goes to the winner. Everything here is the
// Web Animations API on elements already drawn; with prefers-reduced-motion the cards just
// appear (the pauses stay: they are for reading, not for show).
import { reducedMotion, sleep } from "./util.js";

// The pauses scale with localStorage "tute.pace" (1 by default; the browser tests use a small
// one so that whole deals fit in their time).
const PACE = Math.max(0.05, Math.min(2, Number(localStorage.getItem("tute.pace")) || 1));
export const TIMING = { fly: 320 * PACE, show: 1300 * PACE, showMine: 1000 * PACE, collect: 380 * PACE, note: PACE };

function center(r) { return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }

// Where a seat's cards come from and go to: the player's hand, or the seat's badge.
export function seatRect(root, seat, me) {
  if (seat === me) return root.querySelector("#hand")?.getBoundingClientRect() || null;
  const el = root.querySelector(`.seat[data-seat="${seat}"] .badge`);
  return el ? el.getBoundingClientRect() : null;
}

// Animate the card of `seat` in the trick from `from` (a rect) to where it lies.
export function flyIn(root, seat, from) {
  const el = root.querySelector(`.trick .played[data-seat="${seat}"] .card`);
  if (!el || !from || reducedMotion()) return Promise.resolve();
  const to = center(el.getBoundingClientRect()), f = center(from);
  const a = el.animate([
    { transform: `translate(${f.x - to.x}px, ${f.y - to.y}px) scale(.85)`, opacity: 0.6 },
    { transform: "none", opacity: 1 },
  ], { duration: TIMING.fly, easing: "cubic-bezier(.2,.7,.3,1)" });
  return a.finished.catch(() => {});
}

// The finished trick goes to its winner's place.
export async function collect(root, winnerRect) {
  const cards = [...root.querySelectorAll(".trick .played .card")];
  if (!cards.length || !winnerRect || reducedMotion()) return;
  const to = center(winnerRect);
  await Promise.all(cards.map((el) => {
    const f = center(el.getBoundingClientRect());
    return el.animate([
      { transform: "none", opacity: 1 },
      { transform: `translate(${to.x - f.x}px, ${to.y - f.y}px) scale(.35)`, opacity: 0 },
    ], { duration: TIMING.collect, easing: "ease-in", fill: "forwards" }).finished.catch(() => {});
  }));
}

export { sleep };

// A deal is dealt: the cards leave the pack, which lies on the felt before the dealer, and go
// round the table one at a time from the seat after the dealer, to the player's hand and to
// every other seat's fan of backs. Only pictures move (a hand card's SVG, a back): the cards
// lie where they are from the first frame, so they can be played at once. The whole deal
// takes about a second, however many cards. Returns what moves, for the browser tests:
// {moving: how many, from: the pack's point, seats: {seat: how many}}; nothing moves with
// prefers-reduced-motion. me: the player's seat (null: a spectator, every seat on the felt).
export function dealIn(root, { dealer, me, n }) {
  if (reducedMotion()) return { moving: 0, from: null, seats: {} };
  const from = packPoint(root, dealer, me);
  const got = [...Array(n).keys()].map((s) => [...root.querySelectorAll(s === me
    ? "#hand .hand-card .card-svg" : `#felt .seat[data-seat="${s}"] .fan .back`)]);
  const total = got.reduce((k, els) => k + els.length, 0);
  const step = total ? Math.min(45, 900 / total) : 0;
  const first = dealer === null || dealer === undefined ? 0 : (dealer + 1) % n;
  const seats = {};
  for (let p = 0; p < n; p++) {
    const s = (first + p) % n;
    got[s].forEach((el, k) => flyFrom(el, from, (k * n + p) * step));
    if (got[s].length) seats[s] = got[s].length;
  }
  return { moving: total, from, seats };
}

// The pack lies halfway from the middle of the felt to the dealer's place (the felt's bottom
// edge when the player deals); in the middle when no one deals.
function packPoint(root, dealer, me) {
  const felt = root.querySelector("#felt .felt")?.getBoundingClientRect();
  const mid = root.querySelector("#felt .trick")?.getBoundingClientRect();
  const c = mid ? center(mid) : felt ? center(felt) : { x: innerWidth / 2, y: innerHeight / 3 };
  let at = null;
  if (dealer !== null && dealer !== undefined && dealer === me) at = felt ? { x: c.x, y: felt.bottom } : null;
  else if (dealer !== null && dealer !== undefined) {
    const el = root.querySelector(`#felt .seat[data-seat="${dealer}"] .held`);
    at = el ? center(el.getBoundingClientRect()) : null;
  }
  return at ? { x: (c.x + at.x) / 2, y: (c.y + at.y) / 2 } : c;
}

// One card from the pack to where it lies, after `delay` ms; hidden until it leaves.
function flyFrom(el, from, delay) {
  const r = el.getBoundingClientRect();
  // a translation is in the element's own pixels: a fan drawn smaller scales it
  const k = el.offsetWidth ? r.width / el.offsetWidth : 1;
  const to = center(r);
  el.animate([
    { transform: `translate(${((from.x - to.x) / k).toFixed(1)}px, ${((from.y - to.y) / k).toFixed(1)}px) scale(.5)`, opacity: 0 },
    { opacity: 1, offset: 0.2 },
    { transform: "none", opacity: 1 },
  ], { id: "deal", duration: 320, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
}
