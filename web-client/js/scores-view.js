// DOM: the lobby's tabs (the Arenas tab's content is arenas-view.js's) and the high scores of the game picked (controller.scores, as
// scores.js scoresView says to show them): the sortable table, its rows (with each player's
// rating change), the pager, "Only my games", and "Your rating" (ratings-view.js). Clicks become
// controller events through `dispatch`.

import { scoresView } from './scores.js';
import { dailyView } from './daily.js';
import { byId, cell, part } from './dom.js';
import { renderMyRating, scoreRatingPart } from './ratings-view.js';
import { myRatingView } from './rating-history.js';
import { botBadge } from './bots.js';

export class ScoresView {
  constructor({ controller, dispatch }) {
    this.controller = controller;
    this.dispatch = dispatch;
    this.el = byId([
      'lobby-tabs', 'tab-tables', 'tab-scores', 'tables-panel', 'scores-panel', 'scores-title', 'scores-mine', 'scores',
      'scores-list-field', 'scores-list', 'tab-daily', 'daily-panel', 'tab-arenas', 'arenas-panel', 'daily-title', 'daily-today', 'daily-yesterday',
      'daily-day', 'daily-you', 'daily-share', 'daily-results', 'daily-empty',
      'scores-caption', 'scores-body', 'scores-empty', 'scores-pager', 'scores-prev', 'scores-page', 'scores-next',
      'my-rating', 'my-rating-title', 'my-rating-now', 'my-rating-history', 'my-rating-empty', 'my-rating-note',
    ]);
    /** What the rows drawn say (their data as JSON), so that the same rows are not drawn again. */
    this.drawnRows = null;
    this.wire();
  }

  wire() {
    const { el, dispatch } = this;
    el['tab-tables'].addEventListener('click', () => dispatch({ type: 'lobbyTab', tab: 'tables' }));
    el['tab-scores'].addEventListener('click', () => dispatch({ type: 'lobbyTab', tab: 'scores' }));
    el['tab-daily'].addEventListener('click', () => dispatch({ type: 'lobbyTab', tab: 'daily' }));
    el['tab-arenas'].addEventListener('click', () => dispatch({ type: 'lobbyTab', tab: 'arenas' }));
    el['daily-today'].addEventListener('click', () => dispatch({ type: 'dailyDay', yesterday: false }));
    el['daily-yesterday'].addEventListener('click', () => dispatch({ type: 'dailyDay', yesterday: true }));
    el['daily-share'].addEventListener('click', () => this.share());
    // The tab pattern: ← → (and Home, End) move between the tabs and show the one reached.
    el['lobby-tabs'].addEventListener('keydown', (event) => {
      const tabs = [el['tab-tables'], el['tab-scores'], el['tab-daily'], el['tab-arenas']];
      const i = tabs.indexOf(event.target);
      if (i === -1) return;
      const next = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      const tab = tabs[(next + tabs.length) % tabs.length];
      tab.focus();
      tab.click();
    });
    el.scores.querySelector('thead').addEventListener('click', (event) => {
      const button = event.target.closest?.('button.sort');
      if (button) dispatch({ type: 'scoresSort', sort: button.dataset.sort });
    });
    el['scores-prev'].addEventListener('click', () => dispatch({ type: 'scoresPage', by: -1 }));
    el['scores-next'].addEventListener('click', () => dispatch({ type: 'scoresPage', by: 1 }));
    el['scores-list'].addEventListener('change', () => dispatch({ type: 'scoresList', list: el['scores-list'].value }));
    el['scores-mine'].addEventListener('change', () => dispatch({ type: 'scoresMine', mine: el['scores-mine'].checked }));
    el['scores-body'].addEventListener('click', (event) => {
      const button = event.target.closest?.('button.replay');
      const row = button?.closest('tr[data-record]');
      if (row) dispatch({ type: 'openReplay', record: row.dataset.record });
    });
    // "Your rating": each rated game opens its replay, as a row of the high scores does.
    el['my-rating-history'].addEventListener('click', (event) => {
      const item = event.target.closest?.('button.replay')?.closest('li[data-record]');
      if (item) dispatch({ type: 'openReplay', record: item.dataset.record });
    });
  }

  /** The tabs, and the high scores of the game picked. */
  render() {
    const { el } = this;
    const view = scoresView(this.controller.scores);
    const daily = this.controller.daily.open;
    const tab = view.open ? 'scores' : daily ? 'daily' : this.controller.arenas.open ? 'arenas' : 'tables';
    for (const name of ['tables', 'scores', 'daily', 'arenas']) {
      el[`tab-${name}`].setAttribute('aria-selected', String(tab === name));
      el[`tab-${name}`].tabIndex = tab === name ? 0 : -1;
      el[`${name}-panel`].hidden = tab !== name;
    }
    this.renderDaily();
    el['scores-title'].textContent = view.title;
    if (!view.open) return;
    renderMyRating(
      { title: el['my-rating-title'], now: el['my-rating-now'], history: el['my-rating-history'], empty: el['my-rating-empty'], note: el['my-rating-note'] },
      myRatingView(this.controller.myRating, this.controller.scores.query.game),
    );
    el['scores-mine'].checked = view.mine;
    el['scores-list-field'].hidden = view.lists.length === 0;
    const shownLists = [...el['scores-list'].options].map((o) => `${o.value} ${o.textContent}`).join('|');
    if (shownLists !== view.lists.map((l) => `${l.id} ${l.text}`).join('|')) {
      el['scores-list'].replaceChildren(
        ...view.lists.map(({ id, text }) => {
          const option = document.createElement('option');
          option.value = id;
          option.textContent = text;
          return option;
        }),
      );
    }
    const selected = view.lists.find((l) => l.selected);
    if (selected !== undefined) el['scores-list'].value = selected.id;
    el['scores-caption'].textContent = view.caption;
    for (const { sort, ariaSort, mark } of view.sorts) {
      const th = el.scores.querySelector(`th[data-sort="${sort}"]`);
      th.setAttribute('aria-sort', ariaSort);
      th.querySelector('.sort-mark').textContent = mark;
    }
    el.scores.setAttribute('aria-busy', String(view.busy));
    // The rows are drawn again only when what they say changed: an answer that changes nothing
    // (the ratings, the daily puzzle's results) leaves them, and the row a screen reader or
    // the keyboard is on, or the button under the pointer, stays where it is.
    const rowsKey = JSON.stringify(view.rows);
    if (rowsKey !== this.drawnRows) {
      this.drawnRows = rowsKey;
      const focusedRecord = document.activeElement?.closest?.('#scores-body tr[data-record]')?.dataset.record ?? null;
      el['scores-body'].replaceChildren(...view.rows.map(scoresRow));
      if (focusedRecord !== null) this.focusRow(focusedRecord);
    }
    el.scores.hidden = view.rows.length === 0;
    el['scores-empty'].hidden = view.empty === null;
    el['scores-empty'].textContent = view.empty ?? '';
    el['scores-pager'].hidden = !view.pager;
    el['scores-page'].textContent = view.page;
    el['scores-prev'].disabled = !view.canPrev;
    el['scores-next'].disabled = !view.canNext;
    // A page button that has just been disabled (the first or last page) hands the keyboard on.
    if (document.activeElement === el['scores-prev'] && !view.canPrev && view.canNext) el['scores-next'].focus();
    if (document.activeElement === el['scores-next'] && !view.canNext && view.canPrev) el['scores-prev'].focus();
  }

  /** The Daily tab: the board of the game picked, today's or yesterday's. */
  renderDaily() {
    const { el } = this;
    const game = this.controller.scores.query.game;
    const view = dailyView(this.controller.daily, game);
    el['daily-title'].textContent = view.title;
    if (!view.open) return;
    el['daily-today'].setAttribute('aria-pressed', String(!view.yesterday));
    el['daily-yesterday'].setAttribute('aria-pressed', String(view.yesterday));
    el['daily-day'].textContent = view.day;
    el['daily-you'].textContent = view.you;
    el['daily-you'].hidden = view.you === '';
    el['daily-share'].hidden = view.share === null;
    this.shareText = view.share;
    el['daily-results'].setAttribute('aria-busy', String(view.busy));
    el['daily-results'].replaceChildren(
      ...view.rows.map((row) => {
        const li = document.createElement('li');
        li.classList.toggle('you', row.you);
        li.append(part('place', row.place), ' ', part('name', row.name), ' ', part('result', row.result));
        if (row.you) li.append(' ', part('badge you-badge', 'you'));
        return li;
      }),
    );
    el['daily-empty'].hidden = view.empty === null;
    el['daily-empty'].textContent = view.empty ?? '';
  }

  /** "Share my result": the text on the clipboard, or shown where it cannot go there. */
  share() {
    const text = this.shareText;
    if (typeof text !== 'string') return;
    const said = (words) => {
      this.el['daily-you'].dataset.shared = text;
      this.el['daily-share'].textContent = words;
    };
    if (navigator.clipboard?.writeText) navigator.clipboard.writeText(text).then(() => said('Copied'), () => said(text));
    else said(text);
  }

  /** Focus the Replay button of a game's row (back from its replay). */
  focusRow(record) {
    const row = [...this.el['scores-body'].children].find((tr) => tr.dataset.record === record);
    row?.querySelector('button.replay')?.focus({ preventScroll: false });
  }
}

/** One finished game (a row of scores.js scoresView). */
function scoresRow(row) {
  const tr = document.createElement('tr');
  tr.dataset.record = row.id;
  tr.dataset.seconds = String(row.seconds ?? '');
  tr.dataset.score = String(row.rawScore ?? '');
  tr.dataset.ended = row.ended?.iso ?? '';
  tr.classList.toggle('best', row.best);
  tr.classList.toggle('shortest', row.shortest);
  tr.classList.toggle('mine', row.mine);
  const ended = document.createElement('td');
  ended.className = 'ended';
  if (row.ended !== null) {
    const time = document.createElement('time');
    time.dateTime = row.ended.iso;
    time.title = row.ended.full;
    time.append(part('date', row.ended.date), ' ', part('time', row.ended.time));
    ended.append(time);
  }
  const players = document.createElement('td');
  players.className = 'players';
  const list = document.createElement('ul');
  list.className = 'player-list';
  for (const p of row.players) {
    const li = document.createElement('li');
    li.classList.toggle('you', p.you);
    li.append(part('name', p.name), ' ', part('player-score', p.score));
    if (p.rating !== null) li.append(' ', scoreRatingPart(p.rating));
    if (p.you) li.append(' ', part('badge you-badge', 'you'));
    if (p.bot !== null) {
      const badge = botBadge(p.bot);
      const mark = part('badge bot-badge', badge.text);
      mark.title = badge.label;
      mark.setAttribute('aria-label', badge.label);
      li.append(' ', mark);
    }
    list.append(li);
  }
  players.append(list);
  for (const badge of row.badges) {
    players.append(part(`badge ${badge === 'Best score' ? 'best-badge' : 'shortest-badge'}`, badge));
  }
  const action = document.createElement('td');
  action.className = 'replay-cell';
  const replay = document.createElement('button');
  replay.type = 'button';
  replay.className = 'replay small';
  replay.textContent = 'Replay';
  replay.setAttribute('aria-label', row.replayLabel);
  action.append(replay);
  tr.append(cell('pos', String(row.position)), ended, players, cell('score', row.score), cell('duration', row.duration), action);
  return tr;
}
