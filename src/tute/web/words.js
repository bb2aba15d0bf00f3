// What happened, in words: the move log, the felt's call-outs and what screen readers hear.
import { t, cardName, actionLabel } from "./i18n.js";
import { sleep } from "./util.js";
import { TIMING } from "./trick.js";

const SUITS = ["o", "c", "e", "b"];
const suitOf = (x) => (typeof x === "number" ? SUITS[x] : String(x)[0]);

export const declName = (d) => actionLabel(d).replace(/^(Cantar|Declare) /, "");

// One engine event as a line; null for what this audience does not need to read.
export function eventLine(e, seatName, mySeat) {
  switch (e.e) {
    case "CardPlayed": return t("played", seatName(e.seat), cardName(e.card));
    case "TrickTaken": return t("won", seatName(e.winner), e.points);
    case "Declared": return t("announceCante", seatName(e.seat), declName(e.declaration), e.points);
    case "Exchanged": return t("exchanged", seatName(e.seat), cardName(e.given), cardName(e.taken));
    case "Passed": return t("passed", seatName(e.seat));
    case "BidMade": return t("announceBid", seatName(e.seat), e.points);
    case "AuctionWon": return t("announceContract", seatName(e.seat), e.points);
    case "TookOver": return t("announceTakeover", seatName(e.seat), seatName(e.from_seat), e.points);
    case "TrumpNamed": return t("announceTrump", seatName(e.seat), t("suit_" + suitOf(e.suit)));
    case "ThrownIn": return t("announceThrown", seatName(e.seat));
    case "RenuncioClaimed": return `${t("announceRenuncio", seatName(e.seat))} (${t(e.valid ? "renuncioOk" : "renuncioBad")})`;
    case "DealEnded": return t("dealEnded");
    case "Drew": return e.card && e.seat === mySeat ? t("drew", t("you"), cardName(e.card)) : null;
    default: return null;
  }
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
