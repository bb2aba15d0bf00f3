"""The characters a page may show as text: those every Debian Chromium draws from
fonts-dejavu / fonts-liberation (Latin-1 and Latin Extended-A, the dashes, quotes, ellipsis,
bullet and minus). Anything else -- a stopwatch, skip or play marks, ticks, arrows, a speaker,
suits, emoji -- may show as an empty box there: the page draws it as inline SVG
(``web/icons.js``). Shared by the static check of ``web/`` (test_words) and the browser tests,
which check the text of the pages as drawn."""

from __future__ import annotations

import html
import re

DRAWN: frozenset[str] = frozenset(
    set(map(chr, range(0x20, 0x7F))) | set(map(chr, range(0xA0, 0x180)))
    | set("\n\t\r–—‘’“”…•·−"))

# a character written as an escape: JS "\u25B6" / "\u{1F50A}", CSS "\25B6", HTML "&#9654;"
_ESCAPES = re.compile(r"\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})"
                      r"|\\([0-9a-fA-F]{4,6})(?![0-9a-fA-F])|&#x([0-9a-fA-F]+);|&#([0-9]+);")


def undrawn(text: str) -> set[str]:
    """The characters of ``text`` a font may lack, escapes and entities decoded."""
    odd = {ch for ch in text if ch not in DRAWN}
    for m in _ESCAPES.finditer(text):
        hexa = m.group(1) or m.group(2) or m.group(3) or m.group(4)
        ch = chr(int(hexa, 16)) if hexa else html.unescape(m.group(0))
        if ch not in DRAWN:
            odd.add(ch)
    return odd
