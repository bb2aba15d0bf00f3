// The deal of the day and of the week (/diario, /diario/{event}): the same cards for everyone
// against the bots. The page sends each move (POST /api/daily/{event}/step) and draws the
// seat's view the server answers with; once the event is played, the ranking and how the others
// played (GET /api/daily/{event}/ranking). The state is one object, D (window.__daily for tests).
import { t, actionLabel } from "../i18n.js";
import { esc, api, setHTML, loadVariants, local } from "../util.js";
import { app, page, topbar, bindTopbar } from "../shell.js";
import { bindHand } from "../hand.js";
import { variantName } from "../table/state.js";
import { feltHTML, meHTML } from "../seatview.js";

// the browser's own id: its entry when nobody is logged in
function playerId() {
  let id = localStorage.getItem("tute.player");
  if (!id) {
    id = [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("tute.player", id);
  }
  return id;
}

const kindName = (k) => (k === "day" ? t("dailyDay") : t("dailyWeek"));
const signed = (v) => `${v > 0 ? "+" : ""}${Math.round(v)}`;

// The lobby's card (one column of the lobby's "every day" section).
export function dailySectionHTML() {
  return `<div class="learn-game" id="lobby-daily"><h2>${t("dailyTitle")}</h2>
    <p class="muted">${t("dailyLine")}</p>
    <p><a href="/diario" data-nav class="btn primary" id="lobby-daily-link">${t("dailyDay")}</a></p></div>`;
}

export function dailyListPage() {
  const L = { events: null, closed: false };
  const draw = () => {
    if (L.closed) return;
    const rows = (kind) => (L.events || []).filter((e) => e.kind === kind).map((e) => `<li>
      <a href="/diario/${esc(e.id)}" data-nav class="btn daily-link" data-event="${esc(e.id)}">${esc(variantName(e.game))}</a>
      <span class="muted">${e.deals > 1 ? t("dailyDeals", e.deals) + " · " : ""}${t("dailyPlayers", e.players)}</span></li>`).join("");
    app.innerHTML = `${topbar()}<main class="panel-page"><section class="panel-card wide" id="daily-list">
      <h2>${t("dailyTitle")}</h2><p class="muted">${t("dailyLine")}</p>
      <h3>${t("dailyDay")}</h3><ul class="daily-events" id="daily-day">${rows("day")}</ul>
      <h3>${t("dailyWeek")}</h3><ul class="daily-events" id="daily-week">${rows("week")}</ul></section></main>`;
    bindTopbar();
  };
  page.rerender = draw;
  page.leave = () => { L.closed = true; };
  document.title = `${t("dailyTitle")} · Tute`;
  (async () => { await loadVariants(); L.events = (await api("GET", "/api/daily")).events; draw(); })().catch(() => draw());
  draw();
}

async function step(D, action) {
  if (D.pending || (D.st && D.st.done)) return;
  D.pending = true;
  try {
    const body = { player: playerId(), name: local.name };
    if (action) body.action = action;
    D.st = await api("POST", `/api/daily/${encodeURIComponent(D.id)}/step`, body);
    D.steps += 1;
    D.message = "";
    if (D.st.done) await ranking(D);
  } catch (e) {
    if (e.code === "closed") await ranking(D);
    else if (!D.st) D.fatal = e.message;
    else D.message = e.message;
  } finally { D.pending = false; }
  render(D);
}

async function ranking(D) {
  try {
    D.rank = await api("GET", `/api/daily/${encodeURIComponent(D.id)}/ranking?player=${playerId()}`);
  } catch (e) { D.message = e.message; if (!D.st) D.fatal = e.message; }
  // the analyses are made after the last move: ask again until mine is here
  if (D.rank && !D.rank.analysis && !D.closed && D.polls < 20) {
    D.polls += 1;
    setTimeout(() => ranking(D).then(() => render(D)), 1500);
  }
}

function rankingHTML(D) {
  const R = D.rank;
  if (!R) return "";
  const rows = R.ranking.map((r) => `<tr class="${r.me ? "daily-me" : ""}"><td>${r.rank}</td><td>${esc(r.name || "—")}</td>
    <td>${signed(r.score)}</td><td>${r.lost === null ? "…" : r.lost}</td></tr>`).join("");
  // the double-dummy measure of my decisions, by (deal, move)
  const dd = new Map(((R.analysis && R.analysis.decisions) || []).map((d) => [`${d.deal}:${d.move}`, d]));
  const ddText = (o) => {
    const d = dd.get(`${o.deal}:${o.move}`);
    return d && d.loss > 0 ? ` · <span class="daily-loss">${t("dailyBest", esc(actionLabel(d.best)), d.loss)}</span>` : "";
  };
  const others = R.others.map((o) => `<li><span>${t("dailyYouPlayed", esc(actionLabel(o.played)))}</span>${ddText(o)} ·
    <span class="muted">${o.most_common ? t("dailyMostCommon", esc(actionLabel(o.most_common))) + ` (${Object.entries(o.counts).map(([a, n]) => `${esc(actionLabel(a))} ${n}`).join(", ")})` : t("dailyNobody")}</span></li>`).join("");
  return `<section class="panel-card wide" id="daily-ranking"><h2>${t("dailyRanking")}</h2>
    <p id="daily-rank"><b>${t("dailyRank", R.me.rank, R.players)}</b> · ${t("dailyScore", signed(R.me.score))}</p>
    <table class="daily-table"><thead><tr><th>#</th><th>${t("dailyName")}</th><th>${t("dailyMargin")}</th><th title="${t("dailyLostWhy")}">${t("dailyLost")}</th></tr></thead><tbody>${rows}</tbody></table>
    <h3>${t("dailyOthers")}</h3><p class="muted">${t("dailyOthersLine")}</p><ol class="daily-others" id="daily-others">${others}</ol>
    <p><a href="/diario" data-nav class="btn" id="daily-all">${t("dailyAll")}</a></p></section>`;
}

function render(D) {
  if (D.closed) return;
  if (D.fatal || (!D.st && !D.rank)) {
    app.innerHTML = `${topbar()}<main class="center-msg">${D.fatal ? `<p class="error">${esc(D.fatal)}</p>
      <a href="/diario" data-nav class="btn primary">${t("dailyAll")}</a>` : `<p>${t("connecting")}</p>`}</main>`;
    bindTopbar();
    return;
  }
  if (!D.st) {  // an event that is over: its ranking alone
    app.innerHTML = `${topbar()}<main class="panel-page">${rankingHTML(D)}</main>`;
    bindTopbar();
    return;
  }
  const ev = D.st.event;
  if (!document.getElementById("daily")) {
    app.innerHTML = `${topbar(`<span class="table-title" id="tt"></span>`)}
      <main class="table-page tutorial-page daily-page" id="daily">
        <div class="board-wrap"><div id="daily-box"></div><div class="felt-wrap"><div id="felt"></div></div><div class="me" id="me"></div></div>
        <div id="daily-after"></div></main>`;
    bindTopbar();
    app.onclick = (ev2) => { const a = ev2.target.closest(".actions [data-action]"); if (a) step(D, a.dataset.action); };
  }
  document.title = `${kindName(ev.kind)} · Tute`;
  setHTML(document.getElementById("tt"), `${esc(variantName(ev.game))} · ${esc(kindName(ev.kind))} · ${esc(ev.period)}`);
  const head = D.st.done ? t("dailyDone", signed(D.st.score)) : t("dailyDeal", D.st.number + 1, ev.deals);
  setHTML(document.getElementById("daily-box"), `<section class="lesson" id="daily-panel" aria-live="polite">
    <p class="lesson-head"><b id="daily-head">${esc(head)}</b>
      ${D.st.margins.length && !D.st.done ? `<span class="muted">${t("dailyScore", signed(D.st.score))}</span>` : ""}</p>
    ${D.message ? `<p class="lesson-msg" role="alert">${esc(D.message)}</p>` : ""}</section>`);
  const seat = ev.seat, open = !D.st.done;
  setHTML(document.getElementById("felt"), feltHTML(seat, D.st.state, open));
  const el = document.getElementById("me");
  if (setHTML(el, meHTML(seat, D.st.state, open, el))) bindHand(el, (action) => step(D, action));
  setHTML(document.getElementById("daily-after"), rankingHTML(D));
}

export function dailyPage(id) {
  const D = { id, st: null, rank: null, message: "", pending: false, closed: false, fatal: null, steps: 0, polls: 0 };
  page.rerender = () => { const box = document.getElementById("daily"); if (box) box.remove(); render(D); };
  page.leave = () => { D.closed = true; app.onclick = null; };
  window.__daily = D;  // for the browser tests (read only)
  document.title = "Tute";
  (async () => { await loadVariants(); await step(D, null); })();
  render(D);
}
