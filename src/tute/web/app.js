// The tute front end: lobby, table and replay pages. Plain ES modules, no build step; it
// talks only the protocol of docs/protocol.md (HTTP under /api, a WebSocket per table).
import { t, setLang, getLang, cardName, actionLabel, refusalText } from "./i18n.js";
import { cardSVG, backSVG, installCardDefs } from "./cards.js";

const app = document.getElementById("app");
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => (
  { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const CARD_RE = /^[A234567SCR][oceb]$/;
const PROTOCOL = 2;

// An update carries only what changed in the state (docs/protocol.md): top-level keys replace,
// keys under "deal" replace one by one.
function applyDelta(state, delta) {
  const out = { ...state };
  for (const [k, v] of Object.entries(delta)) out[k] = k === "deal" ? { ...state.deal, ...v } : v;
  return out;
}

// ------------------------------------------------------------------ local identity

const local = {
  get name() { return localStorage.getItem("tute.name") || ""; },
  set name(v) { localStorage.setItem("tute.name", v); },
  seats() {
    try { return JSON.parse(localStorage.getItem("tute.seats") || "{}"); } catch { return {}; }
  },
  seat(id) { return this.seats()[id] || null; },
  keep(id, seat, token, variant) {
    const all = this.seats();
    all[id] = { seat, token, variant, at: Date.now() };
    localStorage.setItem("tute.seats", JSON.stringify(all));
  },
  forget(id) {
    const all = this.seats();
    delete all[id];
    localStorage.setItem("tute.seats", JSON.stringify(all));
  },
  get sound() { return localStorage.getItem("tute.sound") === "on"; },
  set sound(v) { localStorage.setItem("tute.sound", v ? "on" : "off"); },
};

async function api(method, path, body) {
  const res = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.reason || res.statusText);
  return data;
}

// ------------------------------------------------------------------ routing

let rerender = () => {};
let leave = () => {};

function nav(path) {
  history.pushState(null, "", path);
  route();
}
window.addEventListener("popstate", () => route());
document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-nav]");
  if (a && !ev.ctrlKey && !ev.metaKey) {
    ev.preventDefault();
    nav(a.getAttribute("href"));
  }
});

function route() {
  leave();
  leave = () => {};
  const p = location.pathname;
  let m;
  if ((m = p.match(/^\/t\/([\w-]+)$/))) return tablePage(m[1]);
  if ((m = p.match(/^\/r\/([\w-]+)$/))) return replayPage(m[1]);
  if ((m = p.match(/^\/j\/(\w+)$/))) return joinByCode(m[1]);
  return lobbyPage();
}

function topbar(extra = "") {
  return `<header class="topbar">
    <a href="/" data-nav class="brand">${cardMini("Ro")}<span>Tute</span></a>
    <div class="topbar-extra">${extra}</div>
    <button class="ghost" id="lang-btn" title="Language / Idioma">${t("lang")}</button>
  </header>`;
}

function bindTopbar() {
  document.getElementById("lang-btn")?.addEventListener("click", () => {
    setLang(getLang() === "es" ? "en" : "es");
    rerender();
  });
}

function cardMini(c) { return `<span class="mini">${cardSVG(c)}</span>`; }

// ------------------------------------------------------------------ lobby

let variants = null;

async function loadVariants() {
  if (!variants) variants = (await api("GET", "/api/variants")).variants;
  return variants;
}

function variantName(id) {
  const v = (variants || []).find((x) => x.id === id);
  if (!v) return id;
  return getLang() === "es" ? v.name : v.english;
}

function variantOptions(selected) {
  return (variants || []).map((v) => `<option value="${v.id}" ${v.id === selected ? "selected" : ""}>
    ${esc(getLang() === "es" ? v.name : v.english)}</option>`).join("");
}

function levelOptions(selected) {
  return ["facil", "medio", "dificil"].map((l) =>
    `<option value="${l}" ${l === selected ? "selected" : ""}>${t(l)}</option>`).join("");
}

// The few options worth a control in the lobby: how long the match lasts.
function lengthChoices(variantId) {
  const v = (variants || []).find((x) => x.id === variantId);
  if (!v) return [];
  if (v.options.includes("match")) {
    return [[{}, t("seriesOf", 6)], [{ match: { mode: "series", deals: 1 } }, t("seriesOf1")],
      [{ match: { mode: "race", games: 3 } }, t("raceTo", 3)]];
  }
  if (v.options.includes("cotos_to_win")) {
    return [[{}, t("cotos", 3, 2)], [{ partidas_per_coto: 1, cotos_to_win: 1 }, t("cotos", 1, 1)]];
  }
  if (v.options.includes("games_to_win")) {
    return [[{}, t("gamesTo", 3)], [{ games_to_win: 1 }, t("gamesTo", 1)]];
  }
  return [[{}, "—"]];
}

async function lobbyPage() {
  document.title = "Tute";
  try { await loadVariants(); } catch (e) { app.innerHTML = `<p class="error">${esc(e.message)}</p>`; return; }
  const st = { quickVariant: "tute_parejas", quickLevel: "medio", quickLength: 0, variant: "tute_parejas",
    seats: null, length: 0, public: true };
  const seatCount = () => (variants.find((v) => v.id === st.variant) || { seats: 4 }).seats;
  const defaultSeats = () => ["you", ...Array(seatCount() - 1).fill("open")];
  st.seats = defaultSeats();
  let open = [], hist = [];

  const mine = () => Object.entries(local.seats())
    .sort((a, b) => b[1].at - a[1].at).slice(0, 6);

  rerender = () => {
    const seatRows = st.seats.map((s, i) => `<label class="seat-row">${t("seat", i + 1)}
      <select data-seat="${i}">
        <option value="you" ${s === "you" ? "selected" : ""}>${t("you")}</option>
        <option value="open" ${s === "open" ? "selected" : ""}>${t("open")}</option>
        ${["facil", "medio", "dificil"].map((l) => `<option value="${l}" ${s === l ? "selected" : ""}>${t("bot", t(l))}</option>`).join("")}
      </select></label>`).join("");
    const lengths = lengthChoices(st.variant).map(([, label], i) =>
      `<option value="${i}" ${i === st.length ? "selected" : ""}>${esc(label)}</option>`).join("");
    app.innerHTML = `${topbar()}
    <main class="lobby">
      <section class="hero">
        <div class="hero-cards">${["Ao", "3c", "Re", "Cb"].map((c) => `<span class="hero-card">${cardSVG(c)}</span>`).join("")}</div>
        <div><h1>Tute</h1><p>${t("tagline")}</p>
        <label class="name-field">${t("yourName")}
          <input id="name" maxlength="24" autocomplete="nickname" placeholder="${t("namePlaceholder")}" value="${esc(local.name)}"></label></div>
      </section>
      <div class="lobby-grid">
      <section class="panel-card" id="quick">
        <h2>${t("quickTitle")}</h2>
        <label>${t("variant")}<select id="q-variant">${variantOptions(st.quickVariant)}</select></label>
        <label>${t("level")}<select id="q-level">${levelOptions(st.quickLevel)}</select></label>
        <label>${t("matchLength")}<select id="q-length">${lengthChoices(st.quickVariant).map(([, label], i) =>
          `<option value="${i}" ${i === st.quickLength ? "selected" : ""}>${esc(label)}</option>`).join("")}</select></label>
        <button class="primary" id="quick-play">${t("quickPlay")}</button>
      </section>
      <section class="panel-card" id="create">
        <h2>${t("createTitle")}</h2>
        <label>${t("variant")}<select id="c-variant">${variantOptions(st.variant)}</select></label>
        <label>${t("matchLength")}<select id="c-length">${lengths}</select></label>
        <fieldset class="seats"><legend>${t("seats")}</legend>${seatRows}</fieldset>
        <label class="check"><input type="checkbox" id="c-public" ${st.public ? "checked" : ""}> ${t("public")}</label>
        <button class="primary" id="create-btn">${t("create")}</button>
      </section>
      <section class="panel-card">
        <h2>${t("joinTitle")}</h2>
        <form id="code-form" class="inline"><input id="code" maxlength="8" placeholder="${t("code")}" autocapitalize="characters">
        <button class="primary">${t("join")}</button></form>
        ${mine().length ? `<h2>${t("myGames")}</h2><ul class="list">${mine().map(([id, s]) =>
          `<li><span>${esc(variantName(s.variant))}</span><a href="/t/${esc(id)}" data-nav class="btn">${t("resume")}</a></li>`).join("")}</ul>` : ""}
      </section>
      <section class="panel-card">
        <h2>${t("openTables")}</h2>
        ${open.length ? `<ul class="list">${open.map((tb) => `<li>
          <span><b>${esc(variantName(tb.variant))}</b> · ${tb.seats.map((s) => s.kind === "open" ? `<i>${t("openSeat")}</i>` : esc(s.name)).join(", ")}</span>
          <a class="btn" href="/t/${esc(tb.id)}" data-nav>${t("sit")}</a></li>`).join("")}</ul>`
          : `<p class="muted">${t("noOpenTables")}</p>`}
      </section>
      <section class="panel-card wide">
        <h2>${t("history")}</h2>
        ${hist.length ? `<ul class="list">${hist.map((g) => `<li>
          <span><b>${esc(variantName(g.variant))}</b> · ${g.players.map(esc).join(", ")}
          <span class="muted">${new Date(g.finished_at * 1000).toLocaleString(getLang())}</span></span>
          <span><a class="btn" href="/r/${esc(g.id)}" data-nav>${t("replay")}</a>
          <a class="btn ghost" href="/api/games/${esc(g.id)}/record" download>${t("download")}</a></span></li>`).join("")}</ul>`
          : `<p class="muted">${t("noHistory")}</p>`}
      </section>
      </div>
      <p class="error" id="lobby-error" role="alert"></p>
    </main>`;
    bindTopbar();
    const err = (e) => { document.getElementById("lobby-error").textContent = e.message; };
    const name = () => {
      const n = document.getElementById("name").value.trim().slice(0, 24);
      local.name = n;
      return n;
    };
    document.getElementById("name").addEventListener("input", name);
    document.getElementById("q-variant").onchange = (e) => { st.quickVariant = e.target.value; st.quickLength = 0; rerender(); };
    document.getElementById("q-length").onchange = (e) => { st.quickLength = Number(e.target.value); };
    document.getElementById("q-level").onchange = (e) => { st.quickLevel = e.target.value; };
    document.getElementById("quick-play").onclick = async () => {
      try {
        const options = lengthChoices(st.quickVariant)[st.quickLength]?.[0] || {};
        const r = await api("POST", "/api/play", { variant: st.quickVariant, level: st.quickLevel, name: name(), options });
        local.keep(r.id, r.seat, r.token, st.quickVariant);
        nav(r.url);
      } catch (e) { err(e); }
    };
    document.getElementById("c-variant").onchange = (e) => {
      st.variant = e.target.value; st.seats = defaultSeats(); st.length = 0; rerender();
    };
    document.getElementById("c-length").onchange = (e) => { st.length = Number(e.target.value); };
    document.getElementById("c-public").onchange = (e) => { st.public = e.target.checked; };
    app.querySelectorAll("select[data-seat]").forEach((sel) => {
      sel.onchange = () => {
        const i = Number(sel.dataset.seat);
        if (sel.value === "you") st.seats = st.seats.map((s) => (s === "you" ? "open" : s));
        st.seats[i] = sel.value;
        if (!st.seats.includes("you")) st.seats[0] = "you";
        rerender();
      };
    });
    document.getElementById("create-btn").onclick = async () => {
      try {
        const options = lengthChoices(st.variant)[st.length]?.[0] || {};
        const r = await api("POST", "/api/tables", { variant: st.variant, options, seats: st.seats, name: name(), public: st.public });
        local.keep(r.id, r.seat, r.token, st.variant);
        nav(r.url);
      } catch (e) { err(e); }
    };
    document.getElementById("code-form").onsubmit = (ev) => {
      ev.preventDefault();
      const c = document.getElementById("code").value.trim().toUpperCase();
      if (c) nav(`/j/${encodeURIComponent(c)}`);
    };
  };
  rerender();
  const refresh = async () => {
    try {
      [open, hist] = await Promise.all([
        api("GET", "/api/tables").then((r) => r.tables), fetch("/api/history", {
          // private games are listed only to their players: send the seats this browser holds
          headers: { "X-Tute-Seats": Object.entries(local.seats()).filter(([, s]) => s && s.token)
            .sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, 50)
            .map(([id, s]) => `${id}:${s.token}`).join(",") },
        }).then((res) => (res.ok ? res.json() : Promise.reject(new Error(res.statusText))))
          .then((r) => r.games)]);
      const focused = document.activeElement && document.activeElement.tagName;
      if (focused !== "INPUT" && focused !== "SELECT") rerender();
    } catch { /* the lists simply stay as they were */ }
  };
  refresh();
  const timer = setInterval(refresh, 5000);
  leave = () => clearInterval(timer);
}

async function joinByCode(code) {
  app.innerHTML = `${topbar()}<main class="center-msg"><p>${t("connecting")}</p></main>`;
  try {
    const r = await api("GET", `/api/code/${encodeURIComponent(code)}`);
    history.replaceState(null, "", `/t/${r.id}`);
    tablePage(r.id);
  } catch (e) {
    app.innerHTML = `${topbar()}<main class="center-msg"><p class="error">${t("notFound")}</p>
      <a href="/" data-nav class="btn primary">${t("backToLobby")}</a></main>`;
    bindTopbar();
  }
}

// ------------------------------------------------------------------ sound (off by default)

// Subastado offers every bid up to 230: a few buttons, the rest in a list.
function actionButtons(actions) {
  const btn = (a) => `<button class="action-btn" data-action="${esc(a)}">${esc(actionLabel(a))}</button>`;
  const bids = actions.filter((a) => a.startsWith("bid:"));
  const rest = actions.filter((a) => !a.startsWith("bid:"));
  let html = rest.map(btn).join("") + bids.slice(0, 4).map(btn).join("");
  if (bids.length > 4) {
    html += `<select id="bid-more" aria-label="${esc(t("bidMore"))}">${bids.slice(4).map((b) => `<option value="${esc(b)}">${esc(b.slice(4))}</option>`).join("")}</select>
      <button class="action-btn" id="bid-more-btn" type="button">${esc(t("bidGo"))}</button>`;
  }
  return html;
}

// Drawn, not an emoji: many desktops lack an emoji font and would show a box.
function speakerIcon(on) {
  const waves = on
    ? '<path d="M15 8.5a4 4 0 0 1 0 7M17.5 6a7.5 7.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>'
    : '<path d="M15.5 9.5l5 5M20.5 9.5l-5 5" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>';
  return `<svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" style="vertical-align:-3px"><path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4z" fill="currentColor"/>${waves}</svg>`;
}

let audio = null;
function beep(freq = 520, ms = 60, gain = 0.05) {
  if (!local.sound) return;
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = freq; g.gain.value = gain;
    o.connect(g).connect(audio.destination);
    o.start(); o.stop(audio.currentTime + ms / 1000);
  } catch { /* no audio: nothing to do */ }
}

// ------------------------------------------------------------------ the board

// Where a seat sits on screen, seen from `me`: bottom, right, top, left (play passes to the right).
function position(seat, me, n) {
  const rel = (seat - me + n) % n;
  if (n === 2) return rel === 0 ? "bottom" : "top";
  if (n === 3) return ["bottom", "right", "left"][rel];
  return ["bottom", "right", "top", "left"][rel];
}

function cardFace(c, cls = "", attrs = "") {
  return `<div class="card ${cls}" data-card="${c}" title="${esc(cardName(c))}" aria-label="${esc(cardName(c))}" ${attrs}>${cardSVG(c)}</div>`;
}

function backs(n, max = 10) {
  let out = "";
  for (let i = 0; i < Math.min(n, max); i++) out += `<div class="card back">${backSVG()}</div>`;
  return out;
}

// model: {n, me, names[], status[], hands: [list|null], sizes[], trick, toMove, dealer, mano,
//         trump, trumpCard, upcard, stockCount, withDealer, open (all hands face up)}
function boardHTML(m) {
  let seats = "";
  for (let s = 0; s < m.n; s++) {
    const pos = position(s, m.me, m.n);
    if (pos === "bottom") continue;  // the bottom seat's hand is drawn below the felt
    const tags = [];
    if (s === m.mano) tags.push(t("mano"));
    if (s === m.dealer) tags.push(t("dealer"));
    const status = m.status?.[s] || "";
    const cards = m.open && m.hands[s]
      ? `<div class="open-hand">${m.hands[s].map((c) => cardFace(c, "small")).join("")}</div>`
      : `<div class="fan">${backs(m.sizes[s] || 0)}</div><span class="count">${m.sizes[s] || 0}</span>`;
    seats += `<div class="seat pos-${pos} ${m.toMove === s ? "to-move" : ""}" data-seat="${s}">
      <div class="badge"><span class="who">${esc(m.names[s])}</span>
        ${tags.length ? `<span class="tag">${tags.join(" · ")}</span>` : ""}
        ${status ? `<span class="status">${esc(status)}</span>` : ""}</div>
      ${cards}</div>`;
  }
  const trick = (m.trick || []).map(([s, c]) =>
    `<div class="played from-${position(s, m.me, m.n)}" data-seat="${s}">${cardFace(c, "table")}
     <span class="by">${esc(m.names[s])}</span></div>`).join("");
  let trumpBox = "";
  if (m.upcard || m.stockCount) {
    trumpBox = `<div class="trumpbox" title="${t("stockCount", m.stockCount)}">
      ${m.upcard ? `<div class="upcard">${cardFace(m.upcard, "table")}</div>` : ""}
      ${m.stockCount > 1 ? `<div class="stock">${backs(1)}<span class="count">${m.stockCount}</span></div>` : ""}
      <span class="label">${t("trump")}</span></div>`;
  } else if (m.trumpCard) {
    trumpBox = `<div class="trumpbox"><div class="upcard">${cardFace(m.trumpCard, "table")}</div>
      <span class="label">${t("trump")}</span></div>`;
  } else if (m.trump) {
    trumpBox = `<div class="trumpbox"><span class="suit-only">${cardMini("A" + m.trump)}</span>
      <span class="label">${t("trump")}: ${t("suit_" + m.trump)}</span></div>`;
  }
  return `<div class="felt n${m.n}">${seats}
    <div class="center"><div class="trick">${trick}${m.centerNote || ""}</div>${trumpBox}</div></div>`;
}

// ------------------------------------------------------------------ table page

function tablePage(id) {
  const held = local.seat(id);
  const T = {
    id, token: held?.token || null, seat: null, info: null, state: null, v: null,
    ws: null, queue: [], busy: false, flash: null, showLast: false, log: [],
    overlay: null, message: "", pending: false, closed: false, fatal: null, retry: 0,
    connected: false,
  };
  document.title = "Tute";

  function seatName(s) {
    const st = T.info?.seats?.[s];
    if (!st) return t("seatLabel", s + 1);
    if (st.kind === "bot") return st.name ? st.name.replace(/^Bot/, "Bot") : t("bot", s + 1);
    if (st.kind === "open") return t("openSeat");
    return st.name || t("seatLabel", s + 1);
  }

  function sideName(side) {
    // who plays with whom is the server's (seating), never guessed from the seat count
    const st = T.state.seating;
    if (st.partnerships) {
      const members = st.side_of.map((sd, s) => [sd, s]).filter(([sd]) => sd === side).map(([, s]) => seatName(s));
      if (T.seat === null) return members.join(" & ");
      return side === st.side_of[T.seat] ? t("us") : t("them");
    }
    return seatName(side);
  }

  function logEvent(e) {
    let line = null;
    switch (e.e) {
      case "CardPlayed": line = t("played", seatName(e.seat), cardName(e.card)); break;
      case "TrickTaken": line = t("won", seatName(e.winner), e.points); break;
      case "Declared": line = t("declared", seatName(e.seat), actionLabel(e.declaration).replace(/^(Cantar|Declare) /, "")); break;
      case "Exchanged": line = t("exchanged", seatName(e.seat), cardName(e.given), cardName(e.taken)); break;
      case "Passed": line = t("passed", seatName(e.seat)); break;
      case "DealEnded": line = t("dealEnded"); break;
      case "Drew": if (e.card && e.seat === T.seat) line = t("drew", t("you"), cardName(e.card)); break;
      default: line = null;
    }
    if (line) {
      T.log.push(line);
      if (T.log.length > 60) T.log.shift();
    }
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

  function onMessage(m) {
    switch (m.type) {
      case "welcome":
      case "catchup":
        T.connected = true;
        if (m.table) T.info = m.table;
        if (m.seat !== undefined) T.seat = m.seat;
        (m.missed || []).forEach((u) => u.events.forEach(logEvent));
        T.state = m.state; T.v = m.v; T.pending = false; T.queue = [];
        if (T.state.over) T.overlay = "match";
        render();
        break;
      case "update":
        T.queue.push(m);
        pump();
        break;
      case "seats":
        if (T.info) { T.info.seats = m.seats; T.info.status = m.status; }
        render();
        break;
      case "error":
        T.pending = false;
        if (m.fatal) {
          T.fatal = m.code === "bad_token" ? null : m.reason;
          if (m.code === "bad_token") { local.forget(id); T.token = null; T.closed = false; return; }
          render();
          return;
        }
        if (m.code === "stale") { send({ type: "sync", since: T.v ?? 0 }); return; }
        T.message = t("illegal", refusalText(m.refusal, m.reason, T.seat));
        beep(200, 120);
        render();
        break;
      default:
        break;
    }
  }

  // Updates are shown one by one; a completed trick stays on the table for a moment.
  async function pump() {
    if (T.busy) return;
    T.busy = true;
    while (T.queue.length) {
      const u = T.queue.shift();
      if (T.v !== null && u.v <= T.v) continue;
      u.events.forEach(logEvent);
      const trick = u.events.find((e) => e.e === "TrickTaken");
      const ended = u.events.find((e) => e.e === "DealEnded");
      if (u.seat === T.seat) T.pending = false;
      T.state = applyDelta(T.state, u.delta); T.v = u.v;
      if (u.kind === "action") T.message = "";
      if (u.events.some((e) => e.e === "CardPlayed")) beep(380, 40);
      if (trick) {
        // the seats of its cards are the engine's (an idle seat plays none): the record of
        // that trick in the new state, or the finished deal's last trick
        const rec = [...T.state.deal.tricks, T.state.last_deal?.last_trick]
          .find((r) => r && r.seats && r.number === trick.number && r.cards.join() === trick.cards.join());
        T.flash = trick.cards.map((c, i) => [rec ? rec.seats[i] : trick.leader, c]);
        T.flashWinner = trick.winner;
        render();
        await sleep(T.state.deal.to_move === T.seat ? 900 : 1200);
        T.flash = null;
      }
      if (ended) T.overlay = T.state.over ? "match" : "deal";
      render();
      if (T.state.deal.to_move === T.seat && T.seat !== null) beep(660, 90);
    }
    T.busy = false;
  }

  function play(action) {
    if (!T.state || T.pending || T.seat === null) return;
    if (T.state.deal.to_move !== T.seat) { T.message = t("waitingFor", seatName(T.state.deal.to_move)); render(); return; }
    T.pending = true;
    T.message = "";
    send({ type: "act", action, v: T.v });
  }

  // ---------------------------------------------------------------- rendering

  function render() {
    if (T.closed) return;
    const title = T.info ? variantName(T.info.variant) : "Tute";
    if (T.fatal) {
      app.innerHTML = `${topbar()}<main class="center-msg"><p class="error">${esc(T.fatal)}</p>
        <a href="/" data-nav class="btn primary">${t("backToLobby")}</a></main>`;
      bindTopbar();
      return;
    }
    if (!T.info || !T.state) {
      app.innerHTML = `${topbar()}<main class="center-msg"><p>${t("connecting")}</p></main>`;
      bindTopbar();
      return;
    }
    document.title = `${title} · Tute`;
    const d = T.state.deal;
    const n = T.info.seats.length;
    const me = T.seat ?? 0;
    const myTurn = T.seat !== null && d.to_move === T.seat && T.info.status === "playing";
    const legal = new Set(myTurn ? d.legal_actions : []);
    const names = T.info.seats.map((_, s) => seatName(s));
    const status = T.info.seats.map((s) => s.away ? t("away") : (s.kind === "human" && !s.online ? t("offline") : ""));
    let trick = d.trick;
    let centerNote = "";
    if (T.flash) trick = T.flash;
    else if (T.showLast) {
      const last = d.tricks.length ? d.tricks[d.tricks.length - 1] : T.state.last_deal?.last_trick;
      if (last) trick = last.cards.map((c, i) => [last.seats ? last.seats[i] : last.leader, c]);
      centerNote = `<span class="note">${t("lastTrick")}</span>`;
    }
    const board = boardHTML({
      n, me, names, status, hands: [], sizes: d.hand_sizes, trick, centerNote,
      toMove: T.info.status === "playing" ? d.to_move : null, dealer: d.dealer, mano: d.mano,
      trump: d.trump, trumpCard: d.upcard ? null : d.trump_card, upcard: d.upcard,
      stockCount: d.stock_count,
    });
    const buttons = myTurn ? d.legal_actions.filter((a) => !CARD_RE.test(a)) : [];
    // Hand cards are buttons for the keyboard too: Tab or arrows to move, Enter or Space to play
    // (an illegal one stays pressable: the answer says why it cannot be played).
    const handHTML = T.seat === null ? `<p class="muted">${t("spectating")}</p>`
      : d.hand.map((c) => cardFace(c, `hand-card ${myTurn ? (legal.has(c) ? "legal" : "illegal") : ""}`,
        'tabindex="0" role="button"')).join("");
    const focus = handFocus();
    const sides = d.card_points.length;
    const sideRows = [...Array(sides).keys()].map((sd) => `<tr ${T.seat !== null && T.state.seating.side_of[T.seat] === sd ? 'class="mine"' : ""}>
      <th>${esc(sideName(sd))}</th><td>${d.card_points[sd]}</td><td>${(T.state.score || T.state.games)[sd] ?? 0}${T.state.cotos ? ` <small>(${T.state.cotos[sd]} coto)</small>` : ""}</td></tr>`).join("");
    const cantes = d.cantes.map(([s, decl, p]) => `<li>${esc(seatName(s))}: ${esc(actionLabel(decl).replace(/^(Cantar|Declare) /, ""))} <b>${p}</b></li>`).join("");
    const turnMsg = T.info.status !== "playing" ? "" : myTurn ? `<b class="your-turn">${t("yourTurn")}</b>`
      : d.to_move !== null ? t("waitingFor", esc(seatName(d.to_move))) : "";
    const banner = !T.connected ? `<div class="banner">${t("reconnecting")}</div>` : "";

    app.innerHTML = `${topbar(`<span class="table-title">${esc(title)} · ${t("dealN", T.state.deal_number)}</span>
      <button class="ghost" id="sound-btn" title="${local.sound ? t("soundOn") : t("soundOff")}" aria-label="${local.sound ? t("soundOn") : t("soundOff")}">${speakerIcon(local.sound)}</button>`)}
    ${banner}
    <main class="table-page">
      <div class="board-wrap">${board}
        <div class="me ${myTurn ? "to-move" : ""}">
          <div class="me-line"><span class="who">${esc(T.seat === null ? t("spectating") : names[T.seat])}</span>
            ${T.seat !== null && T.seat === d.mano ? `<span class="tag">${t("mano")}</span>` : ""}
            ${T.seat !== null && T.seat === d.dealer ? `<span class="tag">${t("dealer")}</span>` : ""}
            <span class="turn" role="status">${turnMsg}</span></div>
          ${buttons.length ? `<div class="actions">${actionButtons(buttons)}</div>` : ""}
          <div class="hand" id="hand">${handHTML}</div>
          <p class="msg" role="alert">${esc(T.message)}</p>
        </div>
      </div>
      <aside class="side">
        <table class="score"><thead><tr><th></th><th>${t("points")}</th><th>${t({ losses: "lostGames", balance: "balance" }[T.state.score_kind] || "games")}</th></tr></thead>
          <tbody>${sideRows}</tbody></table>
        <p class="goal">${esc(goalText(T.state.goal_info, T.state.goal))}</p>
        ${cantes ? `<h3>${t("cantes")}</h3><ul class="cantes">${cantes}</ul>` : ""}
        <button class="ghost" id="last-btn" ${d.tricks.length || T.state.last_deal ? "" : "disabled"}>${T.showLast ? t("hideLastTrick") : t("lastTrick")}</button>
        <details class="log"><summary>${t("log")}</summary><ol>${T.log.slice(-30).reverse().map((l) => `<li>${esc(l)}</li>`).join("")}</ol></details>
      </aside>
    </main>
    ${waitingHTML()}${overlayHTML()}`;
    bindTopbar();
    bindTable();
    restoreHandFocus(focus);
  }

  // Re-rendering replaces the hand: keep the keyboard focus on the same card (or the one now
  // at its place) so a keyboard player is not thrown back to the top of the page.
  function handFocus() {
    const el = document.activeElement;
    if (!el || !el.classList.contains("hand-card")) return null;
    const cards = [...app.querySelectorAll(".hand-card")];
    return { card: el.dataset.card, index: cards.indexOf(el) };
  }

  function restoreHandFocus(f) {
    if (!f) return;
    const cards = [...app.querySelectorAll(".hand-card")];
    if (!cards.length || app.querySelector(".overlay")) return;
    const same = cards.find((c) => c.dataset.card === f.card);
    (same || cards[Math.min(f.index, cards.length - 1)]).focus();
  }

  function goalText(g, fallback) {
    if (!g) return fallback;
    if (g.kind === "cotos") return t("goal_cotos", g.partidas, g.cotos);
    if (g.kind === "series" && g.n === 1) return t("seriesOf1");
    if (g.kind in { series: 1, race: 1, games: 1, losses: 1, balance: 1, balance_deals: 1 }) return t("goal_" + g.kind, g.n);
    return fallback;
  }

  function waitingHTML() {
    if (T.info.status !== "waiting") return "";
    const link = `${location.origin}/j/${T.info.code}`;
    const canJoin = T.seat === null && T.info.seats.some((s) => s.kind === "open");
    return `<div class="overlay"><div class="dialog">
      <h2>${t("waitingSeats")}</h2>
      <p>${t("invite")}</p>
      <div class="invite"><code id="invite-link">${esc(link)}</code><span class="code">${esc(T.info.code)}</span>
        <button id="copy-btn">${t("copy")}</button></div>
      <ul class="list">${T.info.seats.map((s, i) => `<li><span>${t("seat", i + 1)}</span>
        <span>${s.kind === "open" ? `<i>${t("openSeat")}</i>` : esc(seatName(i))}</span></li>`).join("")}</ul>
      ${canJoin ? `<p>${t("joinPrompt")}</p><label class="name-field">${t("yourName")}
        <input id="join-name" maxlength="24" value="${esc(local.name)}"></label>
        <button class="primary" id="join-btn">${t("sit")}</button>` : ""}
      ${T.seat !== null && T.seat === T.info.host ? `<button class="primary" id="fill-btn">${t("fillBots")}</button>` : ""}
      <a href="/" data-nav class="btn ghost">${t("backToLobby")}</a>
    </div></div>`;
  }

  function resultTable(summary) {
    const r = summary.result;
    const rows = r.totals.map((tot, sd) => `<tr><th>${esc(sideName(sd))}</th>
      <td>${r.card_points[sd]}</td><td>${r.cantes[sd].reduce((a, b) => a + b, 0)}</td>
      <td>${r.last_trick[sd] ? 10 : 0}</td><td><b>${tot}</b></td><td>${r.games[sd]}</td></tr>`).join("");
    return `<table class="score result"><thead><tr><th></th><th>${t("cardPoints")}</th><th>${t("cantes")}</th>
      <th>${t("lastTrickBonus")}</th><th>${t("total")}</th><th>${t("games")}</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  function overlayHTML() {
    if (T.overlay === "deal" && T.state.last_deal) {
      const s = T.state.last_deal;
      const w = s.result.winner;
      const reason = s.result.reason === "tute" ? ` ${t("reason_tute")}` : "";
      return `<div class="overlay"><div class="dialog result-dialog">
        <h2>${t("dealOver")} · ${t("dealN", s.number)}</h2>
        ${w !== null && w !== undefined ? `<p class="winner">${t("winnerIs", esc(sideName(w)))}${reason}</p>` : ""}
        ${resultTable(s)}
        <button class="primary" id="continue-btn">${t("continue")}</button></div></div>`;
    }
    if (T.overlay === "match" && T.state.over) {
      const r = T.state.result;
      const mySide = T.seat === null ? null : T.state.seating.side_of[T.seat];
      const partners = T.state.seating.partnerships;
      let head = t("winnerIs", esc(sideName(r.winner)));
      if (mySide !== null) {
        head = r.winner === mySide ? t(partners ? "youWin" : "youWin1") : t(partners ? "youLose" : "youLose1");
      }
      return `<div class="overlay"><div class="dialog result-dialog">
        <h2>${t("matchOver")}</h2><p class="winner ${r.winner === mySide ? "win" : ""}">${head}</p>
        <p>${t("games")}: ${r.games.map((g, sd) => `${esc(sideName(sd))} <b>${g}</b>`).join(" · ")} (${r.deals} ${t("deals")})</p>
        ${T.state.last_deal ? resultTable(T.state.last_deal) : ""}
        <div class="buttons"><button class="primary" id="again-btn">${t("playAgain")}</button>
        <a class="btn" href="/r/${esc(id)}" data-nav>${t("replay")}</a>
        <a class="btn" href="/api/games/${esc(id)}/record" download>${t("download")}</a>
        <a class="btn ghost" href="/" data-nav>${t("backToLobby")}</a></div></div></div>`;
    }
    return "";
  }

  function bindTable() {
    document.getElementById("sound-btn").onclick = () => { local.sound = !local.sound; render(); beep(); };
    document.getElementById("last-btn").onclick = () => { T.showLast = !T.showLast; render(); };
    app.querySelectorAll(".action-btn").forEach((b) => { b.onclick = () => play(b.dataset.action); });
    const bidGo = document.getElementById("bid-more-btn");
    if (bidGo) bidGo.onclick = () => play(document.getElementById("bid-more").value);
    document.getElementById("continue-btn")?.addEventListener("click", () => { T.overlay = null; render(); });
    document.getElementById("again-btn")?.addEventListener("click", async () => {
      try {
        const r = await api("POST", "/api/play", { variant: T.info.variant, level: "medio", name: local.name, options: T.info.options });
        local.keep(r.id, r.seat, r.token, T.info.variant);
        nav(r.url);
      } catch (e) { T.message = e.message; render(); }
    });
    document.getElementById("copy-btn")?.addEventListener("click", async (ev) => {
      try { await navigator.clipboard.writeText(document.getElementById("invite-link").textContent); ev.target.textContent = t("copied"); } catch { /* no clipboard */ }
    });
    document.getElementById("fill-btn")?.addEventListener("click", () => send({ type: "fill_bots" }));
    document.getElementById("join-btn")?.addEventListener("click", async () => {
      const name = document.getElementById("join-name").value.trim().slice(0, 24);
      local.name = name;
      try {
        const r = await api("POST", `/api/tables/${encodeURIComponent(id)}/join`, { name });
        local.keep(id, r.seat, r.token, T.info.variant);
        T.token = r.token;
        T.ws.close();  // reconnect with the new token
      } catch (e) { T.message = e.message; render(); }
    });
    bindHand();
  }

  // Click a card to play it, or drag it up onto the table; from the keyboard, Enter or Space
  // plays the focused card and the arrow keys move along the hand.
  function bindHand() {
    const cards = [...app.querySelectorAll(".hand-card")];
    cards.forEach((el, i) => {
      el.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          play(el.dataset.card);
        } else if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
          ev.preventDefault();
          const next = cards[(i + (ev.key === "ArrowLeft" ? -1 : 1) + cards.length) % cards.length];
          next.focus();
        }
      });
    });
    cards.forEach((el) => {
      let start = null;
      el.addEventListener("pointerdown", (ev) => {
        start = { x: ev.clientX, y: ev.clientY };
        el.setPointerCapture(ev.pointerId);
      });
      el.addEventListener("pointermove", (ev) => {
        if (!start) return;
        const dx = ev.clientX - start.x, dy = ev.clientY - start.y;
        if (Math.abs(dx) + Math.abs(dy) > 6) {
          el.classList.add("dragging");
          el.style.transform = `translate(${dx}px, ${dy}px)`;
        }
      });
      const end = (ev, cancel) => {
        if (!start) return;
        const dy = ev.clientY - start.y, dx = ev.clientX - start.x;
        const moved = Math.abs(dx) + Math.abs(dy) > 6;
        start = null;
        el.classList.remove("dragging");
        el.style.transform = "";
        if (cancel) return;
        if (!moved || dy < -50) play(el.dataset.card);
      };
      el.addEventListener("pointerup", (ev) => end(ev, false));
      el.addEventListener("pointercancel", (ev) => end(ev, true));
    });
  }

  rerender = render;
  leave = () => { T.closed = true; if (T.ws) T.ws.close(); };
  loadVariants().catch(() => {}).finally(() => { render(); connect(); });
}

// ------------------------------------------------------------------ replay page

async function replayPage(id) {
  app.innerHTML = `${topbar()}<main class="center-msg"><p>${t("connecting")}</p></main>`;
  let data;
  try {
    await loadVariants();
    data = await api("GET", `/api/games/${encodeURIComponent(id)}/replay`);
  } catch (e) {
    app.innerHTML = `${topbar()}<main class="center-msg"><p class="error">${esc(e.message)}</p>
      <a href="/" data-nav class="btn primary">${t("backToLobby")}</a></main>`;
    bindTopbar();
    return;
  }
  const frames = data.frames;
  const names = data.record.players || [];
  let i = 0, playing = null;
  rerender = () => {
    const f = frames[i];
    const n = data.seats;
    const board = boardHTML({
      n, me: 0, open: true, names: [...Array(n).keys()].map((s) => names[s] || t("seatLabel", s + 1)),
      hands: f.hands, sizes: f.hands.map((h) => h.length), trick: f.trick, toMove: f.to_move,
      dealer: f.dealer, mano: null, trump: f.trump, trumpCard: f.upcard ? null : f.trump_card,
      upcard: f.upcard, stockCount: f.stock_count,
    });
    const what = f.action ? `${esc(names[f.seat] || t("seatLabel", f.seat + 1))}: ${esc(actionLabel(f.action))}` : "";
    app.innerHTML = `${topbar(`<span class="table-title">${t("replayTitle")} · ${esc(variantName(data.record.variant))} · ${t("dealN", f.deal_number)}</span>`)}
    <main class="table-page replay">
      <div class="board-wrap">${board}
        <div class="me"><div class="me-line"><span class="turn">${what}</span></div>
          <div class="hand">${f.hands[0].map((c) => cardFace(c, "hand-card")).join("")}</div></div></div>
      <aside class="side">
        <p>${t("step", i, frames.length - 1)}</p>
        <input type="range" id="scrub" min="0" max="${frames.length - 1}" value="${i}">
        <div class="buttons">
          <button id="r-start" title="${t("start")}">«</button><button id="r-prev" title="${t("prev")}">◀</button>
          <button id="r-play" class="primary">${playing ? t("pause") : t("play")}</button>
          <button id="r-next" title="${t("next")}">▶</button><button id="r-end" title="${t("end")}">»</button></div>
        <p>${t("points")}: ${f.card_points.join(" – ")} · ${t("games")}: ${f.games.join(" – ")}</p>
        ${f.summary ? `<p class="winner">${t("dealOver")}: ${f.summary.result.totals.join(" – ")}</p>` : ""}
        <a class="btn" href="/api/games/${esc(id)}/record" download>${t("download")}</a>
        <a class="btn ghost" href="/" data-nav>${t("backToLobby")}</a>
      </aside></main>`;
    bindTopbar();
    const go = (k) => { i = Math.max(0, Math.min(frames.length - 1, k)); rerender(); };
    document.getElementById("r-start").onclick = () => go(0);
    document.getElementById("r-prev").onclick = () => go(i - 1);
    document.getElementById("r-next").onclick = () => go(i + 1);
    document.getElementById("r-end").onclick = () => go(frames.length - 1);
    document.getElementById("scrub").oninput = (e) => go(Number(e.target.value));
    document.getElementById("r-play").onclick = () => {
      if (playing) { clearInterval(playing); playing = null; rerender(); return; }
      playing = setInterval(() => {
        if (i >= frames.length - 1) { clearInterval(playing); playing = null; }
        go(i + 1);
      }, 700);
      rerender();
    };
  };
  rerender();
  leave = () => { if (playing) clearInterval(playing); };
}

installCardDefs();
route();
