// The learner's moves: each one is sent with those before it (POST /api/tutorials/{id}/step)
// and the answer replaces the lesson's state, or its refusal is said.
import { refusalText } from "../i18n.js";
import { api, CARD_RE } from "../util.js";
import { say } from "./state.js";
import { render } from "./render.js";

export async function go(L, taken) {
  if (L.pending) return;
  L.pending = true;
  try {
    L.st = await api("POST", `/api/tutorials/${encodeURIComponent(L.id)}/step`, { taken });
    L.taken = taken;
    L.message = "";
  } catch (e) {
    L.message = e.data?.reasons ? say(e.data.reasons) : e.message;
    if (!L.st) L.fatal = e.message;
  } finally { L.pending = false; }
  render(L);
}

export async function play(L, action) {
  if (!L.st || L.st.done || L.pending) return;
  const d = L.st.state.deal;
  // an illegal card is refused here with the engine's own reason, as at the table
  if (CARD_RE.test(action) && d.refusals && d.refusals[action]) {
    const r = d.refusals[action];
    L.message = refusalText(r, r.code, L.st.seat);
    render(L);
    return;
  }
  await go(L, [...L.taken, action]);
}

export function onClick(L, ev) {
  const act = ev.target.closest("[data-action]");
  if (act) { play(L, act.dataset.action); return; }
  const b = ev.target.closest("[data-do]");
  if (b && b.dataset.do === "restart") { L.message = ""; go(L, []); }
}
