// Playing cards (Matchismo) and the shared card back, drawn as data. Pure: `playingCardDrawing`
// and `cardBackDrawing` return {viewBox, label, color, shapes} (svg-dom.js builds the DOM).
//
// Face of a card, in the 250 × 350 card box of card-view.js:
//   corner index  rank text and a small suit top-left; the same group rotated 180° bottom-right
//                 (shapes with part 'corner' / 'corner-rotated')
//   A, 2–10       pips in the traditional arrangements (`pipLayout`); pips below the middle are
//                 upside down, as on printed cards (part 'pip')
//   J, Q, K       a framed, double-headed figure of our own: a head, shoulders in the suit's colour
//                 and headgear that tells the rank — a pointed crown and a beard (K), a coronet
//                 with pearls and long hair (Q), a cap with a feather (J) (parts 'figure-…')
// Red for ♥ ♦, black for ♠ ♣. Suits are paths, not font glyphs, so no font can turn them into
// coloured emoji.

import { CARD_VIEWBOX } from './card-view.js';

export const SUITS = Object.freeze(['♠', '♥', '♦', '♣']);
export const SUIT_NAMES = Object.freeze({ '♠': 'spades', '♥': 'hearts', '♦': 'diamonds', '♣': 'clubs' });
export const RANK_TEXT = Object.freeze([null, 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K']);
export const RANK_NAMES = Object.freeze([
  null, 'ace', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'jack', 'queen', 'king',
]);
export const CARD_RED = '#c8102e';
export const CARD_BLACK = '#1b1b1f';
const GOLD = '#d9a21b';
const SKIN = '#f3d2ad';
const VIEWBOX = `0 0 ${CARD_VIEWBOX.width} ${CARD_VIEWBOX.height}`;
const CX = CARD_VIEWBOX.width / 2;
const CY = CARD_VIEWBOX.height / 2;

/** Suit outlines centred on (0, 0), about 100 units across. */
export const SUIT_PATHS = Object.freeze({
  '♦': 'M0 -50 L38 0 L0 50 L-38 0 Z',
  '♥': 'M0 44 C-22 24 -50 4 -48 -20 C-46 -44 -12 -50 0 -24 C12 -50 46 -44 48 -20 C50 4 22 24 0 44 Z',
  '♠':
    'M0 -48 C18 -26 50 -8 48 14 C46 36 16 40 5 22 L14 48 L-14 48 L-5 22 C-16 40 -46 36 -48 14 C-50 -8 -18 -26 0 -48 Z',
  '♣':
    'M0 -46 A21 21 0 1 1 0 -4 A21 21 0 1 1 0 -46 Z M-24 -8 A21 21 0 1 1 -24 34 A21 21 0 1 1 -24 -8 Z ' +
    'M24 -8 A21 21 0 1 1 24 34 A21 21 0 1 1 24 -8 Z M-5 6 L-15 48 L15 48 L5 6 Z',
});

/** True for a face-up playing card entry: rank 1–13 and one of the four suits. */
export function isPlayingCard(card) {
  return card !== null && typeof card === 'object' && Number.isInteger(card.rank) && card.rank >= 1 &&
    card.rank <= 13 && SUITS.includes(card.suit);
}

/** '#c8102e' for ♥ ♦, '#1b1b1f' for ♠ ♣. */
export function suitColor(suit) {
  return suit === '♥' || suit === '♦' ? CARD_RED : CARD_BLACK;
}

/** "queen of hearts". */
export function playingCardLabel(card) {
  return `${RANK_NAMES[card.rank]} of ${SUIT_NAMES[card.suit]}`;
}

// Pip columns and rows: the pips of 2–10 sit on three columns and between two rows.
const COLUMN = { L: 78, C: CX, R: 172 };
const TOP = 80;
const BOTTOM = 270;
const PIP_SIZE = 38;
const ACE_SIZE = 96;
const LAYOUTS = {
  1: [['C', 1 / 2]],
  2: [['C', 0], ['C', 1]],
  3: [['C', 0], ['C', 1 / 2], ['C', 1]],
  4: [['L', 0], ['R', 0], ['L', 1], ['R', 1]],
  5: [['L', 0], ['R', 0], ['C', 1 / 2], ['L', 1], ['R', 1]],
  6: [['L', 0], ['R', 0], ['L', 1 / 2], ['R', 1 / 2], ['L', 1], ['R', 1]],
  7: [['L', 0], ['R', 0], ['C', 1 / 4], ['L', 1 / 2], ['R', 1 / 2], ['L', 1], ['R', 1]],
  8: [['L', 0], ['R', 0], ['C', 1 / 4], ['L', 1 / 2], ['R', 1 / 2], ['C', 3 / 4], ['L', 1], ['R', 1]],
  9: [['L', 0], ['R', 0], ['L', 1 / 3], ['R', 1 / 3], ['C', 1 / 2], ['L', 2 / 3], ['R', 2 / 3], ['L', 1], ['R', 1]],
  10: [
    ['L', 0], ['R', 0], ['C', 1 / 6], ['L', 1 / 3], ['R', 1 / 3], ['L', 2 / 3], ['R', 2 / 3], ['C', 5 / 6], ['L', 1], ['R', 1],
  ],
};

/** Where the pips of `rank` go: [{x, y, size, rotated}] (centres in card units); [] for J, Q, K. */
export function pipLayout(rank) {
  const layout = LAYOUTS[rank];
  if (layout === undefined) return [];
  return layout.map(([column, row]) => {
    const y = rank === 1 ? CY : round(TOP + row * (BOTTOM - TOP));
    return { x: COLUMN[column], y, size: rank === 1 ? ACE_SIZE : PIP_SIZE, rotated: y > CY };
  });
}

/** The drawing of a face-up playing card (see the top of this file). */
export function playingCardDrawing(card) {
  if (!isPlayingCard(card)) return unknownDrawing();
  const color = suitColor(card.suit);
  const corner = cornerShapes(card, color);
  const shapes = [
    { tag: 'g', part: 'corner', attrs: { class: 'corner' }, children: corner },
    { tag: 'g', part: 'corner-rotated', attrs: { class: 'corner', transform: `rotate(180 ${CX} ${CY})` }, children: corner },
  ];
  if (card.rank <= 10) {
    for (const pip of pipLayout(card.rank)) shapes.push({ ...suitShape(card.suit, pip, color), part: 'pip' });
  } else {
    shapes.push(...figureShapes(card, color));
  }
  return { viewBox: VIEWBOX, label: playingCardLabel(card), color, shapes };
}

/** The back shared by every face-down card (Matchismo and Concentration): a border, a lattice of
 * small diamonds and a centre medallion. The ground is `currentColor`, so CSS picks its colour. */
export function cardBackDrawing() {
  const shapes = [
    { tag: 'rect', part: 'back-ground', attrs: { x: 12, y: 12, width: 226, height: 326, rx: 14, fill: 'currentColor' } },
    {
      tag: 'rect',
      part: 'back-border',
      attrs: { x: 22, y: 22, width: 206, height: 306, rx: 8, fill: 'none', stroke: '#ffffff', 'stroke-opacity': 0.6, 'stroke-width': 3 },
    },
  ];
  for (let y = 44; y <= 306; y += 26) {
    for (let x = 42; x <= 208; x += 26) {
      const odd = Math.round((y - 44) / 26) % 2 === 1;
      const cx = odd ? x + 13 : x;
      if (cx > 210) continue;
      if (Math.hypot(cx - CX, y - CY) < 52) continue; // room for the medallion
      shapes.push({
        tag: 'path',
        part: 'back-lattice',
        attrs: { d: `M${cx} ${y - 9} L${cx + 9} ${y} L${cx} ${y + 9} L${cx - 9} ${y} Z`, fill: '#ffffff', 'fill-opacity': 0.28 },
      });
    }
  }
  shapes.push(
    { tag: 'circle', part: 'back-medallion', attrs: { cx: CX, cy: CY, r: 38, fill: '#ffffff', 'fill-opacity': 0.9 } },
    {
      tag: 'path',
      part: 'back-star',
      attrs: { d: `M${CX} ${CY - 28} L${CX + 8} ${CY - 8} L${CX + 28} ${CY} L${CX + 8} ${CY + 8} L${CX} ${CY + 28} L${CX - 8} ${CY + 8} L${CX - 28} ${CY} L${CX - 8} ${CY - 8} Z`, fill: 'currentColor' },
    },
  );
  return { viewBox: VIEWBOX, label: 'face-down card', color: null, shapes };
}

/** A face we cannot read: a plain question mark rather than a wrong card. */
export function unknownDrawing() {
  return {
    viewBox: VIEWBOX,
    label: 'unknown card',
    color: CARD_BLACK,
    shapes: [{ tag: 'text', part: 'unknown', attrs: { x: CX, y: CY + 30, 'text-anchor': 'middle', 'font-size': 90, fill: CARD_BLACK }, text: '?' }],
  };
}

function cornerShapes(card, color) {
  const ten = card.rank === 10;
  return [
    {
      tag: 'text',
      part: 'corner-rank',
      attrs: {
        x: 28,
        y: 52,
        'text-anchor': 'middle',
        'font-size': ten ? 34 : 40,
        'font-weight': 700,
        'font-family': 'Georgia, "Times New Roman", serif',
        'letter-spacing': ten ? -3 : 0,
        fill: color,
      },
      text: RANK_TEXT[card.rank],
    },
    { ...suitShape(card.suit, { x: 28, y: 76, size: 24, rotated: false }, color), part: 'corner-suit' },
  ];
}

function suitShape(suit, { x, y, size, rotated }, color) {
  const scale = round(size / 100);
  const turn = rotated ? ' rotate(180)' : '';
  return { tag: 'path', attrs: { d: SUIT_PATHS[suit], fill: color, transform: `translate(${x} ${y})${turn} scale(${scale})` } };
}

// The court figure: the top half is drawn once and repeated upside down, like a printed card.
function figureShapes(card, color) {
  const gear = HEADGEAR[card.rank](color);
  const half = [
    ...gear.filter((shape) => shape.behind),
    { tag: 'path', part: 'figure-body', attrs: { d: 'M84 172 C86 146 104 138 125 138 C146 138 164 146 166 172 Z', fill: color } },
    { tag: 'path', part: 'figure-collar', attrs: { d: 'M110 140 L125 160 L140 140 Z', fill: '#ffffff', stroke: CARD_BLACK, 'stroke-width': 2 } },
    { tag: 'circle', part: 'figure-head', attrs: { cx: 125, cy: 116, r: 20, fill: SKIN, stroke: CARD_BLACK, 'stroke-width': 2 } },
    ...gear.filter((shape) => !shape.behind),
    { ...suitShape(card.suit, { x: 76, y: 84, size: 22, rotated: false }, color), part: 'figure-pip' },
  ];
  return [
    { tag: 'rect', part: 'figure-frame', attrs: { x: 56, y: 60, width: 138, height: 230, rx: 6, fill: '#fbf6e9', stroke: color, 'stroke-width': 3 } },
    { tag: 'g', part: 'figure-top', attrs: { class: 'figure' }, children: half },
    { tag: 'g', part: 'figure-bottom', attrs: { class: 'figure', transform: `rotate(180 ${CX} ${CY})` }, children: half },
    { tag: 'path', part: 'figure-divider', attrs: { d: `M58 ${CY} L192 ${CY}`, stroke: color, 'stroke-width': 2 } },
  ];
}

const HEADGEAR = {
  // Jack: a soft cap with a feather.
  11: (color) => [
    { tag: 'path', part: 'figure-cap', attrs: { d: 'M102 104 C104 84 146 82 150 100 C138 96 116 96 102 104 Z', fill: color, stroke: CARD_BLACK, 'stroke-width': 2 } },
    { tag: 'path', part: 'figure-feather', attrs: { d: 'M146 96 C160 84 166 72 162 62 C154 72 148 84 146 96 Z', fill: GOLD, stroke: CARD_BLACK, 'stroke-width': 1.5 } },
  ],
  // Queen: a coronet of pearls over long hair (drawn behind the head: `behind`).
  12: () => [
    { tag: 'path', part: 'figure-hair', behind: true, attrs: { d: 'M100 118 C98 140 104 152 110 156 L140 156 C146 152 152 140 150 118 C150 96 100 96 100 118 Z', fill: '#7a4a1e' } },
    { tag: 'rect', part: 'figure-coronet', attrs: { x: 106, y: 90, width: 38, height: 8, rx: 3, fill: GOLD, stroke: CARD_BLACK, 'stroke-width': 1.5 } },
    { tag: 'circle', part: 'figure-pearl', attrs: { cx: 110, cy: 86, r: 4.5, fill: '#ffffff', stroke: CARD_BLACK, 'stroke-width': 1.5 } },
    { tag: 'circle', part: 'figure-pearl', attrs: { cx: 125, cy: 82, r: 5, fill: '#ffffff', stroke: CARD_BLACK, 'stroke-width': 1.5 } },
    { tag: 'circle', part: 'figure-pearl', attrs: { cx: 140, cy: 86, r: 4.5, fill: '#ffffff', stroke: CARD_BLACK, 'stroke-width': 1.5 } },
  ],
  // King: a pointed crown and a beard.
  13: () => [
    { tag: 'path', part: 'figure-crown', attrs: { d: 'M103 100 L101 74 L113 86 L125 68 L137 86 L149 74 L147 100 Z', fill: GOLD, stroke: CARD_BLACK, 'stroke-width': 2 } },
    { tag: 'path', part: 'figure-beard', attrs: { d: 'M107 122 C110 146 140 146 143 122 C134 130 116 130 107 122 Z', fill: '#5a3a1a' } },
  ],
};

function round(value) {
  return Math.round(value * 1000) / 1000;
}
