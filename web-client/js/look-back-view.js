// DOM: the look back at a finished game (look-back.js lookBackView), in the game-over box and
// under a replay: each player's sets and times, the sets passed over (those that stood longest
// with their cards), every set in order with its cards. Text only (textContent), as everything
// the server sends; cards drawn small as pictures with their names in words (card-element.js).

import { part } from './dom.js';
import { createCardPicture } from './card-element.js';
import { readPalette } from './card-view.js';

/** A match's cards, small, in a row (nothing when the page cannot draw them). */
function cardsOf(cards, palette) {
  const row = document.createElement('span');
  row.className = 'look-back-cards';
  row.append(...cards.map((card) => createCardPicture(card, palette)));
  return row;
}

/** What each body shows, as drawn (to skip drawing it again). */
const drawn = new WeakMap();

/** Draws `view` (or hides `details` when it is null) in `details`, a <details> whose body is
 * `body`. */
export function renderLookBack(details, body, view, { matchesHeading = 'Sets', palette = readPalette() } = {}) {
  details.hidden = view === null;
  if (view === null) {
    body.replaceChildren();
    drawn.delete(body);
    return;
  }
  // Drawn again only when it changed: a table is drawn on every message, and the list's cards
  // (and where the reader scrolled it to) should stay.
  const key = JSON.stringify([view, matchesHeading, palette]);
  if (drawn.get(body) === key) return;
  drawn.set(body, key);
  const table = document.createElement('table');
  table.className = 'look-back-players';
  const head = document.createElement('tr');
  for (const text of ['Player', matchesHeading, 'Fastest', 'Mean']) head.append(part('', text, 'th'));
  head.querySelectorAll('th').forEach((th) => th.setAttribute('scope', 'col'));
  const thead = document.createElement('thead');
  thead.append(head);
  const tbody = document.createElement('tbody');
  for (const p of view.players) {
    const tr = document.createElement('tr');
    tr.dataset.seat = String(p.seat);
    tr.classList.toggle('you', p.you);
    tr.append(part('name', p.name, 'td'), part('found', p.found, 'td'), part('fastest', p.fastest, 'td'), part('mean', p.mean, 'td'));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  const found = document.createElement('ol');
  found.className = 'look-back-found';
  for (const f of view.found) {
    const li = document.createElement('li');
    li.classList.toggle('you', f.you);
    const words = part('look-back-row', '');
    words.append(part('at', f.at), ' ', part('name', f.name), ' ', part('seconds', f.seconds));
    li.append(words);
    if (f.cards.length > 0) li.append(cardsOf(f.cards, palette));
    found.append(li);
  }
  const children = [];
  if (view.daily.length > 0) {
    const daily = document.createElement('div');
    daily.className = 'look-back-daily';
    daily.append(...view.daily.map((line) => part('', line, 'p')));
    children.push(daily);
  }
  children.push(part('look-back-note', view.note, 'p'), table);
  if (view.missedText !== '') children.push(part('look-back-missed', view.missedText, 'p'));
  if (view.missed.length > 0) {
    const missed = document.createElement('ol');
    missed.className = 'look-back-missed-list';
    missed.setAttribute('aria-label', view.missedTitle);
    for (const m of view.missed) {
      const li = document.createElement('li');
      li.append(part('seconds', m.seconds), ' ', part('at', m.from));
      if (m.cards.length > 0) li.append(cardsOf(m.cards, palette));
      missed.append(li);
    }
    children.push(part('look-back-missed-title', view.missedTitle, 'p'), missed);
    if (view.missedRest !== '') children.push(part('look-back-missed-rest', view.missedRest, 'p'));
  }
  children.push(found);
  body.replaceChildren(...children);
}
