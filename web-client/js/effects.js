// Carrying out the controller's effects (controller.js lists them): each effect type has one
// handler, given by main.js (effect-handlers.js); an effect without one is a programming error. A
// `send` whose handler returns false (the connection could not send it after all) is reported, so
// the controller can undo what it showed for it (a card shown pending). Pure: the handlers are
// parameters.

/** Carry out `effects` in order with `handlers` (effect type → function of the effect). Returns
 * the ids of the messages that could not be sent. */
export function runEffects(effects, handlers) {
  const unsent = [];
  for (const effect of effects) {
    const handler = handlers[effect.type];
    if (handler === undefined) throw new Error(`unknown effect ${effect.type}`);
    const result = handler(effect);
    if (effect.type === 'send' && result === false) unsent.push(effect.message.id);
  }
  return unsent;
}

/**
 * The controller's timers: `timer {name, ms, id?}` replaces a timer of the same name and id, and
 * `cancelTimer {name}` stops every timer of that name. When one runs out, `fire(name, id)`. The
 * clock functions are injectable (tests pass their own).
 */
export class Timers {
  constructor(fire, { set = (fn, ms) => setTimeout(fn, ms), clear = (handle) => clearTimeout(handle) } = {}) {
    this.fire = fire;
    // The defaults wrap the browser's timer functions, which refuse to be called on another `this`.
    this.set = set;
    this.clear = clear;
    /** "name:id" → the running timeout. */
    this.running = new Map();
  }

  start(name, ms, id) {
    const key = `${name}:${id ?? ''}`;
    this.clear(this.running.get(key));
    this.running.set(
      key,
      this.set(() => {
        this.running.delete(key);
        this.fire(name, id);
      }, ms),
    );
  }

  cancel(name) {
    for (const [key, timeout] of this.running) {
      if (key.startsWith(`${name}:`)) {
        this.clear(timeout);
        this.running.delete(key);
      }
    }
  }
}
