// Our own drawings of the Spanish pack (baraja española), generated as SVG.
// Suits: oros (coins), copas (cups), espadas (swords), bastos (clubs); the frame line has the
// traditional gaps ("pintas") that tell the suit at a glance: none, one, two or three.

const SUITS = {
  o: { main: "#e3a21a", dark: "#8a5a00", gaps: 0 },
  c: { main: "#c8372d", dark: "#7a1a12", gaps: 1 },
  e: { main: "#2b5fa8", dark: "#163a6b", gaps: 2 },
  b: { main: "#3f7f32", dark: "#234d17", gaps: 3 },
};
const NUMBER = { A: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, S: 10, C: 11, R: 12 };
const SKIN = "#f3cfa6", HAIR = "#5a3b1e", INK = "#3b2f22";

const DEFS = `
<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" aria-hidden="true">
<defs>
 <symbol id="s-o" viewBox="0 0 40 40">
  <circle cx="20" cy="20" r="18" fill="#f2c230" stroke="#8a5a00" stroke-width="2"/>
  <circle cx="20" cy="20" r="11.5" fill="#e0a300" stroke="#8a5a00" stroke-width="1.4"/>
  <circle cx="20" cy="20" r="4.5" fill="#fff0b0" stroke="#8a5a00" stroke-width="1.2"/>
  ${[0, 1, 2, 3, 4, 5, 6, 7].map((k) => {
    const a = (k * Math.PI) / 4;
    return `<circle cx="${(20 + 14.8 * Math.cos(a)).toFixed(2)}" cy="${(20 + 14.8 * Math.sin(a)).toFixed(2)}" r="1.5" fill="#8a5a00"/>`;
  }).join("")}
 </symbol>
 <symbol id="s-c" viewBox="0 0 40 40">
  <path d="M8 7 H32 C32 18 27 23 20 23 C13 23 8 18 8 7 Z" fill="#c8372d" stroke="#7a1a12" stroke-width="1.6"/>
  <path d="M12 10 C12 16 15 19 19 20" fill="none" stroke="#f59a8f" stroke-width="1.6" stroke-linecap="round"/>
  <rect x="6.5" y="4" width="27" height="4.2" rx="1.6" fill="#f2c230" stroke="#7a1a12" stroke-width="1.2"/>
  <rect x="17.5" y="23" width="5" height="8" fill="#f2c230" stroke="#7a1a12" stroke-width="1.2"/>
  <path d="M9 37 C11 30 29 30 31 37 Z" fill="#c8372d" stroke="#7a1a12" stroke-width="1.4"/>
 </symbol>
 <symbol id="s-e" viewBox="0 0 40 40">
  <path d="M20 1.5 L23.6 8 L23 27 L17 27 L16.4 8 Z" fill="#dfe7f0" stroke="#163a6b" stroke-width="1.3"/>
  <line x1="20" y1="6" x2="20" y2="26" stroke="#7f97b5" stroke-width="0.9"/>
  <rect x="8.5" y="26.5" width="23" height="3.8" rx="1.8" fill="#2b5fa8" stroke="#163a6b" stroke-width="1.1"/>
  <rect x="17.8" y="30.3" width="4.4" height="5.6" fill="#2b5fa8" stroke="#163a6b" stroke-width="1.1"/>
  <circle cx="20" cy="37.4" r="2.3" fill="#f2c230" stroke="#163a6b" stroke-width="1"/>
 </symbol>
 <symbol id="s-b" viewBox="0 0 40 40">
  <path d="M16.5 38.5 C15.5 28 12.5 17 12.5 9 C12.5 3.5 16.5 1 21 1.8 C26.5 2.8 28.5 7 27.5 12.5 C26.5 20 24.5 29 23.5 38.5 Z"
        fill="#4e8b3a" stroke="#234d17" stroke-width="1.6"/>
  <circle cx="15.5" cy="13" r="2.2" fill="#86bd68" stroke="#234d17" stroke-width="1"/>
  <circle cx="24.5" cy="9" r="2" fill="#86bd68" stroke="#234d17" stroke-width="1"/>
  <circle cx="18" cy="24" r="1.9" fill="#86bd68" stroke="#234d17" stroke-width="1"/>
  <circle cx="24" cy="21" r="1.7" fill="#86bd68" stroke="#234d17" stroke-width="1"/>
  <path d="M26 16 C31 11 35 12.5 36.5 15 C32.5 17.5 29 18 26 16 Z" fill="#86bd68" stroke="#234d17" stroke-width="1"/>
 </symbol>
 <pattern id="back-pat" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
  <rect width="12" height="12" fill="#9b1c22"/>
  <rect x="0" y="0" width="6" height="6" fill="#b3262d"/>
  <rect x="6" y="6" width="6" height="6" fill="#b3262d"/>
 </pattern>
</defs></svg>`;

export function installCardDefs() {
  if (!document.getElementById("card-defs")) {
    const holder = document.createElement("div");
    holder.id = "card-defs";
    holder.innerHTML = DEFS;
    document.body.prepend(holder);
  }
}

const PIPS = {
  1: [[50, 75, 54]],
  2: [[50, 40], [50, 110]],
  3: [[50, 36], [50, 75], [50, 114]],
  4: [[32, 40], [68, 40], [32, 110], [68, 110]],
  5: [[32, 38], [68, 38], [50, 75], [32, 112], [68, 112]],
  6: [[32, 36], [68, 36], [32, 75], [68, 75], [32, 114], [68, 114]],
  7: [[32, 34], [68, 34], [50, 55], [32, 78], [68, 78], [32, 115], [68, 115]],
};

function use(suit, cx, cy, size) {
  const h = size / 2;
  return `<use href="#s-${suit}" x="${cx - h}" y="${cy - h}" width="${size}" height="${size}"/>`;
}

function frame(suit) {
  const s = SUITS[suit];
  let out = `<rect x="7" y="7" width="86" height="136" rx="3" fill="none" stroke="${s.main}" stroke-width="1.8"/>`;
  for (let k = 1; k <= s.gaps; k++) {
    const x = 7 + (86 * k) / (s.gaps + 1) - 4;
    out += `<rect x="${x}" y="4.5" width="8" height="5" fill="#fffdf6"/>`;
    out += `<rect x="${x}" y="140.5" width="8" height="5" fill="#fffdf6"/>`;
  }
  return out;
}

function corner(n, suit) {
  const c = SUITS[suit].dark;
  const txt = `<text x="15" y="23" font-size="15" font-weight="700" text-anchor="middle" fill="${c}" font-family="Georgia, serif">${n}</text>`;
  return txt + `<g transform="rotate(180 50 75)">${txt}</g>`;
}

function sota(s, suit) {
  return `
  <rect x="40" y="110" width="7" height="24" fill="${s.dark}"/><rect x="53" y="110" width="7" height="24" fill="${s.dark}"/>
  <path d="M36 134 h12 v3 h-13 Z M52 134 h12 l1 3 h-13 Z" fill="${INK}"/>
  <path d="M37 62 H63 L70 114 H30 Z" fill="${s.main}" stroke="${s.dark}" stroke-width="1.5"/>
  <path d="M50 62 V114" stroke="${s.dark}" stroke-width="1"/>
  <rect x="33" y="88" width="34" height="4.5" fill="#f2c230" stroke="${s.dark}" stroke-width="0.8"/>
  <path d="M37 64 L28 90" stroke="${s.main}" stroke-width="6" stroke-linecap="round"/>
  <circle cx="50" cy="50" r="10" fill="${SKIN}" stroke="${INK}" stroke-width="1"/>
  <circle cx="46.5" cy="49" r="1" fill="${INK}"/><circle cx="53.5" cy="49" r="1" fill="${INK}"/>
  <path d="M47 55 Q50 57 53 55" fill="none" stroke="${INK}" stroke-width="0.9"/>
  <path d="M38 47 Q40 33 52 34 Q62 35 63 46 Z" fill="${s.dark}"/>
  <path d="M60 38 Q70 28 74 31 Q68 33 62 41 Z" fill="#f2c230" stroke="${s.dark}" stroke-width="0.8"/>
  ${use(suit, 68, 80, 26)}`;
}

function caballo(s, suit) {
  return `
  <rect x="34" y="108" width="6" height="28" fill="#6d4c41"/><rect x="44" y="110" width="6" height="26" fill="#6d4c41"/>
  <rect x="60" y="110" width="6" height="26" fill="#6d4c41"/><rect x="70" y="108" width="6" height="28" fill="#6d4c41"/>
  <ellipse cx="55" cy="103" rx="27" ry="13" fill="#8d6e63" stroke="#4e342e" stroke-width="1.4"/>
  <path d="M34 100 Q24 86 24 74 L32 70 Q40 84 44 96 Z" fill="#8d6e63" stroke="#4e342e" stroke-width="1.4"/>
  <path d="M22 66 Q14 70 13 80 L22 83 Q30 78 33 72 Z" fill="#8d6e63" stroke="#4e342e" stroke-width="1.4"/>
  <path d="M27 69 Q33 60 38 74" fill="none" stroke="#4e342e" stroke-width="2.5"/>
  <circle cx="21" cy="72" r="1.1" fill="${INK}"/>
  <path d="M80 100 Q90 104 88 120" fill="none" stroke="#4e342e" stroke-width="3" stroke-linecap="round"/>
  <path d="M42 90 L47 58 H63 L66 92 Z" fill="${s.main}" stroke="${s.dark}" stroke-width="1.4"/>
  <rect x="40" y="93" width="30" height="6" rx="2" fill="${s.dark}"/>
  <circle cx="55" cy="47" r="9" fill="${SKIN}" stroke="${INK}" stroke-width="1"/>
  <circle cx="52" cy="46" r="0.9" fill="${INK}"/><circle cx="58" cy="46" r="0.9" fill="${INK}"/>
  <path d="M44 42 Q46 30 56 31 Q66 32 66 42 Z" fill="${s.dark}"/>
  <path d="M63 62 L74 50" stroke="${s.main}" stroke-width="5" stroke-linecap="round"/>
  ${use(suit, 76, 40, 24)}`;
}

function rey(s, suit) {
  return `
  <path d="M36 60 H64 L74 136 H26 Z" fill="${s.main}" stroke="${s.dark}" stroke-width="1.5"/>
  <path d="M44 60 L40 136 M56 60 L60 136" stroke="${s.dark}" stroke-width="0.8" fill="none"/>
  <rect x="25.5" y="129" width="49" height="7" fill="#fbf7ee" stroke="${s.dark}" stroke-width="0.8"/>
  ${[31, 39, 47, 55, 63, 70].map((x) => `<circle cx="${x}" cy="132.5" r="1" fill="${INK}"/>`).join("")}
  <path d="M36 60 Q50 70 64 60 L62 66 Q50 76 38 66 Z" fill="#fbf7ee" stroke="${s.dark}" stroke-width="0.8"/>
  <circle cx="50" cy="47" r="10" fill="${SKIN}" stroke="${INK}" stroke-width="1"/>
  <circle cx="46.5" cy="46" r="1" fill="${INK}"/><circle cx="53.5" cy="46" r="1" fill="${INK}"/>
  <path d="M40 50 Q41 64 50 66 Q59 64 60 50 Q55 56 50 56 Q45 56 40 50 Z" fill="${HAIR}"/>
  <path d="M39 39 L39 27 L44.5 33 L50 24 L55.5 33 L61 27 L61 39 Z" fill="#f2c230" stroke="#8a5a00" stroke-width="1.1"/>
  <circle cx="50" cy="30" r="1.5" fill="#c8372d"/>
  <path d="M64 66 L72 84" stroke="${s.main}" stroke-width="6" stroke-linecap="round"/>
  <path d="M36 66 L30 88" stroke="${s.main}" stroke-width="6" stroke-linecap="round"/>
  <circle cx="30" cy="90" r="3" fill="${SKIN}"/>
  ${use(suit, 72, 96, 26)}`;
}

const cache = new Map();

// The SVG text of a face-up card ("Ao", "Rc", …). A picture only: the element holding it
// carries the card's name (its corner letters would otherwise be read as text).
export function cardSVG(card) {
  if (cache.has(card)) return cache.get(card);
  const rank = card.slice(0, -1), suit = card.slice(-1);
  const s = SUITS[suit];
  const n = NUMBER[rank];
  let body;
  if (n <= 7) body = PIPS[n].map(([x, y, size]) => use(suit, x, y, size || 25)).join("");
  else body = n === 10 ? sota(s, suit) : n === 11 ? caballo(s, suit) : rey(s, suit);
  const svg = `<svg class="card-svg" viewBox="0 0 100 150" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="98" height="148" rx="8" fill="#fffdf6" stroke="#b9ad95" stroke-width="1.5"/>
    ${frame(suit)}${corner(n, suit)}${body}</svg>`;
  cache.set(card, svg);
  return svg;
}

// The back of a card (other players' hands, the stock).
export function backSVG() {
  return `<svg class="card-svg" viewBox="0 0 100 150" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
    <rect x="1" y="1" width="98" height="148" rx="8" fill="#fffdf6" stroke="#b9ad95" stroke-width="1.5"/>
    <rect x="6" y="6" width="88" height="138" rx="5" fill="url(#back-pat)"/>
    <rect x="6" y="6" width="88" height="138" rx="5" fill="none" stroke="#f2c230" stroke-width="1.5"/>
    <ellipse cx="50" cy="75" rx="22" ry="28" fill="#fffdf6" stroke="#f2c230" stroke-width="2"/>
    <text x="50" y="83" font-size="22" text-anchor="middle" fill="#9b1c22" font-family="Georgia, serif" font-weight="700">T</text>
  </svg>`;
}
