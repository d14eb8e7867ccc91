// High-score lists (PROTOCOL.md, `scores`): only games whose scores compare are ranked together,
// so each finished game is in one list, named by an id (`solo.course`, `multiplayer.custom.16x2`):
// who played, the scoring, and the cards and match size where the board is the whole game. Pure:
// the ids read, named for people in the words of the game's settings (welcome's description),
// and offered as a choice.

import { SCORE_LIST } from './messages.js';
import { gameInfo } from './games.js';
import { settingWords } from './table-settings.js';

/** Who played, as a list's name says it. */
const KIND_WORDS = Object.freeze({ solo: 'Solo', daily: 'Daily puzzle', multiplayer: 'Multiplayer', computer: 'Against the computer' });

/** A list from its id ('solo.course.24x2'), or null. */
export function listOf(id) {
  const found = typeof id === 'string' ? SCORE_LIST.exec(id) : null;
  if (found === null) return null;
  const [cards, matchSize] = found[3] === undefined ? [null, null] : found[3].slice(1).split('x').map(Number);
  return { id, kind: found[1], scoring: found[2], cards, matchSize, total: null };
}

/** The words of `game`'s setting `name` at `value` as a list names them: the server's summary
 * ('' when it goes without saying, e.g. the scoring a game has alone), or `fallback` for a
 * setting the game does not describe. */
function listWords(game, name, value, fallback) {
  if (!gameInfo(game).settings.some((s) => s.name === name)) return fallback;
  const words = settingWords(game, name, value);
  return words.charAt(0).toLowerCase() + words.slice(1);
}

/** A list in words: "Solo · classic scoring", "Multiplayer · 8 pairs", "Solo · 24 cards,
 * 3-card matches" — each part as the game's description words it. */
export function listText(list, game) {
  const parts = [KIND_WORDS[list.kind] ?? 'Multiplayer'];
  if (list.cards !== null) {
    const board = listWords(game, 'boardSize', list.cards, `${list.cards} cards`) || `${list.cards} cards`;
    const size = listWords(game, 'matchSize', list.matchSize, `${list.matchSize}-card matches`);
    parts.push(size === '' ? board : `${board}, ${size}`);
  }
  const scoring = listWords(game, 'scoring', list.scoring, `${list.scoring} scoring`);
  if (scoring !== '') parts.push(scoring);
  return parts.join(' · ');
}

/** The choice of lists: every list the answer counts, in its order, and the one asked for even
 * when it holds no games; [] before any game of the game is finished. */
export function listChoices(query, answer) {
  const lists = answer?.lists ?? [];
  const current = query.list ?? answer?.list ?? null;
  const all = current !== null && !lists.some((l) => l.id === current) && listOf(current) !== null
    ? [...lists, { ...listOf(current), total: 0 }]
    : lists;
  if (all.length === 0) return [];
  return all.map((list) => ({
    id: list.id,
    text: `${listText(list, query.game)} (${list.total} ${list.total === 1 ? 'game' : 'games'})`,
    selected: list.id === current,
  }));
}
