// DOM: what belongs to the whole page rather than one screen — which screen shows (lobby, table,
// replay), the connection's state, the toast, the address (without a history entry), and copying
// the share link.

import { byId } from './dom.js';

const TOAST_MS = 3500;

/** The close code of a connection refused because its address holds too many (the server's
 * --max-connections-per-address). */
export const TOO_MANY_FROM_ADDRESS = 4002;

/** What #connection says for each state of net.js. */
export function connectionText(state, detail = {}) {
  const retry = `retrying in ${Math.max(1, Math.round((detail.delay ?? 0) / 1000))} s`;
  const lost =
    detail.code === TOO_MANY_FROM_ADDRESS
      ? `Too many connections from your address — ${retry}`
      : `Connection lost — ${retry}`;
  const text = {
    idle: 'Not connected',
    connecting: 'Connecting…',
    online: 'Online',
    reconnecting: lost,
    stopped: 'Offline',
  }[state];
  return text ?? state;
}

export class PageView {
  /** `screens`: {table, replay} views, told when they are shown. */
  constructor(screens) {
    this.screens = screens;
    this.el = byId(['connection', 'lobby', 'table', 'replay', 'toast', 'copy-link', 'share-link', 'announce']);
    this.toastTimer = null;
    this.el['copy-link'].addEventListener('click', () => this.copyLink());
  }

  /** Show 'lobby', 'table' or 'replay'. */
  showView(view) {
    const { el } = this;
    const wasReplay = !el.replay.hidden;
    // The lobby scrolls in its own box, which kept its place while hidden: a player who had
    // scrolled down to the list came back from a table to the list, not the lobby's top (issue 21).
    const backToLobby = view === 'lobby' && el.lobby.hidden;
    el.lobby.hidden = view !== 'lobby';
    el.table.hidden = view !== 'table';
    el.replay.hidden = view !== 'replay';
    if (backToLobby) el.lobby.scrollTop = 0;
    if (view === 'table') this.screens.table.show();
    if (view === 'replay') this.screens.replay.show(wasReplay);
  }

  showConnection(state, detail) {
    this.el.connection.dataset.state = state;
    document.body.dataset.connection = state;
    this.el.connection.textContent = connectionText(state, detail);
  }

  toast(text) {
    const { el } = this;
    el.toast.textContent = text;
    el.toast.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      el.toast.hidden = true;
    }, TOAST_MS);
  }

  /** Say `text` to a screen reader, politely (#announce is an aria-live region, never shown):
   * the same words twice in a row are said twice. */
  announce(text) {
    const region = this.el.announce;
    region.textContent = region.textContent === text ? `${text}\u00a0` : text;
  }

  /** Set the address without a history entry or a hashchange; null clears it (the lobby). */
  replaceHash(hash) {
    const { pathname, search } = window.location;
    const url = `${pathname}${search}${hash ?? ''}`;
    if (`${pathname}${search}${window.location.hash}` !== url) history.replaceState(null, '', url);
  }

  copyLink() {
    const link = this.el['share-link'].href;
    const done = () => this.toast('Link copied — send it to the players you want to invite.');
    const failed = () => this.toast(`Copy this link: ${link}`);
    if (navigator.clipboard?.writeText) navigator.clipboard.writeText(link).then(done, failed);
    else failed();
  }
}
