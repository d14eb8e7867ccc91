// The controller's lobby: the list of tables, subscribed to while no table is shown — when the
// page enters the lobby after a welcome, comes back to it from a table, or waits there for an
// intention (news.js `lobby`, which this concern listens to) — and a refused join turned into
// watching. Functions of the controller (controller.js), which passes itself as `c`.

import * as messages from './messages.js';
import { applyLobbyDiff, applyLobbySnapshot, awaitLobby } from './lobby-state.js';

/** Ask for the lobby's list (and its diffs from then on). */
export function subscribeLobby(c, fx, ctx) {
  c.lobby = awaitLobby(c.lobby);
  const id = c.nextId();
  c.requests.replace(id, 'lobby');
  c.send(fx, ctx, messages.lobby(id), { quiet: true });
  fx.push({ type: 'renderLobby' });
}

/** What the lobby does with the news: in the lobby, the list is asked for (back from a table
 * while offline, the list shown waits for the next welcome). */
export const LOBBY_NEWS = {
  lobby(c, fx, ctx, how) {
    if (how === 'back' && ctx.connection !== 'online') fx.push({ type: 'renderLobby' });
    else subscribeLobby(c, fx, ctx);
  },
};

/** `lobbySnapshot`: the whole list (ignored at a table). */
export function lobbySnapshot(c, fx, message) {
  if (c.state.table !== null) return;
  try {
    c.lobby = applyLobbySnapshot(message);
  } catch (error) {
    fx.push({ type: 'warn', text: 'Unreadable lobby snapshot', error });
    return;
  }
  fx.push({ type: 'renderLobby' });
}

/** `lobbyDiff`: the list's changes; a gap asks for the list again. */
export function lobbyDiff(c, fx, ctx, message) {
  if (c.state.table !== null) return;
  const result = applyLobbyDiff(c.lobby, message);
  c.lobby = result.state;
  if (result.resync) subscribeLobby(c, fx, ctx);
  else fx.push({ type: 'renderLobby' });
}

/** The `lobby` request refused: this server does not list tables. */
export function lobbyRefused(c, fx) {
  fx.push({ type: 'tablesEmpty', text: 'This server does not list tables.' });
}

/** A `join` refused: a full or started table is watched instead (true: handled). Otherwise the
 * share link that asked for it is cleared from the address. */
export function joinRefused(c, fx, ctx, message, { code }) {
  if (message.code === 'alreadyStarted' || message.code === 'tableFull') {
    fx.push({
      type: 'toast',
      text: message.code === 'tableFull' ? 'That table is full — watching instead.' : 'That game has started — watching instead.',
    });
    c.send(fx, ctx, messages.spectate(c.nextId(), { code }));
    return true;
  }
  if (c.state.table === null) fx.push({ type: 'hash', hash: null });
  return false;
}
