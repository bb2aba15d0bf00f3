// "Report this move" beside a bot's decision in the analysis (POST /api/games/{id}/reports,
// tute.server.reports): the button opens a short form (an optional comment), the page says
// the report was filed once the server has stored it. The reports become the regression set
// the bots are checked against (docs/reports.md).
import { t } from "./i18n.js";
import { esc, api } from "./util.js";

const COMMENT_MAX = 300;  // tute.server.reports.COMMENT_MAX

const keyOf = (d) => `${d.deal}:${d.move}`;

// Whether a seat was played by a bot (the analysis says each seat's level, null for people).
export const byBot = (data, seat) => Boolean(data.bots && data.bots[seat]);

// The control beside one decision: the button, or what the server said of its report.
export function reportHTML(d, filed) {
  const key = keyOf(d);
  return `<span class="report" data-report-slot="${key}">${slotHTML(key, filed)}</span>`;
}

function slotHTML(key, filed) {
  const done = filed.get(key);
  if (done) return `<span class="report-done" role="status">${esc(done)}</span>`;
  return `<button type="button" class="small report-btn" data-report="${key}">${t("reportMove")}</button>`;
}

function formHTML(key) {
  return `<form class="report-form" data-report-form="${key}">
    <label>${t("reportComment")} <input name="comment" type="text" maxlength="${COMMENT_MAX}" autocomplete="off"></label>
    <span class="report-buttons"><button type="submit" class="primary small">${t("reportSend")}</button>
    <button type="button" class="small" data-report-cancel="${key}">${t("reportCancel")}</button></span>
    <span class="error small" role="alert" hidden></span></form>`;
}

const slots = (key) => document.querySelectorAll(`[data-report-slot="${key}"]`);

// A click in the analysis: opens or closes a report's form; true when it was one of ours.
export function reportClick(ev, filed) {
  const open = ev.target.closest("[data-report]");
  if (open) {
    const slot = open.closest("[data-report-slot]");
    slot.innerHTML = formHTML(open.dataset.report);
    slot.querySelector("input").focus();
    return true;
  }
  const cancel = ev.target.closest("[data-report-cancel]");
  if (cancel) {
    const key = cancel.dataset.reportCancel;
    cancel.closest("[data-report-slot]").innerHTML = slotHTML(key, filed);
    return true;
  }
  return false;
}

// A report's form sent: filed once the server answers (it answers once stored); every slot
// of that move says so (a mistake of a bot shows in two lists).
export async function reportSubmit(ev, id, filed) {
  const form = ev.target.closest("[data-report-form]");
  if (!form) return;
  ev.preventDefault();
  const key = form.dataset.reportForm;
  const [deal, move] = key.split(":").map(Number);
  const comment = form.querySelector("input").value.trim();
  const send = form.querySelector("button[type=submit]");
  send.disabled = true;
  try {
    const r = await api("POST", `/api/games/${encodeURIComponent(id)}/reports`, { deal, move, comment });
    filed.set(key, t(r.new ? "reportFiled" : "reportAlready"));
    for (const slot of slots(key)) slot.innerHTML = slotHTML(key, filed);
  } catch (e) {
    send.disabled = false;
    const line = form.querySelector(".error");
    line.textContent = e.message;
    line.hidden = false;
  }
}

// Every decision of a bot in the deal, each with its control (folded: a deal has dozens).
export function botMovesHTML(data, decisions, label, filed) {
  const mine = decisions.filter((d) => byBot(data, d.seat));
  if (!mine.length) return "";
  return `<section class="panel-card" id="bot-moves"><h2>${t("botMoves")}</h2>
    <p class="muted small">${t("reportNote")}</p>
    <details><summary>${t("botMovesShow", mine.length)}</summary>
    <ul class="bot-moves">${mine.map((d) => `<li><span>${esc(label(d))}</span> ${reportHTML(d, filed)}</li>`).join("")}</ul>
    </details></section>`;
}
