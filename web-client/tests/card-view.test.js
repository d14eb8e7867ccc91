// The SVG structure a browser test relies on (see js/card-view.js), checked without a DOM: a
// decoder that reads only what would be drawn recovers every card of the deck.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CARD_VIEWBOX, DEFAULT_PALETTE, cardSymbols } from '../js/card-view.js';
import { allCards, cardFromId } from '../js/set-cards.js';

function decode(symbols, palette) {
  const colorOf = (hex) => Object.keys(palette).find((name) => palette[name] === hex);
  const fill = symbols[0].fill;
  return {
    number: symbols.length,
    symbol: symbols[0].href.replace('#sym-', ''),
    shading: fill === 'none' ? 'open' : fill.startsWith('url(#stripes-') ? 'striped' : 'solid',
    color: colorOf(symbols[0].stroke),
  };
}

test('every card decodes back from its drawing', () => {
  const palette = { red: '#cc0000', green: '#00aa00', purple: '#660099' };
  for (const card of allCards()) {
    const symbols = cardSymbols(card, palette);
    const { id, ...attributes } = card;
    assert.deepEqual(decode(symbols, palette), attributes, `card ${id}`);
    for (const s of symbols) {
      assert.equal(s.href, symbols[0].href);
      assert.equal(s.fill, symbols[0].fill);
      assert.equal(s.stroke, palette[card.color]);
      if (card.shading === 'solid') assert.equal(s.fill, palette[card.color]);
      if (card.shading === 'striped') assert.equal(s.fill, `url(#stripes-${card.color})`);
    }
  }
});

test('symbols sit inside the card, centred, without overlapping', () => {
  for (const number of [1, 2, 3]) {
    const symbols = cardSymbols({ ...cardFromId(0), number }, DEFAULT_PALETTE);
    const top = symbols[0].y;
    const bottom = symbols.at(-1).y + symbols.at(-1).height;
    assert.ok(Math.abs(top - (CARD_VIEWBOX.height - bottom)) < 0.001, 'vertically centred');
    for (const s of symbols) {
      assert.ok(s.x >= 0 && s.x + s.width <= CARD_VIEWBOX.width);
      assert.ok(s.y >= 0 && s.y + s.height <= CARD_VIEWBOX.height);
    }
    for (let i = 1; i < symbols.length; i += 1) assert.ok(symbols[i].y >= symbols[i - 1].y + symbols[i - 1].height);
  }
});

test('an unknown card draws nothing rather than something wrong', () => {
  assert.deepEqual(cardSymbols({ id: 99, number: 2, symbol: 'star', shading: 'solid', color: 'red' }), []);
  assert.equal(cardSymbols(cardFromId(80))[0].stroke, DEFAULT_PALETTE.purple);
});
