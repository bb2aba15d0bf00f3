// The tutorial page's one state object, L: the lesson (info), the learner's moves so far
// (taken) and the server's answer to them (st), with what the page says. The browser tests
// read it as window.__lesson.
import { t, getLang } from "../i18n.js";

export function lessonState(id) {
  return { id, info: null, st: null, taken: [], message: "", pending: false, closed: false, fatal: null, list: [] };
}

// a lesson's text in the page's language (Spanish when it has no other)
export const say = (text) => (text ? text[getLang()] || text.es : "");

export function seatName(L, s) {
  if (!L.st) return "";
  if (s === L.st.seat) return t("you");
  const S = L.st.state.seating;
  const mine = S.side_of[L.st.seat];
  if (S.partnerships && S.side_of[s] === mine) return t("lessonPartner");
  // the opponents in playing order: "Rival 1" plays after the learner
  const them = [...Array(S.seats).keys()].map((k) => (L.st.seat + k) % S.seats).filter((k) => S.side_of[k] !== mine);
  return them.length > 1 ? t("lessonRival", them.indexOf(s) + 1) : t("lessonRival", "").trim();
}
