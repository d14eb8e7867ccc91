// DOM: the "How to play" dialog (how-to-play.js howToPlay): opened from the lobby on the game
// picked there, and from the table on the table's game; its example match drawn with the
// board's cards as pictures named in words (card-element.js). A modal <dialog>: labelled by its
// title, Escape or Close closes it, and the focus goes back to the button that opened it. While
// it is open the page's shortcuts stay out (a digit must not choose a card behind it).

import { howToPlay } from './how-to-play.js';
import { createCardPicture } from './card-element.js';
import { readPalette } from './card-view.js';
import { byId, part } from './dom.js';

export class HowToPlayView {
  /** `lobbyGame()`: the game picked in the lobby; `tableGame()`: the table's game (or null). */
  constructor({ lobbyGame, tableGame }) {
    this.el = byId(['how-to', 'how-to-title', 'how-to-body', 'how-to-close', 'how-to-lobby', 'how-to-table']);
    const { el } = this;
    /** The button that opened the dialog: the focus goes back to it. */
    this.opener = null;
    el['how-to-lobby'].addEventListener('click', () => this.open(lobbyGame(), el['how-to-lobby']));
    el['how-to-table'].addEventListener('click', () => this.open(tableGame() ?? lobbyGame(), el['how-to-table']));
    el['how-to-close'].addEventListener('click', () => el['how-to'].close());
    el['how-to'].addEventListener('close', () => {
      const opener = this.opener;
      this.opener = null;
      if (opener !== null && opener.isConnected && !opener.closest('[hidden]')) opener.focus();
    });
    // Keys pressed in the dialog are the dialog's (Escape, its own, still closes it).
    el['how-to'].addEventListener('keydown', (event) => event.stopPropagation());
  }

  /** Whether the dialog is open. */
  get isOpen() {
    return this.el['how-to'].open;
  }

  /** Shows how to play `game`; `opener` gets the focus back when it closes. */
  open(game, opener = null) {
    const { el } = this;
    this.draw(howToPlay(game));
    this.opener = opener;
    if (!el['how-to'].open) el['how-to'].showModal();
    // The keyboard on Close, the text from its top (Close is the dialog's last element).
    el['how-to-close'].focus({ preventScroll: true });
    el['how-to'].scrollTop = 0;
  }

  draw(view) {
    const { el } = this;
    el['how-to-title'].textContent = view.title;
    const children = [part('how-to-rules', view.rules, 'p'), part('how-to-match', view.match, 'p')];
    if (view.example !== null) {
      const figure = document.createElement('figure');
      figure.className = 'how-to-example';
      const intro = part('how-to-example-text', view.example.text, 'p');
      const cards = document.createElement('div');
      cards.className = 'how-to-cards';
      const palette = readPalette();
      cards.append(...view.example.cards.map((card) => createCardPicture(card, palette)));
      figure.append(intro, cards, part('', view.example.caption, 'figcaption'));
      children.push(figure);
    }
    for (const section of view.sections) {
      const box = document.createElement('section');
      box.className = 'how-to-section';
      box.append(part('', section.heading, 'h3'), ...section.lines.map((line) => part('', line, 'p')));
      children.push(box);
    }
    el['how-to-body'].replaceChildren(...children);
  }
}
