// Status runs (PROTOCOL.md, `status`) checked and reduced to what the status view draws. Pure:
// the view (status-view.js) only turns these parts into DOM nodes.
//
// A part is one of
//   {kind: 'text', text, color}                       color: a CSS hex colour or null
//   {kind: 'name', text, seat}                                          a player's name (seat colour)
//   {kind: 'card', card, symbol, count, color, alpha, stroke, glyph, label}   a Set card
//   {kind: 'playing', card, rank, suit, red, label}                     a playing card ("Q♥")
//   {kind: 'emoji', card, emoji, label}                                 a Concentration card
// A card's `label` is its name in words ("two striped green squiggles"), what assistive
// technology says. Anything unexpected degrades to text, so a status line is never lost and never
// interpreted.

import { ATTRIBUTES } from './set-cards.js';

const HEX_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** The most symbols one card run draws (Set cards have 1–3). */
export const MAX_RUN_COUNT = 3;

/** A CSS hex colour, or null for anything else (names, `url(…)`, `var(…)` are refused). */
export function safeColor(value) {
  return typeof value === 'string' && HEX_COLOR.test(value) ? value : null;
}

/** The parts of a status line, from the server's runs. */
export function statusParts(runs) {
  if (!Array.isArray(runs)) return [];
  return runs.filter((run) => run !== null && typeof run === 'object').map(partOf);
}

/** The status line as plain text (card runs by their glyph text). */
export function plainText(runs) {
  return statusParts(runs)
    .map((part) => ({ text: part.text, name: part.text, card: part.glyph, playing: `${part.rank}${part.suit}`, emoji: part.emoji })[part.kind])
    .join('');
}

/** The status line as a screen reader should hear it: each card by its name in words. */
export function spokenText(runs) {
  return statusParts(runs)
    .map((part) => (part.kind === 'text' || part.kind === 'name' ? part.text : part.label))
    .join('');
}

/** A playing card's text as the server writes it: rank then suit ("10♥", "A♠"). */
const PLAYING_TEXT = /^(A|[2-9]|10|J|Q|K)([♠♥♦♣])$/u;

/** Emoji text: one grapheme made of pictographs (with joiners and variation selectors). */
const EMOJI_TEXT = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\u200d|\ufe0f|\p{Emoji_Modifier})+$/u;

function partOf(run) {
  const text = typeof run.text === 'string' ? run.text : '';
  const color = safeColor(run.color);
  const label = typeof run.label === 'string' && run.label !== '' ? run.label : text;
  if (Number.isInteger(run.card) && run.symbol === undefined) {
    const playing = PLAYING_TEXT.exec(text);
    if (playing !== null) {
      return { kind: 'playing', card: run.card, rank: playing[1], suit: playing[2], red: playing[2] === '♥' || playing[2] === '♦', label };
    }
    if (text.length <= 16 && EMOJI_TEXT.test(text)) return { kind: 'emoji', card: run.card, emoji: text, label };
  }
  const isCard =
    run.card !== undefined && ATTRIBUTES.symbol.includes(run.symbol) && Number.isInteger(run.count);
  if (!isCard) {
    if (Number.isInteger(run.seat) && run.seat >= 0 && run.seat < 64) return { kind: 'name', text, seat: run.seat };
    return { kind: 'text', text, color };
  }
  return {
    kind: 'card',
    card: run.card,
    symbol: run.symbol,
    count: Math.max(1, Math.min(MAX_RUN_COUNT, run.count)),
    color: color ?? '#000000',
    alpha: clamp(run.alpha, 0, 1, 1),
    stroke: clamp(run.stroke, 0, 8, 0),
    glyph: text,
    label,
  };
}

function clamp(value, low, high, fallback) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.max(low, Math.min(high, value));
}
