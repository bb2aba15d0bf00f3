// The lobby's forms, as HTML: the games, levels and lengths offered, one control per house
// rule, the table's size by its options, and a finished game's result.
import { t, getLang, optionLabel, optionGroup, choiceLabel } from "../i18n.js";
import { esc, variantsNow, variantOf } from "../util.js";
import { goalText } from "../sheet.js";
import { matchText } from "../houserules.js";

export const LEVELS = ["facil", "medio", "dificil", "maestro"];
const GROUPS = ["match", "play", "cantes", "exchange", "auction", "deal", "other"];

export function variantOptions(selected) {
  return variantsNow().map((v) => `<option value="${v.id}" ${v.id === selected ? "selected" : ""}>
    ${esc(getLang() === "es" ? v.name : v.english)}</option>`).join("");
}

export function levelOptions(selected) {
  return LEVELS.map((l) => `<option value="${l}" ${l === selected ? "selected" : ""}>${t(l)}</option>`).join("");
}

// How long the match lasts: the lengths the server offers for the game (each the option
// changes that make it and the goal it gives), worded from the goal.
export function lengthChoices(variantId) {
  const v = variantOf(variantId);
  if (!v || !v.lengths?.length) return [[{}, "—"]];
  return v.lengths.map((l) => [l.options, goalText(l.goal)]);
}
export function lengthKeys(variantId) {
  return new Set(lengthChoices(variantId).flatMap(([o]) => Object.keys(o)));
}

export const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// One control per house rule, with its default and a line of explanation.
export function optionControl(spec, value) {
  const { label, line } = optionLabel(spec);
  const id = `opt-${spec.name}`;
  const dflt = spec.kind === "match" ? matchText(spec.default) : choiceLabel(spec.default);
  let control;
  if (spec.kind === "bool") {
    control = `<input type="checkbox" id="${id}" data-opt="${spec.name}" ${value ? "checked" : ""}>`;
  } else if (spec.kind === "choice") {
    control = `<select id="${id}" data-opt="${spec.name}">${spec.choices.map((c) =>
      `<option value='${esc(JSON.stringify(c))}' ${same(c, value) ? "selected" : ""}>${esc(choiceLabel(c))}</option>`).join("")}</select>`;
  } else if (spec.kind === "int" || spec.kind === "int_or_null") {
    control = `<input type="number" id="${id}" data-opt="${spec.name}" min="${spec.min}" max="${spec.max}" value="${value ?? ""}"
      ${spec.kind === "int" ? "required" : `placeholder="${esc(t("none"))}"`} inputmode="numeric">`;
  } else if (spec.kind === "match") {
    const mode = value?.mode || "series";
    const n = value?.deals ?? value?.games ?? 6;
    control = `<span class="match-ctl"><select id="${id}" data-opt="match" data-part="mode">
      <option value="series" ${mode === "series" ? "selected" : ""}>${esc(choiceLabel("series"))}</option>
      <option value="race" ${mode === "race" ? "selected" : ""}>${esc(choiceLabel("race"))}</option></select>
      <input type="number" data-opt="match" data-part="n" min="1" max="50" value="${n}" aria-label="N" inputmode="numeric"></span>`;
  } else {
    return "";
  }
  return `<div class="opt ${spec.kind === "bool" ? "opt-bool" : ""}"><label for="${id}">${esc(label)}</label>${control}
    <small>${esc(line)} · ${t("defaultsNote", esc(dflt))}</small></div>`;
}

export function houseRules(v, opts, open) {
  if (!v) return "";
  const specs = v.option_specs.filter((s) => s.kind !== "choice" || s.choices.length > 1);
  const groups = GROUPS.map((g) => [g, specs.filter((s) => optionGroup(s.name) === g)]).filter(([, l]) => l.length);
  return `<details class="house-rules" id="house-rules" ${open ? "open" : ""}><summary>${t("houseRules")}</summary>
    ${groups.map(([g, list]) => `<fieldset><legend>${t("grp_" + g)}</legend>${list.map((s) =>
      optionControl(s, s.name in opts ? opts[s.name] : s.default)).join("")}</fieldset>`).join("")}
    <button type="button" class="ghost" id="reset-rules">${t("resetRules")}</button></details>`;
}

// The table's size as the server gives it: by the value of the option that sets it, if any.
export function seatCount(v, opts) {
  if (!v) return 4;
  const sc = v.seat_counts;
  if (!sc || !sc.option) return v.seats;
  const spec = v.option_specs.find((s) => s.name === sc.option);
  return sc.by_value[String(opts[sc.option] ?? spec?.default)] ?? v.seats;
}

export function resultText(g) {
  if (g.status === "abandoned") return `<span class="res">${t("abandoned")}</span>`;
  if (g.won === true) return `<span class="res win">${t("gameWon")}</span>`;
  if (g.won === false) return `<span class="res loss">${t("gameLost")}</span>`;
  return `<span class="res">${t("noWinner")}</span>`;
}
