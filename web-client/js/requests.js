// The requests this client has sent and still waits on, keyed by their message id: the server
// answers each with `replyTo` (a diff, an error, `scores`, `record`). One registry for every kind,
// so an answer finds what it answers in one place:
//   choose  {card}   a card on its way (shown pending until answered, refused or timed out)
//   join    {code}   a join whose "full" or "already started" turns into watching
//   lobby            the lobby subscription (its refusal: this server lists no tables)
//   scores           the high scores page asked for (only the newest query's answer counts)
//   record           the finished game asked for by the replay view
//   dailyCompare {table}  the day's board asked for when a daily puzzle ended, for its look back
//   ratings {game}   the player's rating and history asked for by the High scores tab
//   arenas           the Arenas tab's list (only the newest question's answer counts)
//   arena {action, arena}  an arena request (createArena, joinArena, leave, watch, refresh: the
//                    standings of the arena whose table we sit at) whose `arena` answer or refusal
//                    is waited on
//   featured {arena} the arena's top game asked to watch (its answer: `arenaGame`)
//   countMatches {key}  the practice count of the board `key` (control-practice.js: only the
//                    newest question's answer counts; the older ones' are let go silently)
// Pure: no clock, no socket (controller.js decides what to add, take and drop).

export class PendingRequests {
  constructor() {
    /** message id → {kind, ...data}, in the order sent. */
    this.entries = new Map();
  }

  /** Wait on the answer to message `id`. */
  add(id, kind, data = {}) {
    this.entries.set(id, { kind, ...data });
  }

  /** Wait on message `id` instead of any earlier one of the same kind (only the newest counts). */
  replace(id, kind, data = {}) {
    this.drop(kind);
    this.add(id, kind, data);
  }

  /** The request `replyTo` answers, or null; it stays registered. */
  peek(replyTo) {
    if (replyTo === undefined || replyTo === null) return null;
    return this.entries.get(replyTo) ?? null;
  }

  /** The request `replyTo` answers, or null; it is answered now and no longer waited on. */
  take(replyTo) {
    const entry = this.peek(replyTo);
    if (entry !== null) this.entries.delete(replyTo);
    return entry;
  }

  /** Take the request `replyTo` answers only if it is of `kind` (else leave it): the entry or null. */
  takeIf(replyTo, kind) {
    return this.peek(replyTo)?.kind === kind ? this.take(replyTo) : null;
  }

  /** Stop waiting on every request of `kind` (their answers will be ignored). */
  drop(kind) {
    for (const [id, entry] of this.entries) if (entry.kind === kind) this.entries.delete(id);
  }

  /** How many requests of `kind` wait. */
  count(kind) {
    return this.ofKind(kind).length;
  }

  /** The id of the newest request of `kind`, or null. */
  idOf(kind) {
    return this.ofKind(kind).at(-1)?.[0] ?? null;
  }

  /** `[id, entry]` of every request of `kind`, oldest first. */
  ofKind(kind) {
    return [...this.entries].filter(([, entry]) => entry.kind === kind);
  }
}
