// The puzzle page's drawing, from P (puzzles/page.js): the felt as the seat sees it, the
// seat's hand (click a card to answer), and after an answer: right or wrong, each move's value,
// the themes and why.
import { t, getLang, actionLabel } from "../i18n.js";
import { esc, setHTML } from "../util.js";
import { app, topbar, bindTopbar } from "../shell.js";
import { bindHand } from "../hand.js";
import { variantName } from "../table/state.js";
import { feltHTML, meHTML } from "../seatview.js";

function resultHTML(P) {
  const r = P.result;
  if (!r) return `<p class="puzzle-ask" id="puzzle-ask">${t("puzzleAsk")}</p>`;
  const head = r.correct ? t("puzzleRight", actionLabel(r.best))
    : t("puzzleWrong", actionLabel(r.best), actionLabel(r.answer), r.lost);
  const rows = Object.entries(r.values).sort((a, b) => b[1] - a[1]).map(([a, v]) =>
    `<li class="${a === r.best ? "best" : ""}${a === r.answer ? " chosen" : ""}" data-value="${esc(a)}">
      <span>${esc(actionLabel(a))}</span> <b>${v > 0 ? "+" : ""}${v}</b></li>`).join("");
  const themes = r.themes.map((x) => `<span class="puzzle-theme">${esc(t("puzzleTheme_" + x))}</span>`).join(" ");
  const why = r.why ? r.why[getLang()] || r.why.es : "";
  return `<p class="puzzle-verdict ${r.correct ? "right" : "wrong"}" id="puzzle-verdict" role="alert">${esc(head)}</p>
    <p class="puzzle-why" id="puzzle-why"><b>${t("puzzleWhy")}:</b> ${esc(why)}</p>
    <p class="puzzle-themes" id="puzzle-themes"><b>${t("puzzleThemes")}:</b> ${themes}</p>
    <p class="muted">${t("puzzleValues")}</p><ul class="puzzle-values" id="puzzle-values">${rows}</ul>
    <p class="puzzle-links">${r.correct ? "" : `<button class="btn" data-do="retry" id="puzzle-retry">${t("puzzleRetry")}</button>`}
      <a href="/problemas/${esc(P.info.next)}" data-nav class="btn primary" id="puzzle-next">${t("puzzleNext")}</a>
      <a href="/problemas" data-nav class="btn" id="puzzle-all">${t("puzzleAll")}</a></p>`;
}

function panelHTML(P) {
  const title = P.info.day ? `${t("puzzleToday")} · ${P.info.day}` : t("puzzleTitle", P.info.id);
  return `<section class="lesson puzzle-panel" id="puzzle-panel" aria-live="polite">
    <p class="lesson-head"><b id="puzzle-title">${esc(title)}</b> <span class="muted" id="puzzle-rating">${t("puzzleRating", P.info.rating)}</span></p>
    ${P.message ? `<p class="lesson-msg" role="alert">${esc(P.message)}</p>` : ""}
    ${resultHTML(P)}</section>`;
}

export function render(P, answer) {
  if (P.closed) return;
  if (P.fatal || !P.info) {
    app.innerHTML = `${topbar()}<main class="center-msg">${P.fatal ? `<p class="error">${esc(P.fatal)}</p>
      <a href="/problemas" data-nav class="btn primary">${t("puzzleAll")}</a>` : `<p>${t("connecting")}</p>`}</main>`;
    bindTopbar();
    return;
  }
  if (!document.getElementById("puzzle")) {
    app.innerHTML = `${topbar(`<span class="table-title" id="tt"></span>`)}
      <main class="table-page tutorial-page puzzle-page" id="puzzle">
        <div class="board-wrap"><div id="puzzle-box"></div><div class="felt-wrap"><div id="felt"></div></div><div class="me" id="me"></div></div>
      </main>`;
    bindTopbar();
    app.onclick = (ev) => {
      const act = ev.target.closest(".actions [data-action]");
      if (act) { answer(P, act.dataset.action); return; }
      const b = ev.target.closest("[data-do]");
      if (b && b.dataset.do === "retry") { P.result = null; P.message = ""; render(P, answer); }
    };
  }
  document.title = `${t("puzzlesTitle")} · Tute`;
  setHTML(document.getElementById("tt"), `${esc(variantName(P.info.variant))} · ${esc(t("puzzlesTitle"))}`);
  setHTML(document.getElementById("puzzle-box"), panelHTML(P));
  const { seat, state } = P.info;
  setHTML(document.getElementById("felt"), feltHTML(seat, state, !P.result));
  const el = document.getElementById("me");
  if (setHTML(el, meHTML(seat, state, !P.result, el, P.result ? P.result.best : null))) bindHand(el, (action) => answer(P, action));
}
