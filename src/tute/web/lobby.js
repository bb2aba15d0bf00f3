// The lobby: play against bots, create a table with its house rules, join by code, resume,
// watch a live game, and the visitor's own finished games with their results.
import { t, getLang, optionLabel, optionGroup, choiceLabel, wordsReady } from "./i18n.js";
import { cardSVG } from "./cards.js";
import { esc, api, local, loadVariants, variantsNow, variantOf, gameInfo } from "./util.js";
import { app, page, nav, topbar, bindTopbar } from "./shell.js";
import { variantName, tablePage } from "./table.js";
import { rulesHTML } from "./dialogs.js";
import { goalText } from "./sheet.js";
import { tutorials, learnSectionHTML } from "./tutorial.js";

const LEVELS = ["facil", "medio", "dificil", "maestro"];
const GROUPS = ["match", "play", "cantes", "exchange", "auction", "deal", "other"];

function variantOptions(selected) {
  return variantsNow().map((v) => `<option value="${v.id}" ${v.id === selected ? "selected" : ""}>
    ${esc(getLang() === "es" ? v.name : v.english)}</option>`).join("");
}

function levelOptions(selected) {
  return LEVELS.map((l) => `<option value="${l}" ${l === selected ? "selected" : ""}>${t(l)}</option>`).join("");
}

// How long the match lasts: the lengths the server offers for the game (each the option
// changes that make it and the goal it gives), worded from the goal.
function lengthChoices(variantId) {
  const v = variantOf(variantId);
  if (!v || !v.lengths?.length) return [[{}, "—"]];
  return v.lengths.map((l) => [l.options, goalText(l.goal)]);
}
function lengthKeys(variantId) {
  return new Set(lengthChoices(variantId).flatMap(([o]) => Object.keys(o)));
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// One control per house rule, with its default and a line of explanation.
function optionControl(spec, value) {
  const { label, line } = optionLabel(spec);
  const id = `opt-${spec.name}`;
  const dflt = spec.kind === "match" ? matchText(spec.default) : choiceLabel(spec.default);
  let control;
  if (spec.kind === "bool") {
    control = `<input type="checkbox" id="${id}" data-opt="${spec.name}" ${value ? "checked" : ""}>`;
  } else if (spec.kind === "choice") {
    control = `<select id="${id}" data-opt="${spec.name}">${spec.choices.map((c) =>
      `<option value='${esc(JSON.stringify(c))}' ${same(c, value) ? "selected" : ""}>${esc(choiceLabel(c))}</option>`).join("")}</select>`;
  } else if (spec.kind === "int" || spec.kind === "int_or_null") {
    control = `<input type="number" id="${id}" data-opt="${spec.name}" min="${spec.min}" max="${spec.max}" value="${value ?? ""}"
      ${spec.kind === "int" ? "required" : `placeholder="${esc(t("none"))}"`} inputmode="numeric">`;
  } else if (spec.kind === "match") {
    const mode = value?.mode || "series";
    const n = value?.deals ?? value?.games ?? 6;
    control = `<span class="match-ctl"><select id="${id}" data-opt="match" data-part="mode">
      <option value="series" ${mode === "series" ? "selected" : ""}>${esc(choiceLabel("series"))}</option>
      <option value="race" ${mode === "race" ? "selected" : ""}>${esc(choiceLabel("race"))}</option></select>
      <input type="number" data-opt="match" data-part="n" min="1" max="50" value="${n}" aria-label="N" inputmode="numeric"></span>`;
  } else {
    return "";
  }
  return `<div class="opt ${spec.kind === "bool" ? "opt-bool" : ""}"><label for="${id}">${esc(label)}</label>${control}
    <small>${esc(line)} · ${t("defaultsNote", esc(dflt))}</small></div>`;
}

function matchText(m) {
  if (!m) return "";
  return m.mode === "race" ? t("raceTo", m.games) : t("seriesOf", m.deals);
}

function houseRules(v, opts, open) {
  if (!v) return "";
  const specs = v.option_specs.filter((s) => s.kind !== "choice" || s.choices.length > 1);
  const groups = GROUPS.map((g) => [g, specs.filter((s) => optionGroup(s.name) === g)]).filter(([, l]) => l.length);
  return `<details class="house-rules" id="house-rules" ${open ? "open" : ""}><summary>${t("houseRules")}</summary>
    ${groups.map(([g, list]) => `<fieldset><legend>${t("grp_" + g)}</legend>${list.map((s) =>
      optionControl(s, s.name in opts ? opts[s.name] : s.default)).join("")}</fieldset>`).join("")}
    <button type="button" class="ghost" id="reset-rules">${t("resetRules")}</button></details>`;
}

// The table's size as the server gives it: by the value of the option that sets it, if any.
function seatCount(v, opts) {
  if (!v) return 4;
  const sc = v.seat_counts;
  if (!sc || !sc.option) return v.seats;
  const spec = v.option_specs.find((s) => s.name === sc.option);
  return sc.by_value[String(opts[sc.option] ?? spec?.default)] ?? v.seats;
}

function resultText(g) {
  if (g.status === "abandoned") return `<span class="res">${t("abandoned")}</span>`;
  if (g.won === true) return `<span class="res win">${t("gameWon")}</span>`;
  if (g.won === false) return `<span class="res loss">${t("gameLost")}</span>`;
  return `<span class="res">${t("noWinner")}</span>`;
}

export async function lobbyPage() {
  document.title = "Tute";
  try { await Promise.all([loadVariants(), wordsReady()]); } catch (e) { app.innerHTML = `<p class="error">${esc(e.message)}</p>`; return; }
  const st = {
    quickVariant: "tute_parejas", quickLevel: "medio", quickLength: 0, variant: "tute_parejas",
    seats: null, length: 0, public: true, chat: true, hints: false, clock: 0, opts: {}, rulesOpen: false, joinError: "",
  };
  const defaultSeats = () => ["you", ...Array(seatCount(variantOf(st.variant), st.opts) - 1).fill("open")];
  st.seats = defaultSeats();
  let open = [], live = [], hist = [], lessons = [];

  const mine = () => Object.entries(local.seats()).sort((a, b) => b[1].at - a[1].at).slice(0, 6);

  const render = () => {
    const v = variantOf(st.variant);
    const qinfo = gameInfo(st.quickVariant), cinfo = gameInfo(st.variant);
    const seatRows = st.seats.map((s, i) => `<label class="seat-row">${t("seat", i + 1)}
      <select data-seat="${i}">
        <option value="you" ${s === "you" ? "selected" : ""}>${t("you")}</option>
        <option value="open" ${s === "open" ? "selected" : ""}>${t("open")}</option>
        ${LEVELS.map((l) => `<option value="${l}" ${s === l ? "selected" : ""}>${t("bot", t(l))}</option>`).join("")}
      </select></label>`).join("");
    const lengths = (vid, sel) => lengthChoices(vid).map(([, label], i) =>
      `<option value="${i}" ${i === sel ? "selected" : ""}>${esc(label)}</option>`).join("");
    const myHist = hist.filter((g) => g.mine);
    app.innerHTML = `${topbar()}
    <main class="lobby">
      <section class="hero">
        <div class="hero-cards" aria-hidden="true">${["Ao", "3c", "Re", "Cb"].map((c) => `<span class="hero-card">${cardSVG(c)}</span>`).join("")}</div>
        <div><h1>Tute</h1><p>${t("tagline")}</p>
        <label class="name-field">${t("yourName")}
          <input id="name" maxlength="24" autocomplete="nickname" placeholder="${t("namePlaceholder")}" value="${esc(local.name)}"></label></div>
      </section>
      <div class="lobby-grid">
      <section class="panel-card" id="quick">
        <h2>${t("quickTitle")}</h2>
        <label>${t("variant")}<select id="q-variant">${variantOptions(st.quickVariant)}</select></label>
        ${qinfo ? `<p class="game-desc" id="q-desc">${esc(qinfo.desc)} <a href="/reglas/${st.quickVariant}" data-nav>${t("lobbyRules")}</a></p>` : ""}
        <label>${t("level")}<select id="q-level">${levelOptions(st.quickLevel)}</select></label>
        <label>${t("matchLength")}<select id="q-length">${lengths(st.quickVariant, st.quickLength)}</select></label>
        <button class="primary" id="quick-play">${t("quickPlay")}</button>
        <p class="error" id="quick-error" role="alert"></p>
      </section>
      ${learnSectionHTML(lessons)}
      <section class="panel-card" id="create">
        <h2>${t("createTitle")}</h2>
        <label>${t("variant")}<select id="c-variant">${variantOptions(st.variant)}</select></label>
        ${cinfo ? `<p class="game-desc">${esc(cinfo.desc)} <a href="/reglas/${st.variant}" data-nav>${t("lobbyRules")}</a></p>` : ""}
        <label>${t("matchLength")}<select id="c-length">${lengths(st.variant, st.length)}</select></label>
        <fieldset class="seats"><legend>${t("seats")}</legend>${seatRows}</fieldset>
        ${houseRules(v, st.opts, st.rulesOpen)}
        <label class="check"><input type="checkbox" id="c-public" ${st.public ? "checked" : ""}> ${t("public")}</label>
        <label class="check"><input type="checkbox" id="c-chat" ${st.chat ? "checked" : ""}> ${t("chatOn")}</label>
        <label class="check"><input type="checkbox" id="c-hints" ${st.hints ? "checked" : ""}> ${t("hintsOn")}</label>
        <label>${t("clockLabel")}<select id="c-clock">${[0, 30, 60, 120].map((s) => `<option value="${s}" ${st.clock === s ? "selected" : ""}>${s ? t("clockSecs", s) : t("clockNone")}</option>`).join("")}</select></label>
        <button class="primary" id="create-btn">${t("create")}</button>
        <p class="error" id="create-error" role="alert"></p>
      </section>
      <section class="panel-card">
        <h2>${t("joinTitle")}</h2>
        <form id="code-form" class="inline"><input id="code" maxlength="12" placeholder="${t("code")}" autocapitalize="characters" aria-label="${t("code")}">
        <button class="primary">${t("join")}</button></form>
        <p class="error" id="join-error" role="alert">${esc(st.joinError)}</p>
        ${mine().length ? `<h2>${t("myGames")}</h2><ul class="list">${mine().map(([id, s]) =>
          `<li><span>${esc(variantName(s.variant))}</span><a href="/t/${esc(id)}" data-nav class="btn">${t("resume")}</a></li>`).join("")}</ul>` : ""}
      </section>
      <section class="panel-card">
        <h2>${t("openTables")}</h2>
        ${open.length ? `<ul class="list">${open.map((tb) => `<li>
          <span><b>${esc(variantName(tb.variant))}</b> · ${tb.seats.map((s) => s.kind === "open" ? `<i>${t("openSeat")}</i>` : esc(s.name)).join(", ")}</span>
          <a class="btn" href="/t/${esc(tb.id)}" data-nav>${t("sit")}</a></li>`).join("")}</ul>`
          : `<p class="muted">${t("noOpenTables")}</p>`}
        <h2>${t("liveTables")}</h2>
        ${live.length ? `<ul class="list" id="live-list">${live.map((tb) => `<li>
          <span><b>${esc(variantName(tb.variant))}</b> · ${tb.seats.map((s) => esc(s.name)).join(", ")}</span>
          <a class="btn" href="/t/${esc(tb.id)}" data-nav>${t("watch")}</a></li>`).join("")}</ul>`
          : `<p class="muted">${t("noLive")}</p>`}
      </section>
      <section class="panel-card wide">
        <h2>${t("myHistory")}</h2>
        ${myHist.length ? `<ul class="list" id="history">${myHist.map((g) => `<li>
          <span><b>${esc(variantName(g.variant))}</b> ${resultText(g)} · ${g.players.map(esc).join(", ")}
          <span class="muted">${g.finished_at ? new Date(g.finished_at * 1000).toLocaleString(getLang()) : ""}</span></span>
          <span><a class="btn" href="/r/${esc(g.id)}" data-nav>${t("replay")}</a>
          <a class="btn analysis-link" href="/a/${esc(g.id)}" data-nav>${t("analysis")}</a>
          <a class="btn ghost" href="/api/games/${esc(g.id)}/record" download>${t("download")}</a></span></li>`).join("")}</ul>`
          : `<p class="muted">${t("noMyHistory")}</p>`}
      </section>
      </div>
    </main>`;
    bindTopbar();
    bind();
  };

  const bind = () => {
    const $ = (x) => document.getElementById(x);
    const err = (where, e) => { $(where).textContent = e.message; };
    const name = () => {
      const n = $("name").value.trim().slice(0, 24);
      local.name = n;
      return n;
    };
    $("name").addEventListener("input", name);
    $("q-variant").onchange = (e) => { st.quickVariant = e.target.value; st.quickLength = 0; render(); };
    $("q-length").onchange = (e) => { st.quickLength = Number(e.target.value); };
    $("q-level").onchange = (e) => { st.quickLevel = e.target.value; };
    $("quick-play").onclick = async () => {
      try {
        const options = lengthChoices(st.quickVariant)[st.quickLength]?.[0] || {};
        const r = await api("POST", "/api/play", { variant: st.quickVariant, level: st.quickLevel, name: name(), options });
        local.keep(r.id, r.seat, r.token, st.quickVariant);
        nav(r.url);
      } catch (e) { err("quick-error", e); }
    };
    $("c-variant").onchange = (e) => {
      st.variant = e.target.value; st.opts = {}; st.length = 0; st.seats = defaultSeats(); render();
    };
    $("c-length").onchange = (e) => {
      st.length = Number(e.target.value);
      for (const k of lengthKeys(st.variant)) delete st.opts[k];
      Object.assign(st.opts, lengthChoices(st.variant)[st.length]?.[0] || {});
      render();
    };
    $("c-public").onchange = (e) => { st.public = e.target.checked; };
    $("c-chat").onchange = (e) => { st.chat = e.target.checked; };
    $("c-hints").onchange = (e) => { st.hints = e.target.checked; };
    $("c-clock").onchange = (e) => { st.clock = Number(e.target.value); };
    $("house-rules")?.addEventListener("toggle", (e) => { st.rulesOpen = e.target.open; });
    $("reset-rules")?.addEventListener("click", () => { st.opts = {}; st.length = 0; st.seats = defaultSeats(); render(); });
    app.querySelectorAll("[data-opt]").forEach((el) => { el.onchange = () => setOption(el); });
    app.querySelectorAll("select[data-seat]").forEach((sel) => {
      sel.onchange = () => {
        const i = Number(sel.dataset.seat);
        if (sel.value === "you") st.seats = st.seats.map((s) => (s === "you" ? "open" : s));
        st.seats[i] = sel.value;
        if (!st.seats.includes("you")) st.seats[0] = "you";
        render();
      };
    });
    $("create-btn").onclick = async () => {
      try {
        const r = await api("POST", "/api/tables", { variant: st.variant, options: st.opts, seats: st.seats, name: name(), public: st.public, chat: st.chat, hints: st.hints, clock: st.clock });
        local.keep(r.id, r.seat, r.token, st.variant);
        nav(r.url);
      } catch (e) { err("create-error", e); }
    };
    $("code-form").onsubmit = async (ev) => {
      ev.preventDefault();
      const c = $("code").value.replace(/[\s-]/g, "").toUpperCase();
      if (!/^[A-Z0-9]{6}$|^[A-Z0-9]{8}$/.test(c)) { st.joinError = t("codeShort"); $("join-error").textContent = st.joinError; return; }
      try {
        const r = await api("GET", `/api/code/${encodeURIComponent(c)}`);
        st.joinError = "";
        nav(`/t/${r.id}`);
      } catch (e) {
        st.joinError = e.code === "not_found" ? t("joinError") : e.message;
        $("join-error").textContent = st.joinError;
      }
    };
  };

  // A house rule changed: keep only what differs from the game's default (the server
  // validates every value, as for any client).
  const setOption = (el) => {
    const v = variantOf(st.variant);
    const name = el.dataset.opt;
    const spec = v.option_specs.find((s) => s.name === name);
    let value;
    if (spec.kind === "bool") value = el.checked;
    else if (spec.kind === "choice") value = JSON.parse(el.value);
    else if (spec.kind === "match") {
      const box = el.closest(".match-ctl");
      const mode = box.querySelector('[data-part="mode"]').value;
      const n = Number(box.querySelector('[data-part="n"]').value) || 1;
      value = mode === "race" ? { mode, games: n } : { mode, deals: n };
    } else if (el.value === "") value = spec.kind === "int_or_null" ? null : spec.default;
    else value = Number(el.value);
    if (same(value, spec.default)) delete st.opts[name]; else st.opts[name] = value;
    const seats = seatCount(v, st.opts);
    if (seats !== st.seats.length) { st.seats = defaultSeats(); render(); }
  };

  page.rerender = render;
  render();
  let gone = false;  // a list that arrives after the lobby was left must not draw it again
  // What arrives in the background (the lists, the lessons) redraws the lobby only when it
  // changed, never under a field being edited, and never between a press and its release:
  // a redraw there swaps the button under the pointer and the click is lost (a "Crear mesa"
  // that did nothing). A redraw held back is made once the pointer is released.
  let pressed = false, owed = false, lastLists = "";
  const redraw = () => {
    if (gone) return;
    const focused = document.activeElement && document.activeElement.tagName;
    if (pressed || focused === "INPUT" || focused === "SELECT") { owed = true; return; }
    owed = false;
    render();
  };
  const press = () => { pressed = true; };
  // after the click that this release makes, not before it
  const release = () => { pressed = false; if (owed) setTimeout(redraw, 0); };
  window.addEventListener("pointerdown", press, true);
  window.addEventListener("pointerup", release, true);
  window.addEventListener("pointercancel", release, true);
  const refresh = async () => {
    try {
      const [tables, h] = await Promise.all([
        api("GET", "/api/tables"),
        api("GET", "/api/history", undefined, { "X-Tute-Seats": local.seatsHeader() })]);
      const lists = JSON.stringify([tables.tables, tables.live || [], h.games]);
      if (lists !== lastLists) {
        lastLists = lists;
        [open, live, hist] = [tables.tables, tables.live || [], h.games];
        owed = true;
      }
      if (owed) redraw();
    } catch { /* the lists simply stay as they were */ }
  };
  refresh();
  tutorials().then((list) => { lessons = list; owed = true; redraw(); }).catch(() => {});
  const timer = setInterval(refresh, 5000);
  page.leave = () => {
    gone = true;
    clearInterval(timer);
    window.removeEventListener("pointerdown", press, true);
    window.removeEventListener("pointerup", release, true);
    window.removeEventListener("pointercancel", release, true);
  };
}

export async function joinByCode(code) {
  app.innerHTML = `${topbar()}<main class="center-msg"><p>${t("connecting")}</p></main>`;
  try {
    const r = await api("GET", `/api/code/${encodeURIComponent(code)}`);
    history.replaceState(null, "", `/t/${r.id}`);
    tablePage(r.id);
  } catch (e) {
    app.innerHTML = `${topbar()}<main class="center-msg"><p class="error">${esc(e.code === "not_found" ? t("joinError") : e.message)}</p>
      <a href="/" data-nav class="btn primary">${t("backToLobby")}</a></main>`;
    bindTopbar();
  }
}

// A game's rules on a page of its own, with the other games a tap away.
export async function rulesPage(variantId) {
  try { await loadVariants(); } catch { /* the names fall back to ids */ }
  const render = () => {
    const v = variantOf(variantId);
    document.title = `${t("lobbyRules")} · ${variantName(variantId)} · Tute`;
    app.innerHTML = `${topbar()}<main class="lobby rules-page"><section class="panel-card wide">
      <nav class="game-tabs">${variantsNow().map((x) => `<a href="/reglas/${x.id}" data-nav class="${x.id === variantId ? "on" : ""}">${esc(variantName(x.id))}</a>`).join("")}</nav>
      <h1>${t("rulesTitle", esc(variantName(variantId)))}</h1>
      ${v ? `<p class="muted">${t("gameFor", v.seats)}</p>` : ""}
      ${rulesHTML(variantId) || `<p class="error">${t("notFound")}</p>`}
      <a href="/" data-nav class="btn primary">${t("backToLobby")}</a></section></main>`;
    bindTopbar();
  };
  page.rerender = render;
  render();
}
