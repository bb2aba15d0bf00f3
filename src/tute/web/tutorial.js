// Guided tutorials (/aprende/{id}): a scripted deal on the real table's felt and hand. The page
// keeps only the learner's moves; the server replays them (POST /api/tutorials/{id}/step) and
// answers with the learner's view, the next text and the legal moves, or refuses a move with
// the engine's reason (an illegal card) or the lesson's (a legal one it does not take).
import { t, getLang, refusalText } from "./i18n.js";
import { esc, api, loadVariants, setHTML, CARD_RE } from "./util.js";
import { app, page, topbar, bindTopbar } from "./shell.js";
import { boardHTML } from "./board.js";
import { handHTML, bindHand, actionButtons } from "./hand.js";
import { eventLine } from "./words.js";
import { variantName } from "./table.js";

let catalogue = null;
export async function tutorials() {
  if (!catalogue) catalogue = (await api("GET", "/api/tutorials")).tutorials;
  return catalogue;
}

const say = (text) => (text ? text[getLang()] || text.es : "");

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
  const L = { id, info: null, st: null, taken: [], message: "", pending: false, closed: false, fatal: null, list: [] };
  document.title = "Tute";

  function seatName(s) {
    if (!L.st) return "";
    if (s === L.st.seat) return t("you");
    const S = L.st.state.seating;
    const mine = S.side_of[L.st.seat];
    if (S.partnerships && S.side_of[s] === mine) return t("lessonPartner");
    // the opponents in playing order: "Rival 1" plays after the learner
    const them = [...Array(S.seats).keys()].map((k) => (L.st.seat + k) % S.seats).filter((k) => S.side_of[k] !== mine);
    return them.length > 1 ? t("lessonRival", them.indexOf(s) + 1) : t("lessonRival", "").trim();
  }

  async function go(taken) {
    if (L.pending) return;
    L.pending = true;
    try {
      L.st = await api("POST", `/api/tutorials/${encodeURIComponent(id)}/step`, { taken });
      L.taken = taken;
      L.message = "";
    } catch (e) {
      L.message = e.data?.reasons ? say(e.data.reasons) : e.message;
      if (!L.st) L.fatal = e.message;
    } finally { L.pending = false; }
    render();
  }

  async function play(action) {
    if (!L.st || L.st.done || L.pending) return;
    const d = L.st.state.deal;
    // an illegal card is refused here with the engine's own reason, as at the table
    if (CARD_RE.test(action) && d.refusals && d.refusals[action]) {
      const r = d.refusals[action];
      L.message = refusalText(r, r.code, L.st.seat);
      render();
      return;
    }
    await go([...L.taken, action]);
  }

  function lessonPanel() {
    const st = L.st;
    // what the others did since the learner's last move (the learner knows his own)
    const lines = st.events.filter((e) => !(e.seat === st.seat && (e.e === "CardPlayed" || e.e === "Passed")))
      .map((e) => eventLine(e, seatName, st.seat)).filter(Boolean).slice(-6);
    const idx = L.list.findIndex((x) => x.id === id);
    const next = idx >= 0 && idx + 1 < L.list.length && L.list[idx + 1].game === L.info.game ? L.list[idx + 1] : null;
    const step = st.done ? t("lessonDone") : t("lessonStep", st.step + 1, st.steps);
    return `<section class="lesson" id="lesson" aria-live="polite">
      <p class="lesson-head"><b id="lesson-step">${esc(step)}</b>
        <button class="ghost" data-do="restart" id="lesson-restart">${t("lessonRestart")}</button></p>
      ${st.step === 0 && !st.done ? `<p class="lesson-intro" id="lesson-intro">${esc(say(L.info.intro))}</p>` : ""}
      <p class="lesson-say" id="lesson-say">${esc(say(st.say))}</p>
      <p class="lesson-msg" id="lesson-msg" role="alert">${esc(L.message)}</p>
      ${lines.length ? `<ul class="lesson-log" id="lesson-log">${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>` : ""}
      ${st.done ? `<p class="lesson-next">${next ? `<a href="/aprende/${esc(next.id)}" data-nav class="btn primary" id="lesson-next">${t("lessonNext")}: ${esc(say(next.title))}</a>` : ""}
        <a href="/" data-nav class="btn" id="lesson-lobby">${t("backToLobby")}</a></p>` : ""}
    </section>`;
  }

  function render() {
    if (L.closed) return;
    if (L.fatal || !L.st) {
      app.innerHTML = `${topbar()}<main class="center-msg">${L.fatal ? `<p class="error">${esc(L.fatal)}</p>
        <a href="/" data-nav class="btn primary">${t("backToLobby")}</a>` : `<p>${t("connecting")}</p>`}</main>`;
      bindTopbar();
      return;
    }
    if (!document.getElementById("tutorial")) {
      app.innerHTML = `${topbar(`<span class="table-title" id="tt"></span>`)}
        <main class="table-page tutorial-page" id="tutorial">
          <div class="board-wrap"><div id="lesson-box"></div><div class="felt-wrap"><div id="felt"></div></div><div class="me" id="me"></div></div>
        </main>`;
      bindTopbar();
      app.onclick = onClick;
    }
    const st = L.st, d = st.state.deal, S = st.state.seating;
    const n = S.seats, me = st.seat;
    document.title = `${say(L.info.title)} · Tute`;
    setHTML(document.getElementById("tt"), `${esc(variantName(st.game))} · ${esc(say(L.info.title))}`);
    setHTML(document.getElementById("lesson-box"), lessonPanel());
    // the trick in play, or the one just taken with its winner marked
    let trick = d.trick, winner = null;
    const taken = [...st.events].reverse().find((e) => e.e === "TrickTaken");
    if (!trick.length && taken) {
      trick = taken.cards.map((c, i) => [taken.seats[i], c]);
      winner = taken.winner;
    }
    const myTurn = !st.done && d.to_move === me;
    setHTML(document.getElementById("felt"), boardHTML({
      n, me, bottom: false, names: [...Array(n).keys()].map(seatName), status: Array(n).fill(""),
      hands: [], sizes: d.hand_sizes, trick, winner, toMove: st.done ? null : d.to_move,
      dealer: d.dealer, mano: d.mano, idle: S.idle, trump: d.trump, upcard: d.upcard,
      stockCount: d.stock_count, tableCard: d.table_card, noTrump: !d.trump && !d.trump_card,
      trumpCard: d.upcard ? null : d.trump_card,
    }));
    const legal = new Set(myTurn ? d.legal_actions : []);
    const buttons = myTurn ? d.legal_actions.filter((a) => !CARD_RE.test(a)) : [];
    // after a wrong try the lesson's move is marked, as the hint marks it at the table
    const show = myTurn && L.message && st.expect.length ? st.expect[0] : null;
    const el = document.getElementById("me");
    const avail = Math.max(200, (el.clientWidth || app.clientWidth || innerWidth) - 8);
    const totals = d.card_points.map((p, sd) => p + (d.carry ? d.carry[sd] : 0));
    for (const [s, , p] of d.cantes) totals[S.side_of[s]] += p;
    const mine = S.side_of[me];
    const score = totals.map((p, sd) => `${sd === mine ? t(S.partnerships ? "us" : "you") : t(S.partnerships ? "them" : "lessonRival", "")} ${p}`).join(" · ");
    if (setHTML(el, `<div class="me-line ${myTurn ? "to-move" : ""}"><span class="who">${esc(t("you"))}</span>
        <span class="turn">${myTurn ? `<b class="your-turn">${t("yourTurn")}</b>` : ""}</span>
        <span class="lesson-score" id="lesson-score">${t("points")}: ${esc(score)}</span></div>
      ${buttons.length ? `<div class="actions">${actionButtons(buttons, show)}</div>` : ""}
      <div class="hand" id="hand">${handHTML(d.hand, { legal, myTurn, avail, vw: innerWidth, hint: show, why: null })}</div>`)) {
      bindHand(el, play);
    }
  }

  function onClick(ev) {
    const act = ev.target.closest("[data-action]");
    if (act) { play(act.dataset.action); return; }
    const b = ev.target.closest("[data-do]");
    if (b && b.dataset.do === "restart") { L.message = ""; go([]); }
  }

  page.rerender = () => { const box = document.getElementById("tutorial"); if (box) box.remove(); render(); };
  page.leave = () => { L.closed = true; app.onclick = null; };
  window.__lesson = L;  // for the browser tests (read only)
  (async () => {
    try {
      await loadVariants();
      [L.info, L.list] = await Promise.all([api("GET", `/api/tutorials/${encodeURIComponent(id)}`), tutorials()]);
    } catch (e) { L.fatal = e.message; render(); return; }
    await go([]);
  })();
  render();
}

