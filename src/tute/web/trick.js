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

// A deal starts: the hand's cards come in from the middle of the felt one after another, and
// the other hands' backs appear with them. Only the pictures move (the card's SVG, the back):
// the cards themselves lie where they are from the first frame, so they can be played at once.
// Returns how many things move (none with prefers-reduced-motion).
export function dealIn(root) {
  if (reducedMotion()) return 0;
  const mid = root.querySelector("#felt .trick")?.getBoundingClientRect();
  const from = mid ? center(mid) : { x: innerWidth / 2, y: innerHeight / 3 };
  const hand = [...root.querySelectorAll("#hand .hand-card .card-svg")];
  hand.forEach((el, i) => {
    const to = center(el.getBoundingClientRect());
    el.animate([
      { transform: `translate(${from.x - to.x}px, ${from.y - to.y}px) scale(.4)`, opacity: 0 },
      { transform: "none", opacity: 1 },
    ], { duration: 300, delay: 50 * i, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  });
  const backs = [...root.querySelectorAll("#felt .fan .back")];
  backs.forEach((el, i) => {
    el.animate([{ transform: "translateY(-8px)", opacity: 0 }, { transform: "none", opacity: 1 }],
      { duration: 200, delay: 25 * i, easing: "ease-out", fill: "backwards" });
  });
  return hand.length + backs.length;
}
