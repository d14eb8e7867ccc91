import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildReplay,
  clampStep,
  exportFile,
  replayHeading,
  replayKey,
  replayView,
  sliderText,
  stepText,
  stepTo,
  timeText,
} from '../js/replay.js';

const FOX = '🦊';
const BEAR = '🐻';

/** A solo Concentration game of two pairs, as a `record` answer: a miss, then both pairs. */
function recordMessage() {
  const up = (id, emoji) => ({ id, faceUp: true, emoji });
  const flip = (id, emoji) => [{ kind: 'flip', seat: 0, card: up(id, emoji) }, { kind: 'select', seat: 0, card: id }];
  const diff = (version, events, text) => ({ type: 'diff', table: 'g2', version, seat: 0, events, status: [{ text }] });
  const moves = [0, 1, 0, 2, 1, 3].map((card, i) => ({ seat: 0, card, at: 1.5 + i * 2 }));
  return {
    type: 'record',
    replyTo: 8,
    record: {
      id: 'g2', game: 'concentration', settings: { boardSize: 4, faceDown: true, turnBased: true }, rules: {}, seed: '1234567890123',
      startedAt: '2026-11-24T07:07:28Z', endedAt: '2026-11-24T07:08:40Z', seconds: 72.4,
      players: [{ seat: 0, name: 'Ada', score: 2, matches: 2, mistakes: 1, rank: 1 }],
      moves,
    },
    replay: {
      table: {
        id: 'g2', game: 'concentration', version: 0, over: false, deckCount: 0, phase: 'playing', seats: 1, turn: 0,
        settings: { boardSize: 4, faceDown: true, turnBased: true },
        board: [0, 1, 2, 3].map((id) => ({ id, faceUp: false })),
        players: [{ seat: 0, name: 'Ada', score: 0, matches: 0, selection: [], flips: 0 }],
        status: [{ text: 'Find the pairs!' }],
      },
      diffs: [
        diff(1, flip(0, FOX), 'Ada turned up a fox'),
        diff(2, [...flip(1, BEAR), { kind: 'mismatch', seat: 0, cards: [0, 1], penalty: 0 }, { kind: 'deselect', seat: 0, card: 0 },
          { kind: 'deselect', seat: 0, card: 1 }, { kind: 'hide', cards: [0, 1] }], "Those don't match"),
        diff(3, flip(0, FOX), 'Ada turned up a fox'),
        diff(4, [...flip(2, FOX), { kind: 'match', seat: 0, cards: [0, 2], points: 1 }, { kind: 'score', seat: 0, score: 1 }], 'A pair!'),
        diff(5, flip(1, BEAR), 'Ada turned up a bear'),
        diff(6, [...flip(3, BEAR), { kind: 'match', seat: 0, cards: [1, 3], points: 1 }, { kind: 'score', seat: 0, score: 2 },
          { kind: 'over', standings: [{ seat: 0, name: 'Ada', score: 2, matches: 2, rank: 1 }] }], 'Ada found every pair'),
      ],
    },
  };
}

const faces = (state) => state.table.board.map((c) => (c.faceUp ? c.emoji + (c.matched ? '*' : '') : '·')).join('');

test('step k is the starting table with the first k diffs applied', () => {
  const replay = buildReplay(recordMessage());
  assert.equal(replay.last, 6);
  assert.equal(replay.steps.length, 7);
  assert.ok(replay.complete);
  // Step 2 is after the miss: both cards turned back down.
  assert.deepEqual(replay.steps.map(faces), ['····', `${FOX}···`, '····', `${FOX}···`, `${FOX}*·${FOX}*·`,
    `${FOX}*${BEAR}${FOX}*·`, `${FOX}*${BEAR}*${FOX}*${BEAR}*`]);
  assert.deepEqual(replay.steps.map((s) => s.table.status[0].text), [
    'Find the pairs!', 'Ada turned up a fox', "Those don't match", 'Ada turned up a fox', 'A pair!', 'Ada turned up a bear', 'Ada found every pair',
  ]);
  // The last step shows the recorded final scores and the game over.
  const end = replay.steps[6].table;
  assert.equal(end.players[0].score, recordMessage().record.players[0].score);
  assert.equal(end.over, true);
  assert.deepEqual(end.standings.map((s) => [s.name, s.score]), [['Ada', 2]]);
  // A replay is watched: nobody's seat is "you".
  assert.equal(end.you, null);
});

test('the time into the game at each step is its move\'s `at`', () => {
  const replay = buildReplay(recordMessage());
  assert.deepEqual(replay.times, [0, 1.5, 3.5, 5.5, 7.5, 9.5, 11.5]);
  assert.equal(timeText(replay, 0), '0:00');
  assert.equal(timeText(replay, 6), '0:11');
  assert.equal(stepText(replay, 3, 'pair'), 'Move 3 of 6 · pair 0 of 2');
  assert.equal(sliderText(replay, 3), 'Move 3 of 6 · match 0 of 2, 0:05 into the game');
});

test('a replay steps by move, and by set: to the move of the match before or after (issue 34, point 10)', () => {
  const replay = buildReplay(recordMessage());
  const sets = replay.matchSteps;
  assert.equal(sets.length, 2, 'two matches in this game');
  assert.ok(sets.every((k) => k >= 1 && k <= replay.last));
  assert.equal(stepTo(replay, 0, 'nextSet'), sets[0]);
  assert.equal(stepTo(replay, sets[0], 'nextSet'), sets[1]);
  assert.equal(stepTo(replay, sets[1], 'nextSet'), replay.last);
  assert.equal(stepTo(replay, sets[1], 'prevSet'), sets[0]);
  assert.equal(stepTo(replay, sets[0], 'prevSet'), 0);
  assert.equal(stepTo(replay, 2, 'next'), 3, 'a move at a time as before');
  assert.equal(replayKey({ key: 'PageDown' }), 'nextSet');
  assert.equal(replayKey({ key: 'PageUp' }), 'prevSet');
  assert.equal(stepText(replay, sets[1], 'pair'), `Move ${sets[1]} of 6 · pair 2 of 2`);
  const view = replayView({ status: 'ready', data: replay, index: sets[1] });
  assert.deepEqual([view.canBackSet, view.canForwardSet, view.matchWord], [true, false, 'pair']);
});

test('the record is kept as given, for Export', () => {
  const message = recordMessage();
  const replay = buildReplay(message);
  assert.equal(replay.record, message.record);
  const file = exportFile(replay.record);
  assert.equal(file.name, 'matchismo-concentration-g2.json');
  assert.equal(file.mime, 'application/json');
  const saved = JSON.parse(file.text);
  assert.deepEqual(saved, message.record);
  assert.equal(saved.moves.length, replay.last);
  assert.equal(saved.replay, undefined, 'the record only, not the replay');
  // A name from odd ids stays a plain file name.
  assert.equal(exportFile({ id: '../g 7', game: 'set' }).name, 'matchismo-set-g7.json');
  assert.equal(exportFile({}).name, 'matchismo-game-record.json');
});

test('a diff that cannot be applied ends the replay there', () => {
  const message = recordMessage();
  message.replay.diffs[3] = { ...message.replay.diffs[3], version: 9 };
  const replay = buildReplay(message);
  assert.equal(replay.complete, false);
  assert.equal(replay.last, 3);
  const broken = recordMessage();
  broken.replay.diffs[1].events.push({ kind: 'hide', cards: 'nope' });
  assert.equal(buildReplay(broken).last, 1);
  const missing = recordMessage();
  delete missing.replay.diffs;
  assert.deepEqual([buildReplay(missing).last, buildReplay(missing).complete], [0, false]);
});

test('an unreadable record or starting table is refused', () => {
  assert.throws(() => buildReplay({ type: 'record' }), TypeError);
  assert.throws(() => buildReplay({ type: 'record', record: {} }), TypeError);
  assert.throws(() => buildReplay({ type: 'record', record: {}, replay: { table: { id: 'g2' } } }), TypeError);
});

test('the step controls and keys stay within the replay', () => {
  const replay = buildReplay(recordMessage());
  assert.equal(stepTo(replay, 3, 'first'), 0);
  assert.equal(stepTo(replay, 3, 'prev'), 2);
  assert.equal(stepTo(replay, 0, 'prev'), 0);
  assert.equal(stepTo(replay, 3, 'next'), 4);
  assert.equal(stepTo(replay, 6, 'next'), 6);
  assert.equal(stepTo(replay, 3, 'last'), 6);
  assert.equal(stepTo(replay, 3, 5), 5);
  assert.equal(stepTo(replay, 3, 99), 6);
  assert.equal(clampStep(replay, -2), 0);
  assert.equal(clampStep(replay, Number.NaN), 0);
  assert.equal(replayKey({ key: 'ArrowLeft' }), 'prev');
  assert.equal(replayKey({ key: 'ArrowRight' }), 'next');
  assert.equal(replayKey({ key: 'Home' }), 'first');
  assert.equal(replayKey({ key: 'End' }), 'last');
  assert.equal(replayKey({ key: 'ArrowRight', inField: true }), null, 'the slider moves itself');
  assert.equal(replayKey({ key: 'ArrowRight', altKey: true }), null, 'browser back/forward');
  assert.equal(replayKey({ key: 'x' }), null);
});

test('the heading names the game, its players, when it ended and how long it lasted', () => {
  const { record } = recordMessage();
  assert.deepEqual(replayHeading(record, { locale: 'en-US', timeZone: 'UTC' }), {
    title: 'Replay: Concentration',
    meta: 'Ada · ended Nov 24, 2026, 7:08 AM · 1:12',
  });
  assert.deepEqual(replayHeading({ game: 'set' }), { title: 'Replay: Set', meta: '' });
});

test('the view as drawn: loading, refused, a step', () => {
  assert.deepEqual(
    [replayView({ status: 'loading' }).message, replayView({ status: 'loading' }).ready, replayView({ status: 'loading' }).canForward],
    ['Loading the game…', false, false],
  );
  assert.equal(replayView({ status: 'error', error: 'That game is not kept on this server.' }).message, 'That game is not kept on this server.');
  const data = buildReplay(recordMessage());
  const start = replayView({ status: 'ready', data, index: 0 }, { locale: 'en-US', timeZone: 'UTC' });
  assert.deepEqual([start.ready, start.message, start.title, start.step, start.time, start.canBack, start.canForward, start.last],
    [true, '', 'Replay: Concentration', 'Move 0 of 6 · pair 0 of 2', '0:00', false, true, 6]);
  assert.equal(start.table, data.steps[0].table);
  const end = replayView({ status: 'ready', data, index: 6 });
  assert.deepEqual([end.canBack, end.canForward, end.sliderText], [true, false, 'Move 6 of 6 · pair 2 of 2, 0:11 into the game']);
  const cut = recordMessage();
  cut.replay.diffs[2].version = 7;
  assert.match(replayView({ status: 'ready', data: buildReplay(cut), index: 0 }).meta, /the rest of this game could not be read$/);
});

test('a replay shows what was said at the table up to the step shown, as text', async () => {
  const { replayChat } = await import('../js/replay.js');
  const data = {
    record: {
      chat: [
        { name: 'Ada', seat: 0, text: 'good luck', at: 0 },
        { name: 'Eve', spectator: true, text: '<b>go</b>', at: 3.4 },
        { name: 'Bob', seat: 1, text: 'gg', at: 9 },
        { bad: true },
      ],
    },
    times: [0, 1, 4, 10],
  };
  assert.deepEqual(replayChat(data, 0), [{ name: 'Ada', who: 'Seat 1', text: 'good luck', at: '0:00' }]);
  assert.deepEqual(replayChat(data, 2).map((l) => [l.name, l.who, l.text]), [['Ada', 'Seat 1', 'good luck'], ['Eve', 'watching', '<b>go</b>']]);
  assert.equal(replayChat(data, 3).length, 3);
  assert.deepEqual(replayChat({ record: {}, times: [0] }, 0), []);
});
