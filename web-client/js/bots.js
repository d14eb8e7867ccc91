// Computer players (PROTOCOL.md, `playBot`): the levels the lobby offers and the words for each,
// and how a seat taken by a computer is named in the scoreboard. The server decides how a level
// plays; these are its published figures (a median time to take a match once one shows, and how
// often a claim is wrong), for the player choosing one.

import { BOT_LEVELS } from './messages.js';

/** Each level's published figures, slowest first: at a face-up board, the median time to take
 * a match once one shows and how often a claim is wrong; at a face-down board, the median time
 * to turn a card and how soon faces seen are forgotten. */
const FIGURES = Object.freeze({
  beginner: Object.freeze({ seconds: 20, wrong: 'one claim in 5 wrong', flip: 2, memory: 'forgets faces soon' }),
  casual: Object.freeze({ seconds: 10, wrong: 'one claim in 10 wrong', flip: 1.4, memory: 'forgets some faces' }),
  good: Object.freeze({ seconds: 5, wrong: 'one claim in 25 wrong', flip: 0.9, memory: 'forgets few faces' }),
  expert: Object.freeze({ seconds: 2.5, wrong: 'never wrong', flip: 0.6, memory: 'forgets nothing' }),
});

/** The level the lobby offers first. */
export const DEFAULT_LEVEL = 'casual';

/** The choices of level for a game (games.js gameInfo: its match's words, whether it is dealt
 * face down): [value, text]. */
export function levelChoices(info) {
  return BOT_LEVELS.map((level) => {
    const { seconds, wrong, flip, memory } = FIGURES[level];
    const text = info.faceDown ? `turns a card in about ${flip} s, ${memory}` : `${info.a} in about ${seconds} s, ${wrong}`;
    return [level, `${capitalized(level)}: ${text}`];
  });
}

/** A level the lobby may send: `level` if it is one, else the default. */
export function pickedLevel(level) {
  return BOT_LEVELS.includes(level) ? level : DEFAULT_LEVEL;
}

/** How many computers: 1–3 from a select's value (1 otherwise). */
export function botCount(value) {
  const n = Number.parseInt(value, 10);
  return n >= 1 && n <= 3 ? n : 1;
}

/** A player's computer level from the wire (`"bot":{"level":"casual"}`), or null for a person. */
export function botLevel(bot) {
  if (bot === null || typeof bot !== 'object') return null;
  return typeof bot.level === 'string' && bot.level !== '' ? bot.level : 'computer';
}

/** The scoreboard's badge for a computer's seat: its words, and what a screen reader hears. */
export function botBadge(level) {
  return { text: 'computer', label: `computer player, ${level}` };
}

function capitalized(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
