// News among the controller's concerns, one way: a concern announces what happened (the session:
// a welcome, the page back in the lobby, the table lost, the connection dropped), and the others
// listen, each doing its own part, without the announcer knowing who they are. controller.js
// registers the listeners once, in the order their effects should come; no concern imports
// another to tell it something. Pure.
//
// The news, with the detail each carries:
//   welcome          a welcome was handled (control-session.js)
//   lobby {how}      the page is in the lobby: 'enter' (after a welcome: the list, the address's
//                    share link or replay, the tabs' questions), 'back' (from a table), or
//                    'subscribe' (the list only: an intention is on its way)
//   tableGone        no table any more, however it was lost (its state, chat and screen go)
//   connectionLost   the connection dropped; a new one is being made

export class News {
  constructor() {
    /** name → [listener(c, fx, ctx, detail)], in the order they listen. */
    this.listeners = new Map();
  }

  /** `listener(c, fx, ctx, detail)` hears `name` from now on, after those already listening. */
  listen(name, listener) {
    if (typeof listener !== 'function') throw new TypeError(`a listener of ${name} must be a function`);
    const list = this.listeners.get(name) ?? [];
    list.push(listener);
    this.listeners.set(name, list);
  }

  /** Every listener in `table` (name → listener), as `listen` each. */
  listenAll(table) {
    for (const [name, listener] of Object.entries(table)) this.listen(name, listener);
  }

  /** Tells every listener of `name`, in order. */
  announce(name, c, fx, ctx, detail = undefined) {
    for (const listener of this.listeners.get(name) ?? []) listener(c, fx, ctx, detail);
  }
}
