// The board: keeps one element per card id and updates it in place, so a card that stays on the
// table keeps its element (and keyboard focus) across diffs. Sizes the grid to the space it has
// (layout.js). Reports choices through `onChoose(cardId)`; it never changes the board by itself.
// Draws any game's entries (card-element.js): Set cards, playing cards, emoji, face-down cards; an
// entry whose face changes under the same id (a slot handle turned up or down) is redrawn in place
// with a flip. Every card shows its keyboard key (keys.js) in `span.key-label`. A read-only board
// (the replay of a finished game) has no keys and no choosing: its cards are pictures
// (role="img", not focusable).

import { markShortcut, singleKeysOn } from './shortcut-marks.js';
import { CARD_ASPECT } from './card-view.js';
import { createBoardCard, faceKey, flashElements, updateBoardCard } from './card-element.js';
import { cardKeys } from './keys.js';
import { chooseStableGrid } from './layout.js';

const MIN_CARD_WIDTH = 54;
const MAX_CARD_WIDTH = 190;

export class BoardView {
  /**
   * @param {HTMLElement} element    the grid (#board)
   * @param {HTMLElement} area       the box the grid must fit in
   * @param {object} options
   * @param {(cardId: number) => void} options.onChoose
   * @param {Record<string,string>} options.palette
   * @param {boolean} [options.readOnly]   nothing can be chosen (a replay)
   */
  constructor(element, area, { onChoose = () => {}, palette, readOnly = false }) {
    this.element = element;
    this.area = area;
    this.onChoose = onChoose;
    this.palette = palette;
    this.readOnly = readOnly;
    this.cards = new Map(); // card id → element
    this.drawn = new Map(); // card id → {entry, key}: what the element shows (card-element faceKey)
    this.count = 0;
    this.shape = { base: 12, step: 3 }; // layout.js chooseStableGrid: Set deals three more at a time

    element.addEventListener('click', (event) => {
      const card = event.target.closest?.('.card');
      if (card && element.contains(card)) this.choose(card);
    });
    element.addEventListener('keydown', (event) => this.keydown(event));
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => this.layout()).observe(area);
    } else {
      window.addEventListener('resize', () => this.layout());
    }
  }

  /** Show `board` (cards in slot order) with `selection` (my card ids) marked. `selectedBy` maps a
   * card id to the seats whose selection holds it (table-state.js selectionsByCard): the card gets
   * `data-selected-by="0 2"` and one ring per seat other than `mySeat`, in that seat's colour
   * (`span.sel-ring[data-seat]`; my own selection is the `selected` highlight). */
  /** How the board grows: `base` cards usually, `step` more per extra deal (0: never grows). */
  setShape({ base, step }) {
    if (base === this.shape.base && step === this.shape.step) return;
    this.shape = { base, step };
    this.layout();
  }

  render(board, selection, { disabled = false, selectedBy = new Map(), mySeat = null } = {}) {
    const focusedIndex = [...this.element.children].indexOf(document.activeElement);
    const wanted = new Set(board.map((card) => card.id));
    let lostFocus = false;
    for (const [id, el] of this.cards) {
      if (!wanted.has(id)) {
        if (el === document.activeElement) lostFocus = true;
        el.remove();
        this.cards.delete(id);
        this.drawn.delete(id);
      }
    }
    const keys = cardKeys(board.length);
    board.forEach((card, i) => {
      let el = this.cards.get(card.id);
      const key = faceKey(card);
      if (el === undefined) {
        el = createBoardCard(card, this.palette);
        if (this.count > 0) {
          el.classList.add('entering');
          el.addEventListener('animationend', () => el.classList.remove('entering'), { once: true });
        }
        this.cards.set(card.id, el);
      } else if (this.drawn.get(card.id).key !== key) {
        const focused = el === document.activeElement;
        el = updateBoardCard(el, this.drawn.get(card.id).entry, card, this.palette);
        this.cards.set(card.id, el);
        if (focused && el !== document.activeElement) el.focus();
      }
      this.drawn.set(card.id, { entry: card, key });
      this.showKey(el, this.readOnly ? null : (keys[i] ?? null));
      if (this.element.children[i] !== el) this.element.insertBefore(el, this.element.children[i] ?? null);
    });
    const chosen = new Set(selection);
    for (const [id, el] of this.cards) {
      const selected = chosen.has(id);
      el.classList.toggle('selected', selected);
      if (this.readOnly) {
        el.setAttribute('role', 'img');
        el.tabIndex = -1;
        el.removeAttribute('aria-pressed');
        el.removeAttribute('aria-disabled');
      } else {
        el.setAttribute('aria-pressed', String(selected));
        el.setAttribute('aria-disabled', String(disabled || el.classList.contains('matched')));
      }
      this.showSelectedBy(el, selectedBy.get(id) ?? [], mySeat);
    }
    if (lostFocus && board.length > 0) {
      this.element.children[Math.min(focusedIndex, board.length - 1)]?.focus();
    }
    if (board.length !== this.count) {
      this.count = board.length;
      this.layout();
    }
  }

  /** The key that chooses this card, drawn in a corner and announced as aria-keyshortcuts. */
  showKey(el, key) {
    let label = el.querySelector(':scope > .key-label');
    if (key === null) {
      label?.remove();
      el.removeAttribute('aria-keyshortcuts');
      delete el.dataset.keyshortcuts;
      return;
    }
    if (label === null) {
      label = document.createElement('span');
      label.className = 'key-label';
      label.setAttribute('aria-hidden', 'true');
      el.append(label);
    }
    if (label.textContent !== key) label.textContent = key;
    // With single-key shortcuts off the key is drawn hidden and not announced.
    markShortcut(el, key, singleKeysOn());
  }

  /** Choose the card in slot `index` (a keyboard shortcut), as a click would. */
  chooseIndex(index) {
    const card = this.element.children[index];
    if (card?.classList.contains('card')) {
      card.focus({ preventScroll: true });
      this.choose(card);
    }
  }

  /** Put keyboard focus on the first card that can be chosen (when a game starts). */
  focusFirst() {
    const card = [...this.element.children].find((el) => el.classList.contains('card') && !el.classList.contains('matched'));
    card?.focus({ preventScroll: true });
  }

  /** The seats' rings on one card, updated in place (one span per other seat, in seat order). */
  showSelectedBy(el, seats, mySeat) {
    const sorted = [...seats].sort((a, b) => a - b);
    if (sorted.length === 0) el.removeAttribute('data-selected-by');
    else el.dataset.selectedBy = sorted.join(' ');
    const others = sorted.filter((seat) => seat !== mySeat);
    const rings = [...el.querySelectorAll(':scope > .sel-ring')];
    const same = rings.length === others.length && rings.every((r, i) => r.dataset.seat === String(others[i]));
    if (same) return;
    for (const r of rings) r.remove();
    for (const seat of others) {
      const ring = document.createElement('span');
      ring.className = 'sel-ring';
      ring.dataset.seat = String(seat);
      ring.setAttribute('aria-hidden', 'true');
      el.append(ring);
    }
    el.classList.toggle('others-selected', others.length > 0);
  }

  /** Add `className` to the cards `ids` for `ms` milliseconds (mismatch shake, hint…). */
  flash(ids, className, ms) {
    flashElements(ids.map((id) => this.cards.get(id)), className, ms);
  }

  /** Mark a card as chosen-and-waiting-for-the-server (cleared by clearPending). */
  markPending(id) {
    this.cards.get(id)?.classList.add('pending');
  }

  clearPending() {
    for (const el of this.element.querySelectorAll('.card.pending')) el.classList.remove('pending');
  }

  /** Fit the grid to the area: number of columns and card width as CSS custom properties. */
  layout() {
    const style = getComputedStyle(this.area);
    const px = (name) => parseFloat(style.getPropertyValue(name)) || 0;
    const width = this.area.clientWidth - px('padding-left') - px('padding-right');
    const height = this.area.clientHeight - px('padding-top') - px('padding-bottom');
    if (width <= 0 || height <= 0 || this.count === 0) return;
    const gap = Math.round(Math.max(6, Math.min(14, Math.min(width, height) * 0.015)));
    const grid = chooseStableGrid({
      count: this.count,
      base: this.shape.base,
      step: this.shape.step,
      width,
      height,
      aspect: CARD_ASPECT,
      gap,
      minCardWidth: MIN_CARD_WIDTH,
      maxCardWidth: MAX_CARD_WIDTH,
    });
    this.columns = grid.columns;
    this.element.style.setProperty('--cols', String(grid.columns));
    this.element.style.setProperty('--card-w', `${grid.cardWidth}px`);
    this.element.style.setProperty('--gap', `${gap}px`);
  }

  /** A card clicked or pressed: reported unless the board only shows (a replay) or the card is
   * out of play. A board that waits (another seat's turn) reports it too: the controller says
   * whose turn it is, and sends nothing. */
  choose(cardElement) {
    if (this.readOnly || cardElement.classList.contains('matched')) return;
    this.onChoose(Number(cardElement.dataset.cardId));
  }

  keydown(event) {
    const card = event.target.closest?.('.card');
    if (!card || !this.element.contains(card)) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (!event.repeat) this.choose(card);
      return;
    }
    const cards = [...this.element.children];
    const i = cards.indexOf(card);
    const cols = this.columns ?? 4;
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols, Home: -i, End: cards.length - 1 - i }[
      event.key
    ];
    if (step === undefined) return;
    const target = cards[i + step];
    if (target) {
      event.preventDefault();
      target.focus();
    }
  }
}
