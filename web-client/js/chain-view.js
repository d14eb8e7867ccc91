// DOM: Set-Chain's chain — the previous set, shown beside the board (PROTOCOL.md, "Set-Chain").
// Its cards are drawn like the board's (card-element.js) and chosen the same way: a click, a tap
// or Enter/Space reports `onChoose(cardId)`. Hidden at tables whose game has no chain; before a
// deal's first set it says that the first set starts the chain (in the game's words).

import { createBoardCard, faceKey, flashElements } from './card-element.js';

export class ChainView {
  /**
   * @param {HTMLElement} area      the chain's box (#chain-area), hidden without a chain
   * @param {HTMLElement} element   the cards' row (#chain)
   * @param {HTMLElement} note      what shows while the chain is empty (#chain-empty)
   * @param {object} options
   * @param {(cardId: number) => void} options.onChoose
   * @param {Record<string,string>} options.palette
   */
  constructor(area, element, note, { onChoose = () => {}, palette }) {
    this.area = area;
    this.element = element;
    this.note = note;
    this.onChoose = onChoose;
    this.palette = palette;
    this.drawn = ''; // the faces drawn, in order (card-element faceKey)
    this.disabled = false;
    element.addEventListener('click', (event) => {
      const card = event.target.closest?.('.card');
      if (card && element.contains(card)) this.choose(card);
    });
    element.addEventListener('keydown', (event) => {
      const card = event.target.closest?.('.card');
      if (!card || !element.contains(card) || (event.key !== 'Enter' && event.key !== ' ')) return;
      event.preventDefault();
      if (!event.repeat) this.choose(card);
    });
  }

  /** Show `chain` (null: the game has none) with `selection` (my card ids) marked; `texts` are
   * the game's words for the chain (welcome's description: `chainStart`, `chainRule`). */
  render(chain, selection, { disabled = false, texts = null } = {}) {
    this.area.hidden = !Array.isArray(chain);
    if (!Array.isArray(chain)) return;
    if (texts?.chainStart) this.note.textContent = texts.chainStart;
    const rule = this.area.querySelector('.chain-rule');
    if (rule !== null && texts?.chainRule) rule.textContent = texts.chainRule;
    const key = chain.map((card) => `${card.id}=${faceKey(card)}`).join(' ');
    if (key !== this.drawn) {
      this.drawn = key;
      this.element.replaceChildren(...chain.map((card) => createBoardCard(card, this.palette)));
    }
    this.note.hidden = chain.length > 0;
    const chosen = new Set(selection);
    for (const el of this.element.children) {
      const selected = chosen.has(Number(el.dataset.cardId));
      el.classList.toggle('selected', selected);
      el.setAttribute('aria-pressed', String(selected));
      el.setAttribute('aria-disabled', String(disabled));
    }
    this.disabled = disabled;
  }

  /** The element of chain card `id`, or undefined. */
  card(id) {
    return [...this.element.children].find((el) => Number(el.dataset.cardId) === id);
  }

  /** Add `className` to the chain's cards among `ids` for `ms` milliseconds (a hint…). */
  flash(ids, className, ms) {
    flashElements(ids.map((id) => this.card(id)), className, ms);
  }

  markPending(id) {
    this.card(id)?.classList.add('pending');
  }

  clearPending() {
    for (const el of this.element.querySelectorAll('.card.pending')) el.classList.remove('pending');
  }

  choose(cardElement) {
    if (this.disabled) return;
    this.onChoose(Number(cardElement.dataset.cardId));
  }
}
