// Learning at the table: the hint button ("¿Qué jugarías?", the server's `hint`) and the
// explain mode, which says which duty applies now and why each greyed card may not be played
// (the engine's own refusals, sent to the seat to move as `deal.refusals`).
import { t, actionLabel, cardName, refusalText, getLang } from "./i18n.js";
import { esc, CARD_RE } from "./util.js";

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

const DUTIES = ["must_follow", "must_answer_trump", "must_beat", "must_trump", "must_overtrump", "must_play_trump"];

// The server sends each reason once with the cards it greys: [{code, params, cards}].
function byCard(deal) {
  const out = {};
  for (const r of deal.refusals || []) for (const c of r.cards) out[c] = r;
  return out;
}

// The duty that applies now, from the refusals of the hand's cards.
export function obligationText(deal) {
  const codes = new Set((deal.refusals || []).map((r) => r.code));
  const duties = DUTIES.filter((c) => codes.has(c)).map((c) => t("ob_" + c));
  if (duties.length) return t("obligation", duties.join(t("ob_and")));
  if (codes.size) return t("obligation", t("ob_other"));
  const cards = (deal.legal_actions || []).filter((a) => CARD_RE.test(a));
  if (!cards.length) return "";
  return t("obligation", t(deal.trick.length ? "ob_free" : "ob_lead"));
}

// The explain panel: the duty, then each reason with the cards it greys.
export function explainHTML(deal, seat) {
  const groups = new Map();
  for (const [card, r] of Object.entries(byCard(deal))) {
    const why = refusalText(r, r.code, seat);
    if (!groups.has(why)) groups.set(why, []);
    groups.get(why).push(card);
  }
  const rows = [...groups].map(([why, cards]) => `<li><b>${cards.map((c) => esc(cardName(c))).join(", ")}</b>: ${esc(why)}</li>`).join("");
  return `<div class="explain" id="explain"><p class="duty">${esc(obligationText(deal))}</p>${rows ? `<ul class="why">${rows}</ul>` : ""}</div>`;
}

// A card's reason, for its title (hovering or a screen reader).
export function refusalOf(deal, card, seat) {
  const r = byCard(deal)[card];
  return r ? refusalText(r, r.code, seat) : "";
}
