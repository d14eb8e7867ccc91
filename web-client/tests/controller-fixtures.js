// Shared by the controller's tests (control-*.test.js): a controller with predictable ids, a
// table to sit at, and the server's answers they use.

import { Controller } from '../js/controller.js';
import { cardFromId } from '../js/set-cards.js';

export const NOW = 5_000_000;
// A board with exactly one set among its first three cards: 0, 1, 2 differ only in count.
export const BOARD = [0, 1, 2, 4, 12, 40, 44, 50, 55, 60, 70, 77];

/** A controller with predictable ids (1, 2, 3…), and a way to send it events with a context. */
export function setUp({ typed = 'Ada', connection = 'online', hash = '', storedTable = null } = {}) {
  let id = 0;
  const controller = new Controller({ nextId: () => ++id });
  const ctx = { now: NOW, connection, typed, hash, storedTable };
  const send = (event, more = {}) => controller.dispatch({ ...ctx, ...more, ...event });
  return { controller, ctx, send };
}

export const types = (fx) => fx.map((e) => e.type);
export const sent = (fx) => fx.filter((e) => e.type === 'send').map((e) => e.message);
export const toasts = (fx) => fx.filter((e) => e.type === 'toast').map((e) => e.text);

export function table(extra = {}) {
  return {
    id: 't7',
    game: 'set',
    version: 20,
    you: 1,
    over: false,
    deckCount: 69,
    settings: { boardSize: 12 },
    board: BOARD.map(cardFromId),
    players: [
      { seat: 0, name: 'Bo', score: 3, matches: 1, selection: [], connected: true },
      { seat: 1, name: 'Ada', score: 0, matches: 0, selection: [], connected: true },
    ],
    status: [],
    phase: 'playing',
    code: 'ABCD234XYZ',
    seats: 2,
    host: 0,
    spectators: 0,
    ...extra,
  };
}

/** A controller online under "Ada", seated at table() (or the table given). */
export function seated(extra = {}, options = {}) {
  const t = setUp(options);
  t.send({ type: 'hello' });
  t.send({ type: 'message', message: { type: 'welcome', resumed: false } });
  t.send({ type: 'message', message: { type: 'snapshot', table: table(extra) } });
  return t;
}

export const diff = (version, events, more = {}) => ({ type: 'message', message: { type: 'diff', table: 't7', version, events, ...more } });

/** A controller online in the lobby (pages of 3), with the lobby's `lobby` request answered. */
export function inLobby(options = {}) {
  let id = 0;
  const controller = new Controller({ nextId: () => ++id, pageSize: 3 });
  const ctx = { now: NOW, connection: 'online', typed: 'Ada', hash: '', storedTable: null, game: 'concentration', ...options };
  const send = (event, more = {}) => controller.dispatch({ ...ctx, ...more, ...event });
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome', resumed: false } });
  return { controller, send };
}

export const scoresAnswer = (replyTo, extra = {}) => ({
  type: 'message',
  message: {
    type: 'scores', replyTo, game: 'concentration', sort: 'date', order: 'desc', page: 0, pageSize: 3, total: 5,
    games: [
      { id: 'g5', endedAt: '2026-11-24T07:12:40Z', seconds: 31.2, seats: 1, score: 4, mine: true, players: [{ name: 'Ada', score: 4, matches: 4, rank: 1, you: true }] },
      { id: 'g4', endedAt: '2026-11-24T07:10:00Z', seconds: 20.5, seats: 1, score: 2, mine: false, players: [{ name: 'Bo', score: 2, matches: 4, rank: 1 }] },
    ],
    best: { id: 'g5', score: 4 },
    shortest: { id: 'g1', seconds: 9.9 },
    ...extra,
  },
});

/** A tiny finished game: one Set board and one diff. */
export const recordAnswer = (replyTo) => ({
  type: 'message',
  message: {
    type: 'record',
    replyTo,
    record: { id: 'g4', game: 'set', seconds: 20.5, players: [{ seat: 0, name: 'Bo', score: 1, matches: 1, mistakes: 0, rank: 1 }], moves: [{ seat: 0, card: 0, at: 1.5 }] },
    replay: {
      table: { ...table({ id: 'g4', version: 0, you: undefined, players: [{ seat: 0, name: 'Bo', score: 0, matches: 0, selection: [] }] }) },
      diffs: [{ type: 'diff', table: 'g4', version: 1, seat: 0, events: [{ kind: 'select', seat: 0, card: 0 }], status: [{ text: 'Bo chose' }] }],
    },
  },
});
