import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainText, safeColor, spokenText, statusParts } from '../js/status-runs.js';

const EXAMPLE = [
  { text: 'Ada' },
  { text: ' matched ' },
  { card: 17, text: '◆◆', symbol: 'diamond', count: 2, color: '#d6204e', shading: 'striped', alpha: 0.35, stroke: 0 },
  { text: ' ' },
  { card: 40, text: '∿∿', symbol: 'squiggle', count: 2, color: '#1a9b4b', shading: 'open', alpha: 0, stroke: 2 },
  { text: ' for ' },
  { text: '+12', color: '#1a7f37' },
];

test('text and card runs of the PROTOCOL.md example', () => {
  const parts = statusParts(EXAMPLE);
  assert.equal(parts.length, 7);
  assert.deepEqual(parts[0], { kind: 'text', text: 'Ada', color: null });
  assert.deepEqual(parts[2], {
    kind: 'card',
    card: 17,
    symbol: 'diamond',
    count: 2,
    color: '#d6204e',
    alpha: 0.35,
    stroke: 0,
    glyph: '◆◆',
    label: '◆◆',
  });
  assert.deepEqual(parts[4].stroke, 2);
  assert.deepEqual(parts[4].alpha, 0);
  assert.deepEqual(parts[6], { kind: 'text', text: '+12', color: '#1a7f37' });
  assert.equal(plainText(EXAMPLE), 'Ada matched ◆◆ ∿∿ for +12');
});

test('only hex colours are used; anything else is dropped', () => {
  assert.equal(safeColor('#abc'), '#abc');
  assert.equal(safeColor('#A1B2C3'), '#A1B2C3');
  assert.equal(safeColor('#a1b2c3d4'), '#a1b2c3d4');
  for (const bad of ['red', 'url(#x)', 'var(--a)', '#12', '#ggg', 'expression(alert(1))', '#fff;background:red', 3, null]) {
    assert.equal(safeColor(bad), null, String(bad));
  }
  assert.equal(statusParts([{ text: 'x', color: 'javascript:1' }])[0].color, null);
});

test('malformed runs degrade to text; numbers are clamped', () => {
  const parts = statusParts([
    { card: 3, text: '★', symbol: 'star', count: 1, color: '#000' },
    { card: 3, text: '◆', symbol: 'diamond', count: 99, color: 'red', alpha: 5, stroke: -1 },
    { text: 42 },
    null,
    '<b>x</b>',
  ]);
  assert.deepEqual(parts[0], { kind: 'text', text: '★', color: '#000' });
  assert.equal(parts[1].kind, 'card');
  assert.equal(parts[1].count, 3);
  assert.equal(parts[1].color, '#000000');
  assert.equal(parts[1].alpha, 1);
  assert.equal(parts[1].stroke, 0);
  assert.deepEqual(parts[2], { kind: 'text', text: '', color: null });
  assert.equal(parts.length, 3);
  assert.deepEqual(statusParts('nope'), []);
});

test('markup in text stays text', () => {
  assert.equal(plainText([{ text: '<img src=x onerror=alert(1)>' }]), '<img src=x onerror=alert(1)>');
});

// Issue 34, point 6: names in their seat's colour, cards in words for assistive technology.
test('a name run keeps its seat; a card keeps its words beside its glyphs', () => {
  const runs = [
    { text: 'Ada', seat: 0 },
    { text: "'s" },
    { text: ' ' },
    { card: 17, text: '◆◆', symbol: 'diamond', count: 2, color: '#d6204e', shading: 'striped', alpha: 0.35, stroke: 1, label: 'two striped red diamonds' },
    { text: ' ' },
    { card: 5, text: 'Q♥', label: 'queen of hearts' },
    { text: ' don’t match.' },
  ];
  const parts = statusParts(runs);
  assert.deepEqual(parts[0], { kind: 'name', text: 'Ada', seat: 0 });
  assert.equal(parts[3].label, 'two striped red diamonds');
  assert.equal(parts[3].glyph, '◆◆');
  assert.equal(plainText(runs), "Ada's ◆◆ Q♥ don’t match.");
  assert.equal(spokenText(runs), "Ada's two striped red diamonds queen of hearts don’t match.");
  // A seat that is not a small whole number is no seat.
  for (const seat of [-1, 1.5, '0', 99, null]) assert.equal(statusParts([{ text: 'Bo', seat }])[0].kind, 'text', String(seat));
});
