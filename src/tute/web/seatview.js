// One seat's view of a deal drawn outside a table (puzzles, the deal of the day): the felt as
// the seat sees it and its hand; the server sends the view (the public deal with this seat's
// hand, legal actions and refusals) and its seating, as at a table.
import { t } from "./i18n.js";
import { esc, CARD_RE } from "./util.js";
import { app } from "./shell.js";
import { boardHTML } from "./board.js";
import { handHTML, actionButtons } from "./hand.js";

// "You", "Partner", "Opponent 1"... (the opponents in playing order after the seat)
export function seatNameOf(me, S, s) {
  if (s === me) return t("you");
  if (S.partnerships && S.side_of[s] === S.side_of[me]) return t("lessonPartner");
  const them = [...Array(S.seats).keys()].map((k) => (me + k) % S.seats).filter((k) => S.side_of[k] !== S.side_of[me]);
  return them.length > 1 ? t("lessonRival", them.indexOf(s) + 1) : t("lessonRival", "").trim();
}

// the trick in play, or the last one taken with its winner marked
export function feltHTML(me, state, open) {
  const d = state.deal, S = state.seating, n = S.seats;
  let trick = d.trick, winner = null;
  const last = d.tricks.length ? d.tricks[d.tricks.length - 1] : null;
  if (!trick.length && last) { trick = last.cards.map((c, i) => [last.seats[i], c]); winner = last.winner; }
  return boardHTML({
    n, me, bottom: false, names: [...Array(n).keys()].map((s) => seatNameOf(me, S, s)), status: Array(n).fill(""),
    hands: [], sizes: d.hand_sizes, trick, winner, toMove: open ? d.to_move : null,
    dealer: d.dealer, mano: d.mano, idle: S.idle, trump: d.trump, upcard: d.upcard,
    stockCount: d.stock_count, tableCard: d.table_card, noTrump: !d.trump && !d.trump_card,
    trumpCard: d.upcard ? null : d.trump_card,
  });
}

// the seat's line (its turn, the points) and its hand; ``hint`` marks a card
export function meHTML(me, state, open, el, hint = null) {
  const d = state.deal, S = state.seating;
  const myTurn = open && d.to_move === me;
  const legal = new Set(myTurn ? d.legal_actions : []);
  const buttons = myTurn ? d.legal_actions.filter((a) => !CARD_RE.test(a)) : [];
  const avail = Math.max(200, (el.clientWidth || app.clientWidth || innerWidth) - 8);
  const totals = d.card_points.map((p, sd) => p + (d.carry ? d.carry[sd] : 0));
  for (const [s, , p] of d.cantes) totals[S.side_of[s]] += p;
  const mine = S.side_of[me];
  const score = totals.map((p, sd) => `${sd === mine ? t(S.partnerships ? "us" : "you") : t(S.partnerships ? "them" : "lessonRival", "")} ${p}`).join(" · ");
  return `<div class="me-line ${myTurn ? "to-move" : ""}"><span class="who">${esc(t("you"))}</span>
      <span class="turn">${myTurn ? `<b class="your-turn">${t("yourTurn")}</b>` : ""}</span>
      <span class="lesson-score" id="seat-score">${t("points")}: ${esc(score)}</span></div>
    ${buttons.length ? `<div class="actions">${actionButtons(buttons)}</div>` : ""}
    <div class="hand" id="hand">${handHTML(d.hand, { legal, myTurn, avail, vw: innerWidth, hint, why: null })}</div>`;
}
