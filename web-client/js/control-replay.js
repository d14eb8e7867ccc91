// The controller's replay of a finished game: opening it (from a row or an address), the `record`
// it waits on, stepping through it, Export, and back to the high scores of its game. Functions of
// the controller (controller.js), which passes itself as `c`.

import * as messages from './messages.js';
import { parseRoute, replayHash } from './route.js';
import { withGame } from './scores.js';
import { buildReplay, exportFile, stepTo } from './replay.js';
import { isKnownGame } from './games.js';
import { requestScores } from './control-scores.js';
import { ratingsForGame } from './control-ratings.js';

/** What a refused `record` says in the replay view. */
const RECORD_ERRORS = Object.freeze({
  unknownRecord: 'That game is not kept on this server.',
  unavailable: 'This server keeps no records.',
});

/** Show the replay of a finished game (an id from `scores`): loading until `record` answers.
 * The replay: {id, status: loading | ready | error, data (replay.js buildReplay), index (the step
 * shown), error}. */
export function openReplay(c, fx, ctx, id) {
  c.replay = { id, status: 'loading', data: null, index: 0, error: null };
  fx.push({ type: 'hash', hash: replayHash(id) }, { type: 'view', view: 'replay' });
  requestRecord(c, fx, ctx);
}

/** Ask for the replay's record (again: an answer lost with a connection). */
export function requestRecord(c, fx, ctx) {
  const id = c.nextId();
  c.requests.replace(id, 'record');
  c.send(fx, ctx, messages.record(id, c.replay.id), { quiet: true });
  fx.push({ type: 'renderReplay' });
}

/** No replay any more (a table was sat at, or the view closed): its record is not waited on. */
export function endReplay(c) {
  c.replay = null;
  c.requests.drop('record');
}

/** `record`: the game asked for, every step built once. */
export function recordAnswered(c, fx, message) {
  if (c.replay === null || c.requests.takeIf(message.replyTo, 'record') === null) return;
  let data;
  try {
    data = buildReplay(message);
  } catch (error) {
    fx.push({ type: 'warn', text: 'Unreadable record', error });
    c.replay = { ...c.replay, status: 'error', error: 'This game could not be read.' };
    fx.push({ type: 'renderReplay' });
    return;
  }
  c.replay = { ...c.replay, status: 'ready', data, index: 0, error: null };
  fx.push({ type: 'renderReplay' });
}

/** The `record` refused. `unavailable` has several reasons, which only the server's words tell apart. */
export function recordRefused(c, fx, message) {
  if (c.replay === null) return;
  const text = typeof message.message === 'string' ? message.message : null;
  const said = message.code === 'unavailable' ? text : null;
  c.replay = { ...c.replay, status: 'error', error: said ?? RECORD_ERRORS[message.code] ?? text ?? 'The server refused that.' };
  fx.push({ type: 'renderReplay' });
}

/** Leave the replay for the high scores of its game. */
export function closeReplay(c, fx, ctx, { hash = true } = {}) {
  if (c.replay === null) return;
  const { id, data } = c.replay;
  endReplay(c);
  const game = isKnownGame(data?.record.game) ? data.record.game : (ctx.game ?? c.scores.query.game);
  if (hash) fx.push({ type: 'hash', hash: null });
  fx.push({ type: 'view', view: 'lobby' });
  if (game !== ctx.game) fx.push({ type: 'lobbyGame', game });
  const next = withGame(c.scores.query, game);
  const stale = !c.scores.open || next !== c.scores.query || c.scores.status !== 'ready';
  c.scores = { ...c.scores, open: true, query: next };
  if (stale) requestScores(c, fx, ctx);
  else fx.push({ type: 'renderScores' });
  ratingsForGame(c, fx, ctx);
  fx.push({ type: 'focusRow', record: id });
}

/** The replay's events: each takes the controller, the event and the effects. */
export const REPLAY_HANDLERS = {
  /** A row's Replay button: {record} (the game's id). */
  openReplay(c, event, fx) {
    if (typeof event.record !== 'string' || event.record === '' || c.state.table !== null) return;
    openReplay(c, fx, event, event.record);
  },

  /** A step control of the replay: {how: first | prev | next | last | <the slider's number>}. */
  replayStep(c, event, fx) {
    const replay = c.replay;
    if (replay === null || replay.status !== 'ready') return;
    const index = stepTo(replay.data, replay.index, event.how);
    if (index === replay.index) return;
    c.replay = { ...replay, index };
    fx.push({ type: 'renderReplay' });
  },

  /** Export: the record as a JSON file. */
  replayExport(c, event, fx) {
    if (c.replay?.status !== 'ready') return;
    fx.push({ type: 'download', ...exportFile(c.replay.data.record) });
  },

  /** "Back to high scores". */
  closeReplay(c, event, fx) {
    closeReplay(c, fx, event);
  },
};

/** What the replay does with the news: entering the lobby opens the address's replay, or asks
 * again for the record a replay was loading when the connection dropped. */
export const REPLAY_NEWS = {
  lobby(c, fx, ctx, how) {
    if (how !== 'enter') return;
    const route = parseRoute(ctx.hash ?? '');
    if (route.view === 'table') return; // the session follows a share link
    if (route.view === 'replay' && c.replay?.id !== route.record) openReplay(c, fx, ctx, route.record);
    else if (c.replay?.status === 'loading') requestRecord(c, fx, ctx);
  },
};
