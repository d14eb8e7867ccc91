import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CARD_BLACK,
  CARD_RED,
  SUITS,
  cardBackDrawing,
  pipLayout,
  playingCardDrawing,
  playingCardLabel,
} from '../js/playing-cards.js';
import { CARD_VIEWBOX } from '../js/card-view.js';

const parts = (drawing, part) => drawing.shapes.filter((s) => s.part === part);
const key = (p) => `${p.x},${p.y}`;

test('A and 2–10 have as many pips as their rank; J, Q, K have none', () => {
  for (let rank = 1; rank <= 13; rank += 1) {
    const expected = rank <= 10 ? rank : 0;
    assert.equal(pipLayout(rank).length, expected, `rank ${rank}`);
    for (const suit of SUITS) assert.equal(parts(playingCardDrawing({ rank, suit }), 'pip').length, expected);
  }
});

test('pips sit in the traditional places', () => {
  const at = (rank) => pipLayout(rank).map((p) => [p.x, p.y]);
  assert.deepEqual(at(1), [[125, 175]]);
  assert.deepEqual(at(2), [[125, 80], [125, 270]]);
  assert.deepEqual(at(3), [[125, 80], [125, 175], [125, 270]]);
  assert.deepEqual(at(4), [[78, 80], [172, 80], [78, 270], [172, 270]]);
  assert.deepEqual(at(5), [...at(4).slice(0, 2), [125, 175], ...at(4).slice(2)]);
  assert.deepEqual(at(6), [[78, 80], [172, 80], [78, 175], [172, 175], [78, 270], [172, 270]]);
  assert.deepEqual(at(7).filter(([x]) => x === 125), [[125, 127.5]]);
  assert.deepEqual(at(8).filter(([x]) => x === 125), [[125, 127.5], [125, 222.5]]);
  assert.deepEqual(at(9).filter(([x]) => x === 125), [[125, 175]]);
  assert.deepEqual(at(9).filter(([x]) => x === 78).map(([, y]) => y), [80, 143.333, 206.667, 270]);
  assert.deepEqual(at(10).filter(([x]) => x === 125).map(([, y]) => y), [111.667, 238.333]);
  assert.equal(pipLayout(1)[0].size > pipLayout(2)[0].size * 2, true, 'the ace has one big pip');
});

test('every layout is symmetric under a half turn, inside the card, clear of the corners, without overlaps', () => {
  for (let rank = 1; rank <= 10; rank += 1) {
    const pips = pipLayout(rank);
    const places = new Set(pips.map(key));
    for (const p of pips) {
      const turned = { x: CARD_VIEWBOX.width - p.x, y: CARD_VIEWBOX.height - p.y };
      assert.ok(places.has(key(turned)) || (rank === 7 && p.x === 125), `rank ${rank}: ${key(p)} has a twin`);
      const r = p.size / 2;
      assert.ok(p.x - r >= 50 && p.x + r <= 200, `rank ${rank}: clear of the corner columns`);
      assert.ok(p.y - r >= 40 && p.y + r <= 310, `rank ${rank}: inside the card`);
      assert.equal(p.rotated, p.y > 175, 'pips below the middle are upside down');
      for (const q of pips) if (q !== p) assert.ok(Math.hypot(p.x - q.x, p.y - q.y) >= p.size, `rank ${rank}: pips overlap`);
    }
  }
});

test('the corner index shows the rank and suit top-left and, turned, bottom-right', () => {
  const texts = { 1: 'A', 7: '7', 10: '10', 11: 'J', 12: 'Q', 13: 'K' };
  for (const [rank, text] of Object.entries(texts)) {
    const drawing = playingCardDrawing({ rank: Number(rank), suit: '♣' });
    const [corner] = parts(drawing, 'corner');
    const [turned] = parts(drawing, 'corner-rotated');
    assert.equal(corner.children.find((s) => s.part === 'corner-rank').text, text);
    assert.ok(corner.children.some((s) => s.part === 'corner-suit'));
    assert.equal(turned.children, corner.children);
    assert.equal(turned.attrs.transform, 'rotate(180 125 175)');
    assert.equal(corner.attrs.transform, undefined);
  }
});

test('hearts and diamonds are red, spades and clubs black, everywhere on the card', () => {
  const colors = (drawing) => {
    const out = [];
    const walk = (shapes) => shapes.forEach((s) => {
      if (s.part === 'pip' || s.part === 'corner-rank' || s.part === 'corner-suit') out.push(s.attrs.fill);
      if (s.children) walk(s.children);
    });
    walk(drawing.shapes);
    return new Set(out);
  };
  for (const [suit, color] of [['♥', CARD_RED], ['♦', CARD_RED], ['♠', CARD_BLACK], ['♣', CARD_BLACK]]) {
    const drawing = playingCardDrawing({ rank: 9, suit });
    assert.equal(drawing.color, color);
    assert.deepEqual(colors(drawing), new Set([color]));
  }
});

test('jack, queen and king are different drawings of our own', () => {
  const faces = [11, 12, 13].map((rank) => playingCardDrawing({ rank, suit: '♥' }));
  const partsOf = (drawing) => new Set(JSON.stringify(drawing.shapes).match(/"part":"figure-[a-z-]+"/g));
  assert.ok(partsOf(faces[0]).has('"part":"figure-feather"'));
  assert.ok(partsOf(faces[1]).has('"part":"figure-coronet"'));
  assert.ok(partsOf(faces[2]).has('"part":"figure-crown"'));
  assert.notDeepEqual(faces[0].shapes, faces[1].shapes);
  assert.notDeepEqual(faces[1].shapes, faces[2].shapes);
  for (const face of faces) {
    const bottom = face.shapes.find((s) => s.part === 'figure-bottom');
    assert.equal(bottom.attrs.transform, 'rotate(180 125 175)', 'double-headed');
  }
});

test('labels say the card in words', () => {
  assert.equal(playingCardLabel({ rank: 12, suit: '♥' }), 'queen of hearts');
  assert.equal(playingCardDrawing({ rank: 1, suit: '♠' }).label, 'ace of spades');
  assert.equal(playingCardDrawing({ rank: 10, suit: '♦' }).label, 'ten of diamonds');
  assert.equal(playingCardDrawing({ rank: 11, suit: '♣' }).label, 'jack of clubs');
  assert.equal(playingCardDrawing({ rank: 14, suit: '♣' }).label, 'unknown card');
  assert.equal(playingCardDrawing({ rank: 3, suit: 'x' }).label, 'unknown card');
});

test('the back is a pattern inside a border around a medallion, coloured by CSS', () => {
  const back = cardBackDrawing();
  assert.equal(back.label, 'face-down card');
  assert.equal(parts(back, 'back-ground')[0].attrs.fill, 'currentColor');
  assert.equal(parts(back, 'back-medallion').length, 1);
  const lattice = parts(back, 'back-lattice');
  assert.ok(lattice.length > 40, `${lattice.length} diamonds`);
  for (const d of lattice) {
    const [x, y] = d.attrs.d.match(/-?\d+(\.\d+)?/g).map(Number);
    assert.ok(x > 22 && x < 228 && y > 22 && y < 328, 'inside the border');
    assert.ok(Math.hypot(x - 125, y + 9 - 175) >= 40, 'clear of the medallion');
  }
  assert.equal(JSON.stringify(back).includes('♥'), false, 'a back tells nothing about the face');
});
