// DOM: the look back at a finished game (look-back.js lookBackView), in the game-over box and
// under a replay: each player's sets and times, the sets passed over, every set in order. Text
// only (textContent), as everything the server sends.

import { part } from './dom.js';

/** Draws `view` (or hides `details` when it is null) in `details`, a <details> whose body is
 * `body`. */
export function renderLookBack(details, body, view, { matchesHeading = 'Sets' } = {}) {
  details.hidden = view === null;
  if (view === null) {
    body.replaceChildren();
    return;
  }
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
    li.append(part('at', f.at), ' ', part('name', f.name), ' ', part('seconds', f.seconds));
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
  children.push(found);
  body.replaceChildren(...children);
}
