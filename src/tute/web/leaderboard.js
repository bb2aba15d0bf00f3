// The leaderboard: the players of one rating mode by their rating (this week's, this month's
// or all time's players), with the bots' fixed anchors beside them.
import { app, page, topbar, bindTopbar, backLink } from "./shell.js";
import { api, esc } from "./util.js";
import { t } from "./i18n.js";
import { accountWords, w } from "./account.js";

const MODES = ["parejas", "guinote", "two", "three", "many"];
const PERIODS = ["week", "month", "all"];

function rows(board) {
  if (!board.players.length) return `<p class="muted" id="lb-empty">${esc(w("nobody"))}</p>`;
  return `<table class="leaderboard" id="lb-table"><thead><tr><th>#</th><th>${esc(w("name"))}</th>
    <th>${esc(w("rating"))}</th><th>${esc(w("games"))}</th>${board.period === "all" ? "" : `<th>${esc(w("gain"))}</th>`}</tr></thead>
    <tbody>${board.players.map((p, i) => `<tr><td>${i + 1}</td>
      <td><a href="/jugador/${encodeURIComponent(p.name)}" data-nav>${esc(p.name)}</a></td>
      <td>${p.rating.toFixed(1)}${p.provisional ? ` <span class="muted">(${esc(w("provisional"))})</span>` : ""}</td>
      <td>${p.games}</td>${board.period === "all" ? "" : `<td>${p.gain > 0 ? "+" : ""}${(p.gain ?? 0).toFixed(1)}</td>`}</tr>`).join("")}</tbody></table>`;
}

export async function leaderboardPage() {
  await accountWords();
  const q = new URLSearchParams(location.search);
  let mode = MODES.includes(q.get("mode")) ? q.get("mode") : "parejas";
  let period = PERIODS.includes(q.get("period")) ? q.get("period") : "all";
  let board = null;
  let error = "";
  const load = async () => {
    try {
      board = await api("GET", `/api/ratings/leaderboard?mode=${mode}&period=${period}`);
      error = "";
    } catch (e) { error = e.message; board = null; }
    render();
  };
  const tab = (kind, value, on) => `<a href="/clasificacion?mode=${kind === "mode" ? value : mode}&period=${kind === "period" ? value : period}" data-${kind}="${value}" class="${on ? "on" : ""}">${esc(w(`${kind}_${value}`))}</a>`;
  const render = () => {
    document.title = `${w("leaderboard")} · Tute`;
    app.innerHTML = `${topbar()}<main class="lobby leaderboard-page"><section class="panel-card wide">
      <h1>${esc(w("leaderboard"))}</h1>
      <nav class="game-tabs">${MODES.map((m) => tab("mode", m, m === mode)).join("")}</nav>
      <nav class="game-tabs">${PERIODS.map((p) => tab("period", p, p === period)).join("")}</nav>
      ${error ? `<p class="error">${esc(error)}</p>` : board ? rows(board) : ""}
      ${board && board.bots.length ? `<h2>${esc(w("bots"))}</h2><ul class="list">${board.bots.map((b) => `<li><span>${esc(t(b.level))}</span><span>${b.rating.toFixed(1)}</span></li>`).join("")}</ul>` : ""}
      <p><a href="/cuenta" data-nav class="btn">${esc(w("account"))}</a> ${backLink()}</p>
      </section></main>`;
    bindTopbar();
    for (const a of app.querySelectorAll("a[data-mode], a[data-period]")) {
      a.addEventListener("click", (ev) => {
        ev.preventDefault();
        mode = a.dataset.mode || mode;
        period = a.dataset.period || period;
        history.replaceState(null, "", `/clasificacion?mode=${mode}&period=${period}`);
        load();
      });
    }
  };
  page.rerender = () => accountWords().then(render);
  await load();
}
