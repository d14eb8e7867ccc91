// Wires the page together: the connection (net.js), the table state (table-state.js), and the
// views (board-view.js, status-view.js). All decisions about the game are the server's; this file
// sends the player's intentions and draws what comes back.

import * as messages from './messages.js';
import { Connection } from './net.js';
import { applyDiff, applySnapshot, applyStatus, initialState, myPlayer, mySelection } from './table-state.js';
import { BoardView } from './board-view.js';
import { renderStatus } from './status-view.js';
import { readPalette } from './card-view.js';
import { findSets, isValidCard } from './set-cards.js';

const NAME_KEY = 'matchismo.name';
const TOAST_MS = 3500;
const HINT_MS = 2500;
const PENDING_MS = 3000;

const el = Object.fromEntries(
  [
    'connection', 'home', 'home-form', 'name', 'play-solo', 'table', 'score', 'matches', 'deck', 'status',
    'board', 'board-area', 'hint', 'redeal', 'gameover', 'standings', 'play-again', 'confirm-redeal',
    'confirm-redeal-yes', 'confirm-redeal-no', 'toast',
  ].map((id) => [id, document.getElementById(id)]),
);

let state = initialState();
let helloName = null; // the name sent in this connection's hello
let playWanted = false; // "Play Set" was clicked; send playSolo once we are online
let drawnStatus = null; // the runs array last drawn, to skip redrawing an unchanged line
let toastTimer = null;
let hint = { key: '', shown: 0 };
const pendingChoices = new Map(); // choose message id → card id
const nextId = messages.createIdSource();

const board = new BoardView(el.board, el['board-area'], { onChoose: choose, palette: readPalette() });

const connection = new Connection({
  url: messages.socketURL(window.location),
  nextId,
  name: () => {
    helloName = messages.normalizeName(el.name.value);
    return helloName;
  },
  onMessage: receive,
  onState: showConnection,
});

el.name.value = loadName();
el['home-form'].addEventListener('submit', (event) => {
  event.preventDefault();
  play();
});
el.redeal.addEventListener('click', () => el['confirm-redeal'].showModal());
el['confirm-redeal-no'].addEventListener('click', () => el['confirm-redeal'].close());
el['confirm-redeal-yes'].addEventListener('click', () => {
  el['confirm-redeal'].close();
  send(messages.redeal(nextId()));
});
el['play-again'].addEventListener('click', () => send(messages.redeal(nextId())));
el.hint.addEventListener('click', showHint);
window.addEventListener('online', () => connection.retryNow());

connection.start();

// ---- Intentions -------------------------------------------------------------------------------

function play() {
  const name = messages.normalizeName(el.name.value);
  saveName(name);
  playWanted = true;
  if (connection.state === 'online' && name !== helloName) {
    connection.restart(); // hello is once per connection: a new name needs a new session
  } else if (connection.state === 'online') {
    sendPlay();
  } else {
    connection.start();
    showToast('Connecting to the server…');
  }
}

function sendPlay() {
  playWanted = false;
  send(messages.playSolo(nextId(), 'set'));
}

function choose(cardId) {
  if (state.table === null || state.table.over) return;
  const id = nextId();
  if (send(messages.choose(id, cardId))) {
    pendingChoices.set(id, cardId);
    board.markPending(cardId);
    setTimeout(() => settle(id, state.table?.you), PENDING_MS); // in case the answer never comes
  }
}

function send(message) {
  if (connection.send(message)) return true;
  showToast('Not connected to the server — reconnecting…');
  return false;
}

function showHint() {
  const table = state.table;
  if (table === null) return;
  const sets = findSets(table.board.filter(isValidCard));
  if (sets.length === 0) {
    showToast('No set on this board.');
    return;
  }
  const key = table.board.map((c) => c.id).join(',');
  hint = { key, shown: hint.key === key ? Math.min(2, hint.shown + 1) : 1 };
  board.flash(sets[0].slice(0, hint.shown).map((c) => c.id), 'hint', HINT_MS);
}

// ---- Messages from the server -----------------------------------------------------------------

function receive(message) {
  switch (message.type) {
    case 'welcome':
      if (message.resumed !== true && state.table !== null) {
        state = initialState();
        showView('home');
        showToast('The connection was lost and the game with it. Start a new one!');
      }
      if (playWanted && helloName !== messages.normalizeName(el.name.value)) {
        connection.restart(); // the name was edited while this hello was on its way
      } else if (playWanted) {
        sendPlay();
      }
      break;
    case 'snapshot':
      try {
        state = applySnapshot(message.table);
      } catch (error) {
        console.warn('Unreadable snapshot', error);
        return;
      }
      pendingChoices.clear();
      board.clearPending();
      showView('table');
      render();
      break;
    case 'diff': {
      const result = applyDiff(state, message);
      state = result.state;
      if (result.resync) {
        send(messages.resync(nextId()));
        return;
      }
      settle(message.replyTo, message.seat);
      render();
      if (state.table !== null && message.seat === state.table.you && Array.isArray(message.events)) {
        for (const event of message.events) {
          if (event.kind === 'mismatch' && Array.isArray(event.cards)) board.flash(event.cards, 'mismatch', 450);
        }
      }
      break;
    }
    case 'status':
      state = applyStatus(state, message);
      renderStatusLine();
      break;
    case 'error':
      settle(message.replyTo, state.table?.you);
      showToast(typeof message.message === 'string' ? message.message : 'The server refused that.');
      if (state.table !== null && (message.code === 'cardNotOnTable' || message.code === 'gameOver')) {
        // We showed a card (or a live game) the server no longer has: our copy is stale.
        send(messages.resync(nextId()));
      } else if (state.table !== null && message.code === 'notAtTable') {
        state = initialState();
        showView('home');
      }
      break;
    default:
      break; // Messages of later versions (lobby, history…) are not shown yet.
  }
}

/** Forget a pending choice once the server has answered it. */
function settle(replyTo, seat) {
  if (seat !== state.table?.you || !pendingChoices.has(replyTo)) return;
  pendingChoices.delete(replyTo);
  if (pendingChoices.size === 0) board.clearPending();
}

// ---- Drawing ----------------------------------------------------------------------------------

function render() {
  const table = state.table;
  if (table === null) return;
  board.render(table.board, mySelection(state), { disabled: table.over });
  const me = myPlayer(state);
  el.score.textContent = String(me?.score ?? 0);
  el.matches.textContent = String(me?.matches ?? 0);
  el.deck.textContent = String(table.deckCount);
  renderStatusLine();
  renderGameOver(table);
}

function renderStatusLine() {
  const runs = state.table?.status ?? [];
  if (runs === drawnStatus) return;
  drawnStatus = runs;
  renderStatus(el.status, runs);
}

function renderGameOver(table) {
  const over = table.over && Array.isArray(table.standings);
  const wasHidden = el.gameover.hidden;
  el.gameover.hidden = !over;
  el.hint.disabled = table.over;
  if (!over) return;
  el.standings.replaceChildren(
    ...table.standings.map((s) => {
      const li = document.createElement('li');
      li.dataset.seat = String(s.seat);
      if (s.seat === table.you) li.classList.add('you');
      li.append(
        span('rank', `${s.rank}.`),
        span('name', String(s.name ?? '')),
        span('score', `${s.score} points`),
        span('detail', `${s.matches} ${s.matches === 1 ? 'set' : 'sets'} found`),
      );
      return li;
    }),
  );
  if (wasHidden) el['play-again'].focus();
}

function span(className, text) {
  const s = document.createElement('span');
  s.className = className;
  s.textContent = text;
  return s;
}

function showView(view) {
  el.home.hidden = view !== 'home';
  el.table.hidden = view !== 'table';
  if (view === 'table') requestAnimationFrame(() => board.layout());
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
  if (connectionState === 'reconnecting') {
    pendingChoices.clear();
    board.clearPending();
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

function saveName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // No storage: the name is simply not remembered.
  }
}
