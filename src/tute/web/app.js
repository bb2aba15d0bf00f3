// The tute front end: lobby, table, replay, rules and tutorial pages as small ES modules, no build step;
// it talks only the protocol of docs/protocol.md (HTTP under /api, a WebSocket per table).
import { installCardDefs } from "./cards.js";
import { page, setRouter, nav } from "./shell.js";
import { lobbyPage, joinByCode, rulesPage } from "./lobby.js";
import { tablePage } from "./table.js";
import { replayPage } from "./replay.js";
import { analysisPage } from "./analysis.js";
import { tutorialPage } from "./tutorial.js";
import { accountPage, syncSeats } from "./account.js";
import { leaderboardPage } from "./leaderboard.js";
import { playerPage } from "./player.js";
import { puzzlesPage, puzzlePage } from "./puzzles/page.js";
import { dailyListPage, dailyPage } from "./daily/page.js";
import { tournamentsPage, tournamentPage } from "./tournaments/page.js";
import { wordsReady, hasWords, getLang, NO_WORDS } from "./i18n.js";

window.addEventListener("popstate", () => route());
document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-nav]");
  if (a && !ev.ctrlKey && !ev.metaKey && !a.target) {
    ev.preventDefault();
    nav(a.getAttribute("href"));
  }
});

function route() {
  page.leave();
  page.leave = () => {};
  page.rerender = () => {};
  const p = location.pathname;
  let m;
  if ((m = p.match(/^\/t\/([\w-]+)$/))) return tablePage(m[1]);
  if ((m = p.match(/^\/r\/([\w-]+)$/))) return replayPage(m[1]);
  if ((m = p.match(/^\/a\/([\w-]+)$/))) return analysisPage(m[1]);
  if ((m = p.match(/^\/j\/(\w+)$/))) return joinByCode(m[1]);
  if ((m = p.match(/^\/reglas\/(\w+)$/))) return rulesPage(m[1]);
  if ((m = p.match(/^\/aprende\/([\w-]+)$/))) return tutorialPage(m[1]);
  if (p === "/diario") return dailyListPage();
  if ((m = p.match(/^\/diario\/([\w-]+)$/))) return dailyPage(m[1]);
  if (p === "/torneos") return tournamentsPage();
  if ((m = p.match(/^\/torneo\/([\w-]+)$/))) return tournamentPage(m[1]);
  if (p === "/problemas") return puzzlesPage();
  if ((m = p.match(/^\/problemas\/([\w-]+)$/))) return puzzlePage(m[1]);
  if (p === "/cuenta") return accountPage();
  if (p === "/clasificacion") return leaderboardPage();
  if ((m = p.match(/^\/jugador\/([^/]+)$/))) return playerPage(decodeURIComponent(m[1]));
  return lobbyPage();
}

setRouter(route);
installCardDefs();
// every word of the page comes from the server's catalogue: the first page waits for it, and
// for an account's seats from its other devices, before the lobby
Promise.all([wordsReady(), syncSeats().catch(() => null)]).then(() => {
  if (hasWords()) route();
  else document.getElementById("app").innerHTML = `<p class="error">${NO_WORDS[getLang()]}</p>`;
});
