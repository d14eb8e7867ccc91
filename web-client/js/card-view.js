// Set cards drawn in SVG.
//
// The symbols are defined once, in the hidden <svg id="set-defs"> of index.html:
//   <symbol id="sym-diamond|sym-squiggle|sym-oval" viewBox="0 0 200 100">  the shapes
//   <pattern id="stripes-red|stripes-green|stripes-purple">                 the striped fills
// and every card reuses them. The structure of one card, which a browser test may read to learn
// each card's attributes from what is drawn:
//
//   <div class="card" role="button" tabindex="0" data-card-id="40" aria-pressed="false"
//        aria-label="two striped green squiggles">
//     <svg class="card-face" viewBox="0 0 250 350" aria-hidden="true" focusable="false">
//       <use class="symbol" href="#sym-squiggle" x=… y=… width="180" height="90"
//            fill="url(#stripes-green)" stroke="#1a9b4b" stroke-width="6"/>
//       <use class="symbol" href="#sym-squiggle" …/>            ← one <use> per symbol
//     </svg>
//   </div>
//
//   number  = the count of <use> elements
//   symbol  = href without the "#sym-" prefix (diamond | squiggle | oval)
//   shading = fill "none" → open; fill "url(#stripes-<color>)" → striped; a colour → solid
//   color   = the stroke, always the colour's hex value: the CSS custom property --set-<color>
//             on :root (defaults: DEFAULT_PALETTE below), as resolved when
//             the page started; for solid cards fill equals stroke.
// `aria-pressed="true"` and class "selected" mark a card in my selection.

import { ATTRIBUTES, describeCard, isValidCard } from './set-cards.js';
import { safeColor } from './status-runs.js';

export const SVG_NS = 'http://www.w3.org/2000/svg';

/** Card face size in SVG units (a 5:7 playing-card shape). */
export const CARD_VIEWBOX = { width: 250, height: 350 };

/** Card height divided by card width. */
export const CARD_ASPECT = CARD_VIEWBOX.height / CARD_VIEWBOX.width;

/** The colours used when the stylesheet does not define --set-<color>: the server's
 * SetCard.colorHex, which tests/set-colours.test.js checks. */
export const DEFAULT_PALETTE = Object.freeze({ red: '#d6204e', green: '#1a9b4b', purple: '#6a3fb5' });

const SYMBOL_WIDTH = 180;
const SYMBOL_HEIGHT = 90;
const SYMBOL_GAP = 18;
const STROKE_WIDTH = 6;

/** The palette (colour name → hex) from the CSS custom properties --set-<color> on `root`. */
export function readPalette(root = document.documentElement) {
  const style = getComputedStyle(root);
  const palette = {};
  for (const color of ATTRIBUTES.color) {
    const value = safeColor(style.getPropertyValue(`--set-${color}`).trim());
    palette[color] = (value ?? DEFAULT_PALETTE[color] ?? '#000000').toLowerCase();
  }
  return palette;
}

/** The <use> elements of one card as plain data: what createCardElement draws. Pure. */
export function cardSymbols(card, palette = DEFAULT_PALETTE) {
  if (!isValidCard(card)) return [];
  const color = palette[card.color] ?? DEFAULT_PALETTE[card.color];
  const fill = { solid: color, striped: `url(#stripes-${card.color})`, open: 'none' }[card.shading];
  const total = card.number * SYMBOL_HEIGHT + (card.number - 1) * SYMBOL_GAP;
  const top = (CARD_VIEWBOX.height - total) / 2;
  return Array.from({ length: card.number }, (_, i) => ({
    href: `#sym-${card.symbol}`,
    x: (CARD_VIEWBOX.width - SYMBOL_WIDTH) / 2,
    y: top + i * (SYMBOL_HEIGHT + SYMBOL_GAP),
    width: SYMBOL_WIDTH,
    height: SYMBOL_HEIGHT,
    fill,
    stroke: color,
    strokeWidth: STROKE_WIDTH,
  }));
}

/** A new card element (see the structure above). */
export function createCardElement(card, palette) {
  const element = document.createElement('div');
  element.className = 'card';
  element.setAttribute('role', 'button');
  element.tabIndex = 0;
  element.dataset.cardId = String(card.id);
  element.setAttribute('aria-pressed', 'false');
  element.setAttribute('aria-label', isValidCard(card) ? describeCard(card) : `card ${card.id}`);

  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'card-face');
  svg.setAttribute('viewBox', `0 0 ${CARD_VIEWBOX.width} ${CARD_VIEWBOX.height}`);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  for (const s of cardSymbols(card, palette)) {
    const use = document.createElementNS(SVG_NS, 'use');
    use.setAttribute('class', 'symbol');
    use.setAttribute('href', s.href);
    use.setAttribute('x', String(s.x));
    use.setAttribute('y', String(s.y));
    use.setAttribute('width', String(s.width));
    use.setAttribute('height', String(s.height));
    use.setAttribute('fill', s.fill);
    use.setAttribute('stroke', s.stroke);
    use.setAttribute('stroke-width', String(s.strokeWidth));
    svg.append(use);
  }
  element.append(svg);
  return element;
}
