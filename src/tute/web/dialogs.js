// The dialogs over the table: waiting for players, the end of a deal, the end of the match,
// the score sheet, and the rules. Each fits a 360 px screen: tables have the sides as
// columns and scroll inside the dialog rather than widen it.
import { sayText, t } from "./i18n.js";
import { esc, gameInfo } from "./util.js";
import { sheetHTML } from "./sheet.js";
import { houseRulesHTML } from "./houserules.js";

const dialog = (cls, body, label) =>
  `<div class="overlay"><div class="dialog ${cls}" role="dialog" aria-modal="true" aria-label="${esc(label)}">${body}</div></div>`;

export function waitingDialog(C) {
  const T = C.T;
  const link = `${location.origin}/j/${T.info.code}`;
  const canJoin = T.seat === null && T.info.seats.some((s) => s.kind === "open");
  return dialog("", `<h2>${t("waitingSeats")}</h2>
    <p>${t("invite")}</p>
    <div class="invite"><code id="invite-link">${esc(link)}</code><span class="code">${esc(T.info.code)}</span>
      <button data-do="copy" id="copy-btn">${t("copy")}</button></div>
    <ul class="list">${T.info.seats.map((s, i) => `<li><span>${t("seat", i + 1)}</span>
      <span class="name">${s.kind === "open" ? `<i>${t("openSeat")}</i>` : esc(C.seatName(i))}</span></li>`).join("")}</ul>
    <p class="table-terms" id="table-terms">${tableTerms(T.info)}</p>
    ${houseRulesHTML(T.info)}
    ${canJoin ? `<p>${t("joinPrompt")}</p><label class="name-field">${t("yourName")}
      <input id="join-name" maxlength="24" value="${esc(T.account?.name ?? C.local.name)}" ${T.account ? "disabled" : ""}></label>
      <button class="primary" data-do="join" id="join-btn">${t("sit")}</button>` : ""}
    ${T.seat !== null && T.seat === T.info.host ? `<button class="primary" data-do="fill" id="fill-btn">${t("fillBots")}</button>` : ""}
    <a href="/" data-nav class="btn ghost">${t("backToLobby")}</a>`, t("waitingSeats"));
}

// What a player agrees to by sitting down: hints for everyone or not, chat, the turn clock.
function tableTerms(info) {
  return [info.hints ? t("termsHints") : t("termsNoHints"), info.chat ? t("chatOn") : t("chatOff"),
    info.clock ? `${t("clockLabel")}: ${t("clockSecs", info.clock)}` : `${t("clockLabel")}: ${t("clockNone")}`]
    .map(esc).join(" · ");
}

// One deal's score: a row per measure, a column per side.
export function resultTable(C, summary) {
  const r = summary.result;
  const sides = r.totals.length;
  const col = (f) => [...Array(sides).keys()].map((sd) => `<td>${f(sd)}</td>`).join("");
  const rows = [
    [t("cardPoints"), col((sd) => r.card_points[sd])],
    [t("cantes"), col((sd) => r.cantes[sd].reduce((a, b) => a + b, 0))],
    [t("lastTrickBonus"), col((sd) => (r.last_trick[sd] ? 10 : 0))],
    [t("total"), col((sd) => `<b>${r.totals[sd]}</b>`)],
  ];
  if (r.running) {
    rows.push([t("carried"), col((sd) => r.running[sd] - r.totals[sd])]);
    rows.push([t("running"), col((sd) => `<b>${r.running[sd]}</b>`)]);
  }
  if (r.balances) rows.push([t("balance"), col((sd) => (r.balances[sd] > 0 ? "+" : "") + r.balances[sd])]);
  else if (r.losses) rows.push([t("lostGames"), col((sd) => r.losses[sd])]);
  else rows.push([t("games"), col((sd) => r.games[sd])]);
  const head = [...Array(sides).keys()].map((sd) => `<th scope="col" class="${r.winner === sd ? "won" : ""}" title="${esc(C.sideName(sd))}">${esc(C.sideName(sd))}</th>`).join("");
  return `<div class="scroll-x"><table class="score result"><thead><tr><th></th>${head}</tr></thead>
    <tbody>${rows.map(([k, v]) => `<tr><th scope="row">${k}</th>${v}</tr>`).join("")}</tbody></table></div>`;
}

// Who won, as a player says it: "Ganamos nosotros", "Ganan ellos", "Ganas tú", "Gana Lola"
// (never "Gana Ellos").
function winnerText(C, side) {
  const mine = C.mySide();
  const partners = C.T.state.seating?.partnerships;
  if (mine !== null && side === mine) return t(partners ? "winnerUs" : "winnerYou");
  if (mine !== null && partners) return t("winnerThem");
  return t("winnerIs", esc(C.sideName(side)));
}

// What the deal decided, in words: the server's account of its ending (tute.narration
// .describe_result, as the terminal game says it), less the totals the table shows; the
// winner said from the reader's side.
export function verdict(C, summary) {
  return (summary.say || []).filter((x) => !x.code.startsWith("result.totals") && x.code !== "result.running")
    .map((x) => (x.code === "result.winner" ? winnerText(C, x.params.side)
      : x.code === "result.tute" ? `${winnerText(C, x.params.side)} — Tute`
      : esc(sayText(x, C.seatName, C.T.seat, C.sideName) || ""))).filter(Boolean).join(" · ");
}

export function dealDialog(C) {
  const s = C.T.state.last_deal;
  return dialog("result-dialog", `<h2>${t("dealOver")} · ${t("dealN", s.number)}</h2>
    <p class="winner">${verdict(C, s)}</p>
    ${resultTable(C, s)}
    <div class="buttons"><button class="primary" data-do="continue" id="continue-btn">${t("continue")}</button>
    <button data-do="sheet">${t("sheet")}</button></div>`, t("dealOver"));
}

export function matchDialog(C) {
  const T = C.T;
  const r = T.state.result;
  const mySide = C.mySide();
  const partners = T.state.seating?.partnerships;
  let head = r.winner === null || r.winner === undefined ? t("noWinner") : winnerText(C, r.winner);
  if (mySide !== null && r.winner !== null && r.winner !== undefined) {
    head = r.winner === mySide ? t(partners ? "youWin" : "youWin1") : t(partners ? "youLose" : "youLose1");
  }
  const score = (r.losses || r.balances || r.games);
  const rm = T.rematch;
  const again = rm && !rm.token ? `<a class="btn primary" href="${esc(rm.url)}" data-nav>${t("watch")}</a>`
    : `<button class="primary" data-do="again" id="again-btn" ${T.rematchWaiting ? "disabled" : ""}>${T.rematchWaiting ? t("rematchWait") : t("playAgain")}</button>`;
  // another player asked for the rematch: it waits for this one, with no clock running
  const offered = rm && rm.token && !T.rematchWaiting ? `<p class="rematch-offer" id="rematch-offer" role="status">${esc(t("rematchOffered"))}</p>` : "";
  return dialog("result-dialog", `<h2>${t("matchOver")}</h2><p class="winner ${r.winner === mySide ? "win" : ""}">${head}</p>${offered}
    <p>${t(r.losses ? "lostGames" : r.balances ? "balance" : "games")}: ${score.map((g, sd) => `${esc(C.sideName(sd))} <b>${g}</b>`).join(" · ")} (${t(r.deals === 1 ? "dealsN1" : "dealsN", r.deals)})</p>
    ${T.state.last_deal ? `<p class="muted">${verdict(C, T.state.last_deal)}</p>${resultTable(C, T.state.last_deal)}` : ""}
    <div class="buttons">${again}
    <button data-do="sheet">${t("sheet")}</button>
    <a class="btn" href="/r/${esc(T.id)}" data-nav>${t("replay")}</a>
    <a class="btn" href="/a/${esc(T.id)}${r.deals > 1 ? `?deal=${r.deals}` : ""}" data-nav id="analysis-btn">${t("analysis")}</a>
    <a class="btn" href="/api/games/${esc(T.id)}/record" download>${t("download")}</a>
    <a class="btn ghost" href="/" data-nav>${t("backToLobby")}</a></div>`, t("matchOver"));
}

export function sheetDialog(C) {
  return dialog("sheet-dialog", `<h2>${t("sheetTitle")}</h2>${sheetHTML(C.T.state, C.sideName, C.liveTotals())}
    <div class="buttons"><button class="primary" data-do="close">${t("closeBtn")}</button></div>`, t("sheetTitle"));
}

export function rulesHTML(variantId) {
  const g = gameInfo(variantId);
  if (!g) return "";
  return `<p class="game-desc">${esc(g.desc)}</p><ol class="rules">${g.rules.map((r) => `<li>${esc(r)}</li>`).join("")}</ol>`;
}

export function helpDialog(C) {
  return dialog("help-dialog", `<h2>${t("rulesTitle", esc(C.title))}</h2>${houseRulesHTML(C.T.info)}${rulesHTML(C.T.info.variant)}
    <p class="muted">${t("helpPage")}</p>
    <div class="buttons"><button class="primary" data-do="close">${t("closeBtn")}</button>
    <a class="btn" href="/reglas/${esc(C.T.info.variant)}" target="_blank" rel="noopener">${t("rulesLink")}</a></div>`, t("help"));
}
