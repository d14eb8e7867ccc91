// DOM: the bar at an arena's table (arenas.js arenaBar): "Arena: Set arena · first to 5 sets ·
// 2:41 left · you: 6 pts, 2nd" (or the featured game followed), its Standings and Leave arena
// buttons, and in the game-over box what comes next ("Next game in a moment…"). Drawn with the
// table's clocks, so its time counts down.

import { arenaBar } from './arenas.js';
import { byId } from './dom.js';

export class ArenaBarView {
  constructor({ controller, dispatch }) {
    this.controller = controller;
    this.el = byId(['arena-bar', 'arena-bar-main', 'arena-bar-sep', 'arena-bar-you', 'arena-bar-standings', 'arena-bar-leave', 'arena-next']);
    const send = (type) => () => {
      const id = this.controller.state.table?.arena?.id;
      if (id !== undefined) dispatch({ type, arena: id });
    };
    this.el['arena-bar-standings'].addEventListener('click', send('showArena'));
    this.el['arena-bar-leave'].addEventListener('click', send('leaveArena'));
  }

  render() {
    const { el } = this;
    const bar = arenaBar(this.controller.state.table, this.controller.arenas, Date.now());
    el['arena-bar'].hidden = bar === null;
    el['arena-next'].hidden = bar === null || bar.next === '';
    if (bar === null) return;
    el['arena-bar-main'].textContent = bar.main;
    el['arena-bar-sep'].textContent = bar.you === '' ? '' : ' · ';
    // Only a change of my rank or points is announced (aria-live): the same words are not set again.
    if (el['arena-bar-you'].textContent !== bar.you) el['arena-bar-you'].textContent = bar.you;
    el['arena-bar-leave'].hidden = !bar.seated;
    el['arena-bar'].classList.toggle('following', bar.following);
    el['arena-next'].textContent = bar.next;
  }
}
