// Table settings (PROTOCOL.md, `createTable` / `playSolo`): what the lobby's small form offers per
// game, the message fields it turns into, and the line that shows a table's settings at the
// table — all read from the game's description in `welcome` (games.js): each setting's choices,
// their words, its defaults alone and with others. Pure: lobby-view.js reads the form's values and
// passes them in (lobby-form.js keeps the ones the player changed).

import { gameInfo } from './games.js';

/** Whether a form shows `setting` at a table of `seats` seats: it offers two values or more to
 * choose from, needs no other setting (the custom constants), and is not for others only alone. */
function inForm(setting, seats) {
  if (setting.requires !== null && Object.keys(setting.requires).length > 0) return false;
  if (setting.withOthersOnly && seats <= 1) return false;
  return setting.choices.filter((c) => c.form).length >= 2;
}

/** The fields of the game's form: name → {label, options: [[value, text]], default}, in the
 * description's order. `seats` chooses the default where the server's differs alone and with
 * others, and whether there are others to show picks to or pass turns to. */
export function settingsForm(game, seats = 1) {
  const form = {};
  for (const setting of gameInfo(game).settings) {
    if (!inForm(setting, seats)) continue;
    form[setting.name] = {
      label: setting.label,
      options: setting.choices.filter((c) => c.form).map((c) => [c.value, c.text]),
      default: seats > 1 ? setting.defaultWithOthers : setting.default,
    };
  }
  return form;
}

/** The top-level message fields for `game` from the form's values (strings as a form gives
 * them). Values the form does not offer are left out, so the server's defaults apply. */
export function settingsFields(game, values = {}, seats = 1) {
  const form = settingsForm(game, seats);
  const fields = {};
  for (const [name, field] of Object.entries(form)) {
    const raw = values[name];
    if (raw === undefined || raw === null || raw === '') continue;
    const option = field.options.find(([value]) => String(value) === String(raw));
    if (option !== undefined) fields[name] = option[0];
  }
  return fields;
}

/** A table's settings in a few words, from the snapshot's `settings` and `turnSeconds`, each
 * setting of the game in its order as the server words it (a value that goes without saying is
 * left out): "Classic scoring · 15 cards", "2-card matches · 24 cards", "8 pairs · Animals ·
 * 30 s turns". A setting the snapshot does not show has its default; the turn clock is the
 * table's own (null: no limit). */
export function settingsText(game, settings, turnSeconds = null) {
  const values = { ...(settings ?? {}), turnSeconds: Number.isInteger(turnSeconds) ? turnSeconds : 0 };
  const parts = [];
  for (const setting of gameInfo(game).settings) {
    if (setting.requires !== null && Object.keys(setting.requires).length > 0) continue;
    const words = valueText(setting, values[setting.name] ?? setting.default);
    if (words !== '') parts.push(words);
  }
  // What a choice costs, where it costs anything: the points shown then add up (issue 34).
  if (Number.isInteger(values.costToChoose) && values.costToChoose > 0) {
    parts.push(`a choice costs ${values.costToChoose}`);
  }
  return parts.join(' · ');
}

/** `value` of `setting` in a summary's words ('' when it goes without saying): its choice's, or
 * for a number of the setting's range that is no choice, the number and the unit. */
export function valueText(setting, value) {
  const choice = setting.choices.find((c) => c.value === value);
  if (choice !== undefined) return choice.summary;
  if (Number.isInteger(value) && setting.unit !== null) return `${value} ${setting.unit}`;
  return '';
}

/** The words of `game`'s setting `name` at `value` ('' when it has none): a high-score list's
 * cards or match size. */
export function settingWords(game, name, value) {
  const setting = gameInfo(game).settings.find((s) => s.name === name);
  return setting === undefined ? '' : valueText(setting, value);
}
