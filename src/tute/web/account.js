// Accounts, optional: sign up, log in, log out, delete; the account's seats kept in step with
// this browser's; a rated game against the bots with the chance to win shown first.
// The session is an HttpOnly cookie: this page never sees it. Words: the catalogue's "account".
import { getLang, setLang, t, wordsOf, wordsReady } from "./i18n.js";
import { app, page, topbar, bindTopbar, nav, backLink } from "./shell.js";
import { api, esc, local, loadVariants, variantsNow } from "./util.js";

// the account pages' words: the "account" section of the page's one catalogue
export async function accountWords() {
  await wordsReady();
  return wordsOf("account");
}
// a word of the account pages in the page's language (the key until the words have come)
export function w(key, params = {}) {
  const s = wordsOf("account")[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => String(params[k] ?? ""));
}

let me;  // the account ({name, settings, ratings}), null when logged out, undefined unknown
export async function currentAccount(refresh = false) {
  if (me === undefined || refresh) {
    try { me = (await api("GET", "/api/account")).account; } catch { me = null; }
  }
  return me;
}

// The seats of this browser and of the account become one list: the account claims the
// browser's (with their tokens) and the browser learns the account's (from another device).
export async function syncSeats() {
  if (!(await currentAccount())) return;
  const mine = Object.entries(local.seats()).filter(([, s]) => s && s.token)
    .map(([id, s]) => ({ id, token: s.token })).slice(0, 200);
  try {
    if (mine.length) await api("POST", "/api/account/claim", { seats: mine });
    const { seats } = await api("GET", "/api/account/seats");
    const known = local.seats();
    for (const s of seats) {
      if (!known[s.id]) local.keep(s.id, s.seat, s.token, s.variant);
    }
  } catch { /* offline or logged out meanwhile: next time */ }
}

function applySettings(settings) {
  if (!settings) return;
  if (settings.lang && settings.lang !== getLang()) setLang(settings.lang);
  if (typeof settings.sound === "boolean") local.sound = settings.sound;
}

function signedOutHTML() {
  return `<p class="muted">${esc(w("optional"))}</p>
    <form id="acc-form" autocomplete="on">
      <label>${esc(w("name"))}<input name="name" id="acc-name" autocomplete="username" maxlength="24" required></label>
      <label>${esc(w("password"))}<input name="password" id="acc-pass" type="password" autocomplete="current-password" maxlength="128" required></label>
      <p class="muted">${esc(w("claim"))}</p>
      <button class="primary" id="acc-signup" type="button">${esc(w("signup"))}</button>
      <button id="acc-login" type="button">${esc(w("login"))}</button>
      <p class="error" id="acc-error" role="alert"></p>
    </form>`;
}

function signedInHTML(a) {
  const levels = ["facil", "medio", "dificil", "maestro"];
  const variants = variantsNow();
  return `<p id="acc-hello">${esc(w("hello", { name: a.name }))}</p>
    <p><a href="/jugador/${encodeURIComponent(a.name)}" data-nav class="btn">${esc(w("my_page"))}</a>
       <a href="/clasificacion" data-nav class="btn">${esc(w("leaderboard"))}</a>
       <a href="/torneos" data-nav class="btn" id="acc-tournaments">${esc(t("tnTitle"))}</a></p>
    <h2>${esc(w("rated_game"))}</h2>
    <label>${esc(w("game"))}<select id="acc-variant">${variants.map((v) => `<option value="${esc(v.id)}">${esc(v.name)}</option>`).join("")}</select></label>
    <label>${esc(w("level"))}<select id="acc-level">${levels.map((l) => `<option value="${l}" ${l === "medio" ? "selected" : ""}>${esc(t(l))}</option>`).join("")}</select></label>
    <p id="acc-chance" class="muted"></p>
    <button class="primary" id="acc-rated">${esc(w("rated_game"))}</button>
    <h2>${esc(w("account"))}</h2>
    <button id="acc-logout">${esc(w("logout"))}</button>
    <details><summary>${esc(w("delete"))}</summary>
      <p class="muted">${esc(w("delete_confirm"))}</p>
      <label>${esc(w("password"))}<input id="acc-del-pass" type="password" autocomplete="current-password" maxlength="128"></label>
      <button id="acc-delete">${esc(w("delete"))}</button>
    </details>
    <p class="error" id="acc-error" role="alert"></p>`;
}

async function showChance() {
  const el = document.getElementById("acc-chance");
  if (!el) return;
  const v = document.getElementById("acc-variant").value;
  const l = document.getElementById("acc-level").value;
  try {
    const c = await api("GET", `/api/ratings/chances?variant=${encodeURIComponent(v)}&level=${encodeURIComponent(l)}`);
    el.textContent = w("chance", { pct: Math.round(c.chances[c.side_of[0]] * 100) });
  } catch (e) { el.textContent = ""; }
}

function fail(e) {
  const el = document.getElementById("acc-error");
  if (el) el.textContent = w("error", { why: e.message });
}

export async function accountPage() {
  await Promise.all([accountWords(), currentAccount(), loadVariants().catch(() => {})]);
  const render = () => {
    document.title = `${w("account")} · Tute`;
    app.innerHTML = `${topbar()}<main class="lobby account-page"><section class="panel-card wide">
      <h1>${esc(w("account"))}</h1>${me ? signedInHTML(me) : signedOutHTML()}
      <p>${backLink()}</p></section></main>`;
    bindTopbar();
    bind();
  };
  const bind = () => {
    const byId = (id) => document.getElementById(id);
    const enter = (path) => async () => {
      const body = { name: byId("acc-name").value, password: byId("acc-pass").value };
      if (path === "signup") {
        body.seats = Object.entries(local.seats()).filter(([, s]) => s && s.token)
          .map(([id, s]) => ({ id, token: s.token })).slice(0, 200);
      }
      try {
        me = (await api("POST", `/api/account/${path}`, body)).account;
        // the login worked but the browser did not keep the cookie: a Secure cookie over
        // plain http away from localhost (a server on a local network); say why
        if (!(await currentAccount(true))) {
          render();
          const el = byId("acc-error");
          if (el) el.textContent = w("cookie_lost");
          return;
        }
        applySettings(me.settings);
        await accountWords();
        await syncSeats();
        render();
      } catch (e) { fail(e); }
    };
    byId("acc-signup")?.addEventListener("click", enter("signup"));
    byId("acc-login")?.addEventListener("click", enter("login"));
    byId("acc-logout")?.addEventListener("click", async () => {
      try { await api("POST", "/api/account/logout"); me = null; render(); } catch (e) { fail(e); }
    });
    byId("acc-delete")?.addEventListener("click", async () => {
      try {
        await api("POST", "/api/account/delete", { password: byId("acc-del-pass").value });
        me = null;
        render();
      } catch (e) { fail(e); }
    });
    byId("acc-variant")?.addEventListener("change", showChance);
    byId("acc-level")?.addEventListener("change", showChance);
    byId("acc-rated")?.addEventListener("click", async () => {
      const variant = byId("acc-variant").value;
      try {
        const r = await api("POST", "/api/account/play", {
          variant, level: byId("acc-level").value, rated: true });
        local.keep(r.id, r.seat, r.token, variant);
        nav(r.url);
      } catch (e) { fail(e); }
    });
    showChance();
  };
  page.rerender = () => accountWords().then(render);
  render();
}

// The language chosen with the top bar's button follows the account to its other devices.
document.addEventListener("click", (ev) => {
  if (!ev.target.closest?.("#lang-btn") || !me) return;
  setTimeout(() => {
    api("POST", "/api/account/settings", { lang: getLang(), sound: local.sound }).catch(() => {});
  }, 0);
});
