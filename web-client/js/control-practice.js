// The controller's practice count (practice.js): after each new board at a table where it
// applies, and while the player's preference is on, it asks the server how many matches the
// board holds (`countMatches`); only the answer (`matchCount`) to the newest question counts,
// and a refusal (as `hint`'s: notAtTable, spectator, noHints, hintsAlone, gameOver,
// dailyNoHints) hides the count without a word. Every question stays registered until its answer
// comes, so that an older one's answer or refusal is recognised and let go silently. Functions of
// the controller (controller.js), which passes itself as `c`; the view is told with
// `renderPractice`.

import * as messages from './messages.js';
import { boardKey, initialPractice, practiceApplies } from './practice.js';

/** The preference's event: {type: 'practice', on}. */
export const PRACTICE_HANDLERS = {
  practice(c, event, fx) {
    c.practice = initialPractice(event.on === true);
    fx.push({ type: 'renderPractice' });
    practiceAfterTable(c, fx, event);
  },
};

/** What the practice count does with the news: a table gone (or left for the lobby) takes its
 * count along (answers
 * still on their way are let go); after a dropped connection no answer will come, and the next
 * board is asked about again. */
export const PRACTICE_NEWS = {
  tableGone(c) {
    c.practice = initialPractice(c.practice.on);
  },
  lobby(c) {
    c.practice = initialPractice(c.practice.on);
  },
  connectionLost(c) {
    c.practice.asked = null;
    c.requests.drop('countMatches');
  },
};

/** After a snapshot or a diff: a new board where the count applies is asked about, once. */
export function practiceAfterTable(c, fx, ctx) {
  const practice = c.practice;
  if (!practice.on || !practiceApplies(c.state)) {
    if (practice.answer !== null || practice.asked !== null) {
      c.practice = initialPractice(practice.on);
      fx.push({ type: 'renderPractice' });
    }
    return;
  }
  const key = boardKey(c.state.table);
  if (key === practice.asked) return;
  const id = c.nextId();
  if (!c.send(fx, ctx, messages.countMatches(id), { quiet: true })) return;
  c.requests.add(id, 'countMatches', { key });
  practice.asked = key;
}

/** `matchCount`: the count of the board last asked about, shown (an older question's is let go). */
export function matchCountAnswered(c, fx, message) {
  const request = c.requests.takeIf(message.replyTo, 'countMatches');
  if (request === null || request.key !== c.practice.asked) return;
  if (!Number.isInteger(message.count) || message.count < 0) return;
  c.practice.answer = { key: request.key, count: message.count };
  fx.push({ type: 'renderPractice' });
}

/** A refused `countMatches` (`request`, already taken): the count hides, without a word; that
 * board is not asked about again. */
export function countRefused(c, fx, request) {
  if (request.key !== c.practice.asked || c.practice.answer === null) return;
  c.practice.answer = null;
  fx.push({ type: 'renderPractice' });
}
