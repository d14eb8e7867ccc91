import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applySnapshot } from '../js/table-state.js';
import { clockModel, replayScoreboard, scoreboardModel, seatDetail, tableModel, takesKeyboard } from '../js/table-model.js';
import { connectionText } from '../js/page-view.js';

const NOW = 1_000_000;
const players = [
  { seat: 0, name: 'Bo', score: 3, matches: 1 },
  { seat: 1, name: 'Ada', score: 0, matches: 0 },
];
const state = (extra = {}) =>
  applySnapshot({ id: 't', game: 'set', version: 1, board: [], players, you: 1, seats: 3, host: 0, phase: 'playing', deckCount: 60, ...extra }, NOW);

test('a seat at a race table: my numbers, a vote to re-deal, no hint, no start', () => {
  const m = tableModel(state());
  assert.deepEqual([m.score, m.matches, m.deck, m.matchesHeading, m.landmark], ['0', '0', '60', 'Sets', 'Set table']);
  assert.equal(m.boardDisabled, false);
  assert.deepEqual([m.hintHidden, m.startHidden, m.redealHidden, m.redealDisabled], [true, true, false, false]);
  assert.equal(m.redealText, 'Vote to re-deal');
  assert.equal(m.playAgainText, 'Vote to play again');
  assert.equal(m.ticking, false);
});

test('having voted, the buttons say so and wait; alone, re-deal and play again are at will', () => {
  const voted = tableModel(state({ vote: { seats: [1], needed: 2 } }));
  assert.deepEqual([voted.redealText, voted.redealDisabled, voted.playAgainText, voted.playAgainDisabled], ['Voted to re-deal', true, 'Voted to play again', true]);
  assert.notEqual(voted.vote, '');
  const solo = tableModel(state({ seats: 1, players: [players[1]], host: 1 }));
  assert.deepEqual([solo.hintHidden, solo.redealText, solo.playAgainText, solo.gameoverVote], [false, 'Re-deal', 'Play again', '']);
});

test('at game over the re-deal button gives way to the game-over box\'s "play again"', () => {
  const standings = [{ seat: 0, rank: 1 }, { seat: 1, rank: 2 }];
  const over = tableModel(state({ phase: 'finished', over: true, standings }));
  assert.deepEqual([over.gameOver, over.redealHidden, over.playAgainHidden], [true, true, false]);
  assert.equal(over.playAgainText, 'Vote to play again');
  const soloOver = tableModel(state({ seats: 1, players: [players[1]], host: 1, phase: 'finished', over: true, standings }));
  assert.deepEqual([soloOver.redealHidden, soloOver.playAgainText], [true, 'Play again']);
  // Still playing: the button is there.
  assert.equal(tableModel(state()).redealHidden, false);
});

test('a spectator sees no numbers of their own and cannot choose; the host of a waiting table may start', () => {
  const watching = tableModel(state({ you: undefined }));
  assert.deepEqual([watching.spectator, watching.boardDisabled, watching.redealHidden, watching.playAgainHidden, watching.flipsHidden], [true, true, true, true, true]);
  const waiting = tableModel(state({ phase: 'waiting', you: 0 }));
  assert.deepEqual([waiting.startHidden, waiting.redealHidden, waiting.boardDisabled], [false, true, true]);
});

test('face-down games: flips shown, the deck line gone when there is none, the board waits on others\' turns', () => {
  const s = state({ game: 'concentration', settings: { faceDown: true }, deckCount: 0, turn: 0, players: players.map((p) => ({ ...p, flips: 2 })) });
  const m = tableModel(s);
  assert.deepEqual([m.flipsHidden, m.flips, m.deckHidden, m.notMyTurn, m.boardDisabled, m.matchesHeading], [false, '2', true, true, true, 'Pairs']);
  assert.equal(m.landmark, 'Concentration table');
});

test('the clocks: countdown, waiting texts for host and guest, the turn clock, a seat away', () => {
  const countdown = clockModel(state({ phase: 'countdown', countdown: 3 }), NOW + 500);
  assert.deepEqual([countdown.phase, countdown.countdown, countdown.waiting, countdown.turn], ['Starting in 3…', 'Starting in 3…', null, null]);
  const waiting = clockModel(state({ phase: 'waiting', code: 'ABCD234XYZ', private: true }), NOW);
  assert.equal(waiting.waiting.text, 'Waiting for players (2/3)');
  assert.match(waiting.waiting.help, /when the host says so/);
  assert.match(clockModel(state({ phase: 'waiting', you: 0 }), NOW).waiting.help, /then start/);
  const turn = clockModel(state({ turn: 0, turnSeconds: 30, turnLeft: 30 }), NOW + 3000);
  assert.deepEqual(turn.turn, { text: "Bo's turn", mine: false, seat: 0, clock: '0:27', clockOn: true, fraction: 0.9 });
  const away = clockModel(state({ players: [players[0], { ...players[1], connected: false, away: 27 }] }), NOW);
  assert.deepEqual([...away.away], [[0, ''], [1, 'reconnecting… 27s']]);
});

test('the scoreboard: one row per seat, the open seats, hidden at a solo table', () => {
  const board = scoreboardModel(state().table);
  assert.deepEqual(board.rows.map((r) => [r.seat, r.name, r.score, r.detail, r.host, r.you]), [
    [0, 'Bo', '3', '1 set', true, false],
    [1, 'Ada', '0', '0 sets', false, true],
  ]);
  assert.equal(board.openSeats, '1 open seat');
  assert.equal(board.hidden, false);
  assert.equal(scoreboardModel(state({ seats: 1, players: [players[1]] }).table).hidden, true);
  assert.equal(seatDetail('concentration', { matches: 2, flips: 1 }), '2 pairs · 1 flip');
});

test('the connection line says each state of the connection', () => {
  assert.equal(connectionText('online'), 'Online');
  assert.equal(connectionText('reconnecting', { delay: 2400 }), 'Connection lost — retrying in 2 s');
  assert.equal(connectionText('reconnecting', { delay: 100 }), 'Connection lost — retrying in 1 s');
  assert.equal(connectionText('odd'), 'odd');
  // Refused at the server's per-address limit: said so, and tried again like any drop.
  assert.equal(
    connectionText('reconnecting', { delay: 3000, code: 4002, reason: 'too many connections from your address' }),
    'Too many connections from your address — retrying in 3 s',
  );
  assert.equal(connectionText('reconnecting', { delay: 3000, code: 4000 }), 'Connection lost — retrying in 3 s');
});

test('the board takes the keyboard when a game starts for a player, not again, not under a dialog', () => {
  assert.equal(takesKeyboard(state(), 'countdown', false), true);
  assert.equal(takesKeyboard(state(), null, false), true, 'arriving at a game in play');
  assert.equal(takesKeyboard(state(), 'playing', false), false);
  assert.equal(takesKeyboard(state(), 'countdown', true), false);
  assert.equal(takesKeyboard(state({ you: undefined }), 'countdown', false), false);
  assert.equal(takesKeyboard(state({ phase: 'waiting' }), null, false), false);
});

test('game over shows once the standings are known', () => {
  assert.equal(tableModel(state()).gameOver, false);
  assert.equal(tableModel(state({ over: true, phase: 'finished' })).gameOver, true);
});

test('the replay marks whose turn it is only while the game runs', () => {
  const playing = state({ game: 'concentration', turn: 0, players: players.map((p) => ({ ...p, flips: 3 })) }).table;
  assert.deepEqual(replayScoreboard(playing).map((r) => [r.seat, r.score, r.detail, r.turn]), [
    [0, '3', '1 pair · 3 flips', true],
    [1, '0', '0 pairs · 3 flips', false],
  ]);
  assert.deepEqual(replayScoreboard({ ...playing, over: true }).map((r) => r.turn), [false, false]);
});

test('the daily puzzle offers no hint, no re-deal and no playing again: the server refuses them', () => {
  const daily = { seats: 1, players: [players[1]], host: 1, daily: '2026-11-29' };
  const playing = tableModel(state(daily));
  assert.deepEqual([playing.hintHidden, playing.redealHidden], [true, true]);
  const standings = [{ seat: 0, rank: 1 }];
  const over = tableModel(state({ ...daily, phase: 'finished', over: true, standings }));
  assert.equal(over.playAgainHidden, true);
  // The same solo game, not the daily puzzle, offers all three.
  const solo = tableModel(state({ ...daily, daily: undefined }));
  assert.deepEqual([solo.hintHidden, solo.redealHidden], [false, false]);
});
