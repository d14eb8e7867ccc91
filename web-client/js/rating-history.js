// "Your rating" in the High scores tab (PROTOCOL.md, `ratings`): the player's rating at the game
// picked and their latest rated games, the answer read and checked and what the panel shows, as
// data. Pure: ratings-view.js draws it, control-ratings.js asks.
//
// State = {status: idle | loading | ready | unavailable | error, answer, error}
// Answer (readRatings) = {game, rating: Rating (ratings.js), history: [Entry]}
//   Entry = {id (a finished game's, for `record`), endedAt, rank, rating: Rating, change}

import { changeDirection, changeText, gamesText, ratingText, readRating, shownRating } from './ratings.js';
import { formatEnded } from './scores.js';
import { ordinal } from './daily.js';
import { gameInfo } from './games.js';

/** Which games count, in one line. */
export const RATED_NOTE = 'Only public games of two or more players, played with other people, count: solo and private games do not.';

/** Before anything is asked. */
export function initialMyRating() {
  return { status: 'idle', answer: null, error: null };
}

/** A `ratings` answer, checked and copied, newest game first; throws TypeError when it cannot be
 * read. */
export function readRatings(message) {
  const rating = readRating(message);
  if (rating === null) throw new TypeError('ratings');
  const history = (Array.isArray(message.history) ? message.history : [])
    .filter((h) => h !== null && typeof h === 'object' && typeof h.id === 'string' && readRating(h) !== null)
    .map((h) => ({
      id: h.id,
      endedAt: typeof h.endedAt === 'string' ? h.endedAt : null,
      rank: Number.isInteger(h.rank) && h.rank > 0 ? h.rank : null,
      rating: readRating(h),
      change: Number.isInteger(h.change) ? h.change : null,
    }));
  // The server sends them newest first; a list that says otherwise is put in that order.
  history.sort((a, b) => (b.endedAt ?? '').localeCompare(a.endedAt ?? ''));
  return { game: typeof message.game === 'string' ? message.game : null, rating, history };
}

/**
 * What the panel shows for `game`: {title ("Your Set rating"), summary ("1532? · provisional, 1
 * rated game"), rating (shownRating), busy, rows: [{id, ended (scores.js formatEnded), rank
 * ("1st place"), rating, change ("+32"), direction, replayLabel}], empty (a text, or null), note}.
 * An answer for another game is not shown under this one.
 */
export function myRatingView({ status, answer, error }, game, { locale, timeZone } = {}) {
  const title = `Your ${gameInfo(game).title} rating`;
  const shown = answer !== null && answer.game === game ? answer : null;
  const failed = status === 'unavailable' || status === 'error';
  const rating = failed || shown === null ? null : shown.rating;
  const rows = failed || shown === null ? [] : shown.history.map((h) => historyRow(h, { locale, timeZone }));
  let empty = null;
  if (status === 'unavailable') empty = error ?? 'This server keeps no ratings.';
  else if (status === 'error') empty = error ?? 'Your rating could not be loaded.';
  else if (shown === null) empty = 'Loading your rating…';
  else if (rows.length === 0) empty = 'No rated games yet: play a quick match with other people.';
  return {
    title,
    summary: rating === null ? '' : summaryText(rating),
    rating: shownRating(rating),
    busy: status === 'loading',
    rows,
    empty,
    note: RATED_NOTE,
  };
}

/** "1532? · provisional, 1 rated game", "1610 · 14 rated games". */
export function summaryText(rating) {
  const games = rating.games === null ? '' : gamesText(rating.games);
  const words = [rating.provisional ? 'provisional' : '', games].filter((w) => w !== '').join(', ');
  return `${ratingText(rating)}${words === '' ? '' : ` · ${words}`}`;
}

function historyRow(entry, { locale, timeZone }) {
  const ended = formatEnded(entry.endedAt, { locale, timeZone });
  const rank = entry.rank === null ? '' : `${ordinal(entry.rank)} place`;
  const change = changeText(entry.change);
  return {
    id: entry.id,
    ended,
    rank,
    rating: shownRating(entry.rating)?.text ?? '',
    change,
    direction: changeDirection(entry.change),
    replayLabel:
      `Replay the game${ended === null ? '' : ` that ended ${ended.full}`}` +
      `${rank === '' ? '' : `, ${rank}`}${change === '' ? '' : `, rating ${change}`}`,
  };
}
