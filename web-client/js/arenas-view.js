// DOM: the lobby's Arenas tab — the arenas running, upcoming and finished (arena-model.js
// arenasListView), their times counting down each second, the form that creates a private
// arena, and joining by code. Clicks become controller events through `dispatch`; text from the
// server is set as text only.

import { arenaGameChoices, arenasListView, arenaTimes, DEFAULT_ARENA_MINUTES, STARTS_IN_CHOICES } from './arena-model.js';
import { byId, part, setOptions } from './dom.js';

const TICK_MS = 1000;

/** The buttons of a row, in order: [class, the row's flag (arena-model.js), words, the event sent]. */
const ROW_BUTTONS = Object.freeze([
  ['arena-join', 'join', 'Join', 'joinArena'],
  ['arena-leave', 'leave', 'Leave', 'leaveArena'],
  ['arena-watch', 'watch', 'Watch standings', 'watchArena'],
  ['arena-featured', 'featured', 'Watch the top game', 'watchFeatured'],
]);

export class ArenasView {
  /** `game()`: the game picked in the lobby (the create form starts with it). */
  constructor({ controller, dispatch, game }) {
    this.controller = controller;
    this.dispatch = dispatch;
    this.game = game;
    this.el = byId([
      'arenas-panel', 'arenas-empty', 'arenas-groups', 'arenas-running', 'arenas-upcoming', 'arenas-past',
      'arenas-running-none', 'arenas-upcoming-none', 'arenas-past-none', 'arena-create-form', 'arena-game',
      'arena-minutes', 'arena-starts-in', 'create-arena', 'arena-code', 'join-arena-code', 'arena-problem',
    ]);
    /** Whether the player chose the form's game (else it follows the lobby's). */
    this.gameChosen = false;
    this.tickTimer = null;
    setOptions(this.el['arena-starts-in'], STARTS_IN_CHOICES);
    this.el['arena-minutes'].value = String(DEFAULT_ARENA_MINUTES);
    this.wire();
  }

  wire() {
    const { el, dispatch } = this;
    el['arena-create-form'].addEventListener('submit', (event) => {
      event.preventDefault();
      dispatch({
        type: 'createArena',
        game: el['arena-game'].value,
        minutes: el['arena-minutes'].value,
        startsIn: el['arena-starts-in'].value,
      });
    });
    el['arena-game'].addEventListener('change', () => {
      this.gameChosen = true;
    });
    const joinByCode = () => dispatch({ type: 'joinArena', raw: el['arena-code'].value });
    el['join-arena-code'].addEventListener('click', joinByCode);
    el['arena-code'].addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      joinByCode();
    });
    el['arenas-groups'].addEventListener('click', (event) => {
      const button = event.target.closest?.('button[data-action]');
      const row = button?.closest('[data-arena]');
      if (!row) return;
      const [, , , type] = ROW_BUTTONS.find(([, action]) => action === button.dataset.action);
      dispatch({ type, arena: row.dataset.arena });
    });
  }

  /** The tab's arenas and forms (nothing while the tab is closed: it asks again when opened). */
  render() {
    const { el } = this;
    const state = this.controller.arenas;
    el['arena-problem'].hidden = state.problem === null;
    el['arena-problem'].textContent = state.problem ?? '';
    if (!state.open) {
      this.stopTicking();
      return;
    }
    this.renderGames();
    const view = arenasListView(state, Date.now());
    el['arenas-empty'].hidden = view.empty === null;
    el['arenas-empty'].textContent = view.empty ?? '';
    el['arenas-groups'].hidden = view.groups.length === 0;
    el['arenas-groups'].setAttribute('aria-busy', String(view.busy));
    const focused = document.activeElement?.closest?.('#arenas-groups button[data-action]');
    const refocus = focused ? [focused.closest('[data-arena]')?.dataset.arena, focused.dataset.action] : null;
    for (const group of view.groups) {
      el[`arenas-${group.key}`].replaceChildren(...group.rows.map(arenaRow));
      el[`arenas-${group.key}-none`].hidden = group.rows.length > 0;
      el[`arenas-${group.key}-none`].textContent = group.empty;
    }
    if (refocus !== null) {
      // The button pressed may be gone (Join became Leave): the row's first, else the tab.
      const [arena, action] = refocus;
      const row = el['arenas-groups'].querySelector(`[data-arena="${CSS.escape(arena ?? '')}"]`);
      (row?.querySelector(`button[data-action="${action}"]`) ?? row?.querySelector('button') ?? document.getElementById('tab-arenas'))?.focus();
    }
    this.startTicking();
  }

  /** The create form's games: those arenas deal, the lobby's game first chosen. */
  renderGames() {
    const select = this.el['arena-game'];
    const chosen = select.value;
    const choices = arenaGameChoices(this.game());
    setOptions(select, choices.map((c) => [c.value, c.text]));
    const keep = this.gameChosen && choices.some((c) => c.value === chosen);
    select.value = keep ? chosen : (choices.find((c) => c.selected)?.value ?? '');
    this.el['create-arena'].disabled = choices.length === 0;
  }

  /** Each row's time, counted down (the rows themselves stay). */
  tick() {
    const state = this.controller.arenas;
    if (!state.open) {
      this.stopTicking();
      return;
    }
    const times = arenaTimes(state, Date.now());
    for (const time of this.el['arenas-groups'].querySelectorAll('[data-arena] .arena-time')) {
      const text = times.get(time.closest('[data-arena]').dataset.arena);
      if (text !== undefined && time.textContent !== text) time.textContent = text;
    }
  }

  startTicking() {
    if (this.tickTimer === null) this.tickTimer = setInterval(() => this.tick(), TICK_MS);
  }

  stopTicking() {
    if (this.tickTimer !== null) clearInterval(this.tickTimer);
    this.tickTimer = null;
  }
}

/** One arena (a row of arena-model.js arenasListView). */
function arenaRow(row) {
  const li = document.createElement('li');
  li.className = 'arena-row';
  li.dataset.arena = row.id;
  li.dataset.phase = row.phase;
  li.classList.toggle('joined', row.joined);
  const head = part('arena-head-line', '', 'p');
  head.append(part('arena-name', row.name));
  if (row.joined) head.append(' ', part('badge you-badge', 'joined'));
  const info = part('arena-info', '', 'p');
  info.append(part('arena-game', row.game), ' · ', part('arena-players', row.players), ' · ', part('arena-time', row.time));
  li.append(head, info);
  if (row.who !== '') li.append(part('arena-who', row.who, 'p'));
  if (row.code !== null) {
    const code = part('arena-code-line', 'Code ', 'p');
    code.append(part('table-code arena-code', row.code, 'code'));
    li.append(code);
  }
  const actions = part('arena-actions', '', 'div');
  for (const [cls, action, words] of ROW_BUTTONS) {
    if (!row[action]) continue;
    const button = part(`small ${cls}`, words, 'button');
    button.type = 'button';
    button.dataset.action = action;
    button.setAttribute('aria-label', `${words}: ${row.name}`);
    if (action === 'join') button.classList.add('primary');
    actions.append(button);
  }
  li.append(actions);
  return li;
}
