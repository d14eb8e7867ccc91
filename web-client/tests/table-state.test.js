import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyDiff,
  applySnapshot,
  initialState,
  myPlayer,
  mySelection,
  standingsFromPlayers,
} from '../js/table-state.js';
import { cardFromId } from '../js/set-cards.js';

const BOARD = [17, 40, 63, 1, 5, 9, 13, 22, 30, 44, 50, 77];

function snapshotTable({ version = 6, board = BOARD, over = false, players } = {}) {
  return {
    id: 't1',
    game: 'set',
    version,
    you: 0,
    over,
    deckCount: 69,
    settings: { boardSize: 12, matchSize: 3, costToChoose: 1, mismatchPenalty: 2, matchBonus: 4 },
    board: board.map(cardFromId),
    players: players ?? [{ seat: 0, name: 'Ada', score: 9, matches: 0, selection: [] }],
    status: [{ text: 'Find a set!' }],
  };
}
const ids = (state) => state.table.board.map((c) => c.id);
const diff = (version, events, extra = {}) => ({ type: 'diff', table: 't1', version, seat: 0, replyTo: 1, events, ...extra });

/** Apply a diff that must be accepted. */
function accept(state, d) {
  const before = JSON.stringify(state);
  const result = applyDiff(state, d);
  assert.equal(result.resync, false);
  assert.equal(result.state.table.version, d.version);
  assert.equal(JSON.stringify(state), before, 'applyDiff must not modify its input');
  return result.state;
}

test('initial state has no table', () => {
  const s = initialState();
  assert.equal(s.table, null);
  assert.deepEqual(mySelection(s), []);
  assert.equal(myPlayer(s), null);
  const r = applyDiff(s, diff(1, [{ kind: 'deck', count: 3 }]));
  assert.equal(r.resync, false);
  assert.equal(r.state, s);
});

test('applySnapshot copies the table', () => {
  const table = snapshotTable();
  const s = applySnapshot(table);
  table.board.pop();
  table.players[0].selection.push(1);
  assert.equal(s.table.id, 't1');
  assert.equal(s.table.version, 6);
  assert.equal(s.table.deckCount, 69);
  assert.deepEqual(ids(s), BOARD);
  assert.deepEqual(s.table.board[1], { id: 40, number: 2, symbol: 'squiggle', shading: 'striped', color: 'green' });
  assert.deepEqual(mySelection(s), []);
  assert.equal(myPlayer(s).score, 9);
  assert.deepEqual(s.table.status, [{ text: 'Find a set!' }]);
  assert.equal(s.table.over, false);
  assert.equal(s.table.standings, null);
  assert.equal(s.awaitingSnapshot, false);
});

test('applySnapshot rejects a malformed table', () => {
  assert.throws(() => applySnapshot(null), TypeError);
  assert.throws(() => applySnapshot({ ...snapshotTable(), version: -1 }), TypeError);
  assert.throws(() => applySnapshot({ ...snapshotTable(), board: 'x' }), TypeError);
  assert.throws(() => applySnapshot({ ...snapshotTable(), id: 3 }), TypeError);
});

test('a snapshot of a finished game gets standings from its players', () => {
  const s = applySnapshot(
    snapshotTable({
      over: true,
      players: [
        { seat: 0, name: 'Ada', score: 10, matches: 3, selection: [] },
        { seat: 1, name: 'Bob', score: 30, matches: 7, selection: [] },
      ],
    }),
  );
  assert.equal(s.table.over, true);
  assert.deepEqual(s.table.standings, [
    { seat: 1, name: 'Bob', score: 30, matches: 7, rank: 1 },
    { seat: 0, name: 'Ada', score: 10, matches: 3, rank: 2 },
  ]);
});

test('select and deselect change the seat selection, in order chosen', () => {
  let s = applySnapshot(snapshotTable());
  s = accept(s, diff(7, [{ kind: 'select', seat: 0, card: 40 }, { kind: 'score', seat: 0, score: 8 }]));
  s = accept(s, diff(8, [{ kind: 'select', seat: 0, card: 17 }, { kind: 'score', seat: 0, score: 7 }]));
  assert.deepEqual(mySelection(s), [40, 17]);
  assert.equal(myPlayer(s).score, 7);
  s = accept(s, diff(9, [{ kind: 'deselect', seat: 0, card: 40 }]));
  assert.deepEqual(mySelection(s), [17]);
  assert.equal(s.table.version, 9);
});

test('the example diff of PROTOCOL.md: match, score, replace ×3, deck', () => {
  let s = applySnapshot(snapshotTable({ players: [{ seat: 0, name: 'Ada', score: 9, matches: 2, selection: [40, 63] }] }));
  s = accept(
    s,
    diff(7, [
      { kind: 'select', seat: 0, card: 17 },
      { kind: 'score', seat: 0, score: 8 },
      { kind: 'match', seat: 0, cards: [17, 40, 63], points: 12 },
      { kind: 'score', seat: 0, score: 20 },
      { kind: 'replace', slot: 0, card: cardFromId(2) },
      { kind: 'replace', slot: 1, card: cardFromId(71) },
      { kind: 'replace', slot: 2, card: cardFromId(33) },
      { kind: 'deck', count: 60 },
    ]),
  );
  assert.deepEqual(ids(s), [2, 71, 33, ...BOARD.slice(3)]);
  assert.deepEqual(s.table.board[1], cardFromId(71));
  assert.deepEqual(mySelection(s), []);
  assert.equal(myPlayer(s).score, 20);
  assert.equal(myPlayer(s).matches, 3);
  assert.equal(s.table.deckCount, 60);
});

test('match clears the matched cards from every selection and counts only for the matcher', () => {
  let s = applySnapshot(
    snapshotTable({
      players: [
        { seat: 0, name: 'Ada', score: 0, matches: 0, selection: [17, 40] },
        { seat: 1, name: 'Bob', score: 0, matches: 1, selection: [40, 1] },
      ],
    }),
  );
  s = accept(s, diff(7, [{ kind: 'select', seat: 0, card: 63 }, { kind: 'match', seat: 0, cards: [17, 40, 63], points: 12 }]));
  assert.deepEqual(s.table.players.map((p) => [p.selection, p.matches]), [
    [[], 1],
    [[1], 1],
  ]);
});

test('mismatch changes nothing by itself; the deselects that follow do', () => {
  let s = applySnapshot(snapshotTable({ players: [{ seat: 0, name: 'Ada', score: 5, matches: 0, selection: [17, 40] }] }));
  s = accept(
    s,
    diff(7, [
      { kind: 'select', seat: 0, card: 1 },
      { kind: 'score', seat: 0, score: 4 },
      { kind: 'mismatch', seat: 0, cards: [17, 40, 1], penalty: 2 },
      { kind: 'score', seat: 0, score: 2 },
      { kind: 'deselect', seat: 0, card: 17 },
      { kind: 'deselect', seat: 0, card: 40 },
    ]),
  );
  assert.deepEqual(mySelection(s), [1]);
  assert.equal(myPlayer(s).score, 2);
  assert.equal(myPlayer(s).matches, 0);
  assert.deepEqual(ids(s), BOARD);
});

test('remove drops cards and keeps the order of the rest', () => {
  let s = applySnapshot(snapshotTable());
  s = accept(s, diff(7, [{ kind: 'remove', cards: [40, 5, 77] }, { kind: 'deck', count: 0 }]));
  assert.deepEqual(ids(s), [17, 63, 1, 9, 13, 22, 30, 44, 50]);
  assert.equal(s.table.deckCount, 0);
});

test('deal appends cards', () => {
  let s = applySnapshot(snapshotTable());
  s = accept(s, diff(7, [{ kind: 'deal', cards: [80, 79, 78].map(cardFromId), reason: 'noMatch' }, { kind: 'deck', count: 66 }]));
  assert.deepEqual(ids(s), [...BOARD, 80, 79, 78]);
  assert.deepEqual(s.table.board[12], cardFromId(80));
  assert.equal(s.table.deckCount, 66);
});

test('over sets the standings; redeal starts a new game', () => {
  let s = applySnapshot(snapshotTable({ players: [{ seat: 0, name: 'Ada', score: 41, matches: 25, selection: [17] }] }));
  const standings = [{ seat: 0, name: 'Ada', score: 41, matches: 25, rank: 1 }];
  s = accept(s, diff(7, [{ kind: 'over', standings }]));
  assert.equal(s.table.over, true);
  assert.deepEqual(s.table.standings, standings);

  s = accept(s, diff(8, [{ kind: 'redeal', board: [0, 1, 2].map(cardFromId), deckCount: 78 }]));
  assert.equal(s.table.over, false);
  assert.equal(s.table.standings, null);
  assert.deepEqual(ids(s), [0, 1, 2]);
  assert.equal(s.table.deckCount, 78);
  assert.deepEqual(myPlayer(s), {
    seat: 0,
    name: 'Ada',
    score: 0,
    matches: 0,
    selection: [],
    connected: true,
    away: null,
    awayUntil: null,
  });
});

test('a duplicate diff is ignored', () => {
  const s0 = applySnapshot(snapshotTable());
  const s1 = accept(s0, diff(7, [{ kind: 'select', seat: 0, card: 40 }]));
  for (const version of [7, 6, 1]) {
    const r = applyDiff(s1, diff(version, [{ kind: 'select', seat: 0, card: 17 }]));
    assert.equal(r.resync, false);
    assert.equal(r.state, s1);
  }
  assert.deepEqual(mySelection(s1), [40]);
});

test('a gap asks for a resync and ignores diffs until the next snapshot', () => {
  const s0 = applySnapshot(snapshotTable());
  const gap = applyDiff(s0, diff(9, [{ kind: 'select', seat: 0, card: 40 }]));
  assert.equal(gap.resync, true);
  assert.equal(gap.state.awaitingSnapshot, true);
  assert.equal(gap.state.table.version, 6);
  assert.deepEqual(mySelection(gap.state), []);

  // Even the diff that would have been next is ignored now, and no second resync is asked for.
  const next = applyDiff(gap.state, diff(7, [{ kind: 'select', seat: 0, card: 17 }]));
  assert.equal(next.resync, false);
  assert.deepEqual(mySelection(next.state), []);
  assert.equal(next.state.table.version, 6);

  const fresh = applySnapshot(snapshotTable({ version: 9, players: [{ seat: 0, name: 'Ada', score: 1, matches: 0, selection: [40] }] }));
  assert.equal(fresh.awaitingSnapshot, false);
  const after = accept(fresh, diff(10, [{ kind: 'select', seat: 0, card: 17 }]));
  assert.deepEqual(mySelection(after), [40, 17]);
});

test('a diff that cannot be applied asks for a resync and changes nothing', () => {
  const s0 = applySnapshot(snapshotTable());
  const bad = [
    [{ kind: 'replace', slot: 12, card: cardFromId(0) }],
    [{ kind: 'select', seat: 3, card: 17 }],
    [{ kind: 'teleport' }],
    [{ kind: 'score', seat: 0 }],
    [{ kind: 'select', seat: 0, card: 40 }, { kind: 'deal', cards: 'none' }],
  ];
  for (const events of bad) {
    const r = applyDiff(s0, diff(7, events));
    assert.equal(r.resync, true, JSON.stringify(events));
    assert.equal(r.state.awaitingSnapshot, true);
    assert.deepEqual(mySelection(r.state), []);
    assert.equal(r.state.table.version, 6);
  }
  assert.equal(applyDiff(s0, { type: 'diff', table: 't1', version: 7 }).resync, true);
});

test('diffs of another table are ignored', () => {
  const s0 = applySnapshot(snapshotTable());
  const r = applyDiff(s0, diff(7, [{ kind: 'select', seat: 0, card: 40 }], { table: 't2' }));
  assert.equal(r.resync, false);
  assert.equal(r.state, s0);
});

test('a diff carries its status line; without one the line stays', () => {
  const s = applySnapshot(snapshotTable());
  const runs = [{ text: 'Ada chose ' }, { card: 17, text: '∿', symbol: 'squiggle', count: 1, color: '#6a3fb5', shading: 'open', alpha: 0, stroke: 2 }];
  const chose = accept(s, diff(7, [{ kind: 'select', seat: 0, card: 17 }], { status: runs }));
  assert.deepEqual(chose.table.status, runs);
  assert.deepEqual(s.table.status, [{ text: 'Find a set!' }]);
  const watched = accept(chose, diff(8, [{ kind: 'host', seat: 0 }]));
  assert.deepEqual(watched.table.status, runs);
});

test('standings share a rank on equal scores', () => {
  const players = [
    { seat: 0, name: 'A', score: 5, matches: 1 },
    { seat: 1, name: 'B', score: 9, matches: 2 },
    { seat: 2, name: 'C', score: 5, matches: 1 },
    { seat: 3, name: 'D', score: -2, matches: 0 },
  ];
  assert.deepEqual(
    standingsFromPlayers(players).map((s) => [s.name, s.rank]),
    [
      ['B', 1],
      ['A', 2],
      ['C', 2],
      ['D', 4],
    ],
  );
});
