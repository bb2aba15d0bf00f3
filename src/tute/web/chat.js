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
