// Wires the page together and decides nothing: the connection (net.js), the decisions
// (controller.js: what a message, a click, a key or a timer leads to), the screens (lobby-view,
// table-view with its pinch.js, scores-view, arenas-view, arena-dialog-view, replay-view,
// dialogs-view, page-view), the keyboard
// (keyboard.js) and the storage (storage.js). Every event goes to the controller with the page's
// context; the effects it returns are carried out by effects.js with effect-handlers.js.

import * as messages from './messages.js';
import { Connection } from './net.js';
import { Controller } from './controller.js';
import { runEffects, Timers } from './effects.js';
import { effectHandlers } from './effect-handlers.js';
import { loadDailyPlayed, loadMuted, pageStorage, storedTable } from './storage.js';
import { loadPlayer } from './player.js';
import { gamesAsked } from './games.js';
import { pageSizeOf } from './scores.js';
import { SoundPlayer } from './sound-player.js';
import { LobbyView } from './lobby-view.js';
import { TableView } from './table-view.js';
import { ScoresView } from './scores-view.js';
import { ReplayView } from './replay-view.js';
import { DialogsView } from './dialogs-view.js';
import { PageView } from './page-view.js';
import { ChatView } from './chat-view.js';
import { ArenasView } from './arenas-view.js';
import { ArenaDialogView } from './arena-dialog-view.js';
import { listenForShortcuts } from './keyboard.js';
import { HowToPlayView } from './how-to-play-view.js';
import { PracticeView } from './practice-view.js';
import { loadPractice } from './practice.js';

const storage = pageStorage(window);
const nextId = messages.createIdSource();
// `?pageSize=N` (1–50) sets how many finished games a page of the high scores shows.
const controller = new Controller({
  nextId,
  pageSize: pageSizeOf(new URLSearchParams(window.location.search).get('pageSize')),
  muted: loadMuted(storage.local),
  practice: loadPractice(storage.local),
  dailyPlayed: loadDailyPlayed(storage.local),
});
/** This browser's player token (player.js): sent in every hello, for "Only my games". */
const player = loadPlayer(storage.local);
// Muted or not as the preferences say (dialogs-view.js applies them).
const sounds = new SoundPlayer({ enabled: true });
const timers = new Timers((name, id) => dispatch({ type: 'timer', name, id }));
/** The screens (filled in below, once the connection they report to exists). */
const views = {};

const connection = new Connection({
  url: messages.socketURL(window.location),
  nextId,
  name: () => {
    dispatch({ type: 'hello' });
    return controller.helloName;
  },
  player: () => player,
  games: gamesAsked,
  version: () => {
    const { table, awaitingSnapshot } = controller.state;
    return table !== null && !awaitingSnapshot ? table.version : null;
  },
  // The session lives in localStorage: a new tab of this browser takes the game back (the old
  // tab is told, close 4001), and a reload or a restart of the server resumes it.
  storage: storage.local ?? undefined,
  onMessage: (message) => dispatch({ type: 'message', message }),
  onState: (state, detail) => {
    views.page.showConnection(state, detail);
    dispatch({ type: 'connection', state, detail });
  },
});

views.dialogs = new DialogsView({ dispatch, local: storage.local, sounds, toast: (text) => views.page.toast(text) });
views.scores = new ScoresView({ controller, dispatch });
views.lobby = new LobbyView({
  controller,
  dispatch,
  local: storage.local,
  // The high scores and the game of a new arena follow the game picked.
  onGame: () => {
    views.scores.render();
    views.arenas?.render();
  },
});
views.table = new TableView({ controller, dispatch, dialogOpen: () => views.dialogs.anyOpen() });
views.replay = new ReplayView({ controller, dispatch });
views.chat = new ChatView({ controller, dispatch });
views.arenas = new ArenasView({ controller, dispatch, game: () => views.lobby.game });
views.arenaDialog = new ArenaDialogView({ controller, dispatch, toast: (text) => views.page.toast(text) });
views.page = new PageView({ table: views.table, replay: views.replay });
views.howTo = new HowToPlayView({ lobbyGame: () => views.lobby.game, tableGame: () => controller.state.table?.game ?? null });
views.practice = new PracticeView({
  controller,
  dispatch,
  local: storage.local,
  game: () => controller.state.table?.game ?? views.lobby.game,
});
const handlers = effectHandlers({ connection, timers, storage, sounds, views });

views.lobby.pick(views.lobby.game);
listenForShortcuts({ controller, dispatch, views });
window.addEventListener('online', () => connection.retryNow());
window.addEventListener('hashchange', () => dispatch({ type: 'route' }));

views.page.showView('lobby');
views.lobby.render();
views.chat.render(); // the names muted before, offered to unmute
connection.start();

/** Hand `event` to the controller with what it needs to know of the page, and carry out the
 * effects it returns. Returns them (a form needs to know whether to stay open). */
function dispatch(event) {
  const effects = controller.dispatch({
    now: Date.now(),
    connection: connection.state,
    typed: views.lobby.typed(),
    hash: window.location.hash,
    storedTable: storedTable(storage.session),
    game: views.lobby.game,
    ...event,
  });
  const unsent = runEffects(effects, handlers);
  // A message the connection could not send after all: a choice must not stay pending.
  if (unsent.length > 0) dispatch({ type: 'unsent', ids: unsent });
  return effects;
}
