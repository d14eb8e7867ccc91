// Practice: how many matches the board holds, asked of the server once per new board at a
// table where a hint may be asked, while the preference is on; only the newest question's
// answer counts; a refusal hides it without a word.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PRACTICE_KEY, boardKey, countText, initialPractice, loadPractice, practiceApplies, practiceLabel, practiceShown, savePractice } from '../js/practice.js';
import { Controller } from '../js/controller.js';
import { cardFromId } from '../js/set-cards.js';
import { diff, seated, sent, table, toasts, types } from './controller-fixtures.js';

const SOLO = { seats: 1, you: 0, players: [{ seat: 0, name: 'Ada', score: 0, matches: 0, selection: [], connected: true }], host: 0 };
const counts = (fx) => sent(fx).filter((m) => m.type === 'countMatches');
const answer = (replyTo, count) => ({ type: 'message', message: { type: 'matchCount', replyTo, count } });
const refusal = (replyTo, code) => ({ type: 'message', message: { type: 'error', replyTo, code, message: `refused: ${code}` } });

/** Seated alone at a Set table (or `extra`), the preference on: the question asked. */
function practising(extra = {}) {
  const t = seated({ ...SOLO, ...extra });
  const fx = t.send({ type: 'practice', on: true });
  return { ...t, fx };
}

test('the preference is kept in the browser, off by default; its words are the game\'s', () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  assert.equal(loadPractice(storage), false);
  savePractice(storage, true);
  assert.equal(store.get(PRACTICE_KEY), 'on');
  assert.equal(loadPractice(storage), true);
  assert.equal(loadPractice({ getItem: () => { throw new Error('private'); } }), false);
  assert.equal(loadPractice(null), false);
  assert.equal(practiceLabel('set'), 'Practice: show how many sets are on the board');
  assert.equal(practiceLabel('ultraSet'), 'Practice: show how many UltraSets are on the board');
  assert.equal(countText('set', 3), '3 sets on the board');
  assert.equal(countText('ultraSet', 1), '1 UltraSet on the board');
  assert.equal(countText('set', 0), '0 sets on the board');
  assert.equal(new Controller({ practice: true }).practice.on, true);
});

test('alone at a game with hints, each new board is asked about once, and its count shown', () => {
  const { controller, send, fx } = practising();
  assert.deepEqual(counts(fx), [{ type: 'countMatches', id: 2 }]);
  assert.ok(types(fx).includes('renderPractice'));
  // The answer: shown in the game's words.
  assert.deepEqual(send(answer(2, 3)), [{ type: 'renderPractice' }]);
  assert.deepEqual(practiceShown(controller.practice, controller.state), { hidden: false, text: '3 sets on the board', stale: false });
  // A choice changes no board: nothing asked.
  assert.deepEqual(counts(send(diff(21, [{ kind: 'select', seat: 0, card: 0 }]))), []);
  // A new card: asked once; the old count shows dimmed until the answer.
  assert.deepEqual(counts(send(diff(22, [{ kind: 'replace', slot: 3, card: cardFromId(80) }]))), [{ type: 'countMatches', id: 3 }]);
  assert.equal(practiceShown(controller.practice, controller.state).stale, true);
  // Two more boards before any answer: only the newest question's answer counts.
  send(diff(23, [{ kind: 'replace', slot: 4, card: cardFromId(81 - 2) }]));
  assert.deepEqual(send(answer(3, 9)), []);
  assert.equal(practiceShown(controller.practice, controller.state).text, '3 sets on the board');
  send(answer(4, 2));
  assert.deepEqual(practiceShown(controller.practice, controller.state), { hidden: false, text: '2 sets on the board', stale: false });
  // Nonsense is no count.
  send(diff(24, [{ kind: 'replace', slot: 5, card: cardFromId(78) }]));
  assert.deepEqual(send(answer(5, -1)), []);
  assert.deepEqual(send(answer(99, 4)), []);
});

test('a refusal hides the count without a word, even an older question\'s says nothing', () => {
  const { controller, send } = practising();
  send(answer(2, 3));
  send(diff(21, [{ kind: 'replace', slot: 3, card: cardFromId(80) }]));
  send(diff(22, [{ kind: 'replace', slot: 4, card: cardFromId(79) }]));
  // The older question refused: let go, silently; the newest refused: hidden, silently.
  const older = send(refusal(3, 'gameOver'));
  assert.deepEqual(toasts(older), []);
  assert.equal(practiceShown(controller.practice, controller.state).hidden, false);
  const newest = send(refusal(4, 'gameOver'));
  assert.deepEqual(toasts(newest), []);
  assert.deepEqual(types(newest), ['renderPractice']);
  assert.equal(practiceShown(controller.practice, controller.state).hidden, true);
  // That board is not asked about again (a snapshot of it, after a resync).
  assert.deepEqual(counts(send({ type: 'message', message: { type: 'snapshot', table: controller.state.table } })), []);
});

test('nothing is asked, nor shown, where no hint may be asked, or with the preference off', () => {
  assert.deepEqual(counts(practising({ seats: 2 }).fx), [], 'a race has no count');
  assert.deepEqual(counts(practising({ you: undefined }).fx), [], 'a spectator');
  assert.deepEqual(counts(practising({ game: 'matchismo' }).fx), [], 'face down: no hints');
  assert.deepEqual(counts(practising({ daily: '2026-11-29' }).fx), [], 'a daily puzzle');
  assert.deepEqual(counts(practising({ over: true }).fx), [], 'a game over');
  assert.deepEqual(counts(practising({ phase: 'waiting' }).fx), []);
  const off = seated(SOLO);
  assert.deepEqual(counts(off.send(diff(21, [{ kind: 'replace', slot: 3, card: cardFromId(80) }]))), []);
  // Turned on at the table: asked at once; off: hidden, and nothing more asked.
  const { controller, send } = practising();
  send(answer(2, 3));
  assert.deepEqual(send({ type: 'practice', on: false }), [{ type: 'renderPractice' }]);
  assert.equal(practiceShown(controller.practice, controller.state).hidden, true);
  assert.deepEqual(counts(send(diff(21, [{ kind: 'replace', slot: 3, card: cardFromId(80) }]))), []);
  assert.deepEqual(send(answer(2, 3)), []);
});

test('the game\'s end hides the count; a new deal and a new table are asked about again', () => {
  const { controller, send } = practising();
  send(answer(2, 3));
  const over = send(diff(21, [{ kind: 'over', standings: [{ seat: 0, name: 'Ada', score: 3, matches: 1, rank: 1 }] }]));
  assert.ok(types(over).includes('renderPractice'));
  assert.equal(practiceShown(controller.practice, controller.state).hidden, true);
  // Play again: a new board.
  const again = send(diff(22, [{ kind: 'redeal', board: [0, 1, 2, 3].map(cardFromId), deckCount: 77 }]));
  assert.deepEqual(counts(again).length, 1);
  // Back in the lobby: the count goes with the table.
  send({ type: 'message', message: { type: 'left' } });
  assert.deepEqual(controller.practice, { ...initialPractice(true) });
  assert.deepEqual(counts(send({ type: 'message', message: { type: 'snapshot', table: table({ ...SOLO, id: 't8' }) } })).length, 1);
  // A dropped connection: the board is asked about again once back.
  send({ type: 'connection', state: 'reconnecting' });
  assert.equal(controller.practice.asked, null);
});

test('a board is known by its table and its cards, the chain first', () => {
  const t = table();
  assert.equal(boardKey(t), `t7:${t.board.map((c) => c.id).join(',')}`);
  assert.equal(boardKey({ ...t, chain: [cardFromId(5)] }), `t7:5,${t.board.map((c) => c.id).join(',')}`);
  assert.equal(practiceApplies({ table: null }), false);
});
