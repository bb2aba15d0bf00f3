// The analysis of a finished game (GET /api/games/{id}/analysis, tute.analysis's double-dummy
// measure): per deal, the expected margin through the deal as an SVG line chart with the
// mistakes marked, "better was X (+N)" for each, and a summary per player.
import { t, actionLabel } from "./i18n.js";
import { esc, api, loadVariants, local } from "./util.js";
import { app, page, topbar, bindTopbar } from "./shell.js";
import { variantName } from "./table.js";

const MARGIN = 2;  // tute.analysis.ACCURACY_MARGIN: within this of the best is accurate
const CLAMP = 130;  // a tute is worth +-1000 to the solver: the chart keeps to the deal's scale
const COLORS = ["#1c7ed6", "#b8860b", "#862e9c", "#2b8a3e"];

export async function analysisPage(id) {
  app.innerHTML = `${topbar()}<main class="center-msg"><p>${t("analysisWait")}</p></main>`;
  bindTopbar();
  let data;
  try {
    await loadVariants();
    data = await api("GET", `/api/games/${encodeURIComponent(id)}/analysis`);
  } catch (e) {
    app.innerHTML = `${topbar()}<main class="center-msg"><p class="error">${esc(e.message)}</p>
      <a href="/" data-nav class="btn primary">${t("backToLobby")}</a></main>`;
    bindTopbar();
    return;
  }
  const mine = local.seat(id);
  let deal = 0;
  const render = () => { app.innerHTML = analysisHTML(id, data, deal, mine ? mine.seat : null); bindTopbar(); };
  app.onclick = (ev) => {
    const b = ev.target.closest("[data-deal]");
    if (b) { deal = Number(b.dataset.deal); render(); }
  };
  page.rerender = render;
  page.leave = () => { app.onclick = null; };
  render();
}

const nameOf = (data, s) => data.players[s] || t("seatLabel", s + 1);

export function analysisHTML(id, data, deal, me) {
  const decisions = data.decisions.filter((d) => d.deal === deal && d.dd_loss !== null);
  const picks = data.deals > 1 ? `<div class="deal-pick">${[...Array(data.deals).keys()].map((k) =>
    `<button data-deal="${k}" class="${k === deal ? "primary" : ""}" aria-pressed="${k === deal}">${t("dealPick")} ${k + 1}</button>`).join("")}</div>` : "";
  const mistakes = decisions.filter((d) => d.dd_loss > MARGIN);
  const list = mistakes.length ? `<ul class="mistakes" id="mistakes">${mistakes.map((d) =>
    `<li>${esc(t("betterWas", d.trick, nameOf(data, d.seat), actionLabel(d.played), actionLabel(d.dd_best), d.dd_loss))}</li>`).join("")}</ul>`
    : `<p class="muted">${t("analysisNoMistakes", MARGIN)}</p>`;
  return `${topbar(`<span class="table-title">${esc(t("analysisOf", variantName(data.variant)))}</span>`)}
    <main class="analysis" id="analysis">
      <section class="panel-card"><h2>${t("analysisTitle")}</h2>
      <p class="muted small" id="measure-note">${t("analysisMeasure")}</p>
      ${picks}
      ${decisions.length ? chartHTML(data, decisions, me) : `<p class="muted">${t("analysisNone")}</p>`}</section>
      <section class="panel-card"><h2>${t("analysisMistakes")}</h2>${list}</section>
      <section class="panel-card"><h2>${t("analysisSummary")}</h2>${summaryHTML(data, deal)}</section>
      <div class="buttons"><a class="btn" href="/r/${esc(id)}" data-nav>${t("replay")}</a>
        <a class="btn ghost" href="/" data-nav>${t("backToLobby")}</a></div>
    </main>`;
}

// Two sides: one line, the viewer's side's margin (side 0's for others). More sides: each
// seat's own line at its decisions (the solver values those from the mover's side).
function chartHTML(data, decisions, me) {
  const two = new Set(data.sides).size === 2;
  const side = two && me !== null ? data.sides[me] : 0;
  const W = 320, H = 160, pad = 18;
  const xs = (i) => pad + (decisions.length > 1 ? (i * (W - 2 * pad)) / (decisions.length - 1) : (W - 2 * pad) / 2);
  const val = (d) => {
    const v = two && side === 1 ? -d.dd_value : d.dd_value;
    return Math.max(-CLAMP, Math.min(CLAMP, v));
  };
  const top = Math.max(20, ...decisions.map((d) => Math.abs(val(d))));
  const ys = (v) => H / 2 - (v * (H / 2 - pad)) / top;
  const lines = two ? [[null, decisions.map((d, i) => [i, d])]]
    : [...new Set(decisions.map((d) => d.seat))].map((s) => [s, decisions.map((d, i) => [i, d]).filter(([, d]) => d.seat === s)]);
  const paths = lines.map(([s, pts], k) => `<polyline class="chart-line" stroke="${COLORS[(s ?? k) % COLORS.length]}"
    points="${pts.map(([i, d]) => `${xs(i).toFixed(1)},${ys(val(d)).toFixed(1)}`).join(" ")}"/>`).join("");
  const dots = decisions.map((d, i) => (d.dd_loss > MARGIN
    ? `<circle class="mistake-dot" cx="${xs(i).toFixed(1)}" cy="${ys(val(d)).toFixed(1)}" r="4"><title>${esc(t("betterWas", d.trick, nameOf(data, d.seat), actionLabel(d.played), actionLabel(d.dd_best), d.dd_loss))}</title></circle>` : "")).join("");
  const who = two ? (data.sides.map((sd, s) => [sd, s]).filter(([sd]) => sd === side).map(([, s]) => nameOf(data, s)).join(" & ")) : "";
  const label = two ? t("analysisChart", who) : t("analysisChartSeat");
  const legend = two ? "" : `<p class="small">${lines.map(([s]) => `<span style="color:${COLORS[s % COLORS.length]}">■</span> ${esc(nameOf(data, s))}`).join(" · ")}</p>`;
  return `<figure class="chart"><svg id="margin-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}">
      <line x1="${pad}" x2="${W - pad}" y1="${H / 2}" y2="${H / 2}" stroke="#888" stroke-dasharray="3 3"/>
      <text x="2" y="${pad - 4}" font-size="10" fill="currentColor">+${Math.round(top)}</text>
      <text x="2" y="${H - 4}" font-size="10" fill="currentColor">−${Math.round(top)}</text>
      ${paths}${dots}</svg><figcaption class="small">${esc(label)}</figcaption>${legend}</figure>`;
}

// Per player, over the chosen deal: decisions measured, points lost per decision, accuracy.
function summaryHTML(data, deal) {
  const rows = data.players.map((_, s) => {
    const mine = data.decisions.filter((d) => d.deal === deal && d.seat === s && d.dd_loss !== null);
    const lost = mine.reduce((a, d) => a + d.dd_loss, 0);
    const good = mine.filter((d) => d.dd_loss <= MARGIN).length;
    return `<tr><th scope="row">${esc(nameOf(data, s))}</th><td>${mine.length}</td>
      <td>${mine.length ? (lost / mine.length).toFixed(1) : "—"}</td><td>${mine.length ? `${Math.round((100 * good) / mine.length)} %` : "—"}</td></tr>`;
  }).join("");
  return `<div class="scroll-x"><table class="score" id="analysis-summary"><thead><tr><th></th><th scope="col">${t("decisionsCol")}</th>
    <th scope="col">${t("lossCol")}</th><th scope="col">${t("accuracyCol")}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}
