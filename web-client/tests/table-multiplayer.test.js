import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyDiff,
  applySnapshot,
  applySpectators,
  isHost,
  isSpectator,
  mayChoose,
  myPlayer,
  secondsLeft,
  selectionsByCard,
} from '../js/table-state.js';
import { cardFromId } from '../js/set-cards.js';

const NOW = 1_000_000;
const BOARD = [17, 40, 63, 1, 5, 9, 13, 22, 30, 44, 50, 77];

function table(extra = {}) {
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
      { seat: 0, name: 'Ada', score: 3, matches: 1, selection: [17], connected: true },
      { seat: 1, name: 'Bob', score: 0, matches: 0, selection: [17, 40], connected: true },
      { seat: 3, name: 'Cy', score: -1, matches: 0, selection: [], connected: false, away: 25 },
    ],
    status: [{ text: 'Go!' }],
    phase: 'playing',
    code: 'ABC234',
    private: true,
    seats: 4,
    host: 0,
    spectators: 2,
    ...extra,
  };
}
const diff = (version, events) => ({ type: 'diff', table: 't7', version, events });

function accept(state, d, now = NOW) {
  const before = JSON.stringify(state);
  const r = applyDiff(state, d, now);
  assert.equal(r.resync, false, JSON.stringify(d.events));
  assert.equal(r.state.table.version, d.version);
  assert.equal(JSON.stringify(state), before, 'applyDiff must not modify its input');
  return r.state;
}

test('a multiplayer snapshot keeps phase, code, seats, host, spectators and the away deadline', () => {
  const s = applySnapshot(table(), NOW);
  const t = s.table;
  assert.equal(t.phase, 'playing');
  assert.equal(t.code, 'ABC234');
  assert.equal(t.private, true);
  assert.equal(t.seats, 4);
  assert.equal(t.host, 0);
  assert.equal(t.spectators, 2);
  assert.equal(t.countdown, null);
  assert.equal(t.countdownUntil, null);
  assert.equal(t.vote, null);
  assert.deepEqual(t.players.map((p) => p.seat), [0, 1, 3]);
  assert.deepEqual(t.players[2], {
    seat: 3, name: 'Cy', score: -1, matches: 0, selection: [], connected: false, away: 25, awayUntil: NOW + 25_000,
  });
  assert.equal(t.players[0].awayUntil, null);
  assert.equal(isHost(s), false);
  assert.equal(isSpectator(s), false);
  assert.equal(myPlayer(s).name, 'Bob');
});

test('a snapshot in countdown with an open vote; a spectator snapshot has no you', () => {
  const s = applySnapshot(table({ phase: 'countdown', countdown: 3, vote: { seats: [1], needed: 2 }, you: undefined }), NOW);
  assert.equal(s.table.countdown, 3);
  assert.equal(s.table.countdownUntil, NOW + 3000);
  assert.deepEqual(s.table.vote, { seats: [1], needed: 2 });
  assert.equal(s.table.you, null);
  assert.equal(isSpectator(s), true);
  assert.equal(isHost(s), false);
  assert.equal(myPlayer(s), null);
});

test('a solo snapshot without the new fields gets one seat, hosted by you, playing', () => {
  const s = applySnapshot(
    { id: 't1', version: 0, you: 0, board: [], players: [{ seat: 0, name: 'Ada', score: 0, matches: 0, selection: [] }] },
    NOW,
  );
  assert.equal(s.table.phase, 'playing');
  assert.equal(s.table.seats, 1);
  assert.equal(s.table.host, 0);
  assert.equal(s.table.spectators, 0);
  assert.equal(s.table.code, null);
  assert.equal(s.table.players[0].connected, true);
  assert.equal(isHost(s), true);
  const finished = applySnapshot({ id: 't1', version: 3, you: 0, over: true, board: [], players: [] }, NOW);
  assert.equal(finished.table.phase, 'finished');
});

test('join seats a new player: score 0, no selection, connected, in seat order', () => {
  let s = applySnapshot(table(), NOW);
  s = accept(s, diff(21, [{ kind: 'join', seat: 2, name: 'Dee' }]));
  assert.deepEqual(s.table.players.map((p) => p.seat), [0, 1, 2, 3]);
  assert.deepEqual(s.table.players[2], {
    seat: 2, name: 'Dee', score: 0, matches: 0, selection: [], connected: true, away: null, awayUntil: null,
  });
});

test('leave empties the seat and drops its selection and vote', () => {
  let s = applySnapshot(table({ vote: { seats: [0, 1], needed: 3 } }), NOW);
  s = accept(s, diff(21, [{ kind: 'leave', seat: 0 }]));
  assert.deepEqual(s.table.players.map((p) => p.seat), [1, 3]);
  assert.deepEqual(s.table.vote, { seats: [1], needed: 3 });
  assert.deepEqual([...selectionsByCard(s.table)], [[17, [1]], [40, [1]]]);
});

test('away stores the absolute deadline; back clears it', () => {
  let s = applySnapshot(table(), NOW);
  s = accept(s, diff(21, [{ kind: 'away', seat: 0, seconds: 30 }]), NOW + 500);
  const ada = s.table.players[0];
  assert.equal(ada.connected, false);
  assert.equal(ada.away, 30);
  assert.equal(ada.awayUntil, NOW + 500 + 30_000);
  assert.equal(secondsLeft(ada.awayUntil, NOW + 500), 30);
  assert.equal(secondsLeft(ada.awayUntil, NOW + 500 + 12_300), 18);
  s = accept(s, diff(22, [{ kind: 'back', seat: 0 }]));
  assert.equal(s.table.players[0].connected, true);
  assert.equal(s.table.players[0].away, null);
  assert.equal(s.table.players[0].awayUntil, null);
});

test('host events; the spectators\' count comes in a message of its own, with no version', () => {
  let s = applySnapshot(table(), NOW);
  s = accept(s, diff(21, [{ kind: 'host', seat: 1 }]));
  assert.equal(s.table.host, 1);
  assert.equal(isHost(s), true);
  const counted = applySpectators(s, { type: 'spectators', table: s.table.id, count: 5 });
  assert.equal(counted.table.spectators, 5);
  assert.equal(counted.table.version, 21);
  assert.equal(s.table.spectators, 2, 'the state given is not changed');
  assert.equal(applySpectators(counted, { type: 'spectators', table: s.table.id, count: 0 }).table.spectators, 0);
  assert.equal(applySpectators(counted, { type: 'spectators', table: 'other', count: 9 }), counted);
  assert.equal(applySpectators(counted, { type: 'spectators', table: s.table.id, count: -1 }), counted);
});

test('phase: waiting → countdown (with deadline) → playing with the re-deal that deals the board', () => {
  let s = applySnapshot(table({ phase: 'waiting', board: [], deckCount: 81 }), NOW);
  assert.equal(s.table.phase, 'waiting');
  s = accept(s, diff(21, [{ kind: 'phase', phase: 'countdown', countdown: 3 }]), NOW + 100);
  assert.equal(s.table.phase, 'countdown');
  assert.equal(s.table.countdown, 3);
  assert.equal(s.table.countdownUntil, NOW + 3100);
  assert.equal(secondsLeft(s.table.countdownUntil, NOW + 1200), 2);
  s = accept(s, diff(22, [
    { kind: 'phase', phase: 'playing' },
    { kind: 'redeal', board: [0, 1, 2].map(cardFromId), deckCount: 78 },
  ]));
  assert.equal(s.table.phase, 'playing');
  assert.equal(s.table.countdown, null);
  assert.equal(s.table.countdownUntil, null);
  assert.deepEqual(s.table.board.map((c) => c.id), [0, 1, 2]);
  assert.equal(s.table.deckCount, 78);
  assert.equal(s.table.over, false);
});

test('phase finished ends the game; a re-deal goes straight back to playing', () => {
  let s = applySnapshot(table(), NOW);
  s = accept(s, diff(21, [{ kind: 'phase', phase: 'finished' }]));
  assert.equal(s.table.phase, 'finished');
  assert.equal(s.table.over, true);
  assert.deepEqual(s.table.standings.map((x) => [x.seat, x.rank]), [[0, 1], [1, 2], [3, 3]]);
  const standings = [{ seat: 1, name: 'Bob', score: 9, matches: 2, rank: 1 }];
  s = accept(s, diff(22, [{ kind: 'over', standings }]));
  assert.deepEqual(s.table.standings, standings);
  s = accept(s, diff(23, [{ kind: 'redeal', board: [5].map(cardFromId), deckCount: 80 }]));
  assert.equal(s.table.phase, 'playing');
  assert.equal(s.table.over, false);
  assert.equal(s.table.standings, null);
});

test('over alone also marks the phase finished', () => {
  let s = applySnapshot(table(), NOW);
  s = accept(s, diff(21, [{ kind: 'over', standings: [] }]));
  assert.equal(s.table.phase, 'finished');
  assert.equal(s.table.over, true);
});

test('vote opens, counts and closes with seats []', () => {
  let s = applySnapshot(table(), NOW);
  s = accept(s, diff(21, [{ kind: 'vote', seats: [1], needed: 2 }]));
  assert.deepEqual(s.table.vote, { seats: [1], needed: 2 });
  s = accept(s, diff(22, [{ kind: 'vote', seats: [1, 3], needed: 2 }]));
  assert.deepEqual(s.table.vote, { seats: [1, 3], needed: 2 });
  s = accept(s, diff(23, [{ kind: 'vote', seats: [], needed: 2 }]));
  assert.equal(s.table.vote, null);
  s = accept(s, diff(24, [{ kind: 'vote', seats: [0], needed: 2 }, { kind: 'redeal', board: [], deckCount: 81 }]));
  assert.equal(s.table.vote, null, 'a re-deal settles the vote');
});

test('malformed new events ask for a resync', () => {
  const s0 = applySnapshot(table(), NOW);
  const bad = [
    [{ kind: 'join', seat: 2 }],
    [{ kind: 'join', seat: -1, name: 'X' }],
    [{ kind: 'leave', seat: 2 }],
    [{ kind: 'away', seat: 0 }],
    [{ kind: 'away', seat: 9, seconds: 30 }],
    [{ kind: 'back', seat: 2 }],
    [{ kind: 'host', seat: 'x' }],
    [{ kind: 'phase', phase: 'paused' }],
    [{ kind: 'phase', phase: 'countdown' }],
    [{ kind: 'vote', seats: 'all', needed: 2 }],
    [{ kind: 'vote', seats: [1] }],
  ];
  for (const events of bad) {
    const r = applyDiff(s0, diff(21, events), NOW);
    assert.equal(r.resync, true, JSON.stringify(events));
    assert.equal(r.state.table.version, 20);
  }
});

test('selectionsByCard lists the seats per card, ascending', () => {
  let s = applySnapshot(table(), NOW);
  assert.deepEqual([...selectionsByCard(s.table)].sort((a, b) => a[0] - b[0]), [[17, [0, 1]], [40, [1]]]);
  s = accept(s, diff(21, [{ kind: 'select', seat: 3, card: 40 }, { kind: 'select', seat: 0, card: 40 }]));
  assert.deepEqual(selectionsByCard(s.table).get(40), [0, 1, 3]);
  assert.equal(selectionsByCard(null).size, 0);
});

test('secondsLeft rounds up and stops at zero', () => {
  assert.equal(secondsLeft(NOW + 3000, NOW), 3);
  assert.equal(secondsLeft(NOW + 3000, NOW + 1), 3);
  assert.equal(secondsLeft(NOW + 3000, NOW + 2001), 1);
  assert.equal(secondsLeft(NOW + 3000, NOW + 3000), 0);
  assert.equal(secondsLeft(NOW + 3000, NOW + 9000), 0);
  assert.equal(secondsLeft(null, NOW), null);
});

test('may I choose: seated, in play, not over, and on my turn at a turn-based table', () => {
  const state = (extra) => applySnapshot({ id: 't', version: 1, board: [], players: [{ seat: 0 }, { seat: 1 }], you: 0, seats: 2, phase: 'playing', ...extra }, 0);
  assert.equal(mayChoose({ table: null, awaitingSnapshot: false }), false);
  assert.equal(mayChoose(state({})), true);
  assert.equal(mayChoose(state({ you: undefined })), false, 'a spectator');
  assert.equal(mayChoose(state({ phase: 'waiting' })), false);
  assert.equal(mayChoose(state({ phase: 'countdown', countdown: 3 })), false);
  assert.equal(mayChoose(state({ over: true })), false);
  assert.equal(mayChoose(state({ turn: 0 })), true);
  assert.equal(mayChoose(state({ turn: 1 })), false, "another seat's turn");
});
