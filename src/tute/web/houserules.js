// A table's house rules in words: the options it was made with that differ from its game's
// defaults (the table info's `options`, as the server stores them), each worded from the
// catalogue: its label comes with its spec (GET /api/variants), its value from the choices of
// GET /api/messages. Whoever opens a table reads them before sitting, and at the table.
import { t, optionLabel, choiceLabel } from "./i18n.js";
import { esc, variantOf } from "./util.js";

export function matchText(m) {
  if (!m) return "";
  if (m.mode === "race") return t(m.games === 1 ? "raceTo1" : "raceTo", m.games);
  return t(m.deals === 1 ? "seriesOf1" : "seriesOf", m.deals);
}

function valueText(spec, value) {
  if (spec.kind === "match") return matchText(value);
  if (value === null || value === undefined) return t("none");
  if (typeof value === "number") return String(value);
  return choiceLabel(value);
}

// [label, value in words, the option's line] for each house rule of the table, in the order
// of the game's options.
export function houseRuleItems(variantId, options) {
  const v = variantOf(variantId);
  if (!v || !options) return [];
  return v.option_specs.filter((s) => s.name in options).map((s) => {
    const { label, line } = optionLabel(s);
    return [label, valueText(s, options[s.name]), line];
  });
}

// The table's rules as a block: "Reglas de esta mesa" and one line per house rule, or that
// it plays the game's usual rules.
export function houseRulesHTML(info) {
  const items = houseRuleItems(info.variant, info.options);
  const list = items.length
    ? `<ul>${items.map(([label, value, line]) => `<li title="${esc(line)}">${esc(label)}: <b>${esc(value)}</b></li>`).join("")}</ul>`
    : ` <span>${esc(t("tableRulesNone"))}</span>`;
  return `<div class="house-terms" id="house-terms"><b>${esc(t("tableRules"))}</b>${list}</div>`;
}

// The same in one line, for a list of tables.
export function houseRulesLine(info) {
  const items = houseRuleItems(info.variant, info.options);
  return items.length ? items.map(([label, value]) => `${label}: ${value}`).join(" · ") : t("tableRulesNone");
}
