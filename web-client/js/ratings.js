// Ratings beside names (PROTOCOL.md, "Ratings"): the `rating` values of snapshots, lobby rows and
// high scores read and checked, how a rating is shown ("1532?" while provisional, with words for
// a title and for screen readers), the `seatRatings` message applied to the table, and what a
// game just played did to each seat's rating. Pure: no DOM (ratings-view.js draws), no socket.
//
// Rating = {rating (rounded), games (rated games counted, or null where the wire leaves it out:
//          the lobby's rows), provisional}
// ScoreRating = Rating plus `change` (what that game did), from `scores`.
// At a table (table-state.js), a player may carry `rating` (absent: none shown), and the table
// `ratingChanges` ({seat: change}): filled once a `seatRatings` after the game's end counts one
// more rated game for a seat, emptied by a re-deal.

/** A `rating` object (`{"rating":1532,"games":1,"provisional":true}`), or null when it is not
 * one. */
export function readRating(value) {
  if (!isObject(value) || !isFiniteNumber(value.rating)) return null;
  return {
    rating: Math.round(value.rating),
    games: Number.isInteger(value.games) && value.games >= 0 ? value.games : null,
    provisional: value.provisional === true,
  };
}

/** A lobby row's player: `rating` is the number and `provisional` beside it; null without one. */
export function readListedRating(player) {
  if (!isObject(player) || !isFiniteNumber(player.rating)) return null;
  return { rating: Math.round(player.rating), games: null, provisional: player.provisional === true };
}

/** A high-score player's `rating` (the rating after that game, with its `change`), or null. */
export function readScoreRating(value) {
  const rating = readRating(value);
  if (rating === null) return null;
  return { ...rating, change: Number.isInteger(value.change) ? value.change : null };
}

/** "1 rated game", "no rated games yet", "12 rated games". */
export function gamesText(games) {
  if (games === 0) return 'no rated games yet';
  return `${games} rated ${games === 1 ? 'game' : 'games'}`;
}

/** A rating as shown beside a name: "1532", or "1532?" while provisional; '' for none. */
export function ratingText(rating) {
  if (rating === null || rating === undefined) return '';
  return `${rating.rating}${rating.provisional ? '?' : ''}`;
}

/** What a rating's mark means, for its title: "provisional rating: 1 rated game", "rating: 14
 * rated games" ("provisional rating" when the games are not known). */
export function ratingTitle(rating) {
  if (rating === null || rating === undefined) return '';
  const what = rating.provisional ? 'provisional rating' : 'rating';
  return rating.games === null ? what : `${what}: ${gamesText(rating.games)}`;
}

/** A rating to show: {text: "1532?", title, label (the words a screen reader says: "provisional
 * rating 1532, 1 rated game")}, or null for none. */
export function shownRating(rating) {
  if (rating === null || rating === undefined) return null;
  const what = rating.provisional ? 'provisional rating' : 'rating';
  return {
    text: ratingText(rating),
    title: ratingTitle(rating),
    label: `${what} ${rating.rating}${rating.games === null ? '' : `, ${gamesText(rating.games)}`}`,
  };
}

/** A change as shown: "+32", "−32" (a real minus sign), "±0"; '' when unknown. */
export function changeText(change) {
  if (!Number.isInteger(change)) return '';
  if (change > 0) return `+${change}`;
  return change < 0 ? `−${-change}` : '±0';
}

/** 'up', 'down' or 'even' (how a change is coloured); '' when unknown. */
export function changeDirection(change) {
  if (!Number.isInteger(change)) return '';
  return change > 0 ? 'up' : change < 0 ? 'down' : 'even';
}

/** What the game just played did to a seat's rating: the new rounded rating less the one shown
 * before, once the new one counts more rated games (a `seatRatings` for another reason, or one
 * told twice, is no change: null). Without the games on either side, a different number is. */
export function ratingChange(before, after) {
  if (before === null || before === undefined || after === null || after === undefined) return null;
  if (before.games === null || after.games === null) return after.rating === before.rating ? null : after.rating - before.rating;
  return after.games > before.games ? after.rating - before.rating : null;
}

/**
 * `seatRatings` applied to the table state (table-state.js): every seated player's rating is the
 * one the message gives for their seat (none when it lists none), and once the game is over each
 * seat whose rating counts one more game keeps its change (ratingChanges). These are not versioned
 * diffs: applied to the table as it is, whatever its version. A message for another table (or no
 * table) leaves the state as it was: the same object.
 */
export function applySeatRatings(state, message) {
  const table = state?.table ?? null;
  if (table === null || !isObject(message) || message.table !== table.id || !Array.isArray(message.seats)) return state;
  const told = new Map();
  for (const entry of message.seats) {
    const rating = isObject(entry) && Number.isInteger(entry.seat) ? readRating(entry) : null;
    if (rating !== null) told.set(entry.seat, rating);
  }
  const ratingChanges = { ...(table.ratingChanges ?? {}) };
  const players = table.players.map((player) => {
    const { rating: before, ...rest } = player;
    const after = told.get(player.seat) ?? null;
    const change = table.over ? ratingChange(before ?? null, after) : null;
    if (change !== null) ratingChanges[player.seat] = change;
    return after === null ? rest : { ...rest, rating: after };
  });
  return { ...state, table: { ...table, players, ratingChanges } };
}

/** After a snapshot of the same finished game (a resync), the changes already shown stay: the
 * snapshot has the new ratings but not what they were before. Returns the state to keep. */
export function keepRatingChanges(before, after) {
  const old = before?.table ?? null;
  const now = after?.table ?? null;
  if (old === null || now === null || old.id !== now.id || !old.over || !now.over) return after;
  if (Object.keys(old.ratingChanges ?? {}).length === 0) return after;
  return { ...after, table: { ...now, ratingChanges: { ...old.ratingChanges } } };
}

/** What the game-over standings show beside each seat once its change is known: Map(seat →
 * {rating (shownRating of the new one, or null), change: "+32", direction}). Seats without a
 * change are left out. */
export function standingsRatings(table) {
  const shown = new Map();
  for (const [key, change] of Object.entries(table?.ratingChanges ?? {})) {
    const seat = Number(key);
    if (!Number.isInteger(change)) continue;
    const rating = table.players.find((p) => p.seat === seat)?.rating ?? null;
    shown.set(seat, { rating: shownRating(rating), change: changeText(change), direction: changeDirection(change) });
  }
  return shown;
}

/** A high-score player's rating as its row shows it: {text: "1532?", change: "+32", direction,
 * title: "rating after this game: 1532 (+32), provisional"}, or null. */
export function scoreRatingShown(rating) {
  if (rating === null || rating === undefined) return null;
  const change = changeText(rating.change);
  return {
    text: ratingText(rating),
    change,
    direction: changeDirection(rating.change),
    title: `rating after this game: ${rating.rating}${change === '' ? '' : ` (${change})`}${rating.provisional ? ', provisional' : ''}`,
  };
}

/** What a rated game did to its players' ratings, as a replay's line: "Rated: Ada 1532? (+32) ·
 * Bob 1468? (−32)", in the record's player order; '' for a game nobody was rated in. */
export function replayRatingsText(players) {
  const rated = (Array.isArray(players) ? players : [])
    .filter((p) => isObject(p) && typeof p.name === 'string')
    .map((p) => ({ name: p.name, rating: readScoreRating(p.rating) }))
    .filter((p) => p.rating !== null);
  if (rated.length === 0) return '';
  const shown = rated.map(({ name, rating }) => {
    const { text, change } = scoreRatingShown(rating);
    return `${name} ${text}${change === '' ? '' : ` (${change})`}`;
  });
  return `Rated: ${shown.join(' · ')}`;
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isFiniteNumber(value) {
  return typeof value === 'number' && Number.isFinite(value);
}
