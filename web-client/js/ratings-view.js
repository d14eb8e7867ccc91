// DOM: ratings beside names (ratings.js says what), and the High scores tab's "Your rating"
// panel (rating-history.js myRatingView). Text only (textContent), as everything the server
// sends.

import { part } from './dom.js';

/** A rating beside a name: the number seen ("1532?", its title says what the mark means) and
 * the words a screen reader says instead. [] for none. */
export function ratingParts(shown, className = 'rating') {
  if (shown === null || shown === undefined) return [];
  const seen = part(className, shown.text);
  seen.title = shown.title;
  seen.setAttribute('aria-hidden', 'true');
  return [seen, part('visually-hidden', ` (${shown.label})`)];
}

/** The same in two spans kept in place (a scoreboard row): filled, or emptied and hidden. */
export function fillRating(seen, said, shown) {
  seen.textContent = shown?.text ?? '';
  seen.title = shown?.title ?? '';
  seen.hidden = shown === null || shown === undefined;
  seen.setAttribute('aria-hidden', 'true');
  said.textContent = shown === null || shown === undefined ? '' : ` (${shown.label})`;
}

/** A rating's change ("+32", "−32"), coloured by its direction. */
export function changePart(text, direction, className = 'rating-change') {
  return part(`${className} ${direction}`.trim(), text);
}

/** A game-over standing's rating (ratings.js standingsRatings): "Rating 1532? +32". */
export function standingRating(rated) {
  const box = part('standing-rating', '');
  const word = part('rating-word', 'Rating');
  word.setAttribute('aria-hidden', 'true');
  box.append(word, ' ', ...ratingParts(rated.rating, 'rating'), ' ', changePart(rated.change, rated.direction));
  return box;
}

/** A high-score player's rating after that game and its change (ratings.js scoreRatingShown):
 * "(1532? +32)" after the score, its title in words. */
export function scoreRatingPart(shown) {
  const box = part('player-rating', '');
  const [open, close] = [part('rating-paren', '('), part('rating-paren', ')')];
  open.setAttribute('aria-hidden', 'true');
  close.setAttribute('aria-hidden', 'true');
  const seen = part('rating', shown.text);
  seen.title = shown.title;
  seen.setAttribute('aria-hidden', 'true');
  box.append(open, seen);
  if (shown.change !== '') {
    const change = changePart(shown.change, shown.direction);
    change.setAttribute('aria-hidden', 'true');
    box.append(' ', change);
  }
  box.append(close);
  box.append(part('visually-hidden', ` (${shown.title})`));
  return box;
}

/** "Your rating" (a <details> `el.root`): its summary line, the history (each game with a
 * Replay button, `data-record` on its row), what it says in place of rows, and which games
 * count. */
export function renderMyRating(el, view) {
  el.title.textContent = view.title;
  el.now.textContent = view.summary;
  el.now.hidden = view.summary === '';
  el.now.title = view.rating?.title ?? '';
  el.history.setAttribute('aria-busy', String(view.busy));
  el.history.replaceChildren(...view.rows.map(historyItem));
  el.history.hidden = view.rows.length === 0;
  el.empty.hidden = view.empty === null;
  el.empty.textContent = view.empty ?? '';
  el.note.textContent = view.note;
}

function historyItem(row) {
  const li = document.createElement('li');
  li.dataset.record = row.id;
  const when = document.createElement('time');
  when.className = 'when';
  if (row.ended !== null) {
    when.dateTime = row.ended.iso;
    when.title = row.ended.full;
    when.textContent = row.ended.date;
  }
  const replay = document.createElement('button');
  replay.type = 'button';
  replay.className = 'replay small';
  replay.textContent = 'Replay';
  replay.setAttribute('aria-label', row.replayLabel);
  // The rating and its change stay together on a narrow screen.
  const result = part('history-result', '');
  result.append(part('history-rating', row.rating), ' ', changePart(row.change, row.direction));
  li.append(when, ' ', part('rank', row.rank), ' ', result, ' ', replay);
  return li;
}
