import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emojiCardDrawing, emojiLabel, isEmojiCard } from '../js/emoji-cards.js';

test('the emoji is drawn large in the middle, as text', () => {
  const drawing = emojiCardDrawing({ id: 3, faceUp: true, emoji: '🦊' });
  assert.equal(drawing.shapes.length, 1);
  const [text] = drawing.shapes;
  assert.equal(text.tag, 'text');
  assert.equal(text.text, '🦊');
  assert.equal(text.attrs.x, 125);
  assert.equal(text.attrs.y, 175);
  assert.ok(text.attrs['font-size'] >= 120);
});

test('labels name known emoji and show unknown ones', () => {
  assert.equal(emojiLabel('🦊'), 'fox');
  assert.equal(emojiCardDrawing({ emoji: '🐙' }).label, 'octopus');
  assert.equal(emojiLabel('🪐'), 'card showing 🪐');
});

test('only a short non-empty emoji string is an emoji card', () => {
  assert.equal(isEmojiCard({ emoji: '🦊' }), true);
  assert.equal(isEmojiCard({ emoji: '' }), false);
  assert.equal(isEmojiCard({ emoji: 'x'.repeat(40) }), false);
  assert.equal(isEmojiCard({ emoji: 7 }), false);
  assert.equal(isEmojiCard(null), false);
});

test("every emoji of the server's themes has the server's name", () => {
  assert.equal(emojiLabel('🦒'), 'giraffe');
  assert.equal(emojiLabel('⚽'), 'football');
  assert.equal(emojiLabel('🪕'), 'banjo');
  assert.equal(emojiLabel('🌧️'), 'rain cloud');
});
