// The controller's ratings: `seatRatings` at the table (ratings.js applySeatRatings), the changes
// a resync of the same finished game keeps, and "Your rating" in the High scores tab: the
// `ratings` question for the game shown there, its answer and its refusal (rating-history.js).
// Only the newest `ratings` asked is waited on (requests.js). Functions of the controller
// (controller.js), which passes itself as `c`.

import * as messages from './messages.js';
import { applySeatRatings, keepRatingChanges } from './ratings.js';
import { readRatings } from './rating-history.js';

/** `seatRatings`: the ratings beside the seated players' names, for the table we are at (one for
 * another table is ignored). Not a versioned diff: applied to the table as it is. */
export function seatRatingsReceived(c, fx, message) {
  const next = applySeatRatings(c.state, message);
  if (next === c.state) return;
  c.state = next;
  fx.push({ type: 'render' });
}

/** After a snapshot: the rating changes shown at the end of the same game stay (`before`: the
 * state the snapshot replaced). */
export function ratingsAfterSnapshot(c, before) {
  c.state = keepRatingChanges(before, c.state);
}

/** Ask for the player's rating and history at the game the High scores tab shows. Offline, the
 * next welcome asks (news.js `lobby`: RATINGS_NEWS). */
export function requestRatings(c, fx, ctx) {
  const game = c.scores.query.game;
  const id = c.nextId();
  c.requests.replace(id, 'ratings', { game });
  c.myRating = { ...c.myRating, status: 'loading', error: null };
  c.send(fx, ctx, messages.ratings(id, game), { quiet: true });
  fx.push({ type: 'renderScores' });
}

/** Ask again when the High scores tab is shown (a game just played may have changed them). */
export function refreshRatings(c, fx, ctx) {
  if (c.scores.open) requestRatings(c, fx, ctx);
}

/** Ask when the High scores tab shows another game than the rating shown (or on its way). */
export function ratingsForGame(c, fx, ctx) {
  if (!c.scores.open) return;
  const game = c.scores.query.game;
  const asked = c.requests.ofKind('ratings').at(-1)?.[1].game ?? null;
  if (asked === game) return;
  if (asked === null && c.myRating.status === 'ready' && c.myRating.answer?.game === game) return;
  requestRatings(c, fx, ctx);
}

/** `ratings`: the answer to the newest question (an older one's is ignored). */
export function ratingsAnswered(c, fx, message) {
  const asked = c.requests.takeIf(message.replyTo, 'ratings');
  if (asked === null) return;
  try {
    const answer = readRatings(message);
    c.myRating = { status: 'ready', answer: { ...answer, game: answer.game ?? asked.game }, error: null };
  } catch (error) {
    fx.push({ type: 'warn', text: 'Unreadable ratings', error });
    c.myRating = { ...c.myRating, status: 'error', error: 'Your rating could not be read.' };
  }
  fx.push({ type: 'renderScores' });
}

/** The newest `ratings` refused: said in the panel (the server's words). */
export function ratingsRefused(c, fx, message) {
  const text = typeof message.message === 'string' ? message.message : null;
  const unavailable = message.code === 'unavailable';
  c.myRating = {
    status: unavailable ? 'unavailable' : 'error',
    answer: null,
    error: unavailable ? (text ?? 'This server keeps no ratings.') : (text ?? 'The server refused this.'),
  };
  fx.push({ type: 'renderScores' });
}

/** What "Your rating" does with the news: in the lobby, asked again (a game just played may have
 * changed it). */
export const RATINGS_NEWS = {
  lobby(c, fx, ctx, how) {
    if (how !== 'subscribe') refreshRatings(c, fx, ctx);
  },
};
