// What each of the controller's effects (controller.js lists them) does on this page: one
// handler per effect type, for effects.js runEffects. Each handler only carries the effect out
// on the view, the connection, the storage or the timers it concerns; none decides anything.

import { forgetTable, rememberTable, saveDailyPlayed, saveMuted, saveName } from './storage.js';
import { download } from './replay-view.js';
import { redirectTarget } from './net.js';

/**
 * The handlers. `connection` (net.js), `timers` (effects.js Timers), `storage` ({local, session}),
 * `sounds` (sound-player.js) and the views: page, lobby, table, scores, replay, dialogs, chat,
 * arenas (the Arenas tab) and arenaDialog.
 */
export function effectHandlers({ connection, timers, storage, sounds, views }) {
  const { page, lobby, table, scores, replay, dialogs, chat, arenas, arenaDialog } = views;
  return {
    send: (e) => connection.send(e.message),
    toast: (e) => page.toast(e.text),
    announce: (e) => page.announce(e.text),
    connect: () => {
      connection.start();
      connection.retryNow();
    },
    restart: () => connection.restart(),
    redirect: (e) => connection.moveTo(redirectTarget(e.redirect, connection.url)),
    nameProblem: (e) => lobby.pointAtName(e.text),
    saveName: (e) => saveName(storage.local, e.name),
    setName: (e) => lobby.setName(e.name),
    focus: (e) => document.getElementById(e.target)?.focus(),
    view: (e) => page.showView(e.view),
    render: () => {
      table.render();
      views.practice.render();
    },
    renderPractice: () => views.practice.render(),
    renderLobby: () => lobby.render(),
    renderScores: () => scores.render(),
    renderReplay: () => replay.render(),
    renderChat: () => chat.render(),
    renderArenas: () => {
      arenas.render();
      arenaDialog.render();
      if (table.shown) table.renderClock(); // the arena bar
    },
    arenaDialog: (e) => arenaDialog.set(e.open),
    clearChatInput: (e) => chat.clearInput(e.where, e.text),
    closeHistory: () => table.history.show(false),
    saveMuted: (e) => saveMuted(storage.local, e.names),
    saveDailyPlayed: (e) => saveDailyPlayed(storage.local, e.played),
    lobbyGame: (e) => lobby.pick(e.game, { quiet: true }),
    games: () => {
      lobby.gamesLearned();
      scores.render();
      arenas.render();
      if (table.shown) table.render();
    },
    focusRow: (e) => scores.focusRow(e.record),
    download: (e) => download(e),
    hash: (e) => page.replaceHash(e.hash),
    rememberTable: (e) => rememberTable(storage.session, e.code),
    forgetTable: () => forgetTable(storage.session),
    timer: (e) => timers.start(e.name, e.ms, e.id),
    cancelTimer: (e) => timers.cancel(e.name),
    sound: (e) => sounds.play(e.name),
    flash: (e) => {
      table.board.flash(e.cards, e.kind, e.ms);
      table.chain.flash(e.cards, e.kind, e.ms);
    },
    markPending: (e) => {
      table.board.markPending(e.card);
      table.chain.markPending(e.card);
    },
    clearPending: () => {
      table.board.clearPending();
      table.chain.clearPending();
    },
    measureMatches: (e) => table.measureMatches(e.table, e.matches),
    showMatches: () => table.showMatches(),
    tableChanged: () => table.tableChanged(),
    leftTable: () => {
      table.leftTable();
      dialogs.set('confirm-redeal', false);
    },
    dialog: (e) => dialogs.set(e.name, e.open, e.text),
    inviteName: (e) => lobby.askInviteName(e.game),
    inviteProblem: (e) => lobby.inviteProblem(e.text),
    settingsProblem: (e) => lobby.settingsProblem(e.text),
    tablesEmpty: (e) => lobby.tablesEmpty(e.text),
    warn: (e) => console.warn(e.text, e.error),
  };
}
