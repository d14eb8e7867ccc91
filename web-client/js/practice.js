// Practice (issue 34): how many matches are on the board now — "3 sets on the board" near the
// deck count — for a player who wants to know whether to look harder or wait for more cards.
// The count is the server's (`countMatches`, answered by `matchCount`: the game's own rule
// counts), asked once per new board at a table where a hint may be asked (alone, at a game whose
// description offers hints; not at a daily puzzle, which has none), and only while the player's
// preference says so. Refused exactly as `hint` is; a refusal hides it. Pure: control-practice.js
// asks and keeps the answers, practice-view.js shows them and the preference.
//
// The preference: localStorage["matchismo.practice"] "on" | "off" (default).
// State (the controller's `practice`): {on, asked (the board key last asked for, or null),
// answer ({key, count} of the newest answer, or null)}.

import { isSpectator } from './table-state.js';
import { gameInfo } from './games.js';

export const PRACTICE_KEY = 'matchismo.practice';

/** The preference as stored (off when absent, unknown, or when storage throws). */
export function loadPractice(storage) {
  try {
    return storage?.getItem(PRACTICE_KEY) === 'on';
  } catch {
    return false;
  }
}

/** Remember the preference (where the storage takes it). */
export function savePractice(storage, on) {
  try {
    storage?.setItem(PRACTICE_KEY, on ? 'on' : 'off');
  } catch {
    // Not remembered, still applied.
  }
}

/** The controller's practice state before any count. */
export function initialPractice(on = false) {
  return { on: on === true, asked: null, answer: null };
}

/** Whether the board of `state` (table-state.js) is one to count: a player alone at a game with
 * hints, in play. */
export function practiceApplies(state) {
  const table = state.table;
  if (table === null || isSpectator(state) || table.seats !== 1) return false;
  if (table.over || table.phase !== 'playing' || table.daily !== null && table.daily !== undefined) return false;
  return gameInfo(table.game).hints;
}

/** What makes a board new: the table, and its cards (the chain's first) in order. */
export function boardKey(table) {
  return `${table.id}:${[...(table.chain ?? []), ...table.board].map((card) => card.id).join(',')}`;
}

/** "3 sets on the board", "1 UltraSet on the board" (the game's words). */
export function countText(game, count) {
  const [one, many] = gameInfo(game).match;
  return `${count} ${count === 1 ? one : many} on the board`;
}

/** The preference's label, in the words of `game` (the table's, or the lobby's pick). */
export function practiceLabel(game) {
  return `Practice: show how many ${gameInfo(game).match[1]} are on the board`;
}

/** What shows of the count: {hidden, text, stale}. `stale`: the board changed since the answer
 * shown (a newer one is on its way). */
export function practiceShown(practice, state) {
  if (!practice.on || practice.answer === null || !practiceApplies(state)) return { hidden: true, text: '', stale: false };
  const table = state.table;
  // Another table's count is none of this one's.
  if (!practice.answer.key.startsWith(`${table.id}:`)) return { hidden: true, text: '', stale: false };
  return {
    hidden: false,
    text: countText(table.game, practice.answer.count),
    stale: practice.answer.key !== boardKey(table),
  };
}
