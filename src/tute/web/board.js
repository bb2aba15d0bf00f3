// The felt: the other seats around it, the trick in the middle, the trump and the stock.
import { t, cardName } from "./i18n.js";
import { cardSVG, backSVG } from "./cards.js";
import { esc } from "./util.js";
import { cardMini } from "./shell.js";

// Where a seat sits on screen, seen from `me`: bottom, right, top, left (play passes to the right).
export function position(seat, me, n) {
  const rel = (seat - me + n) % n;
  if (n === 2) return rel === 0 ? "bottom" : "top";
  if (n === 3) return ["bottom", "right", "left"][rel];
  return ["bottom", "right", "top", "left"][rel];
}

// why: a line added to the card's title (the explain mode's reason it may not be played)
export function cardFace(c, cls = "", attrs = "", why = "") {
  const title = why ? `${cardName(c)}: ${why}` : cardName(c);
  // a button is named by its text (the picture's corner numbers are no part of the name); a
  // card on the felt is a named picture
  if (attrs.includes('role="button"')) {
    return `<div class="card ${cls}" data-card="${c}" title="${esc(title)}" ${attrs}>${cardSVG(c)}<span class="sr-only">${esc(title)}</span></div>`;
  }
  return `<div class="card ${cls}" data-card="${c}" title="${esc(title)}" role="img" aria-label="${esc(title)}" ${attrs}>${cardSVG(c)}</div>`;
}

export function backs(n, max = 10) {
  let out = "";
  for (let i = 0; i < Math.min(n, max); i++) out += `<div class="card back" aria-hidden="true">${backSVG()}</div>`;
  return out;
}

// Another seat's hand: as many backs as the server says it holds (drawn in CSS: small
// overlapping rounded cards), fanned on a desktop, stacked tight on a phone.
export function fanHTML(n) {
  return `<div class="fan" aria-hidden="true" data-n="${n}">${'<span class="back"></span>'.repeat(Math.max(0, n))}</div>`;
}

function seatHTML(m, s, pos) {
  const tags = [];
  if (s === m.mano) tags.push(t("mano"));
  if (s === m.dealer) tags.push(t("dealer"));
  if (m.idle?.includes(s)) tags.push(t("sitsOut"));
  if (m.levels?.[s]) tags.push(t("botLevel", m.levels[s].toLowerCase()));
  const status = m.status?.[s] || "";
  const size = m.sizes[s] || 0;
  const cards = m.open && m.hands[s]
    ? `<div class="open-hand">${m.hands[s].map((c) => cardFace(c, "small")).join("")}</div>`
    : `<div class="held">${fanHTML(size)}<span class="count">${size}</span></div>`;
  return `<div class="seat pos-${pos} ${m.toMove === s ? "to-move" : ""} ${m.winner === s ? "took" : ""}" data-seat="${s}">
    <div class="badge"><span class="who" title="${esc(m.names[s])}">${esc(m.names[s])}</span>
      ${m.partner === s ? `<span class="tag partner">${t("partnerTag")}</span>` : ""}
      ${tags.length ? `<span class="tag">${tags.join(" · ")}</span>` : ""}
      ${status ? `<span class="status" data-status="${s}">${status.html ?? esc(status)}</span>` : ""}</div>
    ${cards}</div>`;
}

// The trump: the upcard under the stock (with the count beside it), the dealer's turned card
// while it is still in his hand, arrastrado's table card, or else the suit alone (after the
// stock, the upcard is in someone's hand: it may have been exchanged, so no card is shown).
function trumpHTML(m) {
  const label = m.trump ? `<span class="label">${t("trump")}: ${t("suit_" + m.trump)}</span>` : "";
  if (m.upcard) {
    return `<div class="trumpbox"><div class="upcard">${cardFace(m.upcard, "table")}</div>
      ${m.stockCount > 1 ? `<div class="stock">${backs(1)}</div>` : ""}
      <span class="stock-count">${t("stockLeft", m.stockCount)}</span>${label}</div>`;
  }
  if (m.tableCard) {
    return `<div class="trumpbox"><div class="upcard flat">${cardFace(m.tableCard, "table")}</div>
      <span class="label">${t("tableCard")}</span>${label}</div>`;
  }
  if (m.trumpCard) {
    return `<div class="trumpbox"><div class="upcard">${cardFace(m.trumpCard, "table")}</div>${label}</div>`;
  }
  if (m.trump) {
    return `<div class="trumpbox"><span class="suit-only">${cardMini("A" + m.trump)}</span>${label}</div>`;
  }
  return m.noTrump ? `<div class="trumpbox"><span class="label">${t("noTrumpYet")}</span></div>` : "";
}

// model: {n, me, bottom (draw the bottom seat on the felt: spectators), names[], status[],
//         hands[], sizes[], open, trick [[seat, card]], winner, fresh (the seat whose card
//         was just played: the replay marks it), toMove, dealer, mano, idle[],
//         trump, trumpCard, upcard, stockCount, tableCard}
export function boardHTML(m) {
  let seats = "";
  for (let s = 0; s < m.n; s++) {
    const pos = position(s, m.me, m.n);
    if (pos === "bottom" && !m.bottom) continue;  // the player's own hand is drawn below
    seats += seatHTML(m, s, pos);
  }
  const trick = (m.trick || []).map(([s, c]) =>
    `<div class="played from-${position(s, m.me, m.n)} ${m.winner === s ? "winner" : ""} ${m.fresh === s ? "fresh" : ""}" data-seat="${s}">${cardFace(c, "table")}
     <span class="by">${esc(m.names[s])}</span></div>`).join("");
  return `<div class="felt n${m.n} ${m.bottom ? "with-bottom" : ""}">${seats}
    <div class="center"><div class="trick" role="group" aria-label="${t("liveTrick")}">${trick}</div>${trumpHTML(m)}</div></div>`;
}
