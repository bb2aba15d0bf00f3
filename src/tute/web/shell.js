// The page's frame: the top bar, navigation between the pages, and the current page's hooks.
import { t, setLang, getLang } from "./i18n.js";
import { cardSVG } from "./cards.js";

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
    <a href="/" data-nav class="brand" aria-label="Tute">${cardMini("Ro")}<span>Tute</span></a>
    <div class="topbar-extra">${extra}</div>
    <button class="ghost" id="lang-btn" title="Language / Idioma">${t("lang")}</button>
  </header>`;
}

export function bindTopbar() {
  document.getElementById("lang-btn")?.addEventListener("click", () => {
    setLang(getLang() === "es" ? "en" : "es");
    page.rerender();
  });
}
