// The analysis of a finished game (GET /api/games/{id}/analysis?deal=N, tute.analysis): per
// deal, the expected margin through the deal as an SVG line chart with the mistakes marked,
// "better was X (+N)" with a one-line reason, and a summary per player by both measures.
// The double-dummy measure comes at once; the search measure (what each player could have
// known) is computed in the background: the page polls .../analysis/progress, shows how far
// it is, and draws the deal again when its search is done. Beside every decision of a bot:
// "report this move" (report.js).
import { t, actionLabel, getLang } from "./i18n.js";
import { esc, api, loadVariants, local } from "./util.js";
import { app, page, topbar, bindTopbar } from "./shell.js";
import { variantName } from "./table.js";
import { ICONS } from "./icons.js";
import { byBot, botMovesHTML, reportClick, reportHTML, reportSubmit } from "./report.js";

const MARGIN = 2;  // tute.analysis.ACCURACY_MARGIN: within this of the best is accurate
const CLAMP = 130;  // a tute is worth +-1000 to the solver: the chart keeps to the deal's scale
const COLORS = ["#1c7ed6", "#b8860b", "#862e9c", "#2b8a3e"];
const FINAL = ["done", "capped", "off", "failed"];  // the search goes no further
const POLL_MS = 1000, BUSY_MS = 5000;

export async function analysisPage(id) {
  app.innerHTML = `${topbar()}<main class="center-msg"><p>${t("analysisWait")}</p></main>`;
  bindTopbar();
  const asked = Number(new URLSearchParams(location.search).get("deal")) || 1;
  const loaded = new Map();  // deal (0-based) -> its analysis
  const get = async (k) => {
    const data = await api("GET", `/api/games/${encodeURIComponent(id)}/analysis?deal=${k + 1}`);
    loaded.set(k, data);
    return data;
  };
  let deal = Math.max(0, asked - 1);
  let data;
  try {
    await loadVariants();
    data = await get(deal);
  } catch (e) {
    if (e.code === "not_found" && deal > 0) { deal = 0; history.replaceState(null, "", location.pathname); return analysisPage(id); }
    app.innerHTML = `${topbar()}<main class="center-msg"><p class="error">${esc(e.message)}</p>
      <a href="/" data-nav class="btn primary">${t("backToLobby")}</a></main>`;
    bindTopbar();
    return;
  }
  const mine = local.seat(id);
  let alive = true, timer = null, progress = data.search;
  const filed = new Map();  // "deal:move" -> what the server said of its report
  const render = () => {
    app.innerHTML = analysisHTML(id, data, mine ? mine.seat : null, progress, filed);
    bindTopbar();
    window.__tute = { ...(window.__tute || {}), analysis: { deal, data, progress } };
  };
  // the search's progress: drawn in place; the deal again once its search is done
  const poll = async () => {
    timer = null;
    if (!alive) return;
    try {
      progress = await api("GET", `/api/games/${encodeURIComponent(id)}/analysis/progress`);
    } catch { progress = { ...progress, state: "busy" }; }
    if (!alive) return;
    if (searched(data, progress)) {
      const k = deal;
      try { data = await get(k); } catch { /* drawn as it was */ }
      if (!alive || deal !== k) return;
      render();
    } else {
      const line = document.getElementById("search-progress");
      if (line) line.outerHTML = progressHTML(data, progress);
      window.__tute.analysis.progress = progress;
    }
    schedule();
  };
  const schedule = () => {
    if (alive && !timer && !FINAL.includes(data.search.state) && !FINAL.includes(progress.state)) {
      timer = setTimeout(poll, progress.state === "busy" ? BUSY_MS : POLL_MS);
    }
  };
  app.onsubmit = (ev) => reportSubmit(ev, id, filed);
  app.onclick = async (ev) => {
    if (reportClick(ev, filed)) return;
    const b = ev.target.closest("[data-deal]");
    if (!b) return;
    const k = Number(b.dataset.deal);
    deal = k;
    history.replaceState(null, "", `${location.pathname}?deal=${k + 1}`);
    const have = loaded.get(k);
    if (have && FINAL.includes(have.search.state)) data = have;
    else {
      try { data = await get(k); } catch { return; }
      if (!alive || deal !== k) return;
    }
    progress = data.search;
    render();
    schedule();
  };
  page.rerender = render;
  page.leave = () => { alive = false; clearTimeout(timer); app.onclick = null; app.onsubmit = null; };
  render();
  schedule();
}

// Whether the shown deal has the search's measure to fetch now: it has not, and its deal is
// done or the search has stopped (done, capped by its budget, failed).
function searched(data, progress) {
  if (data.measure === "search" || FINAL.includes(data.search.state)) return false;
  return FINAL.includes(progress.state) || (progress.deals_done || []).includes(data.deal);
}

const nameOf = (data, s) => data.players[s] || t("seatLabel", s + 1);
const num = (x) => (Number.isInteger(x) ? String(x)
  : x.toLocaleString(getLang() === "es" ? "es-ES" : "en-GB", { maximumFractionDigits: 1 }));
// a decision's loss by the page's measure: the search's where it is done, else double dummy
const lossOf = (d) => (d.loss !== null && d.loss !== undefined ? d.loss : d.dd_loss);
const isMistake = (d) => lossOf(d) !== null && lossOf(d) > MARGIN;
const ddOnly = (d) => d.loss !== null && d.loss !== undefined && !isMistake(d) && d.dd_loss !== null && d.dd_loss > MARGIN;

export function analysisHTML(id, data, me, progress, filed = new Map()) {
  const deal = data.deal - 1;
  const decisions = data.decisions;
  const charted = decisions.filter((d) => d.dd_value !== null);
  const picks = data.deals > 1 ? `<div class="deal-pick">${[...Array(data.deals).keys()].map((k) =>
    `<button data-deal="${k}" class="${k === deal ? "primary" : ""}" aria-pressed="${k === deal}">${t("dealPick")} ${k + 1}</button>`).join("")}</div>` : "";
  const mistakes = decisions.filter(isMistake);
  const list = mistakes.length ? `<ul class="mistakes" id="mistakes">${mistakes.map((d) => `<li>${mistakeHTML(data, d)} ${replayLink(id, d)}${byBot(data, d.seat) ? reportHTML(d, filed) : ""}</li>`).join("")}</ul>`
    : `<p class="muted">${t("analysisNoMistakes", MARGIN)}</p>`;
  const extra = data.deals > 1 && data.game_summary
    ? `<h3 class="small">${t("gameSummary")}</h3>${summaryHTML(data, data.game_summary, "game-summary")}` : "";
  return `${topbar(`<span class="table-title">${esc(t("analysisOf", variantName(data.variant)))}</span>`)}
    <main class="analysis" id="analysis" data-measure="${esc(data.measure)}">
      <section class="panel-card"><h2>${t("analysisTitle")}</h2>
      <p class="muted small" id="measure-note">${measureNote(data)}</p>
      ${progressHTML(data, progress)}
      ${picks}
      ${charted.length ? chartHTML(data, charted, me) : `<p class="muted">${t("analysisNone")}</p>`}</section>
      <section class="panel-card"><h2>${t("analysisMistakes")}</h2>${list}</section>
      ${botMovesHTML(data, decisions, (d) => botLine(data, d), filed)}
      <section class="panel-card"><h2>${t("analysisSummary")}</h2>${summaryHTML(data, data.summary, "analysis-summary")}
        <p class="muted small">${t("summaryNote", MARGIN)}</p>${extra}</section>
      <div class="buttons"><a class="btn" href="/r/${esc(id)}" data-nav id="analysis-replay">${t("analysisReplay")}</a>
        <a class="btn ghost" href="/" data-nav id="analysis-back">${t("backToLobby")}</a></div>
    </main>`;
}

function measureNote(data) {
  const b = data.budget, s = data.search.state;
  if (data.measure === "search") return t("analysisMeasureSearch", b.worlds, b.seed);
  if (data.measure === "partial" && FINAL.includes(s)) return t("analysisMeasurePartial", b.worlds, Math.round(b.game_seconds));
  if (s === "off") return t("analysisMeasureOff");
  if (s === "failed") return t("analysisMeasureFailed");
  return t("analysisMeasure");
}

// While the search runs: where it is (the deal, the share of decisions done), or its place in
// the queue.
function progressHTML(data, p) {
  if (!p || FINAL.includes(data.search.state) || FINAL.includes(p.state)) return `<p id="search-progress" hidden></p>`;
  const pct = p.total ? Math.floor((100 * p.done) / p.total) : 0;
  let text;
  if (p.state === "running" && p.deals > 1 && p.deal) text = t("searchRunning", p.deal, p.deals, pct);
  else if (p.state === "running") text = t("searchRunning1", pct);
  else if (p.state === "queued" && p.ahead) text = t("searchQueued", p.ahead);
  else if (p.state === "busy") text = t("searchBusy");
  else text = t("searchStarting");
  return `<p id="search-progress" class="small" role="status" data-state="${esc(p.state)}">
    <progress max="100" value="${pct}"></progress> <span>${esc(text)}</span></p>`;
}

// One mistake: "better was X (+N)" by the page's measure, the reason, and the double-dummy
// loss beside the search's.
function mistakeHTML(data, d) {
  const search = d.loss !== null && d.loss !== undefined;
  const best = search ? d.best : d.dd_best;
  const head = t("betterWas", d.trick, nameOf(data, d.seat), actionLabel(d.played), actionLabel(best), num(lossOf(d)));
  if (!search) return `<span class="better">${esc(head)}</span>`;
  const lang = getLang() === "es" ? "es" : "en";
  const reason = d.reason ? ` <span class="reason">${esc(d.reason[lang])}</span>` : "";
  return `<span class="better">${esc(head)}</span>${reason} <span class="dd muted">${esc(ddText(d))}</span>`;
}

// A bot's decision in the list of them: what it played, and the better action where it lost.
function botLine(data, d) {
  if (!isMistake(d)) return t("botPlayed", d.trick, nameOf(data, d.seat), actionLabel(d.played));
  const best = d.loss !== null && d.loss !== undefined ? d.best : d.dd_best;
  return t("betterWas", d.trick, nameOf(data, d.seat), actionLabel(d.played), actionLabel(best), num(lossOf(d)));
}

// The replay opened at the position of the decision (its frame: the one before its action).
function replayLink(id, d) {
  return `<a class="btn small mistake-replay" href="/r/${esc(id)}?at=${d.index}" data-nav>${esc(t("mistakeReplay"))}</a>`;
}

function ddText(d) {
  if (d.dd_loss === null || d.dd_loss === undefined) return t("ddNone");
  if (d.dd_loss === 0) return t("ddSame");
  return t("ddBetter", actionLabel(d.dd_best), num(d.dd_loss));
}

// Two sides: one line, the viewer's side's margin (side 0's for others). More sides: each
// seat's own line at its decisions (the solver values those from the mover's side). The line
// is the double-dummy value (the only measure with a value of the position); the dots are the
// mistakes by the page's measure, the hollow ones those only double dummy sees.
function chartHTML(data, decisions, me) {
  const two = new Set(data.sides).size === 2;
  const side = two && me !== null ? data.sides[me] : 0;
  // the plot inside its axes: the points on the left, the tricks below
  const W = 320, H = 184, pad = 10, left = 40, bottom = 34;
  const plotW = W - left - pad;
  const xs = (i) => left + (decisions.length > 1 ? (i * plotW) / (decisions.length - 1) : plotW / 2);
  const val = (d) => {
    const v = two && side === 1 ? -d.dd_value : d.dd_value;
    return Math.max(-CLAMP, Math.min(CLAMP, v));
  };
  const top = Math.max(20, ...decisions.map((d) => Math.abs(val(d))));
  const mid = (H - bottom + pad) / 2;
  const ys = (v) => mid - (v * (mid - pad)) / top;
  const lines = two ? [[null, decisions.map((d, i) => [i, d])]]
    : [...new Set(decisions.map((d) => d.seat))].map((s) => [s, decisions.map((d, i) => [i, d]).filter(([, d]) => d.seat === s)]);
  const paths = lines.map(([s, pts], k) => `<polyline class="chart-line" stroke="${COLORS[(s ?? k) % COLORS.length]}"
    points="${pts.map(([i, d]) => `${xs(i).toFixed(1)},${ys(val(d)).toFixed(1)}`).join(" ")}"/>`).join("");
  const dot = (d, i, cls, r, title) => `<circle class="${cls}" cx="${xs(i).toFixed(1)}" cy="${ys(val(d)).toFixed(1)}" r="${r}"><title>${esc(title)}</title></circle>`;
  const dots = decisions.map((d, i) => (isMistake(d)
    ? dot(d, i, "mistake-dot", 4, t("betterWas", d.trick, nameOf(data, d.seat), actionLabel(d.played), actionLabel(d.loss !== null && d.loss !== undefined ? d.best : d.dd_best), num(lossOf(d))))
    : ddOnly(d) ? dot(d, i, "dd-dot", 3.5, `${t("betterWas", d.trick, nameOf(data, d.seat), actionLabel(d.played), actionLabel(d.dd_best), d.dd_loss)} · ${t("ddOnly")}`) : "")).join("");
  const who = two ? (data.sides.map((sd, s) => [sd, s]).filter(([sd]) => sd === side).map(([, s]) => nameOf(data, s)).join(" & ")) : "";
  const label = two ? t("analysisChart", who) : t("analysisChartSeat");
  const legend = two ? "" : `<p class="small">${lines.map(([s]) => `<span style="color:${COLORS[s % COLORS.length]}">${ICONS.swatch}</span> ${esc(nameOf(data, s))}`).join(" · ")}</p>`;
  const marks = data.measure !== "double_dummy" ? `<p class="small muted">${t("chartMarks", ICONS.dot, ICONS.ring)}</p>` : "";
  return `<figure class="chart"><svg id="margin-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}">
      ${axesHTML(decisions, xs, ys, top, { W, H, pad, left, bottom, mid })}
      ${paths}${dots}</svg><figcaption class="small">${esc(label)}</figcaption>${legend}${marks}</figure>`;
}

// The chart's axes: the points (+top, 0, −top) on the left, a tick at each trick's first
// decision below, each axis named.
function axesHTML(decisions, xs, ys, top, g) {
  const base = g.H - g.bottom;
  const firsts = decisions.map((d, i) => [d.trick, i]).filter(([tr], k) => k === 0 || decisions[k - 1].trick !== tr);
  const ticks = firsts.map(([tr, i]) => `<line class="axis" x1="${xs(i).toFixed(1)}" x2="${xs(i).toFixed(1)}" y1="${base}" y2="${base + 4}"/>
    <text class="axis-label" x="${xs(i).toFixed(1)}" y="${base + 14}" text-anchor="middle">${tr}</text>`).join("");
  const y = (v, text) => `<text class="axis-label" x="${g.left - 4}" y="${(ys(v) + 3).toFixed(1)}" text-anchor="end">${text}</text>`;
  return `<line class="axis" x1="${g.left}" x2="${g.left}" y1="${g.pad}" y2="${base}"/>
    <line class="axis" x1="${g.left}" x2="${g.W - g.pad}" y1="${base}" y2="${base}"/>
    <line x1="${g.left}" x2="${g.W - g.pad}" y1="${g.mid}" y2="${g.mid}" stroke="#888" stroke-dasharray="3 3"/>
    ${y(top, `+${Math.round(top)}`)}${y(0, "0")}${y(-top, `−${Math.round(top)}`)}${ticks}
    <text class="axis-title" x="${(g.left + g.W - g.pad) / 2}" y="${g.H - 3}" text-anchor="middle">${esc(t("chartAxisTrick"))}</text>
    <text class="axis-title" transform="translate(10 ${g.mid}) rotate(-90)" text-anchor="middle">${esc(t("chartAxisPoints"))}</text>`;
}

// Per player (the server's summary of the deal, or of the game): decisions, and by each
// measure the points lost per decision and the accuracy.
function summaryHTML(data, summary, htmlId) {
  const cell = (x, pct) => (x === null || x === undefined ? "—" : pct ? `${Math.round(x)} %` : num(Math.round(x * 10) / 10));
  const rows = summary.seats.map((r) => `<tr><th scope="row">${esc(nameOf(data, r.seat))}</th><td>${r.decisions}</td>
      <td>${cell(r.loss_per_decision)}</td><td>${cell(r.accuracy, true)}</td>
      <td>${cell(r.dd_loss_per_decision)}</td><td>${cell(r.dd_accuracy, true)}</td></tr>`).join("");
  return `<div class="scroll-x"><table class="score analysis-table" id="${htmlId}"><thead>
    <tr><th rowspan="2"></th><th scope="col" rowspan="2">${t("decisionsShort")}</th>
      <th scope="colgroup" colspan="2">${t("searchCol")}</th><th scope="colgroup" colspan="2">${t("ddCol")}</th></tr>
    <tr><th scope="col" title="${esc(t("lossCol"))}">${t("lossShort")}</th><th scope="col" title="${esc(t("accuracyCol"))}">${t("accuracyShort")}</th>
      <th scope="col" title="${esc(t("lossCol"))}">${t("lossShort")}</th><th scope="col" title="${esc(t("accuracyCol"))}">${t("accuracyShort")}</th></tr>
    </thead><tbody>${rows}</tbody></table></div>`;
}
