// The lobby: play against bots, create a table with its house rules, join by code, resume,
// watch a live game, and the visitor's own finished games with their results.
// Its state is one object, L (lobby/state.js); lobby/render.js draws it, lobby/input.js
// keeps its forms, lobby/forms.js words them.
import { t, wordsReady } from "./i18n.js";
import { esc, api, local, loadVariants, variantsNow, variantOf } from "./util.js";
import { app, page, topbar, bindTopbar } from "./shell.js";
import { variantName, tablePage } from "./table.js";
import { rulesHTML } from "./dialogs.js";
import { tutorials } from "./tutorial.js";
import { lobbyState } from "./lobby/state.js";
import { render } from "./lobby/render.js";

export async function lobbyPage() {
  document.title = "Tute";
  try { await Promise.all([loadVariants(), wordsReady()]); } catch (e) { app.innerHTML = `<p class="error">${esc(e.message)}</p>`; return; }
  const L = lobbyState();
  page.rerender = () => render(L);
  render(L);
  // What arrives in the background (the lists, the lessons) redraws the lobby only when it
  // changed, never under a field being edited, and never between a press and its release:
  // a redraw there swaps the button under the pointer and the click is lost (a "Crear mesa"
  // that did nothing). A redraw held back is made once the pointer is released.
  const redraw = () => {
    if (L.gone) return;
    const focused = document.activeElement && document.activeElement.tagName;
    if (L.pressed || focused === "INPUT" || focused === "SELECT") { L.owed = true; return; }
    L.owed = false;
    render(L);
  };
  const press = () => { L.pressed = true; };
  // after the click that this release makes, not before it
  const release = () => { L.pressed = false; if (L.owed) setTimeout(redraw, 0); };
  window.addEventListener("pointerdown", press, true);
  window.addEventListener("pointerup", release, true);
  window.addEventListener("pointercancel", release, true);
  const refresh = async () => {
    try {
      const [tables, h] = await Promise.all([
        api("GET", "/api/tables"),
        api("GET", "/api/history", undefined, { "X-Tute-Seats": local.seatsHeader() })]);
      const lists = JSON.stringify([tables.tables, tables.live || [], h.games]);
      if (lists !== L.lastLists) {
        L.lastLists = lists;
        [L.open, L.live, L.hist] = [tables.tables, tables.live || [], h.games];
        L.owed = true;
      }
      if (L.owed) redraw();
    } catch { /* the lists simply stay as they were */ }
  };
  refresh();
  tutorials().then((list) => { L.lessons = list; L.owed = true; redraw(); }).catch(() => {});
  const timer = setInterval(refresh, 5000);
  window.__tute = { lobby: L };  // for the browser tests' conditions (read only)
  page.leave = () => {
    L.gone = true;
    clearInterval(timer);
    window.removeEventListener("pointerdown", press, true);
    window.removeEventListener("pointerup", release, true);
    window.removeEventListener("pointercancel", release, true);
  };
}

export async function joinByCode(code) {
  app.innerHTML = `${topbar()}<main class="center-msg"><p>${t("connecting")}</p></main>`;
  try {
    const r = await api("GET", `/api/code/${encodeURIComponent(code)}`);
    history.replaceState(null, "", `/t/${r.id}`);
    tablePage(r.id);
  } catch (e) {
    app.innerHTML = `${topbar()}<main class="center-msg"><p class="error">${esc(e.code === "not_found" ? t("joinError") : e.message)}</p>
      <a href="/" data-nav class="btn primary">${t("backToLobby")}</a></main>`;
    bindTopbar();
  }
}

// A game's rules on a page of its own, with the other games a tap away.
export async function rulesPage(variantId) {
  try { await loadVariants(); } catch { /* the names fall back to ids */ }
  const render = () => {
    const v = variantOf(variantId);
    document.title = `${t("lobbyRules")} · ${variantName(variantId)} · Tute`;
    app.innerHTML = `${topbar()}<main class="lobby rules-page"><section class="panel-card wide">
      <nav class="game-tabs">${variantsNow().map((x) => `<a href="/reglas/${x.id}" data-nav class="${x.id === variantId ? "on" : ""}">${esc(variantName(x.id))}</a>`).join("")}</nav>
      <h1>${t("rulesTitle", esc(variantName(variantId)))}</h1>
      ${v ? `<p class="muted">${t("gameFor", v.seats)}</p>` : ""}
      ${rulesHTML(variantId) || `<p class="error">${t("notFound")}</p>`}
      <a href="/" data-nav class="btn primary">${t("backToLobby")}</a></section></main>`;
    bindTopbar();
  };
  page.rerender = render;
  render();
}
