// Tournaments of people (/torneos, /torneo/{id}): the list with the form that creates one (an
// account's), and a tournament's page -- join or leave before the start, the creator's start,
// the player's table once it is made, the standings and the tables -- polled every few
// seconds while it is being played (GET /api/tournaments/{id}: the server moves it on).
// The state is one object, P (window.__tournament for tests); the words come from t().
import { t, getLang } from "../i18n.js";
import { esc, api, local, loadVariants, variantOf } from "../util.js";
import { app, page, topbar, bindTopbar, nav } from "../shell.js";
import { variantOptions, levelOptions, lengthChoices } from "../lobby/forms.js";
import { currentAccount } from "../account.js";
import { variantName } from "../table/state.js";

const POLL_MS = 3000;
const when = (ts) => new Date(ts * 1000).toLocaleString(getLang(), { dateStyle: "short", timeStyle: "short" });
const pts = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

function statusLine(x) {
  if (x.cancelled) return t("tnCancelled");
  return t("tnStatus_" + x.status);
}

function rowHTML(x) {
  return `<li><a href="${esc(x.url)}" data-nav class="btn tn-link" data-id="${esc(x.id)}">${esc(x.name)}</a>
    <span class="muted">${esc(variantName(x.variant))} · ${x.kind === "arena" ? t("tnArena") : t("tnSwiss")}
    · ${esc(statusLine(x))} · ${t("tnCount", x.count)}</span></li>`;
}

function formHTML() {
  const v = document.getElementById("tn-variant")?.value;
  return `<form id="tn-form" class="tn-form">
    <label>${t("tnName")}<input id="tn-name" maxlength="40" required></label>
    <label>${t("variant")}<select id="tn-variant">${variantOptions(v)}</select></label>
    <label>${t("tnKind")}<select id="tn-kind"><option value="swiss">${t("tnSwiss")}</option><option value="arena">${t("tnArena")}</option></select></label>
    <label id="tn-pairs-row">${t("tnPairs")}<select id="tn-pairs"><option value="rotating">${t("tnRotating")}</option><option value="fixed">${t("tnFixed")}</option></select></label>
    <label id="tn-rounds-row">${t("tnRounds")}<input id="tn-rounds" type="number" min="1" max="15" value="3"></label>
    <label id="tn-minutes-row">${t("tnMinutes")}<input id="tn-minutes" type="number" min="5" max="180" value="60"></label>
    <label>${t("matchLength")}<select id="tn-length"></select></label>
    <label>${t("tnBots")}<select id="tn-level">${levelOptions("medio")}</select></label>
    <label class="check"><input type="checkbox" id="tn-rated"> ${t("tnRated")}</label>
    <fieldset class="tn-start"><legend>${t("tnStart")}</legend>
      <label class="check"><input type="radio" name="tn-when" value="mine" checked> ${t("tnStartMine")}</label>
      <label class="check"><input type="radio" name="tn-when" value="at"> ${t("tnStartAt")}
        <input type="datetime-local" id="tn-at"></label></fieldset>
    <button class="primary" id="tn-make" type="button">${t("tnMake")}</button>
    <p class="error" id="tn-error" role="alert"></p></form>`;
}

function syncForm() {
  const byId = (id) => document.getElementById(id);
  const v = variantOf(byId("tn-variant").value);
  // (a label of the panel is display: block, which the hidden attribute does not beat)
  const show = (id, on) => { byId(id).style.display = on ? "" : "none"; };
  const arena = byId("tn-kind").value === "arena";
  show("tn-pairs-row", v && v.partnerships);
  show("tn-rounds-row", !arena);
  show("tn-minutes-row", arena);
  byId("tn-length").innerHTML = lengthChoices(byId("tn-variant").value)
    .map(([, label], i) => `<option value="${i}" ${i === lengthChoices(byId("tn-variant").value).length - 1 ? "selected" : ""}>${esc(label)}</option>`).join("");
}

async function create() {
  const byId = (id) => document.getElementById(id);
  const variant = byId("tn-variant").value;
  const choice = lengthChoices(variant)[Number(byId("tn-length").value)] || [{}];
  const at = document.querySelector("input[name=tn-when]:checked").value === "at" && byId("tn-at").value;
  const body = {
    name: byId("tn-name").value, variant, options: choice[0] || {},
    kind: byId("tn-kind").value, pairs: byId("tn-pairs").value,
    rounds: Number(byId("tn-rounds").value) || 0, minutes: Number(byId("tn-minutes").value) || 0,
    level: byId("tn-level").value, rated: byId("tn-rated").checked,
    starts_at: at ? Date.parse(at) / 1000 : null,
  };
  try {
    const made = await api("POST", "/api/tournaments", body);
    nav(made.url);
  } catch (e) { byId("tn-error").textContent = e.message; }
}

// The lobby's card (beside the daily deal and the puzzles).
export function tournamentsSectionHTML() {
  return `<div class="learn-game" id="lobby-tournaments"><h2>${t("tnTitle")}</h2>
    <p class="muted">${t("tnLine")}</p>
    <p><a href="/torneos" data-nav class="btn primary" id="lobby-tournaments-link">${t("tnAll")}</a></p></div>`;
}

export async function tournamentsPage() {
  const P = { list: null, me: null, closed: false, error: "" };
  window.__tournament = P;
  const draw = () => {
    if (P.closed) return;
    document.title = `${t("tnTitle")} · Tute`;
    const list = P.list || [];
    app.innerHTML = `${topbar()}<main class="panel-page"><section class="panel-card wide" id="tn-list">
      <h2>${t("tnTitle")}</h2><p class="muted">${t("tnLine")}</p>
      ${P.error ? `<p class="error">${esc(P.error)}</p>` : ""}
      ${list.length ? `<ul class="daily-events" id="tn-rows">${list.map(rowHTML).join("")}</ul>` : `<p class="muted" id="tn-none">${t("tnNone")}</p>`}
      <h2>${t("tnCreate")}</h2>
      ${P.me ? formHTML() : `<p class="muted">${t("tnLogin")}</p><p><a href="/cuenta" data-nav class="btn primary">${t("tnAccount")}</a></p>`}
      </section></main>`;
    bindTopbar();
    if (P.me) {
      syncForm();
      for (const id of ["tn-variant", "tn-kind"]) document.getElementById(id).addEventListener("change", syncForm);
      document.getElementById("tn-make").addEventListener("click", create);
    }
  };
  page.rerender = draw;
  page.leave = () => { P.closed = true; };
  await loadVariants().catch(() => {});
  P.me = await currentAccount();
  try { P.list = (await api("GET", "/api/tournaments")).tournaments; } catch (e) { P.error = e.message; }
  draw();
}

// ------------------------------------------------------------------ one tournament

function headerHTML(T) {
  let line = "";
  if (T.status === "open") line = T.starts_at ? t("tnStartsAt", when(T.starts_at)) : t("tnWaitStart", T.creator);
  else if (T.status === "running" && T.kind === "swiss") line = t("tnRound", T.round, T.rounds);
  else if (T.status === "running") line = T.now < T.ends_at ? t("tnEndsIn", Math.ceil((T.ends_at - T.now) / 60)) : t("tnTimeUp");
  return `<h2 id="tn-title">${esc(T.name)}</h2>
    <p class="muted">${esc(variantName(T.variant))} · ${T.kind === "arena" ? `${t("tnArena")} · ${T.minutes} min` : `${t("tnSwiss")} · ${t("tnRounds")}: ${T.rounds}`}
      ${T.pairs === "fixed" ? ` · ${t("tnFixed")}` : T.pairs === "rotating" ? ` · ${t("tnRotating")}` : ""}${T.rated ? ` · ${t("tnRated")}` : ""}</p>
    <p class="muted">${T.kind === "arena" ? t("tnArenaLine") : t("tnSwissLine")}</p>
    <p id="tn-status"><strong>${esc(statusLine(T))}</strong>${line ? ` · <span id="tn-when">${esc(line)}</span>` : ""}</p>`;
}

function actionsHTML(T) {
  const you = T.you;
  if (T.status === "open") {
    const link = `${location.origin}/torneo/${T.id}`;
    let out = `<p class="muted">${t("tnInvite")} <code id="tn-invite">${esc(link)}</code></p>`;
    if (!you) return `${out}<p>${t("tnLogin")} <a href="/cuenta" data-nav class="btn">${t("tnAccount")}</a></p>`;
    if (!you.joined) {
      out += T.pairs === "fixed" ? `<label>${t("tnPartner")}<input id="tn-partner" maxlength="24"></label>` : "";
      out += `<button class="primary" id="tn-join">${t("tnJoin")}</button> `;
    } else out += `<button id="tn-leave">${t("tnLeave")}</button> `;
    if (you.creator && !T.starts_at) out += `<button class="primary" id="tn-start">${t("tnBegin")}</button>`;
    return out;
  }
  if (T.status === "running" && you && you.unit) {
    return you.table ? `<p><a href="${esc(you.table.url)}" class="btn primary" id="tn-table">${t("tnYourTable")}</a></p>`
      : `<p class="muted" id="tn-waiting">${t("tnWaiting")}</p>`;
  }
  return "";
}

function standingsHTML(T) {
  if (!T.standings.length) {
    return `<h3>${t("tnPlayers")}</h3><ul class="list" id="tn-players">${T.players.map((p) => `<li><span>${esc(p.name)}</span></li>`).join("")}</ul>`;
  }
  const mine = T.you && T.you.unit;
  return `<h3>${t("tnStandings")}</h3><table class="leaderboard tn-table" id="tn-standings"><thead><tr><th>#</th><th>${t("tnPlayers")}</th>
    <th>${t("tnPoints")}</th><th>${T.kind === "arena" ? t("tnWins") : t("tnBuchholz")}</th><th>${t("tnGames")}</th></tr></thead><tbody>
    ${T.standings.map((r) => `<tr class="${r.unit === mine ? "tn-me" : ""}"><td>${r.place}</td><td>${esc(r.name)}${r.fire ? ` <span class="muted">(${t("tnFire")})</span>` : ""}</td>
      <td>${pts(r.points)}</td><td>${pts(r.tiebreak)}</td><td>${r.games}${r.playing ? " …" : ""}</td></tr>`).join("")}</tbody></table>`;
}

function gamesHTML(T) {
  if (!T.games.length) return "";
  const seat = (n) => (n === null ? `<span class="muted">${t("tnBot")}</span>` : esc(n));
  return `<h3>${t("tnTables")}</h3><ul class="list" id="tn-games">${T.games.map((g) => {
    const won = g.won || [];
    return `<li><span>${T.kind === "swiss" ? `${g.round}. ` : ""}${g.seats.map(seat).join(" · ")}</span>
      <span>${g.status === "playing" ? `<a href="/t/${esc(g.table)}" data-nav>${t("tnWatch")}</a>` : won.length ? t("tnWon", won.map(seat).join(", ")) : "—"}</span></li>`;
  }).join("")}</ul>`;
}

async function act(P, what, body) {
  try {
    P.T = await api("POST", `/api/tournaments/${encodeURIComponent(P.id)}/${what}`, body);
    P.error = "";
  } catch (e) { P.error = e.message; }
  P.draw();
}

export async function tournamentPage(id) {
  const P = { id, T: null, error: "", closed: false, timer: null };
  window.__tournament = P;
  const load = async () => {
    try { P.T = await api("GET", `/api/tournaments/${encodeURIComponent(id)}`); P.error = ""; }
    catch (e) { P.error = e.message; }
    P.draw();
    if (!P.closed && (!P.T || P.T.status !== "finished")) P.timer = setTimeout(load, POLL_MS);
  };
  P.draw = () => {
    if (P.closed) return;
    const T = P.T;
    document.title = `${T ? T.name : t("tnTitle")} · Tute`;
    // the player's table: its seat and token kept as this browser's, as for any table
    if (T && T.you && T.you.table) local.keep(T.you.table.id, T.you.table.seat, T.you.table.token, T.variant);
    const focus = document.activeElement?.id;
    const partner = document.getElementById("tn-partner")?.value || "";
    app.innerHTML = `${topbar()}<main class="panel-page"><section class="panel-card wide" id="tn-page">
      ${T ? headerHTML(T) + actionsHTML(T) : ""}
      ${P.error ? `<p class="error" id="tn-error" role="alert">${esc(P.error)}</p>` : ""}
      ${T ? standingsHTML(T) + gamesHTML(T) : ""}
      <p><a href="/torneos" data-nav class="btn">${t("tnAll")}</a></p></section></main>`;
    bindTopbar();
    const byId = (x) => document.getElementById(x);
    if (byId("tn-partner")) byId("tn-partner").value = partner;
    if (focus && byId(focus)) byId(focus).focus();
    byId("tn-join")?.addEventListener("click", () => act(P, "join", { partner: byId("tn-partner")?.value.trim() || null }));
    byId("tn-leave")?.addEventListener("click", () => act(P, "leave"));
    byId("tn-start")?.addEventListener("click", () => act(P, "start"));
    byId("tn-table")?.addEventListener("click", (ev) => { ev.preventDefault(); nav(T.you.table.url); });
  };
  page.rerender = () => P.draw();
  page.leave = () => { P.closed = true; clearTimeout(P.timer); };
  await Promise.all([loadVariants().catch(() => {}), currentAccount()]);
  await load();
}

// The player page's list: the tournaments played, with the place in each.
export function playedHTML(rows) {
  if (!rows || !rows.length) return "";
  return `<h2>${t("tnTitle")}</h2><ul class="list" id="player-tournaments">${rows.map((r) => `<li>
    <a href="/torneo/${esc(r.id)}" data-nav>${esc(r.name)}</a>
    <span class="muted">${esc(variantName(r.variant))} · ${r.place ? t("tnPlace", r.place, r.players) : esc(statusLine(r))}</span></li>`).join("")}</ul>`;
}
