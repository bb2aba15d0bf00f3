// The side panel: the score of this deal and the match, de vueltas, the goal and which deal
// of how many, the auction or contract, the cantes, the last trick (beside the live one,
// never instead of it) and the move log, newest first with its real numbers.
import { t } from "./i18n.js";
import { esc } from "./util.js";
import { cardFace } from "./board.js";
import { goalText, dealOf } from "./sheet.js";
import { declName } from "./words.js";
import { w } from "./account.js";
import { houseRuleItems, houseRulesLine } from "./houserules.js";

export function sideHTML(C) {
  const T = C.T;
  const d = T.state.deal;
  const sides = d.card_points.length;
  const live = C.liveTotals();
  const score = T.state.score || T.state.games;
  const mine = C.mySide();
  const rows = [...Array(sides).keys()].map((sd) => `<tr class="${mine === sd ? "mine" : ""}">
    <th scope="row"><span class="side-name" title="${esc(C.sideName(sd))}">${esc(C.sideName(sd))}</span></th>
    <td>${live[sd] - (d.carry ? d.carry[sd] : 0)}</td>
    ${d.carry ? `<td>${live[sd]}</td>` : ""}
    <td>${score[sd] ?? 0}</td>${T.state.cotos ? `<td>${T.state.cotos[sd]}</td>` : ""}</tr>`).join("");
  const unit = t({ losses: "lostGames", balance: "balance" }[T.state.score_kind] || "games");
  const cantes = d.cantes.map(([s, decl, p]) => `<li>${esc(C.seatName(s))}: ${esc(declName(decl))} <b>${p}</b></li>`).join("");
  const last = lastTrickHTML(C);
  return `<table class="score"><thead><tr><th></th><th scope="col">${t("points")}</th>${d.carry ? `<th scope="col" title="${esc(t("vueltasTag"))}">${t("running")}</th>` : ""}<th scope="col">${esc(unit)}</th>${T.state.cotos ? `<th scope="col">${t("cotosCol")}</th>` : ""}</tr></thead>
      <tbody>${rows}</tbody></table>
    ${d.carry ? `<p class="vueltas-note">${t("vueltasNow", d.carry.map((c, sd) => `${esc(C.sideName(sd))} ${c}`).join(" · "))}</p>` : ""}
    <p class="goal"><b>${esc(dealOf(T.state))}</b> · ${esc(goalText(T.state.goal_info))}</p>
    ${houseRuleItems(T.info.variant, T.info.options).length ? `<p class="muted small house-line" id="house-line">${esc(t("houseRules"))}: ${esc(houseRulesLine(T.info))}</p>` : ""}
    ${contractHTML(C)}
    <h3>${t("cantes")}</h3>${cantes ? `<ul class="cantes">${cantes}</ul>` : `<p class="muted small">${t("cantesNone")}</p>`}
    <div class="side-buttons"><button class="ghost" data-do="last" id="last-btn" aria-expanded="${T.showLast}" ${last ? "" : "disabled"}>${T.showLast ? t("hideLastTrick") : t("lastTrick")}</button>
    <button class="ghost" data-do="sheet">${t("sheet")}</button>
    ${canLeave(T) ? `<button class="ghost danger" data-do="leave" id="leave-btn">${esc(w("leave"))}</button>` : ""}</div>
    ${T.rated ? `<p class="muted small rated-note" id="rated-note">${esc(w("rated_table"))}</p>` : ""}
    ${T.showLast && last ? last : ""}
    <details class="log" ${T.logOpen ? "open" : ""}><summary data-do="log-toggle">${t("log")}</summary><ol class="log-list">${T.log.slice(-40).reverse().map(([k, l]) => `<li value="${k}">${esc(l)}</li>`).join("")}</ol></details>`;
}

// A rated game in progress at which this visitor, logged in, holds a seat can be left.
function canLeave(T) {
  return !!(T.rated && T.account && T.seat !== null && !T.state.over && T.info?.status === "playing");
}

// Subastado: the bids so far, then the contract (declarer, bid, trumps).
function contractHTML(C) {
  const T = C.T, d = T.state.deal, seatName = C.seatName;
  if (d.contract) {
    const [decl, bid, took] = d.contract;
    return `<div class="contract"><b>${t("contract")}</b>: ${esc(seatName(decl))} · ${bid}${d.trump ? ` · ${t("trump")} ${t("suit_" + d.trump)}` : ""}${took ? ` · ${t("act_takeover")}` : ""}</div>`;
  }
  if (d.auction !== undefined && d.auction !== null) {
    const [bid, who] = d.auction;
    return `<div class="contract"><b>${t("topBid")}</b>: ${bid ? `${esc(seatName(who))} · ${bid}` : t("noBidYet")}</div>`;
  }
  if (T.info.game?.auction && !d.contract && !d.tricks.length) return `<div class="contract">${t("noBidYet")}</div>`;
  return "";
}

// The last trick, small, beside the trick in progress (which it never replaces).
function lastTrickHTML(C) {
  const T = C.T, d = T.state.deal, seatName = C.seatName;
  const last = d.tricks.length ? d.tricks[d.tricks.length - 1] : T.state.last_deal?.last_trick;
  if (!last) return "";
  return `<div class="last-trick" role="group" aria-label="${esc(t("lastTrickBy", seatName(last.winner)))}"><p>${esc(t("lastTrickBy", seatName(last.winner)))} (${last.points})</p>
    <div class="last-cards">${last.cards.map((c, i) => { const s = last.seats[i]; return `<figure class="${s === last.winner ? "winner" : ""}">${cardFace(c, "small")}<figcaption>${esc(seatName(s))}</figcaption></figure>`; }).join("")}</div></div>`;
}

