import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHAT_PROBLEMS, chatMeasure, chatProblem, chatRefusalText, chatText, inputHoldsLine } from '../js/chat-text.js';

test('a line is checked as the server checks it: trimmed, 1-200 characters, no control or bidi', () => {
  assert.equal(chatProblem('  hello  '), null);
  assert.equal(chatProblem('é'.repeat(200)), null);
  assert.equal(chatProblem('😀'.repeat(200)), null, 'code points, not UTF-16 units');
  assert.equal(chatProblem(` ${'x'.repeat(200)}\u3000`), null, 'counted after trimming');
  assert.equal(chatProblem('   '), CHAT_PROBLEMS.empty);
  assert.equal(chatProblem(undefined), CHAT_PROBLEMS.empty);
  assert.match(chatProblem('é'.repeat(201)), /at most 200/);
  assert.match(chatProblem('two\nlines'), /line breaks/);
  assert.match(chatProblem('bidi \u202e trick'), /control/);
  assert.match(chatProblem('lone \ud800 half'), /control/);
  // Markup is text: nothing to refuse.
  assert.equal(chatProblem('<b>bold</b>'), null);
});

test('trimmed of the server\'s whitespace (Unicode White_Space), not JavaScript\'s', () => {
  // U+0085 (next line) is White_Space: the server trims it, so the line is fine.
  assert.equal(chatText('\u0085hi\u0085'), 'hi');
  assert.equal(chatProblem('\u0085hi\u0085'), null);
  // U+FEFF is not White_Space: the server keeps it (and so a line of it alone is not empty).
  assert.equal(chatText('\ufeffhi'), '\ufeffhi');
  assert.equal(chatProblem('\ufeff'), null);
  // Every kind of space, and nothing else: not a line.
  for (const blank of ['\t \u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000', '\u0085', '']) {
    assert.equal(chatProblem(blank), CHAT_PROBLEMS.empty, JSON.stringify(blank));
  }
  // 200 characters between a non-breaking space and an ideographic one are 200 after trimming.
  assert.equal(chatMeasure(`\u00a0${'a'.repeat(200)}\u3000`).characters, 200);
});

test('measured as the server measures: code points and UTF-8 bytes of the trimmed line', () => {
  assert.deepEqual(chatMeasure('  é😀 '), { text: 'é😀', characters: 2, bytes: 6 });
  assert.deepEqual(chatMeasure('😀'.repeat(200)), { text: '😀'.repeat(200), characters: 200, bytes: 800 });
});

test('a refusal is said in the words the client uses for that line, else the server\'s', () => {
  const server = { code: 'badField', message: "Field 'text' must be a line of 1 to 200 characters after trimming, without control characters." };
  assert.equal(chatRefusalText('x'.repeat(201), server), CHAT_PROBLEMS.long);
  assert.equal(chatRefusalText('fine', server), server.message);
  assert.equal(chatRefusalText('fine', { code: 'tooFast', message: 'You are chatting too fast; wait 2 s before the next line.' }),
    'You are chatting too fast; wait 2 s before the next line.');
  assert.equal(chatRefusalText('fine', { code: 'tooFast' }), 'That line was not sent.');
});

test('an answered line empties its input only if the input still holds it', () => {
  assert.ok(inputHoldsLine('  hello ', 'hello'));
  assert.ok(!inputHoldsLine('hello, and more', 'hello'));
  assert.ok(!inputHoldsLine('', 'hello'));
});
