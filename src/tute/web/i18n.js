// The words of the page, Spanish first, English second: every one comes from the server's
// catalogue (GET /api/messages/{lang}, built from tute.i18n), none is kept here. t(key, ...args)
// fills {0}, {1}… of the catalogue's page phrases.
const LANGS = ["es", "en"];
let lang = localStorage.getItem("tute.lang") || "es";
if (!LANGS.includes(lang)) lang = "es";

// What the page says when it could not fetch its words (the one phrase it keeps itself).
export const NO_WORDS = {
  es: "No se pudo cargar la página: comprueba la conexión y vuelve a cargarla.",
  en: "The page could not load: check the connection and reload it.",
};

export function getLang() { return lang; }
export function setLang(l) {
  lang = LANGS.includes(l) ? l : "es";
  loadCatalogue(lang);
  localStorage.setItem("tute.lang", lang);
  document.documentElement.lang = lang;
}
document.documentElement.lang = lang;

export function t(key, ...args) {
  const page = CATALOGUES[lang]?.page;
  const s = (page && page[key]) ?? key;
  return s.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ""));
}

// A card's name with its article: "la sota de copas", "el tres de oros", "the ace of cups".
export function cardThe(card) {
  const the = CATALOGUES[lang]?.card_the || {};
  return `${the[card.slice(0, -1)] ?? the["*"] ?? ""} ${cardName(card)}`.trim();
}

export function cardName(card) {
  const rank = card.slice(0, -1), suit = card.slice(-1);
  return t("cardName", t("rank_" + rank), t("suit_" + suit));
}

// A label for any action in record notation; an unknown kind shows as its notation.
export function actionLabel(a) {
  if (a === "pass") return t("pass");
  if (a.startsWith("bid:")) return t("act_bid", a.slice(4));
  if (a.startsWith("trump:")) return t("act_trump", t("suit_" + a.slice(6)));
  if (a.startsWith("discard:")) return t("act_discard", cardName(a.slice(8)));
  const token = { takeover: "act_takeover", throw: "act_throw", renuncio: "act_claim", stop: "act_stop" }[a];
  if (token) return t(token);
  if (a === "cuarenta" || a.startsWith("tute")) return t(a);
  if (a.startsWith("veinte:")) return t("veinte", t("suit_" + a.slice(7)));
  // another seat's 20 whose suit is not told (guinote_hide_arrastre_suit): the server's words
  if (a === "veinte") return t("declareWhat", canteWord("veinte") || t("veinteHidden"));
  if (a.startsWith("cambio:")) return t("cambio", cardName(a.slice(7)));
  if (/^[A234567SCR][oceb]$/.test(a)) return cardName(a);
  return a;
}

// The engine's refusals ({code, params}) in the page's language, worded by the server's own
// catalogue (GET /api/messages/{lang}, built from tute.i18n): nothing here translates English.
const CATALOGUES = {};
const LOADING = {};
function loadCatalogue(l) {
  if (!CATALOGUES[l] && !LOADING[l]) {
    LOADING[l] = fetch(`/api/messages/${l}`).then((r) => (r.ok ? r.json() : null))
      .then((c) => { if (c) CATALOGUES[l] = c; }).catch(() => {})
      .finally(() => { if (!CATALOGUES[l]) delete LOADING[l]; });  // a later call tries again
  }
}
// Resolves once the page's language has its catalogue (or it could not be had): a page that
// words data by it (the goals of the lobby's lengths) waits for it before it draws.
export function wordsReady() { return LOADING[lang] || Promise.resolve(); }
// Whether the page's language has its words (false: the catalogue could not be fetched).
export function hasWords() { return !!CATALOGUES[lang]; }
// One section of the catalogue in the page's language ({} until it has come).
export function wordsOf(section) { return (CATALOGUES[lang] || {})[section] || {}; }

// A cante the page has no notation of its own for, as the server's catalogue names it
// (tute.i18n.catalogue: "cantes"); undefined until the catalogue has come.
function canteWord(kind) {
  const cat = CATALOGUES[lang];
  return cat && cat.cantes ? cat.cantes[kind] : undefined;
}

// The match goal ({kind, n...}: goal_info) in the page's language, worded by the server's
// catalogue as tute.i18n.goal_text words it; "" until the catalogue has come.
export function goalWords(g) {
  const cat = CATALOGUES[lang];
  const spec = cat && cat.goals && cat.goals[g.kind];
  if (!spec) return "";
  const one = spec.one && Object.values(spec.params).every((field) => g[field] === 1);
  return (one ? spec.one : spec.text).replace(/\{(\w+)\}/g, (_, k) => String(g[spec.params[k]] ?? ""));
}

// ------------------------------------------------------------------ server messages by code

// The server's `reason` is English for people and logs: the page shows the catalogue's words
// for the stable `code` (its "errors"), and the English reason only for a code it does not know.
export function errorText(code, reason, refusal, you) {
  const table = CATALOGUES[lang]?.errors || {};
  // a refusal is worded from the server's catalogue (its code and parameters), never by
  // translating the English reason
  if (refusal) return code === "illegal" ? t("illegal", refusalText(refusal, reason || "", you))
    : refusalText(refusal, reason || "", you);
  if (code === "illegal") return t("illegal", reason || "");
  if (table[code]) return table[code].replace("{0}", reason || "");
  return reason || code || "?";
}

// ------------------------------------------------------------------ house rules

// Each game's description and rules come with the game (util.js gameInfo, tute.games).

// The engine's options: their labels and lines come with their specs (tute.i18n.option_words);
// their groups and the words of their choices with the catalogue.
export function optionLabel(spec) {
  const [label, line] = spec.words?.[lang] || spec.words?.en || [spec.name, spec.doc];
  return { label, line };
}
export function optionGroup(name) { return CATALOGUES[lang]?.option_groups?.[name] || "other"; }
export function choiceLabel(v) {
  if (v === null) return t("none");
  if (v === true) return t("yes");
  if (v === false) return t("no");
  return CATALOGUES[lang]?.choices?.[String(v)] ?? String(v).replace(/_/g, " ");
}

loadCatalogue(lang);

// The refusal in words (as tute.i18n.refusal_text), else the server's English reason.
export function refusalText(refusal, reason, you) {
  const cat = CATALOGUES[lang];
  const tpl = cat && refusal && cat.refusals[refusal.code];
  if (!tpl) return reason;
  const p = { ...refusal.params };
  // cards in words with their article ("supera el tres de copas"), never in notation
  const words = cat.refusal_words || {};
  const cardParam = typeof p.card === "string" && CARD.test(p.card);
  for (const k of ["card", "target"]) {
    if (typeof p[k] === "string" && CARD.test(p[k])) p[k] = cardThe(p[k]);
  }
  if (typeof p.missing === "string") p.missing = p.missing.split(" ").filter((c) => CARD.test(c)).map(cardName).join(", ");
  const tplOf = (code) => (cardParam && words[code]) || cat.refusals[code];
  const mine = you !== null && you !== undefined && p.seat === you && tplOf(refusal.code + ".you");
  for (const k of cat.suit_params) if (k in p) p[k] = cat.suits[p[k]];
  if ("poll" in p) p.poll = cat.refusals["poll." + p.poll];
  return (mine || tplOf(refusal.code)).replace(/\{(\w+)\}/g, (_, k) => String(p[k] ?? ""));
}
const CARD = /^[A2-7SCR][oceb]$/;

// A declaration by its notation (veinte:o; veinte: a 20 whose suit is not told), as
// tute.i18n.declaration_text words it.
export function declText(notation) {
  const cat = CATALOGUES[lang];
  if (!cat) return notation;
  const [kind, suit] = notation.split(":");
  if (kind === "veinte") return suit ? cat.decls.veinte.replace("{suit}", cat.suit_names[suit]) : cat.decls.veinte_hidden;
  return cat.decls[kind] ?? notation;
}

// An engine event in words, from what the server's tute.narration.describe made of it (the
// event's `say`: {code, params}), worded as tute.i18n.event_text words it: `you`, the reader's
// seat, takes the ".you" form; seats by seatName, cards by their names.
export function sayText(say, seatName, you, sideName = seatName) {
  const cat = CATALOGUES[lang];
  if (!cat || !say) return null;
  const p = { ...say.params };
  const mine = you !== null && you !== undefined && p.who === you && cat.events[say.code + ".you"];
  const tpl = mine || cat.events[say.code];
  if (!tpl) return null;
  for (const k of ["who", "other"]) if (k in p) p[k] = p[k] === null ? "" : seatName(p[k]);
  // a deal's ending (tute.narration.describe_result): sides, lists of sides, amounts by side
  if ("side" in p) p.side = sideName(p.side);
  if ("sides" in p) p.sides = p.sides.map(sideName).join(", ");
  if ("payments" in p) p.payments = p.payments.map(([sd, n]) => `${sideName(sd)} ${n}`).join(" · ");
  for (const k of ["card", "given", "taken"]) if (k in p) p[k] = cardName(p[k]);
  if ("suit" in p) p.suit = cat.suit_names[p.suit];
  if ("what" in p) p.what = declText(p.what);
  return tpl.replace(/\{(\w+)\}/g, (_, k) => String(p[k] ?? ""));
}
