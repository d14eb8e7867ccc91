// Pinch zoom on the board: two touch pointers scale #board between 1× and 3× (feedback.js
// pinchScale); #zoom-reset, shown while zoomed, goes back to 1×. `touch-action` in the CSS keeps the
// page itself from zooming. The gesture (`Pinch`) is pure, fed pointer positions and times; the
// `PinchZoom` around it only listens and applies the scale.

import { pinchScale } from './feedback.js';

/** How long after a pinch a lifted finger is still part of it, not a tap on a card (ms). */
export const TAP_AFTER_PINCH_MS = 400;

/** The gesture: pointers down, moved and up; a scale while two are down. */
export class Pinch {
  constructor() {
    /** pointer id → {x, y} */
    this.pointers = new Map();
    /** {distance, scale} when the second finger came down, or null. */
    this.start = null;
    this.pinchedAt = -Infinity;
  }

  distance() {
    const [a, b] = [...this.pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  }

  /** A touch pointer down while the board is at `scale`. */
  down(id, x, y, scale) {
    this.pointers.set(id, { x, y });
    if (this.pointers.size === 2) this.start = { distance: this.distance(), scale };
  }

  /** A pointer moved at `now`: the board's new scale, or null (not a pinch). */
  move(id, x, y, now) {
    if (!this.pointers.has(id)) return null;
    this.pointers.set(id, { x, y });
    if (this.pointers.size !== 2 || this.start === null) return null;
    this.pinchedAt = now;
    return pinchScale(this.start.scale, this.start.distance, this.distance());
  }

  up(id) {
    this.pointers.delete(id);
    if (this.pointers.size < 2) this.start = null;
  }

  /** Whether a click at `now` is the end of a pinch rather than a tap. */
  swallowsTap(now) {
    return now - this.pinchedAt < TAP_AFTER_PINCH_MS;
  }
}

export class PinchZoom {
  /** `area` (#board-area) listens; `board` (#board) is scaled; `reset` (#zoom-reset) shows when zoomed. */
  constructor(area, board, reset) {
    this.board = board;
    this.reset = reset;
    this.scale = 1;
    const pinch = new Pinch();
    area.addEventListener('pointerdown', (event) => {
      if (event.pointerType === 'touch') pinch.down(event.pointerId, event.clientX, event.clientY, this.scale);
    });
    area.addEventListener('pointermove', (event) => {
      const scale = pinch.move(event.pointerId, event.clientX, event.clientY, Date.now());
      if (scale !== null) this.zoom(scale);
    });
    const up = (event) => pinch.up(event.pointerId);
    area.addEventListener('pointerup', up);
    area.addEventListener('pointercancel', up);
    // A finger lifted after a pinch is not a tap on a card.
    area.addEventListener(
      'click',
      (event) => {
        if (pinch.swallowsTap(Date.now()) && event.target.closest?.('.card')) event.stopPropagation();
      },
      true,
    );
    reset.addEventListener('click', () => this.zoom(1));
  }

  zoom(scale) {
    this.scale = scale;
    this.board.style.transform = scale === 1 ? '' : `scale(${scale})`;
    this.reset.hidden = scale === 1;
  }
}
