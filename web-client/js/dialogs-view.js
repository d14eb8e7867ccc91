// DOM: the page's dialogs and preferences — help (the shortcut list from keys.js SHORTCUTS),
// settings (theme, colour cues, sound: prefs.js, stored in localStorage), and the two
// confirmations (re-deal, leave), whose answers become controller events through `dispatch`.

import { markShortcuts } from './shortcut-marks.js';
import { SHORTCUTS } from './keys.js';
import { loadPrefs, resolveTheme, savePref } from './prefs.js';
import { byId } from './dom.js';

export class DialogsView {
  /** `sounds` (sound-player.js) follows the sound preference; `toast(text)` says it changed. */
  constructor({ dispatch, local, sounds, toast }) {
    this.local = local;
    this.sounds = sounds;
    this.toast = toast;
    this.el = byId([
      'help', 'help-list', 'help-close', 'help-button', 'settings', 'settings-button', 'settings-close', 'color-cues', 'shortcuts',
      'sound', 'confirm-redeal', 'confirm-redeal-yes', 'confirm-redeal-no', 'confirm-leave', 'confirm-leave-yes',
      'confirm-leave-no', 'invite-name', 'arena-dialog', 'how-to',
    ]);
    this.systemDark = window.matchMedia?.('(prefers-color-scheme: dark)') ?? null;
    this.prefs = loadPrefs(local);
    this.apply();
    const { el } = this;
    el['confirm-redeal-no'].addEventListener('click', () => el['confirm-redeal'].close());
    el['confirm-redeal-yes'].addEventListener('click', () => {
      el['confirm-redeal'].close();
      dispatch({ type: 'redeal' });
    });
    el['confirm-leave-no'].addEventListener('click', () => el['confirm-leave'].close());
    el['confirm-leave-yes'].addEventListener('click', () => {
      el['confirm-leave'].close();
      dispatch({ type: 'leave' });
    });
    el['help-button'].addEventListener('click', () => this.toggleHelp());
    el['help-close'].addEventListener('click', () => el.help.close());
    el['settings-button'].addEventListener('click', () => el.settings.showModal());
    el['settings-close'].addEventListener('click', () => el.settings.close());
    for (const radio of document.querySelectorAll('input[name="theme"]')) {
      radio.addEventListener('change', () => this.setPref('theme', radio.value));
    }
    el['color-cues'].addEventListener('change', () => this.setPref('colorCues', el['color-cues'].checked));
    el.shortcuts.addEventListener('change', () => this.setPref('shortcuts', el.shortcuts.checked));
    el.sound.addEventListener('change', () => this.setPref('sound', el.sound.checked));
    this.systemDark?.addEventListener?.('change', () => this.apply());
    this.fillHelp();
  }

  /** Which of the dialogs that keep the keyboard are open. */
  open() {
    const { el } = this;
    return {
      help: el.help.open, settings: el.settings.open, confirmRedeal: el['confirm-redeal'].open, confirmLeave: el['confirm-leave'].open,
      arena: el['arena-dialog'].open,
      // "How to play" (how-to-play-view.js) keeps its keys itself; open, it keeps the board's too.
      howTo: el['how-to'].open,
    };
  }

  anyOpen() {
    return Object.values(this.open()).some(Boolean);
  }

  /** The controller's `dialog {name, open}`. */
  /** Opens or closes dialog `name`; `text`, when given, is what its first paragraph says. */
  set(name, open, text = undefined) {
    const dialog = this.el[name];
    if (open && text !== undefined) {
      const paragraph = dialog.querySelector('p');
      if (paragraph !== null) paragraph.textContent = text;
    }
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }

  toggleHelp() {
    if (this.el.help.open) this.el.help.close();
    else this.el.help.showModal();
  }

  /** `m`: sound on or off, and say which. */
  toggleSound() {
    this.setPref('sound', !this.prefs.sound);
    this.toast(this.prefs.sound ? 'Sound on' : 'Sound off');
  }

  setPref(name, value) {
    this.prefs = savePref(this.local, this.prefs, name, value);
    this.apply();
  }

  /** Show the preferences: the theme on <html data-theme> (light | dark, data-theme-choice says
   * whether it follows the system), colour cues on <body class="color-cues">, the sound switch. */
  apply() {
    const { el, prefs } = this;
    const root = document.documentElement;
    root.dataset.theme = resolveTheme(prefs.theme, this.systemDark?.matches === true);
    root.dataset.themeChoice = prefs.theme;
    document.body.classList.toggle('color-cues', prefs.colorCues);
    // With single-key shortcuts off, the cards' keys are not drawn either.
    document.body.classList.toggle('shortcuts-off', !prefs.shortcuts);
    markShortcuts(document.body, prefs.shortcuts);
    for (const radio of document.querySelectorAll('input[name="theme"]')) radio.checked = radio.value === prefs.theme;
    el['color-cues'].checked = prefs.colorCues;
    el.sound.checked = prefs.sound;
    el.shortcuts.checked = prefs.shortcuts;
    this.sounds.enabled = prefs.sound;
  }

  /** The shortcut list (keys.js SHORTCUTS) as text in <kbd> elements. */
  fillHelp() {
    this.el['help-list'].replaceChildren(
      ...SHORTCUTS.flatMap(({ keys, description }) => {
        const dt = document.createElement('dt');
        for (const key of keys) {
          if (key === '…') {
            dt.append(' … ');
            continue;
          }
          const kbd = document.createElement('kbd');
          kbd.textContent = key;
          dt.append(kbd, ' ');
        }
        const dd = document.createElement('dd');
        dd.textContent = description;
        return [dt, dd];
      }),
    );
  }
}
