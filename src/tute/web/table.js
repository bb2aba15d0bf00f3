// The table page: one WebSocket (docs/protocol.md), the state it keeps exact with the deltas,
// and a drawing split in parts (felt, hand, side panel, dialog) that are redrawn only when
// their HTML changes. Updates are shown one at a time, so a trick can be a moment.
// The page's state is one object, T (table/state.js); table/socket.js keeps it with the
// server's messages, table/render.js draws it, table/input.js acts on what the player does.
import { loadVariants } from "./util.js";
import { app, page } from "./shell.js";
import { tableState, variantName } from "./table/state.js";
import { connect } from "./table/socket.js";
import { render } from "./table/render.js";
import { closeLook } from "./table/input.js";
import { accountWords, currentAccount } from "./account.js";
import { api } from "./util.js";

export { variantName };

export function tablePage(id) {
  const T = tableState(id);
  document.title = "Tute";
  // the countdowns of absent players tick once a second; a resize re-lays the hand
  const tick = setInterval(() => {
    T.ticks = (T.ticks || 0) + 1;  // (the browser tests wait for ticks, not for a time)
    if (T.state && (Object.keys(T.botAt).length || (T.info && T.info.clock))) render(T);
  }, 1000);
  let resizeTimer = null;
  const onResize = () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(() => render(T), 120); };
  window.addEventListener("resize", onResize);
  // Escape closes what was opened to look at (the score sheet, the rules)
  const onKey = (ev) => {
    if (ev.key === "Escape" && (T.overlay === "sheet" || T.overlay === "help")) {
      closeLook(T);
      render(T);
    } else if (ev.key === "Escape" && T.sideOpen) {
      T.sideOpen = false;
      render(T);
    }
  };
  document.addEventListener("keydown", onKey);

  page.rerender = () => { T.skeleton = false; render(T); };
  page.leave = () => {
    T.closed = true; clearInterval(tick); window.removeEventListener("resize", onResize);
    document.removeEventListener("keydown", onKey);
    app.onclick = null; app.onsubmit = null;
    if (T.ws) T.ws.close();
  };
  window.__tute = T;  // for the browser tests' measurements (read only)
  loadVariants().catch(() => {}).finally(() => { render(T); connect(T); });
  accountAt(T);
}

// Logged in: the account's name for taking a seat, and whether the table is rated (the side
// panel then says so and offers to leave the game). Anonymous visitors ask nothing more.
async function accountAt(T) {
  const me = await currentAccount();
  if (!me || T.closed) return;
  T.account = { name: me.name };
  try {
    const [at] = await Promise.all([
      api("GET", `/api/account/tables/${encodeURIComponent(T.id)}`), accountWords()]);
    T.rated = at.rated ? at : null;
  } catch { T.rated = null; }
  if (!T.closed) render(T);
}
