// The tutorial's drawing: the lesson's panel, the felt and the learner's hand, from L.
import { t } from "../i18n.js";
import { esc, setHTML, CARD_RE } from "../util.js";
import { app, topbar, bindTopbar } from "../shell.js";
import { boardHTML } from "../board.js";
import { handHTML, bindHand, actionButtons } from "../hand.js";
import { eventLine } from "../words.js";
import { variantName } from "../table/state.js";
import { say, seatName } from "./state.js";
import { play, onClick } from "./steps.js";

function lessonPanel(L) {
  const st = L.st;
  // what the others did since the learner's last move (the learner knows his own)
  const lines = st.events.filter((e) => !(e.seat === st.seat && (e.e === "CardPlayed" || e.e === "Passed")))
    .map((e) => eventLine(e, (s) => seatName(L, s), st.seat)).filter(Boolean).slice(-6);
  const idx = L.list.findIndex((x) => x.id === L.id);
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

export function render(L) {
  if (L.closed) return;
  if (L.fatal || !L.st) {
    app.innerHTML = `${topbar()}<main class="center-msg">${L.fatal ? `<p class="error">${esc(L.fatal)}</p>
      <a href="/" data-nav class="btn primary">${t("backToLobby")}</a>` : `<p>${t("connecting")}</p>`}</main>`;
    bindTopbar();
    return;
  }
  if (!document.getElementById("tutorial")) {
    app.innerHTML = `${topbar(`<span class="table-title" id="tt"></span>`)}
      <main class="table-page tutorial-page with-lesson" id="tutorial">
        <div class="board-wrap"><div class="felt-wrap"><div id="felt"></div></div><div class="me" id="me"></div></div>
        <aside class="lesson-col"><div id="lesson-box"></div></aside>
      </main>`;
    bindTopbar();
    app.onclick = (ev) => onClick(L, ev);
  }
  const st = L.st;
  document.title = `${say(L.info.title)} · Tute`;
  setHTML(document.getElementById("tt"), `${esc(variantName(st.game))} · ${esc(say(L.info.title))}`);
  setHTML(document.getElementById("lesson-box"), lessonPanel(L));
  renderFelt(L);
  renderMe(L);
}

function renderFelt(L) {
  const st = L.st, d = st.state.deal, S = st.state.seating;
  const n = S.seats;
  // the trick in play, or the one just taken with its winner marked
  let trick = d.trick, winner = null;
  const taken = [...st.events].reverse().find((e) => e.e === "TrickTaken");
  if (!trick.length && taken) {
    trick = taken.cards.map((c, i) => [taken.seats[i], c]);
    winner = taken.winner;
  }
  setHTML(document.getElementById("felt"), boardHTML({
    n, me: st.seat, bottom: false, names: [...Array(n).keys()].map((s) => seatName(L, s)), status: Array(n).fill(""),
    hands: [], sizes: d.hand_sizes, trick, winner, toMove: st.done ? null : d.to_move,
    dealer: d.dealer, mano: d.mano, idle: S.idle, trump: d.trump, upcard: d.upcard,
    stockCount: d.stock_count, tableCard: d.table_card, noTrump: !d.trump && !d.trump_card,
    trumpCard: d.upcard ? null : d.trump_card,
  }));
}

function renderMe(L) {
  const st = L.st, d = st.state.deal, S = st.state.seating;
  const me = st.seat;
  const myTurn = !st.done && d.to_move === me;
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
    bindHand(el, (action) => play(L, action));
  }
}
