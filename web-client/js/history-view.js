// DOM: the history view shown in place of the board (#history-view): the rows of history.js,
// appended as entries come (a re-deal starts again), following the newest only when the reader
// was at the bottom.

import { historyRow, historyUpdate } from './history.js';
import { runNodes } from './status-view.js';
import { byId, part } from './dom.js';

export class HistoryView {
  /** `onHide()` runs when the view closes at a table (the board is laid out again), `onShow()`
   * when it opens (the chat panel, which takes the same place, closes). */
  constructor({ controller, onHide, onShow = () => {} }) {
    this.controller = controller;
    this.onHide = onHide;
    this.onShow = onShow;
    this.el = byId(['table', 'history-button', 'history-view', 'history-back', 'history-list', 'history-empty']);
    this.showing = false;
    /** What #history-list shows: how many entries, the first one's number, of which table. */
    this.drawn = { count: 0, first: null, table: null };
    this.el['history-button'].addEventListener('click', () => this.show(true));
    this.el['history-back'].addEventListener('click', () => this.show(false));
    // `h` (or anything else) asks for the history view with this event.
    document.addEventListener('history', () => this.show(!this.showing));
  }

  /** Show the history instead of the board (or back). The board keeps being updated underneath. */
  show(show) {
    const { el } = this;
    const table = this.controller.state.table;
    const want = show && table !== null;
    if (want === this.showing) return;
    this.showing = want;
    el['history-view'].hidden = !want;
    el.table.classList.toggle('showing-history', want);
    el['history-button'].setAttribute('aria-pressed', String(want));
    if (want) {
      this.render();
      el['history-list'].scrollTop = el['history-list'].scrollHeight;
      el['history-back'].focus();
      this.onShow();
    } else if (table !== null) {
      this.onHide();
      el['history-button'].focus({ preventScroll: true });
    }
  }

  /** Append the entries not drawn yet (a re-deal starts again); the reader's scroll position stays
   * unless they were at the bottom, which follows the new rows. */
  render() {
    const table = this.controller.state.table;
    if (table === null) return;
    const list = this.el['history-list'];
    const drawn = this.drawn;
    if (drawn.table !== table.id) {
      drawn.count = 0;
      drawn.first = null;
      drawn.table = table.id;
      list.replaceChildren();
    }
    const { reset, append } = historyUpdate(drawn.count, drawn.first, table.history);
    if (reset) {
      list.replaceChildren();
      drawn.count = 0;
    }
    this.el['history-empty'].hidden = table.history.length > 0;
    if (append.length === 0) return;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    for (const entry of append) {
      const row = historyRow(entry, table.players, table.you);
      const li = document.createElement('li');
      li.dataset.n = String(row.n);
      li.dataset.kind = row.kind;
      if (row.seat !== null) li.dataset.seat = String(row.seat);
      const runs = part('h-runs', '');
      runs.append(...runNodes(row.runs));
      li.append(part('h-n', `${row.n}.`), part('h-time', row.time), runs, part(`h-points ${row.sign}`, row.points));
      list.append(li);
    }
    drawn.count = table.history.length;
    drawn.first = table.history[0]?.n ?? null;
    if (atBottom) list.scrollTop = list.scrollHeight;
  }
}
