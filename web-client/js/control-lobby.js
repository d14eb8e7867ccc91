// The controller's lobby: the list of tables (subscribed to while no table is shown), the way
// into the lobby after a welcome (a share link, a replay's address) and back to it from a table.
// Functions of the controller (controller.js), which passes itself as `c`.

import * as messages from './messages.js';
import { applyLobbyDiff, applyLobbySnapshot, awaitLobby } from './lobby-state.js';
import { parseRoute } from './route.js';
import { joinByLink } from './control-session.js';
import { resetTable } from './control-table.js';
import { requestScores } from './control-scores.js';
import { requestDaily } from './control-daily.js';
import { refreshRatings } from './control-ratings.js';
import { withLatestList } from './scores.js';
import { openReplay, requestRecord } from './control-replay.js';

/** Ask for the lobby's list (and its diffs from then on). */
export function subscribeLobby(c, fx, ctx) {
  c.lobby = awaitLobby(c.lobby);
  const id = c.nextId();
  c.requests.replace(id, 'lobby');
  c.send(fx, ctx, messages.lobby(id), { quiet: true });
  fx.push({ type: 'renderLobby' });
}

/** Online without a table: list the tables, and follow a share link (or a replay's address) if
 * the address has one; ask again for what was asked while offline. */
export function enterLobby(c, fx, ctx) {
  subscribeLobby(c, fx, ctx);
  const route = parseRoute(ctx.hash ?? '');
  if (route.view === 'table') joinByLink(c, fx, ctx, route.code, route.game);
  else if (route.view === 'replay' && c.replay?.id !== route.record) openReplay(c, fx, ctx, route.record);
  else if (c.replay?.status === 'loading') requestRecord(c, fx, ctx);
  if (c.scores.open) requestScores(c, fx, ctx);
  refreshRatings(c, fx, ctx);
  if (c.daily.open) requestDaily(c, fx, ctx);
}

/** No table any more: back to the lobby's list (and its high scores, which may now hold the
 * game just played). */
export function backToLobby(c, fx, ctx) {
  resetTable(c, fx);
  fx.push({ type: 'forgetTable' }, { type: 'hash', hash: null }, { type: 'view', view: 'lobby' });
  if (ctx.connection === 'online') subscribeLobby(c, fx, ctx);
  else fx.push({ type: 'renderLobby' });
  c.scores = { ...c.scores, query: withLatestList(c.scores.query) };
  if (c.scores.open) requestScores(c, fx, ctx);
  refreshRatings(c, fx, ctx);
  if (c.daily.open) requestDaily(c, fx, ctx);
}

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
