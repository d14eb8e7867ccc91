import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyLobbyDiff,
  applyLobbySnapshot,
  awaitLobby,
  gameLabel,
  initialLobby,
  phaseLabel,
  listingPlayers,
  seatsLabel,
} from '../js/lobby-state.js';

// A listing as the client keeps it (every field the server may leave out filled in).
const listed = (t) => ({ players: [], settings: null, turnSeconds: null, ...t });
const t7 = listed({ id: 't7', game: 'set', seats: 4, seated: 2, spectators: 1, phase: 'waiting' });
const t5 = listed({ id: 't5', game: 'set', seats: 2, seated: 2, spectators: 0, phase: 'playing' });
const snap = () => applyLobbySnapshot({ type: 'lobbySnapshot', replyTo: 3, version: 12, tables: [t7, t5] });

test('the initial lobby waits for a snapshot and ignores diffs', () => {
  const s = initialLobby();
  assert.deepEqual(s, { version: null, tables: [], awaitingSnapshot: true });
  const r = applyLobbyDiff(s, { type: 'lobbyDiff', version: 1, changes: [{ op: 'remove', id: 't1' }] });
  assert.equal(r.resync, false);
  assert.equal(r.state, s);
});

test('a snapshot lists the tables in order with their version', () => {
  const s = snap();
  assert.equal(s.version, 12);
  assert.equal(s.awaitingSnapshot, false);
  assert.deepEqual(s.tables, [t7, t5]);
  assert.throws(() => applyLobbySnapshot({ type: 'lobbySnapshot', tables: [] }), TypeError);
});

test('the example diff of PROTOCOL.md: upsert t7, remove t5', () => {
  const s = snap();
  const r = applyLobbyDiff(s, {
    type: 'lobbyDiff',
    version: 13,
    changes: [{ op: 'upsert', table: { ...t7, seated: 3 } }, { op: 'remove', id: 't5' }],
  });
  assert.equal(r.resync, false);
  assert.equal(r.state.version, 13);
  assert.deepEqual(r.state.tables, [{ ...t7, seated: 3 }]);
  assert.deepEqual(s.tables, [t7, t5], 'the input is not modified');
});

test('a new table is appended; removing an unknown id is harmless', () => {
  const t9 = { id: 't9', game: 'set', seats: 8, seated: 1, spectators: 0, phase: 'waiting' };
  const r = applyLobbyDiff(snap(), { version: 13, changes: [{ op: 'upsert', table: t9 }, { op: 'remove', id: 'zz' }] });
  assert.deepEqual(r.state.tables.map((t) => t.id), ['t7', 't5', 't9']);
});

test('duplicates (version <= ours) are ignored', () => {
  const s = snap();
  for (const version of [12, 11, 0]) {
    const r = applyLobbyDiff(s, { version, changes: [{ op: 'remove', id: 't7' }] });
    assert.equal(r.resync, false);
    assert.equal(r.state, s);
  }
});

test('a gap asks for a new snapshot and ignores diffs until it comes', () => {
  const s = snap();
  const gap = applyLobbyDiff(s, { version: 14, changes: [{ op: 'remove', id: 't7' }] });
  assert.equal(gap.resync, true);
  assert.equal(gap.state.awaitingSnapshot, true);
  assert.equal(gap.state.version, 12);
  assert.deepEqual(gap.state.tables.map((t) => t.id), ['t7', 't5'], 'the old list stays on screen meanwhile');
  const next = applyLobbyDiff(gap.state, { version: 13, changes: [{ op: 'remove', id: 't5' }] });
  assert.equal(next.resync, false);
  assert.equal(next.state, gap.state);
  const fresh = applyLobbySnapshot({ version: 14, tables: [t5] });
  assert.deepEqual(fresh.tables, [t5]);
  assert.equal(applyLobbyDiff(fresh, { version: 15, changes: [] }).state.version, 15);
});

test('an unreadable diff asks for a new snapshot', () => {
  for (const bad of [
    { version: 13 },
    { version: 'x', changes: [] },
    { version: 13, changes: [{ op: 'move', id: 't7' }] },
    { version: 13, changes: [{ op: 'upsert', table: { game: 'set' } }] },
  ]) {
    const r = applyLobbyDiff(snap(), bad);
    assert.equal(r.resync, true, JSON.stringify(bad));
    assert.equal(r.state.version, 12);
  }
  assert.equal(awaitLobby(snap()).awaitingSnapshot, true);
});

test('labels', () => {
  assert.equal(seatsLabel(t7), '2/4');
  assert.equal(phaseLabel('waiting'), 'Waiting');
  assert.equal(phaseLabel('countdown'), 'Starting');
  assert.equal(phaseLabel('playing'), 'Playing');
  assert.equal(phaseLabel('finished'), 'Finished');
  assert.equal(gameLabel('set'), 'Set');
});

test('each game lists only its own tables, in order', async () => {
  const { tablesOf } = await import('../js/lobby-state.js');
  const tables = [
    { id: 't1', game: 'set' }, { id: 't2', game: 'matchismo' }, { id: 't3', game: 'set' },
    { id: 't4', game: 'concentration' },
  ];
  assert.deepEqual(tablesOf(tables, 'set').map((t) => t.id), ['t1', 't3']);
  assert.deepEqual(tablesOf(tables, 'concentration').map((t) => t.id), ['t4']);
  assert.deepEqual(tablesOf(tables, 'matchismo').map((t) => t.id), ['t2']);
});

test('a listed table offers Join only while it waits and has a seat', async () => {
  const { joinable } = await import('../js/lobby-state.js');
  assert.equal(joinable({ phase: 'waiting', seated: 1, seats: 2 }), true);
  assert.equal(joinable({ phase: 'waiting', seated: 2, seats: 2 }), false);
  assert.equal(joinable({ phase: 'playing', seated: 1, seats: 2 }), false);
});

test('a listing carries who sits there and the table settings (issue 21); bad ones are dropped', () => {
  const row = {
    id: 't3', game: 'set', seats: 4, seated: 2, spectators: 0, phase: 'waiting',
    players: [{ name: 'Ada' }, { name: 'Bob', away: true }, null, { name: 7 }, { name: '' }],
    settings: { scoring: 'classic', boardSize: 12 },
    turnSeconds: 30,
  };
  const s = applyLobbySnapshot({ version: 1, tables: [row] });
  const t = s.tables[0];
  assert.deepEqual(t.players, [{ name: 'Ada', away: false }, { name: 'Bob', away: true }, { name: '', away: false }]);
  assert.deepEqual(t.settings, { scoring: 'classic', boardSize: 12 });
  assert.equal(t.turnSeconds, 30);
  assert.deepEqual(listingPlayers(t), [
    { name: 'Ada', away: false, rating: null },
    { name: 'Bob', away: true, rating: null },
    { name: 'Player 3', away: false, rating: null },
  ]);
  assert.deepEqual(listingPlayers(listed({ id: 'x' })), []);
  const odd = applyLobbySnapshot({ version: 1, tables: [{ id: 'y', players: 'Ada', settings: [1], turnSeconds: -1 }] }).tables[0];
  assert.deepEqual([odd.players, odd.settings, odd.turnSeconds], [[], null, null]);
});

test('a listed player carries their rating where the row has one (issue 21: ratings)', () => {
  const row = {
    id: 't4', game: 'set', seats: 2, seated: 2, spectators: 0, phase: 'playing',
    players: [{ name: 'Ada', rating: 1532, provisional: true }, { name: 'Bob', rating: 1611.6, provisional: false }, { name: 'Cy', rating: 'high' }],
  };
  const t = applyLobbySnapshot({ version: 1, tables: [row] }).tables[0];
  assert.deepEqual(t.players, [
    { name: 'Ada', away: false, rating: { rating: 1532, games: null, provisional: true } },
    { name: 'Bob', away: false, rating: { rating: 1612, games: null, provisional: false } },
    { name: 'Cy', away: false },
  ]);
  const shown = listingPlayers(t);
  assert.deepEqual(shown.map((p) => p.rating?.text ?? null), ['1532?', '1612', null]);
  assert.equal(shown[0].rating.title, 'provisional rating');
  assert.equal(shown[1].rating.title, 'rating');
  assert.equal(shown[0].rating.label, 'provisional rating 1532');
  // A diff's upsert reads them the same way.
  const { state } = applyLobbyDiff(applyLobbySnapshot({ version: 1, tables: [] }), {
    version: 2, changes: [{ op: 'upsert', table: { ...row, players: [{ name: 'Di', rating: 1468, provisional: true, away: true }] } }],
  });
  assert.deepEqual(listingPlayers(state.tables[0]), [{ name: 'Di', away: true, rating: { text: '1468?', title: 'provisional rating', label: 'provisional rating 1468' } }]);
});
