// DOM: practice (practice.js) — the settings dialog's switch "Practice: show how many sets are
// on the board" (in the words of the game at hand, remembered in localStorage; the controller is
// told with a `practice` event), and the count at the table, near the deck count ("3 sets on
// the board"; dimmed while the count of a new board is on its way).

import { loadPractice, practiceLabel, practiceShown, savePractice } from './practice.js';
import { byId } from './dom.js';

export class PracticeView {
  /** `game()`: the game at hand (the table's, else the lobby's pick), for the switch's words. */
  constructor({ controller, dispatch, local, game }) {
    this.controller = controller;
    this.game = game;
    this.el = byId(['practice', 'practice-label', 'practice-count', 'settings-button']);
    const { el } = this;
    el.practice.checked = loadPractice(local);
    el.practice.addEventListener('change', () => {
      savePractice(local, el.practice.checked);
      dispatch({ type: 'practice', on: el.practice.checked });
    });
    // The switch speaks of the game at hand when the settings open.
    el['settings-button'].addEventListener('click', () => this.renderLabel());
    this.renderLabel();
  }

  renderLabel() {
    this.el['practice-label'].textContent = practiceLabel(this.game());
  }

  /** The count at the table, as the controller holds it. */
  render() {
    const { el, controller } = this;
    const shown = practiceShown(controller.practice, controller.state);
    el['practice-count'].hidden = shown.hidden;
    if (el['practice-count'].textContent !== shown.text) el['practice-count'].textContent = shown.text;
    el['practice-count'].classList.toggle('stale', shown.stale);
    el['practice-count'].setAttribute('aria-busy', String(shown.stale));
  }
}
