// Pure: what a key pressed anywhere on the page does (keyboard.js carries it out). The keys
// themselves are keys.js's (`keyAction`) and replay.js's (`replayKey`); this decides what they
// mean given the page: which screen shows, which dialog is open, the history view, and whether
// Re-deal and Hint are there to press. The focused card's own keys (Enter, Space, arrows) are
// board-view.js's; open dialogs keep their own keys (Escape closes them).
//
// While the table's chat panel is open (in place of the board) the game's keys are off: Escape
// closes the panel (from its input too, unless an input method is composing), and a character
// typed elsewhere in the panel goes to its input; keys typed in any text box are the box's.
//
// Single-key shortcuts (a letter, digit or sign pressed alone: a card's key, h, r, ?, m…) can be
// turned off in the settings (WCAG 2.2, 2.1.4: speech input types them by accident); the named
// keys (Escape, Backspace, the arrows) stay.
//
// `page`: {replayShown, tableShown (a table and its screen), dialogs: {help, settings,
// confirmRedeal, confirmLeave, arena, howTo} (open or not), boardLength, showingHistory, showingChat,
// canRedeal, canHint, shortcutsOff}.
// The answer: null (the key is not ours), or {prevent (the browser's own use of the key is
// stopped), command} where command is one of
//   {do: 'event', event}     a controller event (replayStep, unchoose, askRedeal, hint)
//   {do: 'help'}             open or close the help dialog
//   {do: 'mute'}             sound on/off
//   {do: 'choose', index}    choose the card in that slot, as a click would
//   {do: 'closeHistory'}     back from the history view to the board
//   {do: 'history'}          ask for the history view (the `history` event)
//   {do: 'closeChat'}        close the table's chat panel
//   {do: 'focusChat'}        put the keyboard in the chat's input (the key goes on to it)
//   null                     nothing more

import { keyAction } from './keys.js';
import { replayKey } from './replay.js';

/** The shortcut for `press` ({key, ctrlKey, metaKey, altKey, repeat, inField, composing}) on
 * `page`. */
export function shortcut(press, page) {
  const d = page.dialogs;
  const anyDialog = d.help || d.settings || d.confirmRedeal || d.confirmLeave || d.arena === true || d.howTo === true;
  if (page.tableShown && page.showingChat) return anyDialog ? null : chatPanelKey(press);
  if (page.shortcutsOff === true && isCharacterKey(press)) return null;
  if (page.replayShown && !anyDialog) {
    // The replay's steps: ← → Home End (the slider, when focused, moves itself).
    const how = replayKey(press);
    if (how !== null) return { prevent: true, command: { do: 'event', event: { type: 'replayStep', how } } };
  }
  const action = keyAction(press, page.boardLength);
  if (action === null) return null;
  if (action.type === 'command' && action.name === 'help') {
    // Help opens over the page, and closes itself, but not over another dialog.
    if (d.settings || d.confirmRedeal || d.confirmLeave || d.arena === true || d.howTo === true) return null;
    return { prevent: true, command: { do: 'help' } };
  }
  if (anyDialog) return null;
  if (action.type === 'command' && action.name === 'mute') return { prevent: false, command: { do: 'mute' } };
  if (!page.tableShown) return null;
  return { prevent: true, command: tableCommand(action, page) };
}

/** A key at the table. */
function tableCommand(action, page) {
  if (action.type === 'card') return page.showingHistory ? null : { do: 'choose', index: action.index };
  switch (action.name) {
    case 'clearAll':
      // Escape in the history view goes back to the table.
      return page.showingHistory ? { do: 'closeHistory' } : { do: 'event', event: { type: 'unchoose', all: true } };
    case 'clearLast':
      return { do: 'event', event: { type: 'unchoose', all: false } };
    case 'redeal':
      return page.canRedeal ? { do: 'event', event: { type: 'askRedeal' } } : null;
    case 'hint':
      return page.canHint ? { do: 'event', event: { type: 'hint' } } : null;
    case 'history':
      return { do: 'history' };
    default:
      return null;
  }
}

/** Whether `press` types a character (a letter, digit or sign, with Shift at most): a single-key
 * shortcut. */
export function isCharacterKey(press) {
  return !press.ctrlKey && !press.metaKey && !press.altKey && [...press.key].length === 1 && press.key !== ' ';
}

/** A key while the table's chat panel is open. */
function chatPanelKey(press) {
  if (press.composing || press.ctrlKey || press.metaKey || press.altKey) return null;
  if (press.key === 'Escape') return { prevent: true, command: { do: 'closeChat' } };
  if (press.inField) return null;
  // A character (not a named key like Enter or an arrow): typing, meant for the chat.
  if ([...press.key].length === 1) return { prevent: false, command: { do: 'focusChat' } };
  return null;
}
