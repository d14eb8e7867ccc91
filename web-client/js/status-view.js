// The status line: server runs (see status-runs.js) drawn as DOM. Text goes in as text nodes;
// a card run becomes a small inline SVG of `count` symbols (reusing #sym-<symbol>) painted with
// the run's colour, fill alpha and stroke, labelled with the run's text for screen readers.
// Nothing here parses HTML.

import { statusParts } from './status-runs.js';
import { SVG_NS } from './card-view.js';

const SYMBOL_W = 200;
const SYMBOL_H = 100;
const SYMBOL_GAP = 24;
const HEIGHT_EM = 1.1;
// stroke widths in the runs are CSS pixels; one em is about 16px, so one pixel is this many units:
const UNITS_PER_PX = SYMBOL_H / (HEIGHT_EM * 16);

/** Replace the contents of `container` with the status line `runs`. */
export function renderStatus(container, runs) {
  container.replaceChildren(...runNodes(runs));
}

/** The DOM nodes of a line of runs (the status line, a history row). */
export function runNodes(runs) {
  return statusParts(runs).map(nodeFor);
}

function nodeFor(part) {
  if (part.kind === 'text') {
    if (part.color === null) return document.createTextNode(part.text);
    const span = document.createElement('span');
    span.className = 'run';
    span.style.setProperty('color', part.color);
    span.textContent = part.text;
    return span;
  }
  if (part.kind === 'playing') {
    // A small card: white paper, the corner index (rank over suit) in red or black.
    const span = document.createElement('span');
    span.className = `run-card run-playing ${part.red ? 'red' : 'black'}`;
    span.setAttribute('role', 'img');
    span.setAttribute('aria-label', part.label);
    span.dataset.card = String(part.card);
    span.dataset.rank = part.rank;
    span.dataset.suit = part.suit;
    const rank = document.createElement('span');
    rank.className = 'run-rank';
    rank.textContent = part.rank;
    const suit = document.createElement('span');
    suit.className = 'run-suit';
    suit.textContent = part.suit;
    span.append(rank, suit);
    return span;
  }
  if (part.kind === 'emoji') {
    const span = document.createElement('span');
    span.className = 'run-card run-emoji';
    span.setAttribute('role', 'img');
    span.setAttribute('aria-label', part.label);
    span.dataset.card = String(part.card);
    span.textContent = part.emoji;
    return span;
  }
  const width = part.count * SYMBOL_W + (part.count - 1) * SYMBOL_GAP;
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'run-card');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', part.label);
  svg.setAttribute('viewBox', `0 0 ${width} ${SYMBOL_H}`);
  svg.setAttribute('height', `${HEIGHT_EM}em`);
  svg.setAttribute('width', `${(HEIGHT_EM * width) / SYMBOL_H}em`);
  svg.dataset.card = String(part.card);
  for (let i = 0; i < part.count; i += 1) {
    const use = document.createElementNS(SVG_NS, 'use');
    use.setAttribute('href', `#sym-${part.symbol}`);
    use.setAttribute('x', String(i * (SYMBOL_W + SYMBOL_GAP)));
    use.setAttribute('y', '0');
    use.setAttribute('width', String(SYMBOL_W));
    use.setAttribute('height', String(SYMBOL_H));
    use.setAttribute('fill', part.color);
    use.setAttribute('fill-opacity', String(part.alpha));
    use.setAttribute('stroke', part.color);
    use.setAttribute('stroke-width', String(part.stroke * UNITS_PER_PX));
    svg.append(use);
  }
  return svg;
}
