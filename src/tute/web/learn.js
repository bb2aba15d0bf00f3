// Learning at the table: the hint button ("¿Qué jugarías?", the server's `hint`) and the
// explain mode, which says which duty applies now and why each greyed card may not be played
// (the engine's own refusals, sent to the seat to move as `deal.refusals`).
import { t, actionLabel, cardName, cardThe, refusalText, getLang } from "./i18n.js";
import { esc } from "./util.js";

const KEY = "tute.explain";

export const explainPref = {
  get on() { try { return localStorage.getItem(KEY) === "1"; } catch { return false; } },
  set on(v) { try { localStorage.setItem(KEY, v ? "1" : "0"); } catch { /* private mode */ } },
};

// Hints are offered where every other seat is a bot, or at tables made with hints.
export function hintsAllowed(info, seat) {
  if (!info || seat === null) return false;
  return !!info.hints || info.seats.every((s, i) => i === seat || s.kind === "bot");
}

// The answer of a hint: what to play, and the reason in the page's language.
export function hintText(hint) {
  const r = hint.reason || {};
  const why = r[getLang()] || r.es || "";
  return `${t("hintSays", actionLabel(hint.action))}${why ? ` — ${why}` : ""}`;
}

// The buttons above the hand on the player's turn: the hint (where allowed) and the toggle.
export function learnButtons({ canHint, pending, explain }) {
  const hint = canHint ? `<button class="ghost learn-btn" data-do="hint" id="hint-btn" ${pending ? "disabled" : ""}>${pending ? t("hintWait") : t("hintBtn")}</button>` : "";
  return `${hint}<button class="ghost learn-btn" data-do="explain" id="explain-btn" aria-pressed="${explain}"
    title="${esc(t(explain ? "explainOn" : "explainOff"))}">${t("explain")}</button>`;
}

// The server sends each reason once with the cards it greys: [{code, params, cards}].
function byCard(deal) {
  const out = {};
  for (const r of deal.refusals || []) for (const c of r.cards) out[c] = r;
  return out;
}

// The duty that applies now, as the server tells it (tute.refusals.duty: the engine's refusals
// know it): the line always in view on the player's turn.
export function dutyText(duty) {
  if (!duty) return "";
  const p = duty.params || {};
  const suit = (letter) => t("suit_" + letter);
  switch (duty.code) {
    case "lead": return t("duty_lead");
    case "free": return t("duty_free");
    case "follow": return t("duty_follow", suit(p.suit));
    case "beat": return t("duty_beat", suit(p.card.slice(-1)), cardThe(p.card));
    case "trump": return t("duty_trump", suit(p.suit), suit(p.trump));
    case "overtrump": return t("duty_overtrump", cardThe(p.card));
    default: return "";
  }
}

// The explain panel: each reason with the cards it greys (the duty has its own line).
export function explainHTML(deal, seat) {
  const groups = new Map();
  for (const [card, r] of Object.entries(byCard(deal))) {
    const why = refusalText(r, r.code, seat);
    if (!groups.has(why)) groups.set(why, []);
    groups.get(why).push(card);
  }
  const rows = [...groups].map(([why, cards]) => `<li><b>${cards.map((c) => esc(cardName(c))).join(", ")}</b>: ${esc(why)}</li>`).join("");
  return `<div class="explain" id="explain">${rows ? `<ul class="why">${rows}</ul>` : `<p class="small">${esc(dutyText(deal.duty))}</p>`}</div>`;
}

// A card's reason, for its title (hovering or a screen reader).
export function refusalOf(deal, card, seat) {
  const r = byCard(deal)[card];
  return r ? refusalText(r, r.code, seat) : "";
}
