// The lobby's drawing: render(L) draws its sections from the state and binds their controls.
import { t, getLang } from "../i18n.js";
import { cardSVG } from "../cards.js";
import { esc, local, variantOf, gameInfo } from "../util.js";
import { app, topbar, bindTopbar } from "../shell.js";
import { variantName } from "../table/state.js";
import { learnSectionHTML } from "../tutorial.js";
import { puzzlesSectionHTML } from "../puzzles/page.js";
import { dailySectionHTML } from "../daily/page.js";
import { tournamentsSectionHTML } from "../tournaments/page.js";
import { LEVELS, variantOptions, levelOptions, lengthChoices, houseRules, resultText } from "./forms.js";
import { mine } from "./state.js";
import { houseRulesLine } from "../houserules.js";
import { bind } from "./input.js";

const lengths = (vid, sel) => lengthChoices(vid).map(([, label], i) =>
  `<option value="${i}" ${i === sel ? "selected" : ""}>${esc(label)}</option>`).join("");

export function render(L) {
  app.innerHTML = `${topbar()}
  <main class="lobby">
    <section class="hero">
      <div class="hero-cards" aria-hidden="true">${["Ao", "3c", "Re", "Cb"].map((c) => `<span class="hero-card">${cardSVG(c)}</span>`).join("")}</div>
      <div><h1>Tute</h1><p>${t("tagline")}</p>
      <label class="name-field">${t("yourName")}
        <input id="name" maxlength="24" autocomplete="nickname" placeholder="${t("namePlaceholder")}" value="${esc(local.name)}"></label></div>
    </section>
    <div class="lobby-grid">
    ${quickHTML(L)}
    ${learnSectionHTML(L.lessons)}
    <section class="panel-card wide" id="every-day"><div class="learn-games">${dailySectionHTML()}${puzzlesSectionHTML()}${tournamentsSectionHTML()}</div></section>
    ${createHTML(L)}
    ${joinHTML(L)}
    ${tablesHTML(L)}
    ${historyHTML(L)}
    </div>
  </main>`;
  bindTopbar();
  bind(L);
}

function quickHTML(L) {
  const qinfo = gameInfo(L.quickVariant);
  return `<section class="panel-card" id="quick">
      <h2>${t("quickTitle")}</h2>
      <label>${t("variant")}<select id="q-variant">${variantOptions(L.quickVariant)}</select></label>
      ${qinfo ? `<p class="game-desc" id="q-desc">${esc(qinfo.desc)} <a href="/reglas/${L.quickVariant}" data-nav>${t("lobbyRules")}</a></p>` : ""}
      <label>${t("level")}<select id="q-level">${levelOptions(L.quickLevel)}</select></label>
      <label>${t("matchLength")}<select id="q-length">${lengths(L.quickVariant, L.quickLength)}</select></label>
      <button class="primary" id="quick-play">${t("quickPlay")}</button>
      <p class="error" id="quick-error" role="alert"></p>
    </section>`;
}

function createHTML(L) {
  const v = variantOf(L.variant);
  const cinfo = gameInfo(L.variant);
  const seatRows = L.seats.map((s, i) => `<label class="seat-row">${t("seat", i + 1)}
    <select data-seat="${i}">
      <option value="you" ${s === "you" ? "selected" : ""}>${t("you")}</option>
      <option value="open" ${s === "open" ? "selected" : ""}>${t("open")}</option>
      ${LEVELS.map((l) => `<option value="${l}" ${s === l ? "selected" : ""}>${t("bot", t(l))}</option>`).join("")}
    </select></label>`).join("");
  return `<section class="panel-card" id="create">
      <h2>${t("createTitle")}</h2>
      <label>${t("variant")}<select id="c-variant">${variantOptions(L.variant)}</select></label>
      ${cinfo ? `<p class="game-desc">${esc(cinfo.desc)} <a href="/reglas/${L.variant}" data-nav>${t("lobbyRules")}</a></p>` : ""}
      <label>${t("matchLength")}<select id="c-length">${lengths(L.variant, L.length)}</select></label>
      <fieldset class="seats"><legend>${t("seats")}</legend>${seatRows}</fieldset>
      ${houseRules(v, L.opts, L.rulesOpen)}
      <label class="check"><input type="checkbox" id="c-public" ${L.public ? "checked" : ""}> ${t("public")}</label>
      <label class="check"><input type="checkbox" id="c-chat" ${L.chat ? "checked" : ""}> ${t("chatOn")}</label>
      <label class="check"><input type="checkbox" id="c-hints" ${L.hints ? "checked" : ""}> ${t("hintsOn")}</label>
      <label>${t("clockLabel")}<select id="c-clock">${[0, 30, 60, 120].map((s) => `<option value="${s}" ${L.clock === s ? "selected" : ""}>${s ? t("clockSecs", s) : t("clockNone")}</option>`).join("")}</select></label>
      <button class="primary" id="create-btn">${t("create")}</button>
      <p class="error" id="create-error" role="alert"></p>
    </section>`;
}

function joinHTML(L) {
  const own = mine();
  return `<section class="panel-card">
      <h2>${t("joinTitle")}</h2>
      <form id="code-form" class="inline"><input id="code" maxlength="12" placeholder="${t("code")}" autocapitalize="characters" aria-label="${t("code")}">
      <button class="primary">${t("join")}</button></form>
      <p class="error" id="join-error" role="alert">${esc(L.joinError)}</p>
      ${own.length ? `<h2>${t("myGames")}</h2><ul class="list">${own.map(([id, s]) =>
        `<li><span>${esc(variantName(s.variant))}</span><a href="/t/${esc(id)}" data-nav class="btn">${t("resume")}</a></li>`).join("")}</ul>` : ""}
    </section>`;
}

function tablesHTML(L) {
  const { open, live } = L;
  return `<section class="panel-card">
      <h2>${t("openTables")}</h2>
      ${open.length ? `<ul class="list">${open.map((tb) => `<li>
        <span><b>${esc(variantName(tb.variant))}</b> · ${tb.seats.map((s) => s.kind === "open" ? `<i>${t("openSeat")}</i>` : esc(s.name)).join(", ")}
          <small class="muted house-line">${esc(houseRulesLine(tb))}</small></span>
        <a class="btn" href="/t/${esc(tb.id)}" data-nav>${t("sit")}</a></li>`).join("")}</ul>`
        : `<p class="muted">${t("noOpenTables")}</p>`}
      <h2>${t("liveTables")}</h2>
      ${live.length ? `<ul class="list" id="live-list">${live.map((tb) => `<li>
        <span><b>${esc(variantName(tb.variant))}</b> · ${tb.seats.map((s) => esc(s.name)).join(", ")}</span>
        <a class="btn" href="/t/${esc(tb.id)}" data-nav>${t("watch")}</a></li>`).join("")}</ul>`
        : `<p class="muted">${t("noLive")}</p>`}
    </section>`;
}

function historyHTML(L) {
  const myHist = L.hist.filter((g) => g.mine);
  return `<section class="panel-card wide">
      <h2>${t("myHistory")}</h2>
      ${myHist.length ? `<ul class="list" id="history">${myHist.map((g) => `<li>
        <span><b>${esc(variantName(g.variant))}</b> ${resultText(g)} · ${g.players.map(esc).join(", ")}
        <span class="muted">${g.finished_at ? new Date(g.finished_at * 1000).toLocaleString(getLang()) : ""}</span></span>
        <span><a class="btn" href="/r/${esc(g.id)}" data-nav>${t("replay")}</a>
        <a class="btn analysis-link" href="/a/${esc(g.id)}" data-nav>${t("analysis")}</a>
        <a class="btn ghost" href="/api/games/${esc(g.id)}/record" download>${t("download")}</a></span></li>`).join("")}</ul>`
        : `<p class="muted">${t("noMyHistory")}</p>`}
    </section>`;
}
