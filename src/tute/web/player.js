// A player's page: their rating in each mode with its history as a chart (inline SVG), and
// their statistics per game and their deals of the day and of the week.
import { app, page, topbar, bindTopbar, backLink } from "./shell.js";
import { api, esc, loadVariants, variantOf } from "./util.js";
import { accountWords, w } from "./account.js";
import { playedHTML } from "./tournaments/page.js";

// The rating after each rated game, as a line over the games (no chart library: a path).
export function historyChart(points, width = 480, height = 160) {
  if (!points.length) return `<p class="muted">${esc(w("no_history"))}</p>`;
  const pad = 24;
  const ys = points.map((p) => p.rating);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 1) { lo -= 1; hi += 1; }
  const x = (i) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : i * (width - 2 * pad) / (points.length - 1));
  const y = (v) => height - pad - (v - lo) * (height - 2 * pad) / (hi - lo);
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const dots = points.map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.rating).toFixed(1)}" r="3" fill="${p.reason === "left" ? "#a3211a" : "#0f4d32"}"><title>${p.rating.toFixed(1)}${p.reason === "left" ? ` (${esc(w("left"))})` : ""}</title></circle>`).join("");
  return `<svg class="rating-chart" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="${esc(w("history"))}">
    <text x="2" y="${pad - 8}" font-size="11" fill="#555">${hi.toFixed(1)}</text>
    <text x="2" y="${height - 6}" font-size="11" fill="#555">${lo.toFixed(1)}</text>
    <line x1="${pad}" y1="${height - pad}" x2="${width - pad}" y2="${height - pad}" stroke="#bbb"/>
    <path d="${path}" fill="none" stroke="#0f4d32" stroke-width="2"/>${dots}</svg>`;
}

function statsHTML(stats) {
  const games = Object.entries(stats);
  if (!games.length) return "";
  return `<h2>${esc(w("stats"))}</h2><table class="leaderboard" id="player-stats"><thead><tr>
    <th>${esc(w("game"))}</th><th>${esc(w("games"))}</th><th>${esc(w("deals"))}</th><th>${esc(w("wins"))}</th>
    <th>${esc(w("cantes"))}</th><th>${esc(w("tutes"))}</th></tr></thead><tbody>
    ${games.map(([id, s]) => `<tr><td>${esc(variantOf(id)?.name || id)}</td><td>${s.games}</td><td>${s.deals}</td>
      <td>${s.wins}</td><td>${s.cantes}</td><td>${s.tutes}</td></tr>`).join("")}</tbody></table>`;
}

// The deals of the day and of the week played, each with its place among its players.
function dailyHTML(daily) {
  if (!daily || !daily.length) return "";
  return `<h2>${esc(w("daily_played"))}</h2><table class="leaderboard" id="player-daily"><thead><tr>
    <th>${esc(w("daily_event"))}</th><th>${esc(w("game"))}</th><th>${esc(w("daily_score"))}</th>
    <th>${esc(w("daily_place"))}</th></tr></thead><tbody>
    ${daily.map((d) => `<tr><td><a href="/diario/${encodeURIComponent(d.id)}" data-nav>${esc(w(`daily_${d.kind}`, { period: d.period }))}</a></td>
      <td>${esc(variantOf(d.game)?.name || d.game)}</td><td>${d.score > 0 ? "+" : ""}${d.score}</td>
      <td>${esc(w("daily_place_of", { rank: d.rank, players: d.players }))}</td></tr>`).join("")}</tbody></table>`;
}

export async function playerPage(name) {
  await Promise.all([accountWords(), loadVariants().catch(() => {})]);
  let data = null;
  let error = "";
  try { data = await api("GET", `/api/players/${encodeURIComponent(name)}`); }
  catch (e) { error = e.message; }
  const render = () => {
    document.title = `${name} · Tute`;
    app.innerHTML = `${topbar()}<main class="lobby player-page"><section class="panel-card wide">
      <h1 id="player-name">${esc(data ? data.name : name)}</h1>
      ${error ? `<p class="error">${esc(error)}</p>` : ""}
      ${data ? data.ratings.map((r) => `<section class="rating-mode" data-mode="${esc(r.mode)}">
        <h2>${esc(w(`mode_${r.mode}`))}: <span class="rating">${r.rating.toFixed(1)}</span>
        ${r.provisional ? `<span class="muted">(${esc(w("provisional"))})</span>` : ""}
        <span class="muted">· ${r.games} ${esc(w("games"))}</span></h2>
        <h3>${esc(w("history"))}</h3>${historyChart(data.history[r.mode] || [])}</section>`).join("") : ""}
      ${data && !data.ratings.length ? `<p class="muted">${esc(w("no_history"))}</p>` : ""}
      ${data ? statsHTML(data.stats) : ""}
      ${data ? dailyHTML(data.daily) : ""}
      ${data ? playedHTML(data.tournaments) : ""}
      <p><a href="/clasificacion" data-nav class="btn">${esc(w("leaderboard"))}</a> ${backLink()}</p>
      </section></main>`;
    bindTopbar();
  };
  page.rerender = () => accountWords().then(render);
  render();
}
