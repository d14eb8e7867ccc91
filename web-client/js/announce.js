// What a screen reader is told of a change at the table (#announce, aria-live "polite"): the
// others' moves and the table's news, at most one announcement per diff, in words (each card by
// its name: status-runs.js spokenText). Nothing is said while the player is in the middle of
// choosing (their own picks show on the board, and a voice over them would interrupt), except
// the end of the game; their own single picks are not said, but what judged them (a match, a
// miss) is. Pure: the controller decides, the page writes the text.

import { spokenText } from './status-runs.js';

/** What to announce for `message` (a diff) at a table where the player sits at `you` (null:
 * watching) and, after it, is `choosing` (has cards chosen); null for nothing. */
export function announcement(message, you, choosing) {
  if (message === null || typeof message !== 'object' || !Array.isArray(message.status)) return null;
  const events = Array.isArray(message.events) ? message.events.filter((e) => e !== null && typeof e === 'object') : [];
  const text = spokenText(message.status).trim();
  if (text === '') return null;
  if (events.some((e) => e.kind === 'over')) return text;
  const mine = you !== null && message.seat === you;
  if (mine) {
    const judged = events.some((e) => (e.kind === 'match' || e.kind === 'mismatch') && e.seat === you);
    return judged ? text : null;
  }
  return choosing ? null : text;
}
