// DOM: the lobby screen — the game picker, the name box, the seats and the settings of a new
// table (lobby-form.js decides), the buttons that start or join a table, the invite code, the
// list of tables (lobby-state.js) and the invite link's name dialog. Clicks become controller
// events through `dispatch`; the list is drawn from controller.lobby.

import * as messages from './messages.js';
import { gameLabel, joinable, listingPlayers, phaseLabel, seatsLabel, tablesOf } from './lobby-state.js';
import { ratingParts } from './ratings-view.js';
import { gameIds, gameInfo } from './games.js';
import { settingsForm, settingsText } from './table-settings.js';
import { inviteTitle, pickedGame, seatsOf, settingValue, shownSettings } from './lobby-form.js';
import { loadGame, loadName, saveGame } from './storage.js';
import { botCount, levelChoices, pickedLevel } from './bots.js';
import { dailyButton, utcDay } from './daily.js';
import { byId, cell, part, setOptions } from './dom.js';

export class LobbyView {
  /** `onGame(quiet)` runs after a game is picked (the high scores follow it). */
  constructor({ controller, dispatch, local, onGame }) {
    this.controller = controller;
    this.dispatch = dispatch;
    this.local = local;
    this.onGame = onGame;
    this.el = byId([
      'home-form', 'name', 'name-problem', 'seats', 'quick-match', 'create-private', 'join-code', 'join', 'tables',
      'tables-body', 'tables-empty', 'game-picker', 'lobby-title', 'lobby-lede', 'settings-fields', 'settings-problem',
      'invite-name', 'invite-name-form', 'invite-name-field', 'invite-name-problem', 'invite-watch',
      'invite-name-title', 'play-daily', 'bot-level', 'bot-count', 'play-bot', 'bot-note',
    ]);
    /** The game the lobby's buttons start (the server answers `unknownGame` for one it does not serve). */
    this.game = pickedGame(loadGame(local));
    /** The table settings the player changed (the others: the server's defaults). */
    this.touched = new Set();
    this.renderPicker();
    this.wire();
  }

  wire() {
    const { el } = this;
    const intent = (what) => this.dispatch({ type: 'intent', intent: what });
    el.name.value = loadName(this.local);
    el.name.addEventListener('input', () => this.showNameProblem());
    this.showNameProblem();
    el['home-form'].addEventListener('submit', (event) => {
      event.preventDefault();
      intent({ kind: 'playSolo', game: this.game, settings: this.settings(1) });
    });
    el['play-daily'].addEventListener('click', () => {
      // Today's attempt used: the button leads to the day's results instead of a refusal.
      if (this.dailyUsed()) document.getElementById('tab-daily')?.click();
      else intent({ kind: 'playDaily', game: this.game });
    });
    el['play-bot'].addEventListener('click', () => {
      const bots = botCount(el['bot-count'].value);
      intent({
        kind: 'playBot',
        game: this.game,
        level: pickedLevel(el['bot-level'].value),
        bots,
        settings: this.settings(1 + bots),
      });
    });
    el['quick-match'].addEventListener('click', () =>
      intent({ kind: 'quickMatch', game: this.game, seats: this.seats(), settings: this.settings(this.seats()) }),
    );
    el['create-private'].addEventListener('click', () =>
      intent({ kind: 'createTable', game: this.game, seats: this.seats(), settings: this.settings(this.seats()) }),
    );
    el['game-picker'].addEventListener('click', (event) => {
      const button = event.target.closest?.('button[data-game]');
      if (button) this.pick(button.dataset.game);
    });
    el.join.addEventListener('click', () => this.dispatch({ type: 'joinCode', raw: el['join-code'].value }));
    el['join-code'].addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      this.dispatch({ type: 'joinCode', raw: el['join-code'].value });
    });
    el['tables-body'].addEventListener('click', (event) => {
      const button = event.target.closest?.('button.watch, button.join');
      const row = button?.closest('[data-table-id]');
      if (!row) return;
      intent({ kind: button.classList.contains('join') ? 'joinListed' : 'spectate', table: row.dataset.tableId });
    });
    el['settings-fields'].addEventListener('change', (event) => {
      if (event.target.name) this.touched.add(event.target.name);
      el['settings-problem'].hidden = true;
    });
    el.seats.addEventListener('change', () => this.renderSettingsForm());
    el['invite-name-form'].addEventListener('submit', (event) => {
      const effects = this.dispatch({ type: 'inviteSubmit', raw: el['invite-name-field'].value });
      // The dialog stays open while the name is refused.
      if (effects.some((e) => e.type === 'inviteProblem')) event.preventDefault();
    });
    el['invite-watch'].addEventListener('click', () =>
      this.dispatch({ type: 'inviteWatch', raw: el['invite-name-field'].value }));
  }

  /** The name as typed. */
  typed() {
    return this.el.name.value;
  }

  /** Pick a game: the picker, title and settings follow, it is remembered, and (unless `quiet`:
   * the controller chose the game itself) the controller is told. */
  pick(game, { quiet = false } = {}) {
    const { el } = this;
    this.game = pickedGame(game);
    for (const button of el['game-picker'].querySelectorAll('button[data-game]')) {
      button.setAttribute('aria-pressed', String(button.dataset.game === this.game));
    }
    const info = gameInfo(this.game);
    el['lobby-title'].textContent = info.title;
    el['lobby-lede'].textContent = info.rules;
    if (el['settings-fields'].dataset.game !== this.game) {
      this.touched.clear();
      el['settings-problem'].hidden = true;
    }
    this.renderSettingsForm();
    this.renderComputers();
    this.render();
    saveGame(this.local, this.game);
    if (!quiet) this.dispatch({ type: 'pickGame' });
    this.onGame();
  }

  seats() {
    return seatsOf(this.el.seats.value);
  }

  /** The game picker: one button per game the page knows (welcome's games), in the server's
   * order. */
  renderPicker() {
    const picker = this.el['game-picker'];
    const ids = gameIds();
    const drawn = [...picker.querySelectorAll('button[data-game]')].map((b) => `${b.dataset.game}=${b.textContent}`);
    if (drawn.join() === ids.map((id) => `${id}=${gameInfo(id).title}`).join()) return;
    picker.replaceChildren(
      ...ids.map((id) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'game-choice';
        button.dataset.game = id;
        button.textContent = gameInfo(id).title;
        button.setAttribute('aria-pressed', String(id === this.game));
        return button;
      }),
    );
  }

  /** The server described its games (welcome): the picker, the game picked (one it no longer
   * deals gives way to the first), its words and settings follow. */
  gamesLearned() {
    this.renderPicker();
    this.pick(this.game, { quiet: true });
  }

  /** The small settings form of the picked game: one select per setting, ids `opt-<name>`. A
   * setting the player has not changed keeps following the default for the seats chosen. */
  renderSettingsForm() {
    const box = this.el['settings-fields'];
    const form = settingsForm(this.game, this.seats());
    const kept = box.dataset.game === this.game ? new Map([...box.querySelectorAll('select')].map((s) => [s.name, s.value])) : new Map();
    box.dataset.game = this.game;
    box.replaceChildren(
      ...Object.entries(form).map(([name, field]) => {
        const label = document.createElement('label');
        const select = document.createElement('select');
        select.id = `opt-${name}`;
        select.name = name;
        for (const [value, text] of field.options) {
          const option = document.createElement('option');
          option.value = String(value);
          option.textContent = text;
          select.append(option);
        }
        select.value = settingValue(name, this.touched, kept, field);
        label.append(`${field.label} `, select);
        return label;
      }),
    );
  }

  /** "Play against the computer" for the picked game: its levels in the game's words, offered
   * only where the server says computers play it (`computers` in its description). */
  renderComputers() {
    const { el } = this;
    const info = gameInfo(this.game);
    const chosen = pickedLevel(el['bot-level'].value);
    setOptions(el['bot-level'], levelChoices(info));
    el['bot-level'].value = chosen;
    const offered = info.computers === true;
    for (const control of [el['bot-level'], el['bot-count'], el['play-bot']]) control.disabled = !offered;
    el['bot-note'].hidden = offered;
    el['bot-note'].textContent = offered ? '' : `Computers do not play ${info.title} yet.`;
  }

  /** The message fields of the settings the form shows. */
  settings(seats) {
    const values = Object.fromEntries([...this.el['settings-fields'].querySelectorAll('select')].map((s) => [s.name, s.value]));
    return shownSettings(this.game, values, seats);
  }

  /** Whether today's daily puzzle of the picked game is used (controller.dailyPlayed). */
  dailyUsed() {
    return this.controller.dailyPlayed[this.game] === utcDay(Date.now());
  }

  /** The picked game's tables (controller.lobby), keeping the focus on the row it was on, and
   * the daily button. */
  render() {
    const { el } = this;
    const daily = dailyButton(this.dailyUsed());
    el['play-daily'].textContent = daily.text;
    el['play-daily'].classList.toggle('played', daily.played);
    const focusedId = document.activeElement?.closest?.('[data-table-id]')?.dataset.tableId ?? null;
    const rows = tablesOf(this.controller.lobby.tables, this.game).map(tableRow);
    el['tables-body'].replaceChildren(...rows);
    if (focusedId !== null) {
      const row = [...el['tables-body'].children].find((tr) => tr.dataset.tableId === focusedId);
      row?.querySelector('button.watch')?.focus();
    }
    el.tables.hidden = rows.length === 0;
    el['tables-empty'].hidden = rows.length > 0;
    if (rows.length === 0) {
      el['tables-empty'].textContent =
        this.controller.lobby.version === null
          ? 'Loading tables…'
          : `No public ${gameLabel(this.game)} tables right now — start one with Quick match.`;
    }
  }

  /** Says under the name box what the server would refuse in the name typed, if anything. */
  showNameProblem() {
    const problem = messages.nameProblem(this.el.name.value);
    this.el['name-problem'].textContent = problem ?? '';
    this.el['name-problem'].hidden = problem === null;
    this.el.name.setAttribute('aria-invalid', problem === null ? 'false' : 'true');
  }

  /** nameProblem: the name box says what is wrong (`text`, when the name is missing rather
   * than wrong), and gets the focus. */
  pointAtName(text = undefined) {
    this.showNameProblem();
    if (text !== undefined && this.el['name-problem'].hidden) {
      this.el['name-problem'].textContent = text;
      this.el['name-problem'].hidden = false;
    }
    this.el.name.focus();
  }

  setName(name) {
    this.el.name.value = name;
    this.showNameProblem();
  }

  /** An invite link without a name: ask for one, saying which game when the link names it. */
  askInviteName(game = null) {
    const { el } = this;
    el['invite-name-title'].textContent = inviteTitle(game);
    el['invite-name-field'].value = '';
    el['invite-name-problem'].hidden = true;
    if (!el['invite-name'].open) el['invite-name'].showModal();
    el['invite-name-field'].focus();
  }

  inviteProblem(text) {
    this.el['invite-name-problem'].textContent = text;
    this.el['invite-name-problem'].hidden = false;
  }

  settingsProblem(text) {
    this.el['settings-problem'].textContent = text;
    this.el['settings-problem'].hidden = false;
  }

  tablesEmpty(text) {
    this.el['tables-empty'].textContent = text;
  }
}

/** One row of the list: game (and its settings), seats (and who sits there), watchers, phase,
 * and Join (a waiting table with a seat) and Watch buttons. */
function tableRow(t) {
  const tr = document.createElement('tr');
  tr.dataset.tableId = t.id;
  tr.dataset.phase = t.phase;
  const watch = document.createElement('button');
  watch.type = 'button';
  watch.className = 'watch small';
  watch.textContent = 'Watch';
  watch.setAttribute('aria-label', `Watch ${gameLabel(t.game)} table, ${seatsLabel(t)} players, ${phaseLabel(t.phase)}`);
  const action = document.createElement('td');
  if (joinable(t)) {
    const join = document.createElement('button');
    join.type = 'button';
    join.className = 'join small';
    join.textContent = 'Join';
    join.setAttribute('aria-label', `Join ${gameLabel(t.game)} table, ${seatsLabel(t)} players`);
    action.append(join, ' ');
  }
  action.append(watch);
  const game = cell('game', gameLabel(t.game));
  const settings = t.settings === null ? '' : settingsText(t.game, t.settings, t.turnSeconds);
  if (settings !== '') game.append(part('listing-settings', settings));
  const seated = cell('seated', seatsLabel(t));
  const players = listingPlayers(t);
  if (players.length > 0) seated.append(playersPart(players));
  tr.append(
    game,
    seated,
    cell('watching', String(t.spectators)),
    cell('phase', phaseLabel(t.phase)),
    action,
  );
  return tr;
}

/** Who sits at a listed table: "Ada 1532?, Bob 1468 (away)", each rating with its title. */
function playersPart(players) {
  const box = part('listing-players', '');
  players.forEach((p, i) => {
    const one = part('listing-player', '');
    one.append(part('name', p.name));
    if (p.rating !== null) one.append(' ', ...ratingParts(p.rating, 'rating'));
    if (p.away) one.append(' (away)');
    box.append(...(i === 0 ? [] : [', ']), one);
  });
  return box;
}
