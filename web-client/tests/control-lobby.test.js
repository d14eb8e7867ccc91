// The controller's lobby: the list of tables, a refused join turned into watching, refusals
// said by the lobby's form and list.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setUp, types, sent, toasts, table, seated } from './controller-fixtures.js';

test('a full or started table offered by a join turns into watching', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome' } });
  send({ type: 'joinCode', raw: 'ABCD234XYZ' }); // id 2
  const fx = send({ type: 'message', message: { type: 'error', replyTo: 2, code: 'tableFull', message: 'Full.' } });
  assert.deepEqual(toasts(fx), ['That table is full — watching instead.']);
  assert.deepEqual(sent(fx), [{ type: 'spectate', id: 3, code: 'ABCD234XYZ' }]);
  send({ type: 'joinCode', raw: 'ABCD234XYZ' }); // id 4
  const unknown = send({ type: 'message', message: { type: 'error', replyTo: 4, code: 'unknownTable', message: 'No such table.' } });
  assert.deepEqual(types(unknown), ['hash', 'toast']);
});

test('refused settings are shown by the form; a refused lobby subscription says so', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome' } }); // lobby id 1
  const bad = send({ type: 'message', message: { type: 'error', replyTo: 5, code: 'badSettings', message: 'boardSize: 13 is not allowed' } });
  assert.deepEqual(bad[0], { type: 'settingsProblem', text: 'boardSize: 13 is not allowed' });
  const lobby = send({ type: 'message', message: { type: 'error', replyTo: 1, code: 'badRequest', message: 'no' } });
  assert.deepEqual(lobby, [{ type: 'tablesEmpty', text: 'This server does not list tables.' }]);
});

// ---- The lobby list -----------------------------------------------------------------------------

test('lobby snapshots and diffs are drawn; a gap resubscribes; at a table they are ignored', () => {
  const { controller, send } = setUp();
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome' } });
  const t1 = { id: 't1', game: 'set', seats: 2, seated: 1, spectators: 0, phase: 'waiting' };
  const snap = send({ type: 'message', message: { type: 'lobbySnapshot', replyTo: 1, version: 4, tables: [t1] } });
  assert.deepEqual(snap, [{ type: 'renderLobby' }]);
  assert.equal(controller.lobby.tables.length, 1);
  const gap = send({ type: 'message', message: { type: 'lobbyDiff', version: 9, changes: [] } });
  assert.deepEqual(sent(gap), [{ type: 'lobby', id: 2 }]);
  const atTable = seated();
  assert.deepEqual(atTable.send({ type: 'message', message: { type: 'lobbySnapshot', version: 1, tables: [] } }), []);
});

test('an unknown event is a programming error', () => {
  assert.throws(() => setUp().send({ type: 'nonsense' }), /unknown event/);
});
