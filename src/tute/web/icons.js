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
};
