// Table chat: quick phrases (sent by id, shown in each reader's language) and short text
// lines. Text only: everything is escaped here, and the server cleans and limits it.
import { t } from "./i18n.js";
import { esc } from "./util.js";

export const PHRASES = ["hola", "suerte", "bien", "gracias", "uy", "espera", "otra", "adios"];

export function lineText(m) { return m.phrase ? t("ph_" + m.phrase) : m.text || ""; }

export function chatLogHTML(lines, seatName) {
  return lines.slice(-50).map((m) => `<li><b>${esc(m.name || seatName(m.seat))}</b> ${esc(lineText(m))}</li>`).join("");
}

// the box around the chat; its lines (#chat-log) are drawn apart, see chatLogHTML
export function chatHTML(T) {
  if (!T.info.chat) return `<p class="muted chat-off">${t("chatOff")}</p>`;
  const can = T.seat !== null;
  return `<details class="chat" ${T.chatOpen ? "open" : ""}><summary data-do="chat-toggle">${t("chat")}${T.unread ? ` <span class="unread">${T.unread}</span>` : ""}</summary>
    <ul class="chat-log" id="chat-log" aria-label="${esc(t("chat"))}"></ul>
    ${can ? `<div class="phrases" role="group" aria-label="${esc(t("quick"))}">${PHRASES.map((p) =>
      `<button type="button" class="phrase" data-phrase="${p}">${esc(t("ph_" + p))}</button>`).join("")}</div>
    <form class="chat-form" id="chat-form"><input id="chat-input" maxlength="200" autocomplete="off"
      placeholder="${esc(t("chatPlaceholder"))}" aria-label="${esc(t("chatPlaceholder"))}"><button>${t("send")}</button></form>` : ""}
  </details>`;
}

// On a phone the chat lies below the hand, out of sight while playing: a badge fixed at the
// screen's edge says how many lines are unread and takes the player to them (on a desktop
// the side column keeps the chat's own badge in view, and the stylesheet hides this one).
export function chatBadgeHTML(T) {
  if (!T.info.chat || !T.unread || T.chatOpen) return "";
  return `<button type="button" class="chat-jump" id="chat-jump" data-do="chat-jump"
    aria-label="${esc(t("chatUnread", T.unread))}">${esc(t("chat"))} <span class="unread">${T.unread}</span></button>`;
}
