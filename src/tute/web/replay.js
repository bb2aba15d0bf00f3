// The replay of a finished game: every position with all hands open, step by step or trick
// by trick, with the cantes so far and each deal's result. Each step says what was just done
// and whose turn it is; the trick builds up card by card (the newest marked), and a finished
// trick stays whole for a step with its winner named.
import { t, actionLabel, cardName } from "./i18n.js";
import { esc, api, loadVariants, CARD_RE } from "./util.js";
import { app, page, topbar, bindTopbar } from "./shell.js";
import { boardHTML, cardFace } from "./board.js";
import { variantName } from "./table.js";
import { ICONS } from "./icons.js";

export async function replayPage(id) {
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
  const n = data.seats;
  const nameOf = (s) => names[s] || t("seatLabel", s + 1);
  // the frames that end a trick (or a deal): where "next trick" stops
  const stops = frames.map((f, k) => k).filter((k) => k === 0 || k === frames.length - 1
    || frames[k].tricks !== frames[k - 1].tricks || frames[k].deal_number !== frames[k - 1].deal_number);
  // ?at=N opens the replay at frame N (the analysis links each mistake to its position)
  const at = Number(new URLSearchParams(location.search).get("at"));
  let i = Number.isInteger(at) && at > 0 ? Math.min(at, frames.length - 1) : 0, playing = null;
  const render = () => {
    const f = frames[i];
    const board = boardHTML({
      n, me: 0, open: true, bottom: false, names: [...Array(n).keys()].map(nameOf),
      hands: f.hands, sizes: f.hands.map((h) => h.length), trick: f.trick, toMove: f.to_move,
      winner: f.trick_winner, fresh: f.action && CARD_RE.test(f.action) ? f.seat : null,
      dealer: f.dealer, mano: null, trump: f.trump, trumpCard: f.upcard ? null : f.trump_card,
      upcard: f.upcard, stockCount: f.stock_count,
    });
    const what = !f.action ? "" : CARD_RE.test(f.action) ? esc(t("played", nameOf(f.seat), cardName(f.action)))
      : `${esc(nameOf(f.seat))}: ${esc(actionLabel(f.action))}`;
    const took = f.trick_winner !== null && f.trick_winner !== undefined;
    const win = took ? `<div class="trick-win" role="presentation">${esc(t("trickWinner", nameOf(f.trick_winner), f.trick_points))}</div>` : "";
    const turn = f.summary || f.to_move === null || f.to_move === undefined ? ""
      : `<span class="replay-turn" id="r-turn">${esc(t("replayToMove", nameOf(f.to_move)))}</span>`;
    const trickNo = took ? f.tricks : (f.tricks ?? 0) + 1;
    const cantes = (f.cantes || []).map(([s, d, p]) => `<li>${esc(nameOf(s))}: ${esc(actionLabel(d).replace(/^(Cantar|Declare) /, ""))} <b>${p}</b></li>`).join("");
    app.innerHTML = `${topbar(`<span class="table-title">${t("replayTitle")} · ${esc(variantName(data.record.variant))} · ${t("dealN", f.deal_number)}</span>`)}
    <main class="table-page replay">
      <div class="board-wrap">${board.replace('<div class="trick"', `${win}<div class="trick"`)}
        <div class="me ${f.to_move === 0 && !f.summary ? "to-move" : ""}"><div class="me-line"><span class="who">${esc(nameOf(0))}</span>
          <span class="turn" id="r-what" aria-live="polite">${what}</span>${turn}</div>
          <div class="hand open-bottom">${f.hands[0].map((c) => cardFace(c, "hand-card")).join("")}</div></div></div>
      <aside class="side-col"><div class="side">
        <p>${t("step", i, frames.length - 1)} · <b id="r-trickno">${t("trickStep", trickNo)}</b></p>
        <input type="range" id="scrub" min="0" max="${frames.length - 1}" value="${i}" aria-label="${t("step", i, frames.length - 1)}">
        <div class="buttons">
          <button id="r-start" title="${t("start")}" aria-label="${t("start")}">${ICONS.start}</button>
          <button id="r-ptrick" title="${t("prevTrick")}" aria-label="${t("prevTrick")}">${ICONS.prevTrick}</button>
          <button id="r-prev" title="${t("prev")}" aria-label="${t("prev")}">${ICONS.prev}</button>
          <button id="r-play" class="primary">${playing ? t("pause") : t("play")}</button>
          <button id="r-next" title="${t("next")}" aria-label="${t("next")}">${ICONS.next}</button>
          <button id="r-ntrick" title="${t("nextTrick")}" aria-label="${t("nextTrick")}">${ICONS.nextTrick}</button>
          <button id="r-end" title="${t("end")}" aria-label="${t("end")}">${ICONS.end}</button></div>
        <p>${t("points")}: ${f.card_points.join(" – ")} · ${t("games")}: ${f.games.join(" – ")}</p>
        <h3>${t("cantes")}</h3>${cantes ? `<ul class="cantes" id="r-cantes">${cantes}</ul>` : `<p class="muted small">${t("cantesNone")}</p>`}
        ${f.summary ? `<p class="winner">${t("dealOver")}: ${f.summary.result.totals.join(" – ")}</p>` : ""}
        <a class="btn" href="/api/games/${esc(id)}/record" download>${t("download")}</a>
        <a class="btn ghost" href="/" data-nav>${t("backToLobby")}</a>
      </div></aside></main>`;
    bindTopbar();
    const go = (k) => { i = Math.max(0, Math.min(frames.length - 1, k)); render(); };
    const $ = (x) => document.getElementById(x);
    $("r-start").onclick = () => go(0);
    $("r-prev").onclick = () => go(i - 1);
    $("r-next").onclick = () => go(i + 1);
    $("r-end").onclick = () => go(frames.length - 1);
    $("r-ntrick").onclick = () => go(stops.find((k) => k > i) ?? frames.length - 1);
    $("r-ptrick").onclick = () => go([...stops].reverse().find((k) => k < i) ?? 0);
    $("scrub").oninput = (e) => go(Number(e.target.value));
    $("r-play").onclick = () => {
      if (playing) { clearInterval(playing); playing = null; render(); return; }
      playing = setInterval(() => {
        if (i >= frames.length - 1) { clearInterval(playing); playing = null; }
        go(i + 1);
      }, 700);
      render();
    };
  };
  page.rerender = render;
  render();
  page.leave = () => { if (playing) clearInterval(playing); };
}
