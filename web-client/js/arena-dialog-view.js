// DOM: the arena dialog — the arena kept (controller.arenas.shown, as arena-model.js
// arenaDialogView says): its phase and clock (counted down each second), the winner, my rank
// (the one line announced when it changes: the standings themselves are not), the standings
// table, the games in progress, the top game with its Watch button, a private arena's code to
// copy, Join and Leave. Reachable from the lobby and from an arena's table (its bar).

import { arenaDialogView } from './arena-model.js';
import { byId, cell, part } from './dom.js';

const TICK_MS = 1000;

export class ArenaDialogView {
  /** `toast(text)`: a short message (copying the code). */
  constructor({ controller, dispatch, toast }) {
    this.controller = controller;
    this.toast = toast;
    this.el = byId([
      'arena-dialog', 'arena-title', 'arena-close', 'arena-meta', 'arena-clock', 'arena-winner', 'arena-you',
      'arena-invite', 'arena-code-shown', 'arena-copy-code', 'arena-standings', 'arena-standings-caption',
      'arena-standings-body', 'arena-standings-empty', 'arena-featured', 'arena-featured-text', 'arena-watch-featured',
      'arena-games-box', 'arena-games-count', 'arena-games', 'arena-rules', 'arena-join', 'arena-leave',
    ]);
    this.tickTimer = null;
    /** The arena drawn (its id), for the buttons. */
    this.id = null;
    const { el } = this;
    const send = (type) => () => {
      if (this.id !== null) dispatch({ type, arena: this.id });
    };
    el['arena-close'].addEventListener('click', () => el['arena-dialog'].close());
    el['arena-join'].addEventListener('click', send('joinArena'));
    el['arena-leave'].addEventListener('click', send('leaveArena'));
    el['arena-watch-featured'].addEventListener('click', send('watchFeatured'));
    el['arena-copy-code'].addEventListener('click', () => this.copyCode());
    el['arena-dialog'].addEventListener('close', () => this.stopTicking());
  }

  /** Whether the dialog is open. */
  get open() {
    return this.el['arena-dialog'].open;
  }

  /** The controller's `arenaDialog {open}`: drawn, then shown (or closed). */
  set(open) {
    const dialog = this.el['arena-dialog'];
    if (!open) {
      if (dialog.open) dialog.close();
      return;
    }
    if (!this.draw()) return;
    if (!dialog.open) dialog.showModal();
    this.startTicking();
  }

  /** Drawn again while open (the standings change). */
  render() {
    if (this.open) this.draw();
  }

  /** Draw the arena kept; false when there is none. */
  draw() {
    const { el } = this;
    const view = this.view();
    if (!view.shown) return false;
    this.id = view.id;
    el['arena-title'].textContent = view.title;
    el['arena-meta'].textContent = view.meta;
    el['arena-clock'].textContent = view.clock;
    el['arena-winner'].hidden = view.winner === '';
    el['arena-winner'].textContent = view.winner;
    // Only a change is announced (aria-live): the same words are not set again.
    if (el['arena-you'].textContent !== view.you) el['arena-you'].textContent = view.you;
    el['arena-you'].hidden = view.you === '';
    el['arena-invite'].hidden = view.code === null;
    el['arena-code-shown'].textContent = view.code ?? '';
    el['arena-standings-caption'].textContent = view.caption;
    el['arena-standings'].setAttribute('aria-label', view.caption);
    el['arena-standings-body'].replaceChildren(...view.rows.map(standingRow));
    el['arena-standings'].hidden = view.rows.length === 0;
    el['arena-standings-empty'].hidden = view.empty === null;
    el['arena-standings-empty'].textContent = view.empty ?? '';
    el['arena-featured'].hidden = view.featured === null;
    el['arena-featured-text'].textContent = view.featured?.text ?? '';
    el['arena-watch-featured'].hidden = !view.watchFeatured;
    el['arena-games-count'].textContent = String(view.games.length);
    el['arena-games-box'].hidden = view.games.length === 0;
    el['arena-games'].replaceChildren(
      ...view.games.map((g) => {
        const li = part('arena-game-line', g.text, 'li');
        li.dataset.table = g.table;
        if (g.featured) li.append(' ', part('badge arena-top-badge', 'top game'));
        return li;
      }),
    );
    el['arena-rules'].textContent = view.rules;
    el['arena-join'].hidden = !view.join;
    el['arena-leave'].hidden = !view.leave;
    return true;
  }

  view() {
    return arenaDialogView(this.controller.arenas, this.controller.state.table, Date.now());
  }

  /** The clock, counted down. */
  tick() {
    if (!this.open) {
      this.stopTicking();
      return;
    }
    const view = this.view();
    if (view.shown && this.el['arena-clock'].textContent !== view.clock) this.el['arena-clock'].textContent = view.clock;
  }

  startTicking() {
    if (this.tickTimer === null) this.tickTimer = setInterval(() => this.tick(), TICK_MS);
  }

  stopTicking() {
    if (this.tickTimer !== null) clearInterval(this.tickTimer);
    this.tickTimer = null;
  }

  /** "Copy code": the private arena's code on the clipboard, or said where it cannot go there. */
  copyCode() {
    const code = this.el['arena-code-shown'].textContent;
    if (code === '') return;
    const done = () => this.toast('Code copied — players type it under “Join an arena by code” in the Arenas tab.');
    const failed = () => this.toast(`The arena’s code: ${code}`);
    if (navigator.clipboard?.writeText) navigator.clipboard.writeText(code).then(done, failed);
    else failed();
  }
}

/** One row of the standings (arenas.js standingsRows). */
function standingRow(row) {
  const tr = document.createElement('tr');
  tr.dataset.rank = row.rankText;
  tr.dataset.name = row.name;
  tr.classList.toggle('you', row.you);
  tr.classList.toggle('left', row.left);
  tr.classList.toggle('playing', row.playing);
  tr.classList.toggle('on-fire', row.onFire);
  const name = document.createElement('td');
  name.className = 'name';
  name.append(part('player-name', row.name));
  if (row.onFire) {
    const fire = part('fire', '🔥');
    fire.setAttribute('role', 'img');
    fire.setAttribute('aria-label', row.fire);
    fire.title = row.fire;
    name.append(' ', fire);
  }
  if (row.you) name.append(' ', part('badge you-badge', 'you'));
  if (row.playing) name.append(' ', part('badge playing-badge', 'playing'));
  if (row.left) name.append(' ', part('badge left-badge', 'left'));
  tr.append(cell('rank', row.rankText), name, cell('points', row.pointsText), cell('played', String(row.played)), cell('won', String(row.won)));
  return tr;
}
