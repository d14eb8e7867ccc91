// Wires the page together: the connection (net.js), the decisions (controller.js: what a
// message, a click, a key or a timer leads to), the address and the views (board-view.js,
// status-view.js, the lobby, scoreboard and phase drawn below, the high scores and the replay). This file reads the page, feeds
// the controller events and carries out the effects it returns; it decides nothing itself.

import * as messages from './messages.js';
import { Connection } from './net.js';
import { Controller } from './controller.js';
import { isHost, isSpectator, mayChoose, myPlayer, mySelection, secondsLeft, selectionsByCard } from './table-state.js';
import { gameLabel, phaseLabel, seatsLabel, tablesOf } from './lobby-state.js';
import { shareLink } from './route.js';
import {
  awayText,
  phaseText,
  redealLabel,
  showsInvite,
  spectatorsText,
  startingText,
  voteLabel,
} from './seats.js';
import { BoardView } from './board-view.js';
import { renderStatus, runNodes } from './status-view.js';
import { settingsFields, settingsForm, settingsText } from './table-settings.js';
import { clockText, turnFraction, turnSecondsLeft, turnText } from './turns.js';
import { gameSummary, historyRow, historyUpdate, playAgainText } from './history.js';
import { matchPop, pinchScale } from './feedback.js';
import { readPalette } from './card-view.js';
import { SHORTCUTS, keyAction } from './keys.js';
import { loadPrefs, resolveTheme, savePref } from './prefs.js';
import { SoundPlayer } from './sound-player.js';
import { GAME_IDS, boardShape, gameInfo, matchesHeading, matchesText } from './games.js';
import { loadPlayer } from './player.js';
import { shownBoard } from './face-hold.js';
import { pageSizeOf, scoresView } from './scores.js';
import { replayKey, replayView } from './replay.js';

const NAME_KEY = 'matchismo.name';
/** localStorage: the game last picked in the lobby. */
const GAME_KEY = 'matchismo.game';
/** sessionStorage: the code of the table this tab sits at (to know, after a reload, that the
 * resumed session will get that table's snapshot and the share link need not be joined again). */
const TABLE_KEY = 'matchismo.table';
const TOAST_MS = 3500;
const TICK_MS = 250;
const POP_MS = 1100;

const el = Object.fromEntries(
  [
    'connection', 'lobby', 'home-form', 'name', 'name-problem', 'seats', 'quick-match', 'create-private', 'join-code', 'join',
    'play-solo', 'tables', 'tables-body', 'tables-empty', 'table', 'phase', 'invite', 'table-code', 'share-link',
    'copy-link', 'spectators', 'leave', 'spectating', 'scoreboard', 'stat-score', 'stat-matches', 'score',
    'matches', 'deck', 'vote', 'start', 'status', 'board', 'board-area', 'waiting', 'waiting-text',
    'waiting-help', 'waiting-invite', 'waiting-code', 'countdown', 'hint', 'redeal', 'gameover', 'standings', 'play-again', 'confirm-redeal',
    'confirm-redeal-yes', 'confirm-redeal-no', 'confirm-leave', 'confirm-leave-yes', 'confirm-leave-no', 'toast',
    'invite-name', 'invite-name-form', 'invite-name-field', 'invite-name-problem', 'invite-watch', 'invite-join', 'help', 'help-list', 'help-close', 'help-button',
    'settings', 'settings-button', 'settings-close', 'color-cues', 'sound', 'stat-matches-label', 'game-picker',
    'lobby-title', 'lobby-lede', 'table-options', 'settings-fields', 'settings-problem', 'table-settings-text',
    'stat-flips', 'flips', 'stat-deck', 'turn', 'turn-text', 'turn-clock', 'turn-bar-fill', 'history-button',
    'history-view', 'history-back', 'history-list', 'history-empty', 'gameover-time', 'gameover-vote',
    'back-to-lobby', 'zoom-reset',
    'lobby-tabs', 'tab-tables', 'tab-scores', 'tables-panel', 'scores-panel', 'scores-title', 'scores-mine', 'scores',
    'scores-caption', 'scores-body', 'scores-empty', 'scores-pager', 'scores-prev', 'scores-page', 'scores-next',
    'replay', 'replay-title', 'replay-meta', 'replay-export', 'replay-back', 'replay-message', 'replay-scoreboard',
    'replay-status', 'replay-board-area', 'replay-board', 'replay-first', 'replay-prev', 'replay-slider', 'replay-next',
    'replay-last', 'replay-step', 'replay-time',
  ].map((id) => [id, document.getElementById(id)]),
);

const nextId = messages.createIdSource();
// `?pageSize=N` (1–50) sets how many finished games a page of the high scores shows.
const controller = new Controller({ nextId, pageSize: pageSizeOf(new URLSearchParams(window.location.search).get('pageSize')) });
/** This browser's player token (player.js): sent in every hello, for "Only my games". */
const player = loadPlayer(storage());
let tickTimer = null;
let drawnStatus = null; // the runs array last drawn, to skip redrawing an unchanged line
let toastTimer = null;
const timers = new Map(); // "name:id" → the timeout of a timer the controller asked for
let measuredMatches = []; // measureMatches → showMatches: where the matched cards were
let showingHistory = false;
const drawnHistory = { count: 0, first: null, table: null }; // what #history-list shows
const touchedSettings = new Set(); // the table settings the player changed (others: server defaults)
const systemDark = window.matchMedia?.('(prefers-color-scheme: dark)') ?? null;
let prefs = loadPrefs(storage());
let chosenGame = loadGame();
let drawnPhase = null; // the phase last drawn, to notice a game starting
const sounds = new SoundPlayer({ enabled: prefs.sound });
applyPrefs();

const board = new BoardView(el.board, el['board-area'], {
  onChoose: (card) => dispatch({ type: 'choose', card }),
  palette: readPalette(),
});
const replayBoard = new BoardView(el['replay-board'], el['replay-board-area'], { palette: readPalette(), readOnly: true });
let drawnReplayStatus = null; // the runs last drawn in the replay's status line

const connection = new Connection({
  url: messages.socketURL(window.location),
  nextId,
  name: () => {
    dispatch({ type: 'hello' });
    return controller.helloName;
  },
  player: () => player,
  version: () => {
    const { table, awaitingSnapshot } = controller.state;
    return table !== null && !awaitingSnapshot ? table.version : null;
  },
  // The session lives in localStorage: a new tab of this browser takes the game back (the old
  // tab is told, close 4001), and a reload or a restart of the server resumes it.
  storage: storage() ?? undefined,
  onMessage: (message) => dispatch({ type: 'message', message }),
  onState: (state, detail) => {
    showConnection(state, detail);
    dispatch({ type: 'connection', state, detail });
  },
});

el.name.value = loadName();
el.name.addEventListener('input', showNameProblem);
showNameProblem();
el['home-form'].addEventListener('submit', (event) => {
  event.preventDefault();
  intent({ kind: 'playSolo', game: chosenGame, settings: tableSettings(1) });
});
el['quick-match'].addEventListener('click', () => intent({ kind: 'quickMatch', game: chosenGame, seats: chosenSeats() }));
el['create-private'].addEventListener('click', () =>
  intent({ kind: 'createTable', game: chosenGame, seats: chosenSeats(), settings: tableSettings(chosenSeats()) }),
);
el['game-picker'].addEventListener('click', (event) => {
  const button = event.target.closest?.('button[data-game]');
  if (button) pickGame(button.dataset.game);
});
pickGame(chosenGame);
setUpScores();
setUpReplay();
el.join.addEventListener('click', () => dispatch({ type: 'joinCode', raw: el['join-code'].value }));
el['join-code'].addEventListener('keydown', (event) => {
  if (event.key !== 'Enter') return;
  event.preventDefault();
  dispatch({ type: 'joinCode', raw: el['join-code'].value });
});
el['tables-body'].addEventListener('click', (event) => {
  const button = event.target.closest?.('button.watch, button.join');
  const row = button?.closest('[data-table-id]');
  if (!row) return;
  const table = row.dataset.tableId;
  intent({ kind: button.classList.contains('join') ? 'joinListed' : 'spectate', table });
});
el.redeal.addEventListener('click', () => dispatch({ type: 'askRedeal' }));
el['confirm-redeal-no'].addEventListener('click', () => el['confirm-redeal'].close());
el['confirm-redeal-yes'].addEventListener('click', () => {
  el['confirm-redeal'].close();
  dispatch({ type: 'redeal' });
});
el['play-again'].addEventListener('click', () => dispatch({ type: 'redeal' }));
el['back-to-lobby'].addEventListener('click', () => dispatch({ type: 'leave' }));
el['history-button'].addEventListener('click', () => showHistory(true));
el['history-back'].addEventListener('click', () => showHistory(false));
document.addEventListener('history', () => showHistory(!showingHistory));
el['settings-fields'].addEventListener('change', (event) => {
  if (event.target.name) touchedSettings.add(event.target.name);
  el['settings-problem'].hidden = true;
});
el.seats.addEventListener('change', renderSettingsForm);
el['zoom-reset'].addEventListener('click', () => setZoom(1));
setUpPinch();
el.start.addEventListener('click', () => dispatch({ type: 'start' }));
el.leave.addEventListener('click', () => dispatch({ type: 'askLeave' }));
el['confirm-leave-no'].addEventListener('click', () => el['confirm-leave'].close());
el['confirm-leave-yes'].addEventListener('click', () => {
  el['confirm-leave'].close();
  dispatch({ type: 'leave' });
});
el['invite-name-form'].addEventListener('submit', (event) => {
  const effects = dispatch({ type: 'inviteSubmit', raw: el['invite-name-field'].value });
  // The dialog stays open while the name is refused.
  if (effects.some((e) => e.type === 'inviteProblem')) event.preventDefault();
});
el['invite-watch'].addEventListener('click', () => dispatch({ type: 'inviteWatch' }));
el['copy-link'].addEventListener('click', copyLink);
el.hint.addEventListener('click', () => dispatch({ type: 'hint' }));
el['help-button'].addEventListener('click', toggleHelp);
el['help-close'].addEventListener('click', () => el.help.close());
el['settings-button'].addEventListener('click', () => el.settings.showModal());
el['settings-close'].addEventListener('click', () => el.settings.close());
for (const radio of document.querySelectorAll('input[name="theme"]')) {
  radio.addEventListener('change', () => setPref('theme', radio.value));
}
el['color-cues'].addEventListener('change', () => setPref('colorCues', el['color-cues'].checked));
el.sound.addEventListener('change', () => setPref('sound', el.sound.checked));
systemDark?.addEventListener?.('change', applyPrefs);
document.addEventListener('keydown', shortcut);
fillHelp();
window.addEventListener('online', () => connection.retryNow());
window.addEventListener('hashchange', () => dispatch({ type: 'route' }));

showView('lobby');
renderLobby();
connection.start();

// ---- The controller ---------------------------------------------------------------------------

/** Hand `event` to the controller with what it needs to know of the page, and carry out the
 * effects it returns. Returns them (a form needs to know whether to stay open). */
function dispatch(event) {
  const effects = controller.dispatch({
    now: Date.now(),
    connection: connection.state,
    typed: el.name.value,
    hash: window.location.hash,
    storedTable: storedTable(),
    game: chosenGame,
    ...event,
  });
  const unsent = [];
  for (const effect of effects) {
    if (perform(effect) === false) unsent.push(effect.message.id);
  }
  // A message the connection could not send after all: a choice must not stay pending.
  if (unsent.length > 0) dispatch({ type: 'unsent', ids: unsent });
  return effects;
}

function intent(what) {
  dispatch({ type: 'intent', intent: what });
}

/** One effect (controller.js lists them). */
function perform(effect) {
  switch (effect.type) {
    case 'send':
      return connection.send(effect.message);
    case 'toast':
      showToast(effect.text);
      break;
    case 'connect':
      connection.start();
      connection.retryNow();
      break;
    case 'restart':
      connection.restart();
      break;
    case 'nameProblem':
      showNameProblem();
      el.name.focus();
      break;
    case 'saveName':
      saveName(effect.name);
      break;
    case 'setName':
      el.name.value = effect.name;
      showNameProblem();
      break;
    case 'focus':
      el[effect.target]?.focus();
      break;
    case 'view':
      showView(effect.view);
      break;
    case 'render':
      render();
      break;
    case 'renderLobby':
      renderLobby();
      break;
    case 'hash':
      replaceHash(effect.hash);
      break;
    case 'rememberTable':
      rememberTable(effect.code);
      break;
    case 'forgetTable':
      forgetTable();
      break;
    case 'timer': {
      const key = `${effect.name}:${effect.id ?? ''}`;
      clearTimeout(timers.get(key));
      timers.set(
        key,
        setTimeout(() => {
          timers.delete(key);
          dispatch({ type: 'timer', name: effect.name, id: effect.id });
        }, effect.ms),
      );
      break;
    }
    case 'cancelTimer':
      for (const [key, timeout] of timers) {
        if (key.startsWith(`${effect.name}:`)) {
          clearTimeout(timeout);
          timers.delete(key);
        }
      }
      break;
    case 'sound':
      sounds.play(effect.name);
      break;
    case 'flash':
      board.flash(effect.cards, effect.kind, effect.ms);
      break;
    case 'markPending':
      board.markPending(effect.card);
      break;
    case 'clearPending':
      board.clearPending();
      break;
    case 'measureMatches':
      measuredMatches = matchedSlots(effect.table, effect.matches);
      break;
    case 'showMatches':
      for (const { slots, rects, points } of measuredMatches) showMatch(slots, rects, points);
      measuredMatches = [];
      break;
    case 'tableChanged':
      showHistory(false);
      break;
    case 'leftTable':
      showHistory(false);
      setZoom(1);
      drawnPhase = null;
      el['confirm-redeal'].close?.();
      stopTicking();
      break;
    case 'dialog': {
      const dialog = el[effect.name];
      if (effect.open && !dialog.open) dialog.showModal();
      else if (!effect.open && dialog.open) dialog.close();
      break;
    }
    case 'inviteName':
      el['invite-name-field'].value = '';
      el['invite-name-problem'].hidden = true;
      if (!el['invite-name'].open) el['invite-name'].showModal();
      el['invite-name-field'].focus();
      break;
    case 'inviteProblem':
      el['invite-name-problem'].textContent = effect.text;
      el['invite-name-problem'].hidden = false;
      break;
    case 'settingsProblem':
      el['settings-problem'].textContent = effect.text;
      el['settings-problem'].hidden = false;
      break;
    case 'tablesEmpty':
      el['tables-empty'].textContent = effect.text;
      break;
    case 'warn':
      console.warn(effect.text, effect.error);
      break;
    case 'renderScores':
      renderScores();
      break;
    case 'renderReplay':
      renderReplay();
      break;
    case 'lobbyGame':
      pickGame(effect.game, { quiet: true });
      break;
    case 'focusRow':
      focusScoresRow(effect.record);
      break;
    case 'download':
      download(effect);
      break;
    default:
      throw new Error(`unknown effect ${effect.type}`);
  }
}

// ---- The lobby's form -------------------------------------------------------------------------

/** The game the lobby's buttons start (the server answers `unknownGame` for one it does not serve);
 * its high scores follow (unless `quiet`: the controller chose the game itself). */
function pickGame(game, { quiet = false } = {}) {
  chosenGame = GAME_IDS.includes(game) ? game : 'set';
  for (const button of el['game-picker'].querySelectorAll('button[data-game]')) {
    button.setAttribute('aria-pressed', String(button.dataset.game === chosenGame));
  }
  const info = gameInfo(chosenGame);
  el['lobby-title'].textContent = info.title;
  el['lobby-lede'].textContent = info.lede;
  if (el['settings-fields'].dataset.game !== chosenGame) {
    touchedSettings.clear();
    el['settings-problem'].hidden = true;
  }
  renderSettingsForm();
  renderLobby();
  try {
    localStorage.setItem(GAME_KEY, chosenGame);
  } catch {
    // Not remembered.
  }
  if (!quiet) dispatch({ type: 'pickGame' });
  renderScores();
}

function loadGame() {
  try {
    return localStorage.getItem(GAME_KEY) ?? 'set';
  } catch {
    return 'set';
  }
}

/** The small settings form of the chosen game: one select per setting, ids `opt-<name>`. A
 * setting the player has not changed keeps following the default for the seats chosen. */
function renderSettingsForm() {
  const form = settingsForm(chosenGame, chosenSeats());
  const box = el['settings-fields'];
  const keep = box.dataset.game === chosenGame ? new Map([...box.querySelectorAll('select')].map((s) => [s.name, s.value])) : new Map();
  box.dataset.game = chosenGame;
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
      select.value = touchedSettings.has(name) && keep.has(name) ? keep.get(name) : String(field.default);
      label.append(`${field.label} `, select);
      return label;
    }),
  );
}

/** The message fields of the settings the player changed. */
function tableSettings(seats) {
  const values = {};
  for (const select of el['settings-fields'].querySelectorAll('select')) {
    if (touchedSettings.has(select.name)) values[select.name] = select.value;
  }
  return settingsFields(chosenGame, values, seats);
}

function chosenSeats() {
  const seats = Number.parseInt(el.seats.value, 10);
  return Number.isInteger(seats) && seats >= 1 && seats <= 8 ? seats : 4;
}

function copyLink() {
  const link = el['share-link'].href;
  const done = () => showToast('Link copied — send it to the players you want to invite.');
  const failed = () => showToast(`Copy this link: ${link}`);
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(link).then(done, failed);
  else failed();
}

// ---- Drawing: effects of a diff ---------------------------------------------------------------

/** Where these matched cards are on the board (slots and screen boxes), before it is drawn. */
function matchedSlots(table, matches) {
  return matches.map(({ cards, points }) => {
    const slots = cards.map((id) => table.board.findIndex((c) => c.id === id)).filter((i) => i >= 0);
    const rects = slots.map((i) => el.board.children[i]?.getBoundingClientRect()).filter(Boolean);
    return { slots, rects, points };
  });
}

/** A found match: the cards now in those slots flash, and the points rise from where they were. */
function showMatch(slots, rects, points) {
  const ids = slots.map((i) => Number(el.board.children[i]?.dataset.cardId)).filter(Number.isInteger);
  board.flash(ids, 'found', 700);
  const text = matchPop(points);
  if (text === null || rects.length === 0) return;
  const area = el['board-area'].getBoundingClientRect();
  const x = rects.reduce((sum, r) => sum + r.left + r.width / 2, 0) / rects.length - area.left + el['board-area'].scrollLeft;
  const y = rects.reduce((sum, r) => sum + r.top + r.height / 2, 0) / rects.length - area.top + el['board-area'].scrollTop;
  const pop = part('points-pop', text);
  pop.setAttribute('aria-hidden', 'true');
  pop.style.left = `${x}px`;
  pop.style.top = `${y}px`;
  el['board-area'].append(pop);
  setTimeout(() => pop.remove(), POP_MS);
}

// ---- Drawing: the table -----------------------------------------------------------------------

function render() {
  const table = controller.state.table;
  if (table === null) return;
  const spectator = isSpectator(controller.state);
  const solo = table.seats === 1;
  board.setShape(boardShape(table.game, table.settings, table.board.length));
  // Concentration is turn-based: the board waits while another seat has the turn.
  const othersTurn = Number.isInteger(table.turn) && table.turn !== table.you;
  board.render(shownBoard(table.board, controller.held, Date.now()), mySelection(controller.state), {
    disabled: !mayChoose(controller.state),
    selectedBy: selectionsByCard(table),
    mySeat: table.you,
  });
  const me = myPlayer(controller.state);
  el.score.textContent = String(me?.score ?? 0);
  el.matches.textContent = String(me?.matches ?? 0);
  el.deck.textContent = String(table.deckCount);
  const faceDown = table.settings?.faceDown === true || me?.flips !== undefined;
  el['stat-flips'].hidden = spectator || me?.flips === undefined;
  el.flips.textContent = String(me?.flips ?? 0);
  el['stat-deck'].hidden = faceDown && table.deckCount === 0;
  el['table-settings-text'].textContent = settingsText(table.game, table.settings, table.turnSeconds);
  el.table.classList.toggle('not-my-turn', othersTurn && !spectator);
  el['stat-score'].hidden = spectator;
  el['stat-matches'].hidden = spectator;
  el.table.dataset.phase = table.phase;
  el.table.classList.toggle('watching', spectator);
  el.spectating.hidden = !spectator;

  // Header: invite code and share link, spectators.
  el.invite.hidden = !showsInvite(table);
  if (table.code !== null) {
    el['table-code'].textContent = table.code;
    el['share-link'].href = shareLink(window.location, table.code);
  }
  el.spectators.textContent = spectatorsText(table.spectators);
  el.spectators.dataset.count = String(table.spectators);
  el.spectators.hidden = table.spectators === 0;

  // Actions.
  const host = isHost(controller.state) || solo;
  const live = table.phase === 'playing' || table.phase === 'finished';
  const voted = table.vote !== null && table.you !== null && table.vote.seats.includes(table.you);
  el.start.hidden = !(table.phase === 'waiting' && isHost(controller.state));
  el.hint.hidden = !solo || spectator || !gameInfo(table.game).hint;
  el['stat-matches-label'].textContent = matchesHeading(table.game);
  el.hint.disabled = table.over || table.phase !== 'playing';
  el.redeal.hidden = spectator || !live;
  // Re-deal is a vote at every multiplayer table (the host's too); alone it is at will.
  el.redeal.textContent = redealLabel({ host: solo, voted });
  el.redeal.disabled = !solo && voted;
  el.vote.textContent = voteLabel(table.vote);
  el.vote.hidden = el.vote.textContent === '';
  el['play-again'].hidden = spectator;
  el['play-again'].textContent = solo ? 'Play again' : voted ? 'Voted to play again' : 'Vote to play again';
  el['play-again'].disabled = !solo && voted;
  el['gameover-vote'].textContent = solo ? '' : playAgainText(table.vote);
  el['gameover-vote'].hidden = el['gameover-vote'].textContent === '';

  renderScoreboard(table);
  renderClock();
  renderStatusLine();
  renderGameOver(table);
  renderHistory();
  if (hasDeadline(table)) startTicking();
  else stopTicking();
  // A game that starts (or that we arrive at while it runs) gets the keyboard.
  if (table.phase === 'playing' && drawnPhase !== 'playing' && !spectator && !anyDialogOpen()) board.focusFirst();
  drawnPhase = table.phase;
}

/** Everything that shows a running clock: the phase line, the countdown, "reconnecting… Ns". */
function renderClock() {
  const table = controller.state.table;
  if (table === null) return;
  const now = Date.now();
  const toStart = secondsLeft(table.countdownUntil, now);
  el.phase.textContent = phaseText(table, toStart);
  el.phase.dataset.phase = table.phase;
  el.countdown.hidden = table.phase !== 'countdown';
  if (table.phase === 'countdown') el.countdown.textContent = startingText(toStart ?? 0);
  const waiting = table.phase === 'waiting';
  el.waiting.hidden = !waiting;
  if (waiting) {
    el['waiting-text'].textContent = phaseText(table, null);
    el['waiting-help'].textContent = isHost(controller.state)
      ? 'Share the invite code or link, then start — or wait until every seat is taken.'
      : 'The game starts when the host says so, or when every seat is taken.';
    el['waiting-invite'].hidden = !showsInvite(table);
    el['waiting-code'].textContent = table.code ?? '';
  }
  renderTurn(table, now);
  for (const p of table.players) {
    const row = el.scoreboard.querySelector(`li[data-seat="${p.seat}"]`);
    const away = row?.querySelector('.away');
    if (away) away.textContent = p.connected ? '' : awayText(secondsLeft(p.awayUntil, now));
  }
}

/** Concentration: whose turn it is and the turn's clock (none when the table has no limit). */
function renderTurn(table, now) {
  const text = table.phase === 'playing' ? turnText(table) : '';
  el.turn.hidden = text === '';
  if (text === '') return;
  el['turn-text'].textContent = text;
  el.turn.dataset.mine = String(table.turn === table.you);
  el.turn.dataset.seat = String(table.turn);
  const left = turnSecondsLeft(table, now);
  el['turn-clock'].textContent = clockText(left);
  el.turn.dataset.clock = left === null ? 'off' : 'on';
  const fraction = turnFraction(table, now);
  el['turn-bar-fill'].style.transform = `scaleX(${fraction ?? 1})`;
}

function renderScoreboard(table) {
  const rows = new Map([...el.scoreboard.querySelectorAll('li[data-seat]')].map((li) => [li.dataset.seat, li]));
  const wanted = [];
  for (const p of table.players) {
    const key = String(p.seat);
    let li = rows.get(key);
    if (li === undefined) {
      li = document.createElement('li');
      li.dataset.seat = key;
      li.className = 'seat';
      li.append(
        part('swatch', ''),
        part('name', ''),
        part('badge host-badge', 'host'),
        part('badge you-badge', 'you'),
        part('away', ''),
        part('score', ''),
        part('sets', ''),
      );
    }
    rows.delete(key);
    li.querySelector('.swatch').setAttribute('aria-hidden', 'true');
    li.querySelector('.name').textContent = p.name;
    li.querySelector('.score').textContent = String(p.score);
    li.querySelector('.sets').textContent =
      matchesText(table.game, p.matches) + (p.flips === undefined ? '' : ` · ${p.flips} ${p.flips === 1 ? 'flip' : 'flips'}`);
    li.querySelector('.host-badge').hidden = p.seat !== table.host;
    li.querySelector('.you-badge').hidden = p.seat !== table.you;
    li.classList.toggle('you', p.seat === table.you);
    li.classList.toggle('host', p.seat === table.host);
    li.classList.toggle('away', !p.connected);
    li.classList.toggle('turn', table.turn === p.seat);
    li.dataset.connected = String(p.connected);
    wanted.push(li);
  }
  for (const li of rows.values()) li.remove();
  const open = Math.max(0, table.seats - table.players.length);
  let openRow = el.scoreboard.querySelector('li.open-seats');
  if (open > 0) {
    if (openRow === null) openRow = part('open-seats', '', 'li');
    openRow.textContent = `${open} open ${open === 1 ? 'seat' : 'seats'}`;
    wanted.push(openRow);
  }
  wanted.forEach((li, i) => {
    if (el.scoreboard.children[i] !== li) el.scoreboard.insertBefore(li, el.scoreboard.children[i] ?? null);
  });
  while (el.scoreboard.children.length > wanted.length) el.scoreboard.lastElementChild.remove();
  el.scoreboard.hidden = table.seats === 1 && table.players.length <= 1;
}

function renderStatusLine() {
  const runs = controller.state.table?.status ?? [];
  if (runs === drawnStatus) return;
  drawnStatus = runs;
  renderStatus(el.status, runs);
}

function renderGameOver(table) {
  const over = table.over && Array.isArray(table.standings);
  const wasHidden = el.gameover.hidden;
  el.gameover.hidden = !over;
  if (!over) {
    el['gameover-time'].textContent = '';
    return;
  }
  const summary = gameSummary({
    game: table.game,
    standings: table.standings,
    history: table.history,
    you: table.you,
    elapsedSeconds: controller.playingSince === null ? null : (Date.now() - controller.playingSince) / 1000,
  });
  // The time played is fixed once shown (the client's clock would keep running).
  if (wasHidden || el['gameover-time'].textContent === '') el['gameover-time'].textContent = summary.timeText;
  el.standings.replaceChildren(
    ...summary.rows.map((s) => {
      const li = document.createElement('li');
      li.dataset.seat = String(s.seat);
      li.dataset.matches = String(s.matches);
      if (s.mistakes !== null) li.dataset.mistakes = String(s.mistakes);
      if (s.you) li.classList.add('you');
      li.append(
        part('rank', `${s.rank}.`),
        part('name', String(s.name ?? '')),
        part('score', `${s.score} points`),
        part('detail', s.detail),
      );
      return li;
    }),
  );
  if (wasHidden && !el['play-again'].hidden) el['play-again'].focus();
}

function hasDeadline(table) {
  return (
    table.countdownUntil !== null || table.turnUntil !== null || table.players.some((p) => p.awayUntil !== null)
  );
}

// ---- Drawing: the history view ----------------------------------------------------------------

/** Show the history instead of the board (or back). The board keeps being updated underneath. */
function showHistory(show) {
  const want = show && controller.state.table !== null;
  if (want === showingHistory) return;
  showingHistory = want;
  el['history-view'].hidden = !want;
  el.table.classList.toggle('showing-history', want);
  el['history-button'].setAttribute('aria-pressed', String(want));
  if (want) {
    renderHistory();
    el['history-list'].scrollTop = el['history-list'].scrollHeight;
    el['history-back'].focus();
  } else if (controller.state.table !== null) {
    requestAnimationFrame(() => board.layout());
    el['history-button'].focus({ preventScroll: true });
  }
}

/** Append the entries not drawn yet (a re-deal starts again); the reader's scroll position stays
 * unless they were at the bottom, which follows the new rows. */
function renderHistory() {
  const table = controller.state.table;
  if (table === null) return;
  const list = el['history-list'];
  if (drawnHistory.table !== table.id) {
    drawnHistory.count = 0;
    drawnHistory.first = null;
    drawnHistory.table = table.id;
    list.replaceChildren();
  }
  const { reset, append } = historyUpdate(drawnHistory.count, drawnHistory.first, table.history);
  if (reset) {
    list.replaceChildren();
    drawnHistory.count = 0;
  }
  el['history-empty'].hidden = table.history.length > 0;
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
    const points = part(`h-points ${row.sign}`, row.points);
    li.append(part('h-n', `${row.n}.`), part('h-time', row.time), runs, points);
    list.append(li);
  }
  drawnHistory.count = table.history.length;
  drawnHistory.first = table.history[0]?.n ?? null;
  if (atBottom) list.scrollTop = list.scrollHeight;
}

// ---- Pinch zoom -------------------------------------------------------------------------------

let zoom = 1;

function setZoom(scale) {
  zoom = scale;
  el.board.style.transform = scale === 1 ? '' : `scale(${scale})`;
  el['zoom-reset'].hidden = scale === 1;
}

/** Two fingers on the board area zoom the board (touch-action keeps the page from zooming). */
function setUpPinch() {
  const area = el['board-area'];
  const pointers = new Map();
  let start = null; // {distance, scale}
  let pinchedAt = 0;
  const distance = () => {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  area.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'touch') return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 2) start = { distance: distance(), scale: zoom };
  });
  area.addEventListener('pointermove', (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 2 && start !== null) {
      setZoom(pinchScale(start.scale, start.distance, distance()));
      pinchedAt = Date.now();
    }
  });
  const up = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) start = null;
  };
  area.addEventListener('pointerup', up);
  area.addEventListener('pointercancel', up);
  // A finger lifted after a pinch is not a tap on a card.
  area.addEventListener('click', (event) => {
    if (Date.now() - pinchedAt < 400 && event.target.closest?.('.card')) event.stopPropagation();
  }, true);
}

function startTicking() {
  if (tickTimer === null) tickTimer = setInterval(renderClock, TICK_MS);
}

function stopTicking() {
  if (tickTimer !== null) clearInterval(tickTimer);
  tickTimer = null;
}

// ---- Drawing: the lobby -----------------------------------------------------------------------

function renderLobby() {
  const focusedId = document.activeElement?.closest?.('[data-table-id]')?.dataset.tableId ?? null;
  // Each game's tab lists that game's tables.
  const rows = tablesOf(controller.lobby.tables, chosenGame).map((t) => {
    const tr = document.createElement('tr');
    tr.dataset.tableId = t.id;
    tr.dataset.phase = t.phase;
    const watch = document.createElement('button');
    watch.type = 'button';
    watch.className = 'watch small';
    watch.textContent = 'Watch';
    watch.setAttribute('aria-label', `Watch ${gameLabel(t.game)} table, ${seatsLabel(t)} players, ${phaseLabel(t.phase)}`);
    const action = document.createElement('td');
    if (t.phase === 'waiting' && t.seated < t.seats) {
      const join = document.createElement('button');
      join.type = 'button';
      join.className = 'join small';
      join.textContent = 'Join';
      join.setAttribute('aria-label', `Join ${gameLabel(t.game)} table, ${seatsLabel(t)} players`);
      action.append(join, ' ');
    }
    action.append(watch);
    tr.append(
      cell('game', gameLabel(t.game)),
      cell('seated', seatsLabel(t)),
      cell('watching', String(t.spectators)),
      cell('phase', phaseLabel(t.phase)),
      action,
    );
    return tr;
  });
  el['tables-body'].replaceChildren(...rows);
  if (focusedId !== null) {
    const row = [...el['tables-body'].children].find((tr) => tr.dataset.tableId === focusedId);
    row?.querySelector('button.watch')?.focus();
  }
  el.tables.hidden = rows.length === 0;
  el['tables-empty'].hidden = rows.length > 0;
  if (rows.length === 0) {
    el['tables-empty'].textContent =
      controller.lobby.version === null
        ? 'Loading tables…'
        : `No public ${gameLabel(chosenGame)} tables right now — start one with Quick match.`;
  }
}

function cell(className, text) {
  const td = document.createElement('td');
  td.className = className;
  td.textContent = text;
  return td;
}

function part(className, text, tag = 'span') {
  const s = document.createElement(tag);
  s.className = className;
  s.textContent = text;
  return s;
}

// ---- Drawing: the high scores (lobby tab) -----------------------------------------------------

function setUpScores() {
  el['tab-tables'].addEventListener('click', () => dispatch({ type: 'lobbyTab', tab: 'tables' }));
  el['tab-scores'].addEventListener('click', () => dispatch({ type: 'lobbyTab', tab: 'scores' }));
  // The tab pattern: ← → (and Home, End) move between the tabs and show the one reached.
  el['lobby-tabs'].addEventListener('keydown', (event) => {
    const tabs = [el['tab-tables'], el['tab-scores']];
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
  el['scores-mine'].addEventListener('change', () => dispatch({ type: 'scoresMine', mine: el['scores-mine'].checked }));
  el['scores-body'].addEventListener('click', (event) => {
    const button = event.target.closest?.('button.replay');
    const row = button?.closest('tr[data-record]');
    if (row) dispatch({ type: 'openReplay', record: row.dataset.record });
  });
}

/** The tabs, and the high scores of the game picked (controller.scores, as scores.js scoresView
 * says to show them). */
function renderScores() {
  const view = scoresView(controller.scores);
  el['tab-tables'].setAttribute('aria-selected', String(!view.open));
  el['tab-scores'].setAttribute('aria-selected', String(view.open));
  el['tab-tables'].tabIndex = view.open ? -1 : 0;
  el['tab-scores'].tabIndex = view.open ? 0 : -1;
  el['tables-panel'].hidden = view.open;
  el['scores-panel'].hidden = !view.open;
  el['scores-title'].textContent = view.title;
  if (!view.open) return;
  el['scores-mine'].checked = view.mine;
  el['scores-caption'].textContent = view.caption;
  for (const { sort, ariaSort, mark } of view.sorts) {
    const th = el.scores.querySelector(`th[data-sort="${sort}"]`);
    th.setAttribute('aria-sort', ariaSort);
    th.querySelector('.sort-mark').textContent = mark;
  }
  el.scores.setAttribute('aria-busy', String(view.busy));
  const focusedRecord = document.activeElement?.closest?.('#scores-body tr[data-record]')?.dataset.record ?? null;
  el['scores-body'].replaceChildren(...view.rows.map(scoresRow));
  if (focusedRecord !== null) focusScoresRow(focusedRecord);
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
    if (p.you) li.append(' ', part('badge you-badge', 'you'));
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

function focusScoresRow(record) {
  const row = [...el['scores-body'].children].find((tr) => tr.dataset.record === record);
  row?.querySelector('button.replay')?.focus({ preventScroll: false });
}

// ---- Drawing: the replay of a finished game ---------------------------------------------------

function setUpReplay() {
  el['replay-back'].addEventListener('click', () => dispatch({ type: 'closeReplay' }));
  el['replay-export'].addEventListener('click', () => dispatch({ type: 'replayExport' }));
  el['replay-first'].addEventListener('click', () => dispatch({ type: 'replayStep', how: 'first' }));
  el['replay-prev'].addEventListener('click', () => dispatch({ type: 'replayStep', how: 'prev' }));
  el['replay-next'].addEventListener('click', () => dispatch({ type: 'replayStep', how: 'next' }));
  el['replay-last'].addEventListener('click', () => dispatch({ type: 'replayStep', how: 'last' }));
  el['replay-slider'].addEventListener('input', () => dispatch({ type: 'replayStep', how: Number(el['replay-slider'].value) }));
}

/** The step of the replay shown (controller.replay, as replay.js replayView says to show it): its
 * board (read-only), status line, scores, and where it is in the game. */
function renderReplay() {
  if (controller.replay === null) return;
  const view = replayView(controller.replay);
  el.replay.dataset.status = controller.replay.status;
  el['replay-message'].textContent = view.message;
  el['replay-message'].hidden = view.message === '';
  el['replay-title'].textContent = view.title;
  el['replay-meta'].textContent = view.meta;
  el['replay-step'].textContent = view.step;
  el['replay-time'].textContent = view.time;
  for (const id of ['replay-scoreboard', 'replay-status', 'replay-board-area']) el[id].hidden = !view.ready;
  el['replay-export'].disabled = !view.ready;
  el['replay-slider'].disabled = !view.ready;
  el['replay-first'].disabled = !view.canBack;
  el['replay-prev'].disabled = !view.canBack;
  el['replay-next'].disabled = !view.canForward;
  el['replay-last'].disabled = !view.canForward;
  // A step button that has just been disabled (the first or last move) hands the keyboard to the slider.
  if (document.activeElement?.matches?.('#replay button.step:disabled')) el['replay-slider'].focus();
  if (!view.ready) return;
  const table = view.table;
  replayBoard.setShape(boardShape(table.game, table.settings, table.board.length));
  replayBoard.render(table.board, [], { disabled: true, selectedBy: selectionsByCard(table), mySeat: null });
  if (table.status !== drawnReplayStatus) {
    drawnReplayStatus = table.status;
    renderStatus(el['replay-status'], table.status);
  }
  renderReplayScoreboard(table);
  const slider = el['replay-slider'];
  slider.max = String(view.last);
  slider.value = String(view.index);
  slider.setAttribute('aria-valuetext', view.sliderText);
}

function renderReplayScoreboard(table) {
  el['replay-scoreboard'].replaceChildren(
    ...table.players.map((p) => {
      const li = part('seat', '', 'li');
      li.dataset.seat = String(p.seat);
      li.classList.toggle('turn', table.turn === p.seat && !table.over);
      const swatch = part('swatch', '');
      swatch.setAttribute('aria-hidden', 'true');
      const sets = matchesText(table.game, p.matches) + (p.flips === undefined ? '' : ` · ${p.flips} ${p.flips === 1 ? 'flip' : 'flips'}`);
      li.append(swatch, part('name', p.name), part('score', String(p.score)), part('sets', sets));
      return li;
    }),
  );
}

/** Save a file the controller made (Export): a link to it, clicked. */
function download({ name, text, mime }) {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// ---- Keyboard, help, preferences --------------------------------------------------------------

/** The page-wide shortcuts (keys.js). The focused card's own keys (Enter, Space, arrows) are
 * board-view's; open dialogs keep their own keys (Escape closes them). */
function shortcut(event) {
  const target = event.target;
  const inField = target instanceof Element && target.closest('input, select, textarea, [contenteditable="true"]') !== null;
  if (!el.replay.hidden && !anyDialogOpen()) {
    // The replay's steps: ← → Home End (the slider, when focused, moves itself).
    const how = replayKey({ key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, altKey: event.altKey, inField });
    if (how !== null) {
      event.preventDefault();
      dispatch({ type: 'replayStep', how });
      return;
    }
  }
  const action = keyAction(
    { key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, altKey: event.altKey, repeat: event.repeat, inField },
    controller.state.table?.board.length ?? 0,
  );
  if (action === null) return;
  if (action.type === 'command' && action.name === 'help') {
    if (el.settings.open || el['confirm-redeal'].open || el['confirm-leave'].open) return;
    event.preventDefault();
    toggleHelp();
    return;
  }
  if (anyDialogOpen()) return;
  if (action.type === 'command' && action.name === 'mute') {
    setPref('sound', !prefs.sound);
    showToast(prefs.sound ? 'Sound on' : 'Sound off');
    return;
  }
  const table = controller.state.table;
  if (table === null || el.table.hidden) return;
  event.preventDefault();
  if (action.type === 'card') {
    if (!showingHistory) board.chooseIndex(action.index);
    return;
  }
  switch (action.name) {
    case 'clearAll':
      // Escape in the history view goes back to the table.
      if (showingHistory) showHistory(false);
      else dispatch({ type: 'unchoose', all: true });
      break;
    case 'clearLast':
      dispatch({ type: 'unchoose', all: false });
      break;
    case 'redeal':
      if (!el.redeal.hidden && !el.redeal.disabled) dispatch({ type: 'askRedeal' });
      break;
    case 'hint':
      if (!el.hint.hidden && !el.hint.disabled) dispatch({ type: 'hint' });
      break;
    case 'history':
      // The history view listens for this event (so anything else can open it too).
      document.dispatchEvent(new CustomEvent('history', { detail: { table: table.id } }));
      break;
    default:
      break;
  }
}

function anyDialogOpen() {
  return el.help.open || el.settings.open || el['confirm-redeal'].open || el['confirm-leave'].open;
}

function toggleHelp() {
  if (el.help.open) el.help.close();
  else el.help.showModal();
}

/** The shortcut list (keys.js SHORTCUTS) as text in <kbd> elements. */
function fillHelp() {
  el['help-list'].replaceChildren(
    ...SHORTCUTS.flatMap(({ keys, description }) => {
      const dt = document.createElement('dt');
      for (const key of keys) {
        if (key === '…') {
          dt.append(' … ');
          continue;
        }
        const kbd = document.createElement('kbd');
        kbd.textContent = key;
        dt.append(kbd, ' ');
      }
      const dd = document.createElement('dd');
      dd.textContent = description;
      return [dt, dd];
    }),
  );
}

function setPref(name, value) {
  prefs = savePref(storage(), prefs, name, value);
  applyPrefs();
}

/** Show the preferences: the theme on <html data-theme> (light | dark, data-theme-choice says
 * whether it follows the system), colour cues on <body class="color-cues">, the sound switch. */
function applyPrefs() {
  const root = document.documentElement;
  root.dataset.theme = resolveTheme(prefs.theme, systemDark?.matches === true);
  root.dataset.themeChoice = prefs.theme;
  document.body.classList.toggle('color-cues', prefs.colorCues);
  for (const radio of document.querySelectorAll('input[name="theme"]')) radio.checked = radio.value === prefs.theme;
  el['color-cues'].checked = prefs.colorCues;
  el.sound.checked = prefs.sound;
  sounds.enabled = prefs.sound;
}

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

// ---- Page state -------------------------------------------------------------------------------

function showView(view) {
  const wasReplay = !el.replay.hidden;
  el.lobby.hidden = view !== 'lobby';
  el.table.hidden = view !== 'table';
  el.replay.hidden = view !== 'replay';
  if (view === 'table') requestAnimationFrame(() => board.layout());
  if (view === 'replay' && !wasReplay) {
    requestAnimationFrame(() => replayBoard.layout());
    el['replay-back'].focus({ preventScroll: true });
  }
}

function showConnection(connectionState, detail) {
  const text = {
    idle: 'Not connected',
    connecting: 'Connecting…',
    online: 'Online',
    reconnecting: `Connection lost — retrying in ${Math.max(1, Math.round((detail.delay ?? 0) / 1000))} s`,
    stopped: 'Offline',
  }[connectionState];
  el.connection.dataset.state = connectionState;
  document.body.dataset.connection = connectionState;
  el.connection.textContent = text ?? connectionState;
}

/** Set the address without a history entry or a hashchange; null clears it (the lobby). */
function replaceHash(hash) {
  const url = `${window.location.pathname}${window.location.search}${hash ?? ''}`;
  if (`${window.location.pathname}${window.location.search}${window.location.hash}` !== url) {
    history.replaceState(null, '', url);
  }
}

function showToast(text) {
  el.toast.textContent = text;
  el.toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.toast.hidden = true;
  }, TOAST_MS);
}

function loadName() {
  try {
    return localStorage.getItem(NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Says under the name box what the server would refuse in the name typed, if anything, and
 * returns it (null when the name is fine). */
function showNameProblem() {
  const problem = messages.nameProblem(el.name.value);
  el['name-problem'].textContent = problem ?? '';
  el['name-problem'].hidden = problem === null;
  el.name.setAttribute('aria-invalid', problem === null ? 'false' : 'true');
  return problem;
}

function saveName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // No storage: the name is simply not remembered.
  }
}

function storedTable() {
  try {
    return sessionStorage.getItem(TABLE_KEY);
  } catch {
    return null;
  }
}

function rememberTable(code) {
  try {
    sessionStorage.setItem(TABLE_KEY, code ?? '');
  } catch {
    // See saveName.
  }
}

function forgetTable() {
  try {
    sessionStorage.removeItem(TABLE_KEY);
  } catch {
    // See saveName.
  }
}
