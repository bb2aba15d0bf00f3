// Guided tutorials (/aprende/{id}): a scripted deal on the real table's felt and hand. The page
// keeps only the learner's moves; the server replays them (POST /api/tutorials/{id}/step) and
// answers with the learner's view, the next text and the legal moves, or refuses a move with
// the engine's reason (an illegal card) or the lesson's (a legal one it does not take).
// The page's state is one object, L (tutorial/state.js); tutorial/steps.js sends the moves,
// tutorial/render.js draws the answer.
import { t } from "./i18n.js";
import { esc, api, loadVariants } from "./util.js";
import { app, page } from "./shell.js";
import { variantName } from "./table.js";
import { lessonState, say } from "./tutorial/state.js";
import { go } from "./tutorial/steps.js";
import { render } from "./tutorial/render.js";

let catalogue = null;
export async function tutorials() {
  if (!catalogue) catalogue = (await api("GET", "/api/tutorials")).tutorials;
  return catalogue;
}

// The lobby's "Aprende a jugar": the lessons of each game.
export function learnSectionHTML(list) {
  if (!list || !list.length) return "";
  const games = [...new Set(list.map((x) => x.game))];
  return `<section class="panel-card wide learn-list" id="learn">
    <h2>${t("learnTitle")}</h2><p class="muted">${t("learnLine")}</p>
    <div class="learn-games">${games.map((g) => `<div class="learn-game"><h3>${esc(variantName(g))}</h3><ol>
      ${list.filter((x) => x.game === g).map((x) => `<li><a href="/aprende/${esc(x.id)}" data-nav class="lesson-link" data-lesson="${esc(x.id)}">${esc(say(x.title))}</a></li>`).join("")}
    </ol></div>`).join("")}</div></section>`;
}

export function tutorialPage(id) {
  const L = lessonState(id);
  document.title = "Tute";
  page.rerender = () => { const box = document.getElementById("tutorial"); if (box) box.remove(); render(L); };
  page.leave = () => { L.closed = true; app.onclick = null; };
  window.__lesson = L;  // for the browser tests (read only)
  (async () => {
    try {
      await loadVariants();
      [L.info, L.list] = await Promise.all([api("GET", `/api/tutorials/${encodeURIComponent(id)}`), tutorials()]);
    } catch (e) { L.fatal = e.message; render(L); return; }
    await go(L, []);
  })();
  render(L);
}
