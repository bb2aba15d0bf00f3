// Icons drawn by the page, as inline SVG in the text's colour: platform symbols such as the
// stopwatch or the skip marks are missing from many fonts (Debian's Chromium shows boxes).
const svg = (body, size = 16) =>
  `<svg class="ic" width="${size}" height="${size}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${body}</svg>`;
const tri = (x, dir) => dir > 0 ? `<path d="M${x} 5l9 7-9 7z" fill="currentColor"/>` : `<path d="M${x + 9} 5l-9 7 9 7z" fill="currentColor"/>`;
const bar = (x) => `<rect x="${x}" y="5" width="2.6" height="14" fill="currentColor"/>`;

export const ICONS = {
  clock: svg(`<circle cx="12" cy="13.5" r="7.5" fill="none" stroke="currentColor" stroke-width="2.2"/>
    <path d="M12 9.5v4.5l3 2" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>
    <rect x="9.5" y="2" width="5" height="2.4" rx="1" fill="currentColor"/>`, 14),
  start: svg(bar(3) + tri(6, -1) + tri(13, -1)),
  prevTrick: svg(bar(4) + tri(8, -1)),
  prev: svg(tri(7, -1)),
  next: svg(tri(8, 1)),
  nextTrick: svg(tri(7, 1) + bar(17.4)),
  end: svg(tri(2, 1) + tri(9, 1) + bar(18.4)),
  // three lines: the phone's side panel (the score, the log, the chat)
  menu: svg(`<path d="M4 6.5h16M4 12h16M4 17.5h16" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>`),
  // back to the previous page (the lobby)
  back: svg(`<path d="M20 12H5M11 5l-7 7 7 7" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>`),
  // a contract made, and failed (the score sheet)
  check: svg(`<path d="M4.5 12.5l5 5 10-11" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>`, 12),
  cross: svg(`<path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/>`, 12),
  // a chart's legend: a line's colour, and its two kinds of marks
  swatch: svg(`<rect x="4" y="4" width="16" height="16" rx="2" fill="currentColor"/>`, 12),
  dot: svg(`<circle cx="12" cy="12" r="7" fill="#e03131"/>`, 12),
  ring: svg(`<circle cx="12" cy="12" r="6.5" fill="none" stroke="#e03131" stroke-width="3"/>`, 12),
};
