// What happened, in words: the move log, the felt's call-outs and what screen readers hear.
import { declText, sayText } from "./i18n.js";
import { sleep } from "./util.js";
import { TIMING } from "./trick.js";

export const declName = (d) => declText(d);

// One engine event as a line (its `say`, from tute.narration.describe, worded from the server's
// catalogue); null for what this audience does not need to read: the draws, but its own.
export function eventLine(e, seatName, mySeat) {
  if (!e.say) return null;
  if (e.say.code === "drew_hidden" || (e.say.code === "drew" && e.say.params.who !== mySeat)) return null;
  return sayText(e.say, seatName, mySeat);
}

// Said on the felt (and to screen readers): what a player would call out at a real table.
export const FELT = new Set(["Declared", "Exchanged", "BidMade", "AuctionWon", "TookOver", "TrumpNamed", "ThrownIn", "RenuncioClaimed"]);

// The live region (#live) for screen readers, and the felt's call-outs (#announce), one at a
// time, each long enough to read.
export function announcer(closed) {
  const queue = [];
  let busy = false;
  function say(text) {
    const el = document.getElementById("live");
    if (!el || !text) return;
    el.textContent = "";
    setTimeout(() => { el.textContent = text; }, 30);
  }
  async function show() {
    if (busy) return;
    busy = true;
    while (queue.length && !closed()) {
      const [text, cls] = queue.shift();
      const el = document.getElementById("announce");
      if (!el) break;
      el.className = `announce show ${cls}`;
      el.textContent = text;
      // a backlog (an auction's bids come fast) is read faster, so the felt keeps up with play
      const wait = Math.min(3200, 1500 + text.length * 25) - 600 * Math.min(2, queue.length);
      await sleep(wait * TIMING.note);
      el.className = "announce";
    }
    busy = false;
  }
  function note(text, cls = "") {
    queue.push([text, cls]);
    say(text);
    show();
  }
  return { say, note };
}
