// The page-wide keyboard shortcuts: a keydown becomes shortcuts.js's command, carried out here
// (a controller event, the help dialog, sound on/off, a card by its key, the history view, the
// chat panel).

import { shortcut } from './shortcuts.js';

/**
 * Listen on `document`. `views`: {table (table-view.js), replay (replay-view.js), dialogs
 * (dialogs-view.js), chat (chat-view.js)}; `controller` for the board's size and the chat panel;
 * `dispatch` for controller events.
 */
export function listenForShortcuts({ controller, dispatch, views }) {
  const { table, replay, dialogs, chat } = views;
  document.addEventListener('keydown', (event) => {
    const target = event.target;
    const inField = target instanceof Element && target.closest('input, select, textarea, [contenteditable="true"]') !== null;
    const press = {
      key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, altKey: event.altKey, repeat: event.repeat, inField,
      composing: event.isComposing || event.keyCode === 229,
    };
    const state = controller.state.table;
    const redeal = table.el.redeal;
    const hint = table.el.hint;
    const answer = shortcut(press, {
      replayShown: replay.shown,
      tableShown: state !== null && table.shown,
      dialogs: dialogs.open(),
      boardLength: state?.board.length ?? 0,
      showingHistory: table.history.showing,
      showingChat: controller.chat.open,
      canRedeal: !redeal.hidden && !redeal.disabled,
      canHint: !hint.hidden && !hint.disabled,
      shortcutsOff: !dialogs.prefs.shortcuts,
    });
    if (answer === null) return;
    if (answer.prevent) event.preventDefault();
    const command = answer.command;
    switch (command?.do) {
      case 'event':
        dispatch(command.event);
        break;
      case 'help':
        dialogs.toggleHelp();
        break;
      case 'mute':
        dialogs.toggleSound();
        break;
      case 'choose':
        table.board.chooseIndex(command.index);
        break;
      case 'closeHistory':
        table.history.show(false);
        break;
      case 'closeChat':
        dispatch({ type: 'chatOpen', open: false });
        break;
      case 'focusChat':
        chat.focusInput();
        break;
      case 'history':
        // The history view listens for this event (so anything else can open it too).
        document.dispatchEvent(new CustomEvent('history', { detail: { table: state.id } }));
        break;
      default:
        break;
    }
  });
}
