// The table page: one WebSocket (docs/protocol.md), the state it keeps exact with the deltas,
// and a drawing split in parts (felt, hand, side panel, dialog) that are redrawn only when
// their HTML changes. Updates are shown one at a time, so a trick can be a moment.
import { t, cardName, actionLabel, errorText, getLang } from "./i18n.js";
import { esc, sleep, applyDelta, local, api, beep, loadVariants, variantOf, setHTML, CARD_RE } from "./util.js";
import { app, page, nav, topbar, bindTopbar, speakerIcon } from "./shell.js";
import { boardHTML } from "./board.js";
import { handHTML, bindHand, focusOf, restoreFocus, legalText, actionButtons } from "./hand.js";
import { flyIn, collect, seatRect, TIMING } from "./trick.js";
import { dealOf } from "./sheet.js";
import { waitingDialog, dealDialog, matchDialog, sheetDialog, helpDialog } from "./dialogs.js";
import { chatHTML, chatLogHTML, lineText } from "./chat.js";
import { announcer, eventLine, FELT } from "./words.js";
import { sideHTML } from "./side.js";
import { explainPref, hintsAllowed, hintText, learnButtons, explainHTML, refusalOf } from "./learn.js";

const PROTOCOL = 2;

export function variantName(id) {
  const v = variantOf(id);
  if (!v) return id;
  return getLang() === "es" ? v.name : v.english;
}

export function tablePage(id) {
  const held = local.seat(id);
  const T = {
    id, token: held?.token || null, seat: null, info: null, state: null, v: null,
    ws: null, queue: [], busy: false, flash: null, showLast: false, log: [], logN: 0,
    overlay: null, message: "", pending: false, closed: false, fatal: null, retry: 0,
    connected: false, chat: [], chatOpen: false, unread: 0, botAt: {}, from: null,
    rematch: null, rematchWaiting: false, skeleton: false,
    hint: null, hinting: false, hintN: 0, explain: explainPref.on,
  };
  const C = {
    T, local, seatName, sideName, mySide, liveTotals,
    get title() { return T.info ? variantName(T.info.variant) : "Tute"; },
  };
  document.title = "Tute";

  function seating() {
    const n = T.info.seats.length;
    return T.state?.seating || { seats: n, sides: n, partnerships: false, side_of: [...Array(n).keys()], idle: [] };
  }

  function seatName(s) {
    const st = T.info?.seats?.[s];
    if (!st) return t("seatLabel", s + 1);
    if (st.kind === "open") return t("openSeat");
    return st.name || t("seatLabel", s + 1);
  }

  function mySide() { return T.seat === null ? null : seating().side_of[T.seat]; }

  // Partnerships and sides come from the server's seating (never from the seat count).
  function sideName(side) {
    const S = seating();
    const members = S.side_of.map((sd, s) => [sd, s]).filter(([sd]) => sd === side).map(([, s]) => s);
    if (S.partnerships) {
      if (T.seat === null) return members.map(seatName).join(" & ");
      return side === mySide() ? t("us") : t("them");
    }
    return seatName(members[0] ?? side);
  }

  // This deal's tantos per side: carried totals (de vueltas), card points and cantes.
  function liveTotals() {
    const d = T.state.deal;
    const S = seating();
    const out = d.card_points.map((p, sd) => p + (d.carry ? d.carry[sd] : 0));
    for (const [s, , p] of d.cantes) out[S.side_of[s]] += p;
    return out;
  }

  // ---------------------------------------------------------------- words: log, felt, screen readers

  const { say, note } = announcer(() => T.closed);
  const eventText = (e) => eventLine(e, seatName, T.seat);

  function logLine(line) {
    T.logN += 1;
    T.log.push([T.logN, line]);
    if (T.log.length > 80) T.log.shift();
  }

  function onEvents(events, prev) {
    for (const e of events) {
      const line = eventText(e);
      if (line) logLine(line);
      if (FELT.has(e.e) && line) note(line, e.e === "Declared" ? "cante" : "");
      else if (e.e === "Passed" && T.info.game?.auction && line) note(line);
    }
    const d = T.state.deal, p = prev?.deal;
    // the end of the stock: the strict duties of the arrastre start now
    if (p && p.stock_count > 0 && d.stock_count === 0 && prev.deal_number === T.state.deal_number) {
      note(t(T.info.game?.stock_over || "stockOver"), "phase");
    }
    if (prev && T.state.deal_number !== prev.deal_number && d.carry) vueltasNote();
  }

  function vueltasNote() {
    const tot = T.state.deal.carry.map((c, sd) => `${sideName(sd)} ${c}`).join(" · ");
    note(t("vueltasNow", tot), "phase");
  }

  // ---------------------------------------------------------------- connection

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(id)}`);
    T.ws = ws;
    ws.onopen = () => {
      T.retry = 0;
      const hello = { type: "hello", protocol: PROTOCOL };
      if (T.token) hello.token = T.token;
      if (T.v !== null) hello.since = T.v;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      onMessage(m);
    };
    ws.onclose = () => {
      T.connected = false;
      if (T.closed || T.fatal) return;
      render();
      const wait = Math.min(5000, 400 * 2 ** T.retry++);
      setTimeout(() => { if (!T.closed) connect(); }, wait);
    };
  }

  function send(msg) {
    if (T.ws && T.ws.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify(msg));
  }

  function setSeats(seats) {
    T.info.seats = seats;
    const now = performance.now();
    T.botAt = {};
    seats.forEach((s, i) => { if (s.bot_in !== null && s.bot_in !== undefined) T.botAt[i] = now + s.bot_in * 1000; });
  }

  function onMessage(m) {
    switch (m.type) {
      case "welcome":
      case "catchup": {
        const first = !T.state;
        T.connected = true;
        if (m.table) { T.info = m.table; setSeats(m.table.seats); }
        if (m.seat !== undefined) T.seat = m.seat;
        (m.missed || []).forEach((u) => u.events.forEach((e) => { const l = eventText(e); if (l) logLine(l); }));
        if (m.chat) T.chat = m.chat;
        T.state = m.state; T.v = m.v; T.pending = false; T.queue = [];
        if (T.state.over) T.overlay = "match";
        render();
        if (first && T.state.deal.carry && !T.state.over) vueltasNote();
        break;
      }
      case "update":
        T.queue.push(m);
        pump();
        break;
      case "seats":
        if (T.info) { setSeats(m.seats); T.info.status = m.status; }
        render();
        break;
      case "chat":
        T.chat.push(m);
        if (T.chat.length > 50) T.chat.shift();
        if (!T.chatOpen) T.unread += 1;
        say(`${m.name || seatName(m.seat)}: ${lineText(m)}`);
        render();
        break;
      case "hint":
        T.hinting = false;
        if (m.v === T.v) { T.hint = m; say(hintText(m)); }
        render();
        break;
      case "rematch":
        T.rematch = m;
        if (m.token) local.keep(m.id, m.seat, m.token, T.info.variant);
        if (T.rematchWaiting && m.token) { nav(m.url); return; }
        render();
        break;
      case "error":
        T.pending = false;
        if (m.ref && m.ref.startsWith("hint")) T.hinting = false;
        if (m.fatal) {
          if (m.code === "bad_token") { local.forget(id); T.token = null; return; }
          T.fatal = errorText(m.code, m.reason);
          render();
          return;
        }
        if (m.code === "stale") { send({ type: "sync", since: T.v ?? 0 }); return; }
        T.rematchWaiting = false;
        T.message = errorText(m.code, m.reason, m.refusal, T.seat);
        say(T.message);
        beep(200, 120);
        render();
        break;
      default:
        break;
    }
  }

  // Updates are shown one by one. A card flies from its player to the table; a finished trick
  // stays with its winner marked and named, then goes to the winner.
  async function pump() {
    if (T.busy) return;
    T.busy = true;
    while (T.queue.length && !T.closed) {
      const u = T.queue.shift();
      if (T.v !== null && u.v <= T.v) continue;
      const prev = T.state;
      const trick = u.events.find((e) => e.e === "TrickTaken");
      const ended = u.events.find((e) => e.e === "DealEnded");
      const plays = u.events.filter((e) => e.e === "CardPlayed");
      // where each card comes from, measured before the redraw moves anything
      const froms = plays.map((e) => [e.seat, T.from && T.from.card === e.card ? T.from.rect : seatRect(app, e.seat, T.seat)]);
      T.from = null;
      if (u.seat === T.seat) T.pending = false;
      T.state = applyDelta(T.state, u.delta); T.v = u.v;
      if (u.kind === "action") T.message = "";
      onEvents(u.events, prev);
      plays.forEach((e) => say(t("played", seatName(e.seat), cardName(e.card))));
      if (plays.length) beep(380, 40);
      if (trick) {
        T.flash = { cards: trick.cards.map((c, i) => [trick.seats[i], c]), winner: null };
        render();
        await Promise.all(froms.map(([s, r]) => flyIn(app, s, r)));
        T.flash.winner = trick.winner;
        T.flash.points = trick.points;
        render();
        say(trick.winner === T.seat ? t("trickWinnerYou", trick.points) : t("trickWinner", seatName(trick.winner), trick.points));
        await sleep(T.state.deal.to_move === T.seat ? TIMING.showMine : TIMING.show);
        await collect(app, seatRect(app, trick.winner, T.seat));
        T.flash = null;
      } else if (plays.length) {
        render();
        await Promise.all(froms.map(([s, r]) => flyIn(app, s, r)));
      }
      if (ended) T.overlay = T.state.over ? "match" : "deal";
      render();
      const d = T.state.deal;
      if (d.to_move === T.seat && T.seat !== null && !T.state.over) {
        beep(660, 90);
        if (!T.queue.length) say(legalText(d.legal_actions.filter((a) => CARD_RE.test(a))));
      }
    }
    T.busy = false;
  }

  function play(action, el, rect) {
    if (!T.state || T.pending || T.seat === null) return;
    if (T.state.deal.to_move !== T.seat) { T.message = t("waitingFor", seatName(T.state.deal.to_move)); render(); return; }
    if (el && CARD_RE.test(action)) T.from = { card: action, rect: rect || el.getBoundingClientRect() };
    T.pending = true;
    T.message = "";
    T.sentAt = performance.now();  // the browser tests read the latency of a play from here
    send({ type: "act", action, v: T.v });
  }

  // ---------------------------------------------------------------- drawing

  function skeleton() {
    app.innerHTML = `${topbar(`<span class="table-title" id="tt"></span>
      <button class="ghost icon" data-do="sheet" id="sheet-btn" title="${t("sheet")}" aria-label="${t("sheet")}">${t("sheet")}</button>
      <button class="ghost icon" data-do="help" id="help-btn" title="${t("help")}" aria-label="${t("help")}">?</button>
      <button class="ghost icon" data-do="sound" id="sound-btn"></button>`)}
    <div id="banner"></div>
    <main class="table-page">
      <div class="board-wrap"><div class="felt-wrap"><div id="felt"></div><div id="announce" class="announce" aria-hidden="true"></div></div>
        <div class="me" id="me"></div></div>
      <aside class="side-col"><div class="side" id="side"></div><div class="side chat-side" id="chat-box"></div></aside>
    </main>
    <div id="overlay"></div>
    <div id="live" class="sr-only" aria-live="polite" aria-atomic="true"></div>`;
    bindTopbar();
    T.skeleton = true;
    app.onclick = onClick;
    app.onsubmit = onSubmit;
  }

  // The turn clock (a table made with one): the seconds the player to move has left, counted
  // from the update that gave them the turn; then the server's bot plays that decision.
  function clockOf(s, st) {
    if (!T.info.clock || T.info.status !== "playing" || T.state.over) return "";
    if (T.state.deal.to_move !== s || st.kind !== "human" || st.away) return "";
    if (T.clockV !== T.v) { T.clockV = T.v; T.turnAt = performance.now() + T.info.clock * 1000; }
    return t("clockLeft", Math.max(0, Math.ceil((T.turnAt - performance.now()) / 1000)));
  }

  function statusOf(s, st) {
    const clock = clockOf(s, st);
    if (clock) return st.kind === "human" && !st.online ? `${t("offline")} · ${clock}` : clock;
    if (st.away) return t("away");
    if (st.kind === "human" && !st.online) {
      const at = T.botAt[s];
      if (at && T.info.status === "playing") return `${t("offline")} · ${t("botIn", Math.max(0, Math.ceil((at - performance.now()) / 1000)))}`;
      return t("offline");
    }
    return "";
  }

  function render() {
    if (T.closed) return;
    if (T.fatal || !T.info || !T.state) {
      T.skeleton = false;
      app.innerHTML = `${topbar()}<main class="center-msg">${T.fatal ? `<p class="error">${esc(T.fatal)}</p>
        <a href="/" data-nav class="btn primary">${t("backToLobby")}</a>` : `<p>${t("connecting")}</p>`}</main>`;
      bindTopbar();
      return;
    }
    if (!T.skeleton || !document.getElementById("felt")) skeleton();
    document.title = `${C.title} · Tute`;
    const d = T.state.deal;
    const S = seating();
    const n = T.info.seats.length;
    const me = T.seat ?? 0;
    const playing = T.info.status === "playing";
    const myTurn = T.seat !== null && d.to_move === T.seat && playing;
    const legal = new Set(myTurn ? d.legal_actions : []);
    const names = T.info.seats.map((_, s) => seatName(s));
    const status = T.info.seats.map((st, s) => statusOf(s, st));

    setHTML(document.getElementById("tt"), `${esc(C.title)} · ${esc(dealOf(T.state))}${d.carry ? ` · <span class="vueltas-tag">${t("vueltasTag")}</span>` : ""}`);
    const snd = document.getElementById("sound-btn");
    setHTML(snd, speakerIcon(local.sound));
    snd.title = snd.ariaLabel = local.sound ? t("soundOn") : t("soundOff");
    setHTML(document.getElementById("banner"), T.connected ? "" : `<div class="banner">${t("reconnecting")}</div>`);

    let trick = d.trick, winner = null;
    if (T.flash) { trick = T.flash.cards; winner = T.flash.winner; }
    const felt = boardHTML({
      n, me, bottom: T.seat === null, names, status, hands: [], sizes: d.hand_sizes, trick, winner,
      toMove: playing ? d.to_move : null, dealer: d.dealer, mano: d.mano, idle: S.idle,
      trump: d.trump, upcard: d.upcard, stockCount: d.stock_count, tableCard: d.table_card,
      noTrump: !d.trump && !d.trump_card,  // cabrón, or subastado before the trump is named
      // the turned card is shown while it is still the dealer's or lies on the table; after
      // the stock it may have been exchanged, so then only the suit
      trumpCard: d.upcard ? null : (d.trump_card_with_dealer || !stockGame()) ? d.trump_card : null,
    });
    const win = T.flash && winner !== null
      ? `<div class="trick-win" role="presentation">${esc(winner === T.seat ? t("trickWinnerYou", T.flash.points) : t("trickWinner", seatName(winner), T.flash.points))}</div>` : "";
    setHTML(document.getElementById("felt"), felt.replace('<div class="trick"', `${win}<div class="trick"`));

    renderMe(d, myTurn, legal, names);
    renderSide();
    renderOverlay();
  }

  function stockGame() {
    const v = variantOf(T.info.variant);
    return !!v && v.options.includes("stock_phase_rule");
  }

  function renderMe(d, myTurn, legal, names) {
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
    const myClock = myTurn ? clockOf(T.seat, T.info.seats[T.seat]) : "";
    const turnMsg = T.info.status !== "playing" ? "" : myTurn ? `<b class="your-turn">${t("yourTurn")}</b>${myClock ? ` <span class="clock">${myClock}</span>` : ""}`
      : d.to_move !== null ? t("waitingFor", esc(seatName(d.to_move))) : "";
    const avail = Math.max(200, (el.clientWidth || app.clientWidth || innerWidth) - 8);
    const hand = T.seat === null ? `<p class="muted">${t("spectating")}</p>`
      : handHTML(d.hand, { legal, myTurn, avail, vw: innerWidth, hint: T.hint?.action,
        why: myTurn && T.explain ? (c) => refusalOf(d, c, T.seat) : null });
    const idle = T.seat !== null && seating().idle.includes(T.seat) ? `<span class="tag">${t("sitsOut")}</span>` : "";
    const html = `<div class="me-line ${myTurn ? "to-move" : ""}">${T.seat === null ? "" : `<span class="who">${esc(names[T.seat])}</span>`}
        ${T.seat !== null && T.seat === d.mano ? `<span class="tag">${t("mano")}</span>` : ""}
        ${T.seat !== null && T.seat === d.dealer ? `<span class="tag">${t("dealer")}</span>` : ""}${idle}
        <span class="turn">${turnMsg}</span></div>
      ${learn}${hintLine}${explain}
      ${buttons.length ? `<div class="actions">${actionButtons(buttons, T.hint?.action)}</div>` : ""}
      <div class="hand" id="hand" aria-label="${esc(t("yourTurn"))}">${hand}</div>
      <p class="msg" role="alert">${esc(T.message)}</p>`;
    if (setHTML(el, html)) {
      bindHand(el, play);
      restoreFocus(el, focus);
    }
  }

  function renderSide() {
    setHTML(document.getElementById("side"), sideHTML(C));
    // the chat keeps its own box, so that a redraw of the score never takes the text being typed
    setHTML(document.getElementById("chat-box"), chatHTML(T));
    const log = document.getElementById("chat-log");
    if (log && setHTML(log, chatLogHTML(T.chat, seatName))) log.scrollTop = log.scrollHeight;
  }

  function renderOverlay() {
    const el = document.getElementById("overlay");
    let html = "";
    if (T.info.status === "waiting") html = waitingDialog(C);
    else if (T.overlay === "deal" && T.state.last_deal) html = dealDialog(C);
    else if (T.overlay === "match" && T.state.over) html = matchDialog(C);
    else if (T.overlay === "sheet") html = sheetDialog(C);
    else if (T.overlay === "help") html = helpDialog(C);
    if (setHTML(el, html) && html) el.querySelector(".dialog button.primary, .dialog .btn.primary, .dialog button")?.focus({ preventScroll: true });
  }

  // ---------------------------------------------------------------- input

  async function onClick(ev) {
    const phrase = ev.target.closest("[data-phrase]");
    if (phrase) { send({ type: "chat", phrase: phrase.dataset.phrase }); return; }
    const act = ev.target.closest("[data-action]");
    if (act) { play(act.dataset.action); return; }
    const b = ev.target.closest("[data-do]");
    if (!b) return;
    const what = b.dataset.do;
    if (what === "chat-toggle" || what === "log-toggle") {
      // <details> toggles itself after this click: remember it for the next redraw
      setTimeout(() => {
        if (what === "chat-toggle") { T.chatOpen = b.parentElement.open; T.unread = 0; } else T.logOpen = b.parentElement.open;
        render();
      }, 0);
      return;
    }
    switch (what) {
      case "sound": local.sound = !local.sound; render(); beep(); break;
      case "hint":
        if (T.hinting) break;
        T.hinting = true; T.message = "";
        send({ type: "hint", ref: `hint${++T.hintN}` });
        render();
        break;
      case "explain": T.explain = !T.explain; explainPref.on = T.explain; render(); break;
      case "last": T.showLast = !T.showLast; render(); break;
      case "sheet": T.overlayBefore = T.overlay; T.overlay = "sheet"; render(); break;
      case "help": T.overlayBefore = T.overlay; T.overlay = "help"; render(); break;
      case "close": T.overlay = T.overlayBefore && T.overlayBefore !== "sheet" && T.overlayBefore !== "help" ? T.overlayBefore : null; T.overlayBefore = null; render(); break;
      case "continue": T.overlay = null; render(); break;
      case "bid-more": play(document.getElementById("bid-more").value); break;
      case "copy":
        try { await navigator.clipboard.writeText(document.getElementById("invite-link").textContent); b.textContent = t("copied"); } catch { /* no clipboard */ }
        break;
      case "fill": send({ type: "fill_bots" }); break;
      case "join": await join(); break;
      case "again": await again(); break;
      default: break;
    }
  }

  function onSubmit(ev) {
    if (ev.target.id !== "chat-form") return;
    ev.preventDefault();
    const input = document.getElementById("chat-input");
    const text = input.value.trim();
    if (text) send({ type: "chat", text: text.slice(0, 200) });
    input.value = "";
  }

  async function join() {
    const name = document.getElementById("join-name").value.trim().slice(0, 24);
    local.name = name;
    try {
      const r = await api("POST", `/api/tables/${encodeURIComponent(id)}/join`, { name });
      local.keep(id, r.seat, r.token, T.info.variant);
      T.token = r.token;
      T.ws.close();  // reconnect with the new token
    } catch (e) { T.message = e.message; render(); }
  }

  // A rematch keeps the players and the level; a spectator starts a game of his own.
  async function again() {
    if (T.seat !== null) {
      if (T.rematch?.token) { nav(T.rematch.url); return; }
      T.rematchWaiting = true;
      send({ type: "rematch" });
      render();
      return;
    }
    try {
      const r = await api("POST", "/api/play", { variant: T.info.variant, level: "medio", name: local.name, options: T.info.options });
      local.keep(r.id, r.seat, r.token, T.info.variant);
      nav(r.url);
    } catch (e) { T.message = e.message; render(); }
  }

  // the countdowns of absent players tick once a second; a resize re-lays the hand
  const tick = setInterval(() => {
    if (T.state && (Object.keys(T.botAt).length || (T.info && T.info.clock))) render();
  }, 1000);
  let resizeTimer = null;
  const onResize = () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(render, 120); };
  window.addEventListener("resize", onResize);
  // Escape closes what was opened to look at (the score sheet, the rules)
  const onKey = (ev) => {
    if (ev.key === "Escape" && (T.overlay === "sheet" || T.overlay === "help")) {
      T.overlay = T.overlayBefore && T.overlayBefore !== "sheet" && T.overlayBefore !== "help" ? T.overlayBefore : null;
      render();
    }
  };
  document.addEventListener("keydown", onKey);

  page.rerender = () => { T.skeleton = false; render(); };
  page.leave = () => {
    T.closed = true; clearInterval(tick); window.removeEventListener("resize", onResize);
    document.removeEventListener("keydown", onKey);
    app.onclick = null; app.onsubmit = null;
    if (T.ws) T.ws.close();
  };
  window.__tute = T;  // for the browser tests' measurements (read only)
  loadVariants().catch(() => {}).finally(() => { render(); connect(); });
}
