// Puzzles (/problemas, /problemas/{id}, /problemas/hoy): a position from a real deal with one
// right move. The server sends the seat's view only; a click sends the move
// (POST /api/puzzles/{id}/answer) and the answer says right or wrong, each move's value and why.
// The page's state is one object, P, that the browser tests read as window.__puzzle.
import { t, refusalText } from "../i18n.js";
import { esc, api, loadVariants } from "../util.js";
import { app, page, topbar, bindTopbar } from "../shell.js";
import { variantName } from "../table/state.js";
import { render } from "./render.js";

async function answer(P, action) {
  if (!P.info || P.result || P.pending) return;
  const d = P.info.state.deal;
  if (!d.legal_actions.includes(action)) {
    // an illegal card is refused here with the engine's own reason, as at the table
    const r = (d.refusals || []).find((x) => x.cards && x.cards.includes(action));
    P.message = r ? refusalText(r, r.code, P.info.seat) : "";
    render(P, answer);
    return;
  }
  P.pending = true;
  try {
    P.result = await api("POST", `/api/puzzles/${encodeURIComponent(P.info.id)}/answer`, { answer: action });
    P.message = "";
  } catch (e) { P.message = e.message; } finally { P.pending = false; }
  render(P, answer);
}

export function puzzlePage(id) {
  const P = { id, info: null, result: null, message: "", pending: false, closed: false, fatal: null };
  document.title = "Tute";
  page.rerender = () => { const box = document.getElementById("puzzle"); if (box) box.remove(); render(P, answer); };
  page.leave = () => { P.closed = true; app.onclick = null; };
  window.__puzzle = P;  // for the browser tests (read only)
  (async () => {
    try {
      await loadVariants();
      P.info = await api("GET", id === "hoy" ? "/api/puzzles/today" : `/api/puzzles/${encodeURIComponent(id)}`);
    } catch (e) { P.fatal = e.message; }
    render(P, answer);
  })();
  render(P, answer);
}

// The lobby's card (one column of the lobby's "every day" section): the puzzle of the day.
export function puzzlesSectionHTML() {
  return `<div class="learn-game" id="lobby-puzzles"><h2>${t("puzzlesTitle")}</h2>
    <p class="muted">${t("puzzlesLine")}</p>
    <p><a href="/problemas/hoy" data-nav class="btn primary" id="lobby-puzzle-today">${t("puzzleToday")}</a>
      <a href="/problemas" data-nav class="btn" id="lobby-puzzles-all">${t("puzzleAll")}</a></p></div>`;
}

export function puzzlesPage() {
  // the themes' codes come with the list (GET /api/puzzles): the server's one list of them
  const L = { list: null, total: 0, closed: false, theme: "", themes: [] };
  const draw = () => {
    if (L.closed) return;
    const rows = (L.list || []).map((p) => `<li><a href="/problemas/${esc(p.id)}" data-nav class="puzzle-link" data-puzzle="${esc(p.id)}">${esc(variantName(p.variant))} · ${esc(p.id)}</a> <span class="muted">${t("puzzleRating", p.rating)} · ${p.themes.map((x) => esc(t("puzzleTheme_" + x))).join(", ")}</span></li>`).join("");
    app.innerHTML = `${topbar()}<main class="panel-page"><section class="panel-card wide" id="puzzles">
      <h2>${t("puzzlesTitle")}</h2><p class="muted">${t("puzzlesLine")}</p>
      <p><a href="/problemas/hoy" data-nav class="btn primary" id="puzzle-today">${t("puzzleToday")}</a>
        <span class="muted" id="puzzle-count">${t("puzzleCount", L.total)}</span></p>
      <label>${t("puzzleThemes")} <select id="puzzle-theme"><option value="">—</option>
        ${L.themes.map((x) => `<option value="${x}" ${x === L.theme ? "selected" : ""}>${esc(t("puzzleTheme_" + x))}</option>`).join("")}</select></label>
      <ol class="puzzle-list" id="puzzle-list">${rows}</ol>
      ${L.list && L.list.length < L.total ? `<button class="btn" id="puzzle-more">${t("puzzleMore")}</button>` : ""}
    </section></main>`;
    bindTopbar();
    document.getElementById("puzzle-more")?.addEventListener("click", more);
    document.getElementById("puzzle-theme")?.addEventListener("change", (ev) => {
      L.theme = ev.target.value;
      L.list = [];
      more();
    });
  };
  const more = async () => {
    const theme = L.theme ? `&theme=${encodeURIComponent(L.theme)}` : "";
    const got = await api("GET", `/api/puzzles?offset=${(L.list || []).length}&limit=100${theme}`);
    L.list = [...(L.list || []), ...got.puzzles];
    L.total = got.total;
    L.themes = got.themes || L.themes;
    draw();
  };
  page.rerender = draw;
  page.leave = () => { L.closed = true; };
  document.title = "Tute";
  (async () => { await loadVariants(); await more(); })().catch(() => draw());
  draw();
}
