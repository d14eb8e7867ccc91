// DOM: the table's scoreboard (table-model.js scoreboardModel: names with their ratings, scores),
// updated in place by seat so rows keep their elements, and the replay's simpler one.

import { replayScoreboard, scoreboardModel } from './table-model.js';
import { part } from './dom.js';
import { fillRating } from './ratings-view.js';
import { botBadge } from './bots.js';

/** Draw `table`'s scoreboard into `list` (#scoreboard). */
export function renderScoreboard(list, table) {
  const model = scoreboardModel(table);
  const rows = new Map([...list.querySelectorAll('li[data-seat]')].map((li) => [li.dataset.seat, li]));
  const wanted = [];
  for (const row of model.rows) {
    const key = String(row.seat);
    const li = rows.get(key) ?? newSeatRow(key);
    rows.delete(key);
    li.querySelector('.swatch').setAttribute('aria-hidden', 'true');
    li.querySelector('.name').textContent = row.name;
    fillRating(li.querySelector('.rating'), li.querySelector('.rating-label'), row.rating);
    li.querySelector('.score').textContent = row.score;
    li.querySelector('.sets').textContent = row.detail;
    li.querySelector('.host-badge').hidden = !row.host;
    li.querySelector('.you-badge').hidden = !row.you;
    const bot = li.querySelector('.bot-badge');
    bot.hidden = row.bot === null;
    if (row.bot !== null) {
      const badge = botBadge(row.bot);
      bot.textContent = badge.text;
      bot.title = badge.label;
      bot.setAttribute('aria-label', badge.label);
    }
    li.classList.toggle('bot', row.bot !== null);
    li.classList.toggle('you', row.you);
    li.classList.toggle('host', row.host);
    li.classList.toggle('away', row.away);
    li.classList.toggle('turn', row.turn);
    li.dataset.connected = String(row.connected);
    wanted.push(li);
  }
  for (const li of rows.values()) li.remove();
  let openRow = list.querySelector('li.open-seats');
  if (model.openSeats !== '') {
    if (openRow === null) openRow = part('open-seats', '', 'li');
    openRow.textContent = model.openSeats;
    wanted.push(openRow);
  }
  wanted.forEach((li, i) => {
    if (list.children[i] !== li) list.insertBefore(li, list.children[i] ?? null);
  });
  while (list.children.length > wanted.length) list.lastElementChild.remove();
  list.hidden = model.hidden;
}

/** Each seat's "reconnecting… 27s" (table-model.js clockModel's `away`), in its row. */
export function renderAway(list, away) {
  for (const [seat, text] of away) {
    const span = list.querySelector(`li[data-seat="${seat}"]`)?.querySelector('.away');
    if (span) span.textContent = text;
  }
}

function newSeatRow(key) {
  const li = document.createElement('li');
  li.dataset.seat = key;
  li.className = 'seat';
  li.append(
    part('swatch', ''),
    part('name', ''),
    part('rating', ''),
    part('visually-hidden rating-label', ''),
    part('badge host-badge', 'host'),
    part('badge you-badge', 'you'),
    part('badge bot-badge', 'computer'),
    part('away', ''),
    part('score', ''),
    part('sets', ''),
  );
  return li;
}

/** The replay's scoreboard (table-model.js replayScoreboard), drawn anew at each step. */
export function renderReplayScoreboard(list, table) {
  list.replaceChildren(
    ...replayScoreboard(table).map((row) => {
      const li = part('seat', '', 'li');
      li.dataset.seat = String(row.seat);
      li.classList.toggle('turn', row.turn);
      const swatch = part('swatch', '');
      swatch.setAttribute('aria-hidden', 'true');
      li.append(swatch, part('name', row.name), part('score', row.score), part('sets', row.detail));
      return li;
    }),
  );
}
