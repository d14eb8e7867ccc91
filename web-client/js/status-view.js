// The status line: server runs (see status-runs.js) drawn as DOM. Text goes in as text nodes; a
// player's name is marked with its seat's colour; every card is a small card frame (so that one
// card's symbols read as one card), named in words for assistive technology ("two striped green
// squiggles"): a Set card's frame holds an inline SVG of `count` symbols (reusing
// #sym-<symbol>) painted with the run's colour, fill alpha and stroke. Nothing here parses HTML.

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
  if (part.kind === 'name') {
    const span = document.createElement('span');
    span.className = 'run-name';
    span.dataset.seat = String(part.seat);
    span.textContent = part.text;
    return span;
  }
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
    // The label says the card; its index is for the eye only (Chromium reads an img's children).
    rank.className = 'run-rank';
    rank.setAttribute('aria-hidden', 'true');
    rank.textContent = part.rank;
    const suit = document.createElement('span');
    suit.className = 'run-suit';
    suit.setAttribute('aria-hidden', 'true');
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
    const face = document.createElement('span');
    face.setAttribute('aria-hidden', 'true');
    face.textContent = part.emoji;
    span.append(face);
    return span;
  }
  const frame = document.createElement('span');
  frame.className = 'run-card run-set';
  frame.setAttribute('role', 'img');
  frame.setAttribute('aria-label', part.label);
  frame.dataset.card = String(part.card);
  const width = part.count * SYMBOL_W + (part.count - 1) * SYMBOL_GAP;
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('viewBox', `0 0 ${width} ${SYMBOL_H}`);
  svg.setAttribute('height', `${HEIGHT_EM}em`);
  svg.setAttribute('width', `${(HEIGHT_EM * width) / SYMBOL_H}em`);
  frame.append(svg);
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
  return frame;
}
