// The table's drawing, in parts (felt, hand, side panel, dialog) that are redrawn only when
// their HTML changes: render(T) draws what T holds.
import { t } from "../i18n.js";
import { esc, local, setHTML, CARD_RE } from "../util.js";
import { app, topbar, bindTopbar, speakerIcon } from "../shell.js";
import { boardHTML } from "../board.js";
import { handHTML, bindHand, focusOf, restoreFocus, actionButtons } from "../hand.js";
import { dealOf } from "../sheet.js";
import { waitingDialog, dealDialog, matchDialog, sheetDialog, helpDialog } from "../dialogs.js";
import { chatHTML, chatLogHTML, chatBadgeHTML } from "../chat.js";
import { sideHTML } from "../side.js";
import { hintsAllowed, hintText, learnButtons, explainHTML, refusalOf, dutyText } from "../learn.js";
import { context, seating, seatName, stockGame, title } from "./state.js";
import { play, onClick, onSubmit } from "./input.js";
import { ICONS } from "../icons.js";
import { dealIn } from "../trick.js";

function skeleton(T) {
  app.innerHTML = `${topbar(`<span class="table-title" id="tt"></span>
    <button class="ghost icon" data-do="sheet" id="sheet-btn" title="${t("sheet")}" aria-label="${t("sheet")}">${t("sheet")}</button>
    <button class="ghost icon" data-do="help" id="help-btn" title="${t("help")}" aria-label="${t("help")}">?</button>
    <button class="ghost icon" data-do="sound" id="sound-btn"></button>`)}
  <div id="banner"></div>
  <main class="table-page">
    <div class="board-wrap"><div class="chip-line"><button class="score-chip" data-do="sheet" id="score-chip"></button><span id="chat-jump-box"></span>
      <button class="ghost side-btn" data-do="side" id="side-btn" aria-controls="side-col" aria-label="${t("sidePanel")}" title="${t("sidePanel")}">${ICONS.menu}</button></div><div class="felt-wrap"><div id="felt"></div><div id="announce" class="announce" aria-hidden="true"></div></div>
      <div class="me" id="me"></div></div>
    <aside class="side-col" id="side-col" aria-label="${t("sidePanel")}"><div class="side-top">
      <button class="ghost side-sound" data-do="sound" id="side-sound"></button>
      <button class="ghost side-close" data-do="side" id="side-close">${t("closeBtn")}</button></div><div class="side" id="side"></div><div class="side chat-side" id="chat-box"></div></aside>
  </main>
  <div id="overlay"></div>
  <div id="live" class="sr-only" aria-live="polite" aria-atomic="true"></div>`;
  bindTopbar();
  T.skeleton = true;
  app.onclick = (ev) => onClick(T, ev);
  app.onsubmit = (ev) => onSubmit(T, ev);
}

// The turn clock (a table made with one): the seconds the player to move has left, counted
// from the update that gave them the turn; then the server's bot plays that decision.
function clockOf(T, s, st) {
  if (!T.info.clock || T.info.status !== "playing" || T.state.over) return "";
  if (T.state.deal.to_move !== s || st.kind !== "human" || st.away) return "";
  if (T.clockV !== T.v) { T.clockV = T.v; T.turnAt = performance.now() + T.info.clock * 1000; }
  return t("clockLeft", Math.max(0, Math.ceil((T.turnAt - performance.now()) / 1000)));
}

// The score as a chip above the felt (a phone's side panel is below the hand): this deal's
// points per side and the match's score; a tap opens the score sheet.
function renderChip(T) {
  const el = document.getElementById("score-chip");
  const C = context(T);
  const live = C.liveTotals();
  const score = T.state.score || T.state.games || [];
  const unit = t({ losses: "lostGames", balance: "balance" }[T.state.score_kind] || "games");
  const sides = live.map((p, sd) => `<span class="chip-side${C.mySide() === sd ? " mine" : ""}">${esc(C.sideName(sd))} <b>${p}</b></span>`).join("");
  el.title = t("sheet");  // (its name is what it shows: the score; the title says what a tap opens)
  setHTML(el, `${sides}<span class="chip-match">${esc(unit)} ${score.map((x) => `<b>${x}</b>`).join("–")}</span>`);
}

// The seat playing with me, when sides are partnerships (the server's seating says so).
function partnerOf(T) {
  const S = seating(T);
  if (!S.partnerships || T.seat === null) return null;
  const s = S.side_of.findIndex((sd, i) => i !== T.seat && sd === S.side_of[T.seat]);
  return s < 0 ? null : s;
}

// A bot's level in words ("bot medio"), for its badge: people know whom they play.
function botLevel(st) {
  if (st.kind !== "bot" || !st.level) return "";
  const word = t(st.level);
  return word === st.level ? "" : word;  // (a level without words: "random", "rules")
}

function statusOf(T, s, st) {
  const clock = clockOf(T, s, st);
  // (HTML: the stopwatch is drawn, not a font's glyph)
  if (clock) return { html: `${st.kind === "human" && !st.online ? `${esc(t("offline"))} · ` : ""}${ICONS.clock} ${esc(clock)}` };
  if (st.away) return t("away");
  if (st.pending) return t("rematchPending");  // a rematch not accepted yet: no countdown
  if (st.kind === "human" && !st.online) {
    const at = T.botAt[s];
    if (at && T.info.status === "playing") return `${t("offline")} · ${t("botIn", Math.max(0, Math.ceil((at - performance.now()) / 1000)))}`;
    return t("offline");
  }
  return "";
}

export function render(T) {
  if (T.closed) return;
  if (T.fatal || !T.info || !T.state) {
    T.skeleton = false;
    app.innerHTML = `${topbar()}<main class="center-msg">${T.fatal ? `<p class="error">${esc(T.fatal)}</p>
      <a href="/" data-nav class="btn primary">${t("backToLobby")}</a>` : `<p>${t("connecting")}</p>`}</main>`;
    bindTopbar();
    return;
  }
  if (!T.skeleton || !document.getElementById("felt")) skeleton(T);
  document.title = `${title(T)} · Tute`;
  const d = T.state.deal;
  const playing = T.info.status === "playing";
  const myTurn = T.seat !== null && d.to_move === T.seat && playing;
  const legal = new Set(myTurn ? d.legal_actions : []);
  const names = T.info.seats.map((_, s) => seatName(T, s));

  renderChip(T);
  setHTML(document.getElementById("tt"), `${esc(title(T))} · ${esc(dealOf(T.state))}${d.carry ? ` · <span class="vueltas-tag">${t("vueltasTag")}</span>` : ""}`);
  renderSound();
  setHTML(document.getElementById("banner"), T.connected ? "" : `<div class="banner">${t("reconnecting")}</div>`);
  renderFelt(T, names, playing);
  renderMe(T, d, myTurn, legal, names);
  renderSide(T);
  renderOverlay(T);
  // a phone's side panel is a sheet over the table, opened from the chip's line
  document.getElementById("side-col").classList.toggle("open", !!T.sideOpen);
  document.getElementById("side-btn").setAttribute("aria-expanded", String(!!T.sideOpen));
  dealing(T, playing);
}

// The sounds' one setting, as two toggles: the top bar's, and on a phone the side sheet's
// (opened beside the score chip, where a thumb reaches it). Each is named "Sound", pressed
// when on, its title saying the state in words; either one turns both.
function renderSound() {
  const on = local.sound;
  for (const [id, label] of [["sound-btn", ""], ["side-sound", t("sound")]]) {
    const el = document.getElementById(id);
    setHTML(el, `${speakerIcon(on)}${label ? ` <span>${esc(label)}</span>` : ""}`);
    el.ariaLabel = t("sound");
    el.setAttribute("aria-pressed", String(on));
    el.title = on ? t("soundOn") : t("soundOff");
  }
}

// A deal is dealt the first time it is seen uncovered (a deal's result may lie over the next
// one until the player goes on); a page opened in the middle of a deal deals nothing.
// T.dealt says what moved, for the browser tests.
function dealing(T, playing) {
  const n = T.state.deal_number, d = T.state.deal;
  if (T.dealSeen === n || T.overlay || !playing) return;
  const fresh = !d.tricks.length && !d.trick.length;
  if (T.dealSeen !== undefined || fresh) {
    T.dealt = { deal: n, ...dealIn(app, { dealer: d.dealer, me: T.seat, n: T.info.seats.length }) };
  }
  T.dealSeen = n;
}

function renderFelt(T, names, playing) {
  const d = T.state.deal;
  const S = seating(T);
  const status = T.info.seats.map((st, s) => statusOf(T, s, st));
  let trick = d.trick, winner = null;
  if (T.flash) { trick = T.flash.cards; winner = T.flash.winner; }
  const felt = boardHTML({
    n: T.info.seats.length, me: T.seat ?? 0, bottom: T.seat === null, names, status, hands: [],
    partner: partnerOf(T), levels: T.info.seats.map((st) => botLevel(st)),
    sizes: d.hand_sizes, trick, winner,
    toMove: playing ? d.to_move : null, dealer: d.dealer, mano: d.mano, idle: S.idle,
    trump: d.trump, upcard: d.upcard, stockCount: d.stock_count, tableCard: d.table_card,
    noTrump: !d.trump && !d.trump_card,  // cabrón, or subastado before the trump is named
    // the turned card is shown while it is still the dealer's or lies on the table; after
    // the stock it may have been exchanged, so then only the suit
    trumpCard: d.upcard ? null : (d.trump_card_with_dealer || !stockGame(T)) ? d.trump_card : null,
  });
  const win = T.flash && winner !== null
    ? `<div class="trick-win" role="presentation">${esc(winner === T.seat ? t("trickWinnerYou", T.flash.points) : t("trickWinner", seatName(T, winner), T.flash.points))}</div>` : "";
  setHTML(document.getElementById("felt"), felt.replace('<div class="trick"', `${win}<div class="trick"`));
}

function renderMe(T, d, myTurn, legal, names) {
  const el = document.getElementById("me");
  const buttons = myTurn ? d.legal_actions.filter((a) => !CARD_RE.test(a)) : [];
  // a hint is for the position it was asked in: gone once the turn passes
  if (T.hint && (!myTurn || T.hint.v !== T.v)) T.hint = null;
  if (!myTurn) T.hinting = false;
  const canHint = hintsAllowed(T.info, T.seat);
  const learn = myTurn ? `<div class="learn">${learnButtons({ canHint, pending: T.hinting, explain: T.explain })}</div>` : "";
  const hintLine = T.hint ? `<p class="hint-line" id="hint-line" role="status">${esc(hintText(T.hint))}</p>` : "";
  const explain = myTurn && T.explain ? explainHTML(d, T.seat) : "";
  const focus = focusOf(el);
  const myClock = myTurn ? clockOf(T, T.seat, T.info.seats[T.seat]) : "";
  const turnMsg = T.info.status !== "playing" ? "" : myTurn ? `<b class="your-turn">${t("yourTurn")}</b>${myClock ? ` <span class="clock">${ICONS.clock} ${esc(myClock)}</span>` : ""}`
    : d.to_move !== null ? t("waitingFor", esc(seatName(T, d.to_move))) : "";
  const avail = Math.max(200, (el.clientWidth || app.clientWidth || innerWidth) - 8);
  const hand = T.seat === null ? `<p class="muted">${t("spectating")}</p>`
    : handHTML(d.hand, { legal, myTurn, avail, vw: innerWidth, hint: T.hint?.action,
      why: myTurn && T.explain ? (c) => refusalOf(d, c, T.seat) : null });
  const idle = T.seat !== null && seating(T).idle.includes(T.seat) ? `<span class="tag">${t("sitsOut")}</span>` : "";
  const html = `<div class="me-line ${myTurn ? "to-move" : ""}">${T.seat === null ? "" : `<span class="who">${esc(names[T.seat])}</span>`}
      ${T.seat !== null && T.seat === d.mano ? `<span class="tag">${t("mano")}</span>` : ""}
      ${T.seat !== null && T.seat === d.dealer ? `<span class="tag">${t("dealer")}</span>` : ""}${idle}
      <span class="turn">${turnMsg}</span></div>
    ${T.standIn ? `<p class="stand-in" id="stand-in" role="status">${esc(t("standInYou"))}</p>` : ""}
    <p class="duty-line" id="duty" role="status">${myTurn ? esc(dutyText(d.duty)) : ""}</p>
    ${learn}${hintLine}${explain}
    ${buttons.length ? `<div class="actions">${actionButtons(buttons, T.hint?.action)}</div>` : ""}
    <div class="hand" id="hand" role="group" aria-label="${esc(t("yourTurn"))}">${hand}</div>
    <p class="msg" role="alert">${esc(T.message)}</p>`;
  if (setHTML(el, html)) {
    bindHand(el, (action, from, rect) => play(T, action, from, rect));
    restoreFocus(el, focus);
  }
}

function renderSide(T) {
  setHTML(document.getElementById("side"), sideHTML(context(T)));
  // the chat keeps its own box, so that a redraw of the score never takes the text being typed
  setHTML(document.getElementById("chat-box"), chatHTML(T));
  setHTML(document.getElementById("chat-jump-box"), chatBadgeHTML(T));
  const log = document.getElementById("chat-log");
  if (log && setHTML(log, chatLogHTML(T.chat, (s) => seatName(T, s)))) log.scrollTop = log.scrollHeight;
}

function renderOverlay(T) {
  const el = document.getElementById("overlay");
  const C = context(T);
  let html = "";
  if (T.info.status === "waiting") html = waitingDialog(C);
  else if (T.overlay === "deal" && T.state.last_deal) html = dealDialog(C);
  else if (T.overlay === "match" && T.state.over) html = matchDialog(C);
  else if (T.overlay === "sheet") html = sheetDialog(C);
  else if (T.overlay === "help") html = helpDialog(C);
  if (setHTML(el, html) && html) el.querySelector(".dialog button.primary, .dialog .btn.primary, .dialog button")?.focus({ preventScroll: true });
}
