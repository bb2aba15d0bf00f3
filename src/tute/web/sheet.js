// The score sheet (anotador): deal by deal, what each side made and scored, running totals,
// which deal of how many, and the goal. Built from the server's `sheet` rows.
import { goalWords, t } from "./i18n.js";
import { esc } from "./util.js";
import { ICONS } from "./icons.js";

export function goalText(g) {
  if (!g) return "";
  if (g.kind === "series" && g.n === 1) return t("seriesOf1");
  return goalWords(g);  // (never the English fallback on a Spanish page)
}

// "Mano 3 de 6" when the match has a fixed number of deals, else "Mano 3".
export function dealOf(state) {
  const g = state.goal_info || {};
  const n = state.deal_number;
  if ((g.kind === "series" || g.kind === "balance_deals") && g.n >= n) return t("dealOfN", n, g.n);
  return t("dealN", n);
}

// What a deal scored for side sd, in the match's own unit.
function award(row, kind, sd) {
  if (kind === "losses") return row.losses ? row.losses[sd] : 0;
  if (kind === "balance") return row.balances ? row.balances[sd] : 0;
  return row.games ? row.games[sd] : 0;
}

const signed = (x) => (x > 0 ? `+${x}` : String(x));

// live: this deal's running total per side so far (carried totals, card points and cantes)
export function sheetHTML(state, sideName, live) {
  const rows = state.sheet || [];
  const sides = (state.deal.card_points || []).length;
  const kind = state.score_kind;
  const unit = t({ losses: "lostGames", balance: "balance" }[kind] || "games");
  const sum = Array(sides).fill(0);
  const body = rows.map((r) => {
    const cells = [...Array(sides).keys()].map((sd) => {
      const a = award(r, kind, sd);
      sum[sd] += a;
      const running = r.running ? `<small class="run" title="${esc(t("running"))}">${r.running[sd]}</small>` : "";
      const win = r.winner === sd ? " won" : "";
      return `<td class="${win}"><span class="tot">${r.void ? "—" : r.totals[sd]}</span>${running}
        <span class="aw">${a ? (kind === "balance" ? signed(a) : `+${a}`) : ""}</span><span class="cum">${sum[sd]}</span></td>`;
    }).join("");
    const note = r.void ? t("noWinner") : r.vueltas ? t("vueltasTag") : r.contract ? `${t("contract")} ${r.contract.bid}` : "";
    // made or failed: a drawn tick or cross, named in words
    const made = !r.contract || (r.made !== true && r.made !== false) ? ""
      : ` <span class="made" role="img" aria-label="${esc(t(r.made ? "contractMade" : "contractFailed"))}" title="${esc(t(r.made ? "contractMade" : "contractFailed"))}">${r.made ? ICONS.check : ICONS.cross}</span>`;
    return `<tr><th scope="row">${r.number}${note ? `<small>${esc(note)}${r.void || r.vueltas ? "" : made}</small>` : ""}</th>${cells}</tr>`;
  }).join("");
  const head = [...Array(sides).keys()].map((sd) => `<th scope="col" title="${esc(sideName(sd))}">${esc(sideName(sd))}</th>`).join("");
  const current = state.over ? "" : `<tr class="current"><th scope="row">${state.deal_number}</th>${[...Array(sides).keys()].map((sd) =>
    `<td><span class="tot">${live[sd]}</span></td>`).join("")}</tr>`;
  return `<div class="sheet-head"><b>${esc(dealOf(state))}</b> · ${esc(goalText(state.goal_info))}</div>
    <div class="sheet-legend muted">${t("total")} · ${t("running")} · ${esc(unit)} · ${t("cumulative")}</div>
    <div class="scroll-x"><table class="sheet"><thead><tr><th scope="col">${t("dealN", "")}</th>${head}</tr></thead>
    <tbody>${body}${current}</tbody></table></div>`;
}
