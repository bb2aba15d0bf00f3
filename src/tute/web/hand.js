// The player's hand: cards that overlap as the width needs, but each keeps a strip at least
// 44 px wide to tap (a second row when one row cannot give that), and that play by click,
// drag, or the keyboard.
import { t, cardName } from "./i18n.js";
import { cardFace } from "./board.js";
import { esc } from "./util.js";
import { actionLabel } from "./i18n.js";

export const MIN_HIT = 44;  // a finger's target (WCAG 2.5.5)

function cardWidth(width) {
  // the CSS card size, as a number: phones get bigger cards than the felt's
  return width <= 820 ? Math.round(Math.min(72, Math.max(50, 0.17 * width))) : Math.round(Math.min(92, Math.max(54, 0.074 * width)));
}

// Rows of cards and the horizontal step between card starts, so that step >= MIN_HIT.
export function handLayout(n, avail, vw) {
  const cw = cardWidth(vw);
  for (let rows = 1; rows <= 4; rows++) {
    const per = Math.ceil(n / rows);
    const step = per > 1 ? Math.min(cw * 0.82, (avail - cw) / (per - 1)) : cw;
    if (step >= MIN_HIT || rows === 4) return { cw, rows, per, step: Math.max(step, MIN_HIT) };
  }
  return { cw, rows: 1, per: n, step: cw };
}

// opts: {legal: Set, myTurn, avail: px available, vw: viewport width}
export function handHTML(cards, opts) {
  if (!cards.length) return "";
  const L = handLayout(cards.length, opts.avail, opts.vw);
  const rows = [];
  for (let i = 0; i < cards.length; i += L.per) rows.push(cards.slice(i, i + L.per));
  const overlap = Math.round(L.step - L.cw);
  return rows.map((row) => `<div class="hand-row" style="--cw:${L.cw}px;--gap:${overlap}px">${row.map((c) => {
    const state = opts.myTurn ? (opts.legal.has(c) ? "legal" : "illegal") : "";
    // illegal cards stay pressable (the answer says why) but are announced as unavailable
    const dis = opts.myTurn && opts.legal.has(c) ? "" : 'aria-disabled="true"';
    const hinted = opts.hint === c ? " hinted" : "";
    const why = opts.why ? opts.why(c) : "";
    return cardFace(c, `hand-card ${state}${hinted}`, `tabindex="0" role="button" ${dis}`, why);
  }).join("")}</div>`).join("");
}

export function legalText(legal) {
  return t("playsLegal", [...legal].map((c) => cardName(c)).join(", "));
}

// Click a card to play it, or drag it up onto the table; from the keyboard, Enter or Space
// plays the focused card and the arrow keys move along the hand.
export function bindHand(root, play) {
  const cards = [...root.querySelectorAll(".hand-card")];
  cards.forEach((el, i) => {
    el.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        play(el.dataset.card, el);
      } else if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
        ev.preventDefault();
        cards[(i + (ev.key === "ArrowLeft" ? -1 : 1) + cards.length) % cards.length].focus();
      }
    });
    let start = null;
    el.addEventListener("pointerdown", (ev) => {
      start = { x: ev.clientX, y: ev.clientY };
      el.setPointerCapture(ev.pointerId);
    });
    el.addEventListener("pointermove", (ev) => {
      if (!start) return;
      const dx = ev.clientX - start.x, dy = ev.clientY - start.y;
      if (Math.abs(dx) + Math.abs(dy) > 6) {
        el.classList.add("dragging");
        el.style.transform = `translate(${dx}px, ${dy}px)`;
      }
    });
    const end = (ev, cancel) => {
      if (!start) return;
      const dy = ev.clientY - start.y, dx = ev.clientX - start.x;
      const moved = Math.abs(dx) + Math.abs(dy) > 6;
      start = null;
      const rect = el.getBoundingClientRect();
      el.classList.remove("dragging");
      el.style.transform = "";
      if (cancel) return;
      if (!moved || dy < -50) play(el.dataset.card, el, rect);
    };
    el.addEventListener("pointerup", (ev) => end(ev, false));
    el.addEventListener("pointercancel", (ev) => end(ev, true));
  });
}

export function focusOf(root) {
  const el = document.activeElement;
  if (!el || !el.classList.contains("hand-card")) return null;
  const cards = [...root.querySelectorAll(".hand-card")];
  return { card: el.dataset.card, index: cards.indexOf(el) };
}

// Re-rendering replaces the hand: keep the keyboard focus on the same card (or the one now
// at its place) so a keyboard player is not thrown back to the top of the page.
export function restoreFocus(root, f) {
  if (!f) return;
  const cards = [...root.querySelectorAll(".hand-card")];
  if (!cards.length || document.querySelector(".overlay")) return;
  const same = cards.find((c) => c.dataset.card === f.card);
  (same || cards[Math.min(f.index, cards.length - 1)]).focus();
}

// Subastado offers every bid up to 230: a few buttons, the rest in a list.
export function actionButtons(actions, hint = null) {
  const btn = (a) => `<button class="action-btn${a === hint ? " hinted" : ""}" data-action="${esc(a)}">${esc(actionLabel(a))}</button>`;
  const bids = actions.filter((a) => a.startsWith("bid:"));
  const rest = actions.filter((a) => !a.startsWith("bid:"));
  let html = rest.map(btn).join("") + bids.slice(0, 4).map(btn).join("");
  if (bids.length > 4) {
    html += `<select id="bid-more" aria-label="${esc(t("bidMore"))}">${bids.slice(4).map((b) => `<option value="${esc(b)}">${esc(b.slice(4))}</option>`).join("")}</select>
      <button class="action-btn" data-do="bid-more" type="button">${esc(t("bidGo"))}</button>`;
  }
  return html;
}

