// The page's frame: the top bar, navigation between the pages, and the current page's hooks.
import { t, setLang, getLang, wordsReady } from "./i18n.js";
import { cardSVG } from "./cards.js";
import { ICONS } from "./icons.js";
import { esc } from "./util.js";

export const app = document.getElementById("app");
export const page = { rerender: () => {}, leave: () => {} };
let router = () => {};
export function setRouter(f) { router = f; }

export function nav(path) {
  history.pushState(null, "", path);
  router();
}

export function cardMini(c) { return `<span class="mini">${cardSVG(c)}</span>`; }

export function topbar(extra = "") {
  return `<header class="topbar">
    <a href="/" data-nav class="brand">${cardMini("Ro")}<span>Tute</span></a>
    <div class="topbar-extra">${extra}</div>
    <a href="/cuenta" data-nav class="btn ghost" id="account-link" title="Cuenta / Account" aria-label="Cuenta / Account"><svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" style="vertical-align:-3px"><circle cx="12" cy="8" r="4" fill="currentColor"/><path d="M4 21a8 8 0 0 1 16 0z" fill="currentColor"/></svg></a>
    <button class="ghost" id="lang-btn" title="Language / Idioma">${t("lang")}</button>
  </header>`;
}

export function bindTopbar() {
  document.getElementById("lang-btn")?.addEventListener("click", () => {
    setLang(getLang() === "es" ? "en" : "es");
    // the new language's words come from the server's catalogue: draw once they are here
    wordsReady().then(() => page.rerender());
  });
}

// Back to the lobby: a drawn arrow (a font may lack the glyph), named for screen readers.
export function backLink() {
  const name = esc(t("backToLobby"));
  return `<a href="/" data-nav class="btn back-link" aria-label="${name}" title="${name}">${ICONS.back}</a>`;
}

// Drawn, not an emoji: many desktops lack an emoji font and would show a box.
export function speakerIcon(on) {
  const waves = on
    ? '<path d="M15 8.5a4 4 0 0 1 0 7M17.5 6a7.5 7.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>'
    : '<path d="M15.5 9.5l5 5M20.5 9.5l-5 5" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>';
  return `<svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" style="vertical-align:-3px"><path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4z" fill="currentColor"/>${waves}</svg>`;
}

