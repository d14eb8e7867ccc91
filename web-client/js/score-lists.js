// High-score lists (PROTOCOL.md, `scores`): only games whose scores compare are ranked together,
// so each finished game is in one list, named by an id (`solo.course`, `multiplayer.custom.16x2`):
// who played, the scoring, and the cards and match size where the board is the whole game. Pure:
// the ids read, named for people, and offered as a choice.

import { SCORE_LIST } from './messages.js';

/** The scoring each game has alone (its list's name leaves it out); Set's lists name theirs. */
const ONLY_SCORING = Object.freeze({ matchismo: 'course', concentration: 'custom' });
const SCORING_TEXT = Object.freeze({ classic: 'classic scoring', course: 'course scoring', custom: 'custom scoring' });

/** A list from its id ('solo.course.24x2'), or null. */
export function listOf(id) {
  const found = typeof id === 'string' ? SCORE_LIST.exec(id) : null;
  if (found === null) return null;
  const [cards, matchSize] = found[3] === undefined ? [null, null] : found[3].slice(1).split('x').map(Number);
  return { id, kind: found[1], scoring: found[2], cards, matchSize, total: null };
}

/** A list in words: "Solo · classic scoring", "Multiplayer · 8 pairs", "Solo · 24 cards,
 * 3-card matches". */
export function listText(list, game) {
  const parts = [list.kind === 'solo' ? 'Solo' : 'Multiplayer'];
  if (list.cards !== null && game === 'concentration' && list.matchSize === 2) parts.push(`${list.cards / 2} pairs`);
  else if (list.cards !== null) parts.push(`${list.cards} cards, ${list.matchSize}-card matches`);
  if (ONLY_SCORING[game] !== list.scoring) parts.push(SCORING_TEXT[list.scoring]);
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
