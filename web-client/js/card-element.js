// One entry point that draws a board entry of any game: a Set card (card-view.js, unchanged
// structure), a face-up playing card (playing-cards.js), a face-up emoji card (emoji-cards.js)
// or a face-down card (the shared back). The pure part says what an entry is (`entryKind`,
// `faceKey`, `entryLabel`, `colorCue`); the DOM part builds and updates the element.
//
//   <div class="card playing" role="button" tabindex="0" data-card-id="3" data-kind="playing"
//        aria-pressed="false" aria-label="queen of hearts">
//     <svg class="card-face" viewBox="0 0 250 350">…</svg>        (face down: svg.card-back)
//   </div>
// In face-down games `data-card-id` is the slot handle. A matched entry (still on the board, out
// of play) gets class `matched`, `aria-disabled="true"` and tabindex -1.
// A Set card gets one extra child, `span.color-cue[data-color]` ("R", "G" or "P"), shown only with
// the colour-blind cues on (css: body.color-cues). board-view.js adds `span.key-label` to every card.

import { createCardElement } from './card-view.js';
import { cardBackDrawing, isPlayingCard, playingCardDrawing } from './playing-cards.js';
import { emojiCardDrawing, isEmojiCard } from './emoji-cards.js';
import { describeCard, isValidCard } from './set-cards.js';
import { createDrawing } from './svg-dom.js';

/** 'down' | 'playing' | 'emoji' | 'set-card' | 'unknown': what the entry is drawn as. */
export function entryKind(entry) {
  if (entry === null || typeof entry !== 'object') return 'unknown';
  if (entry.faceUp === false) return 'down';
  if (isPlayingCard(entry)) return 'playing';
  if (isEmojiCard(entry)) return 'emoji';
  if (isValidCard(entry)) return 'set-card';
  return 'unknown';
}

/** A string that changes exactly when the entry must be drawn differently. */
export function faceKey(entry) {
  const kind = entryKind(entry);
  const face = {
    down: () => '',
    playing: () => `${entry.rank}${entry.suit}`,
    emoji: () => entry.emoji,
    'set-card': () => `${entry.number} ${entry.shading} ${entry.color} ${entry.symbol}`,
    unknown: () => '',
  }[kind]();
  return `${kind}:${face}:${entry?.matched === true ? 'matched' : ''}`;
}

/** What a screen reader says for the entry: "queen of hearts", "fox", "face-down card"… */
export function entryLabel(entry) {
  const kind = entryKind(entry);
  const base = {
    down: () => 'face-down card',
    playing: () => playingCardDrawing(entry).label,
    emoji: () => emojiCardDrawing(entry).label,
    'set-card': () => describeCard(entry),
    unknown: () => `card ${entry?.id}`,
  }[kind]();
  return entry?.matched === true ? `${base}, matched` : base;
}

/** The colour-blind cue of a Set card: "R", "G" or "P"; null for other cards. */
export function colorCue(entry) {
  if (entryKind(entry) !== 'set-card') return null;
  return entry.color.charAt(0).toUpperCase();
}

/** True when the entry went from face down to face up or back: the moment to animate a flip. */
export function isFlip(before, after) {
  return (entryKind(before) === 'down') !== (entryKind(after) === 'down');
}

/** A new element for a board entry (see the structure above). */
export function createBoardCard(entry, palette) {
  const kind = entryKind(entry);
  if (kind === 'set-card') {
    const element = createCardElement(entry, palette);
    element.dataset.kind = 'set-card';
    const cue = document.createElement('span');
    cue.className = 'color-cue';
    cue.setAttribute('aria-hidden', 'true');
    cue.dataset.color = entry.color;
    cue.textContent = colorCue(entry);
    element.append(cue);
    return element;
  }
  const element = document.createElement('div');
  element.setAttribute('role', 'button');
  element.dataset.cardId = String(entry.id);
  element.setAttribute('aria-pressed', 'false');
  drawFace(element, entry);
  return element;
}

/** A card drawn as a picture, not a control (a look back's matches, "How to play"'s example):
 * the board's drawing of `entry`, `role="img"` with its name in words, not focusable, not
 * pressable; class `card-picture` (its size: CSS `--card-w`). */
export function createCardPicture(entry, palette) {
  const element = createBoardCard(entry, palette);
  element.classList.add('card-picture');
  element.setAttribute('role', 'img');
  element.setAttribute('aria-label', entryLabel(entry));
  element.removeAttribute('tabindex');
  element.removeAttribute('aria-pressed');
  return element;
}

/** Redraw `element` for `entry` (same id, new face or matched state); animate a turn. Returns
 * the element now on the board (a new one only when a Set card changed, which Set ids prevent). */
export function updateBoardCard(element, before, entry, palette) {
  if (entryKind(entry) === 'set-card' || entryKind(before) === 'set-card') {
    const fresh = createBoardCard(entry, palette);
    element.replaceWith(fresh);
    return fresh;
  }
  element.querySelector(':scope > svg')?.remove();
  drawFace(element, entry);
  if (isFlip(before, entry)) {
    element.classList.remove('flipping');
    void element.offsetWidth; // restart the animation
    element.classList.add('flipping');
    element.addEventListener('animationend', () => element.classList.remove('flipping'), { once: true });
  }
  return element;
}

function drawFace(element, entry) {
  const kind = entryKind(entry);
  const matched = entry.matched === true;
  element.classList.remove('face-down', 'playing', 'emoji', 'set-card', 'unknown');
  element.classList.add('card', kind === 'down' ? 'face-down' : kind);
  element.classList.toggle('matched', matched);
  element.dataset.kind = kind;
  element.tabIndex = matched ? -1 : 0;
  element.setAttribute('aria-label', entryLabel(entry));
  const drawing =
    kind === 'down' ? cardBackDrawing() : kind === 'playing' ? playingCardDrawing(entry) : kind === 'emoji' ? emojiCardDrawing(entry) : playingCardDrawing(null);
  element.prepend(createDrawing(drawing, kind === 'down' ? 'card-back' : 'card-face'));
}

/** Add `className` to each of `elements` (undefined ones skipped) for `ms` milliseconds,
 * restarting its animation if it is running (a mismatch's shake, a hint). */
export function flashElements(elements, className, ms) {
  for (const el of elements) {
    if (el === undefined) continue;
    el.classList.remove(className);
    void el.offsetWidth; // restart the animation if it is running
    el.classList.add(className);
    setTimeout(() => el.classList.remove(className), ms);
  }
}
