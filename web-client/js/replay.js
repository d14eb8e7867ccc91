// The replay of a finished game, from the server's `record` answer (PROTOCOL.md, `record`): step
// k is `replay.table` with the first k of `replay.diffs` applied, exactly as a spectator followed
// the game. The states are built once (table-state.js), so stepping back and forth is only an
// index. Pure: replay-view.js draws the step shown, controller.js keeps the index.

import { readLookBack } from './look-back.js';
import { applyDiff, applySnapshot } from './table-state.js';
import { formatAt } from './history.js';
import { gameInfo, gameLabel } from './games.js';
import { formatEnded, formatDuration } from './scores.js';

/**
 * The replay of a `record` message: {record, steps, times, last, complete}.
 *   record    the game as kept (what Export saves), unchanged
 *   steps[k]  the table state (table-state.js) after k moves; steps[0] is the table when play began
 *   times[k]  seconds into the game at step k (the k-th move's `at`; 0 at the start)
 *   last      the last step (the number of moves shown)
 *   complete  false when a diff could not be applied: the replay stops before it
 * Throws TypeError when the message has no record or no readable starting table.
 */
export function buildReplay(message) {
  const record = message?.record;
  if (record === null || typeof record !== 'object' || Array.isArray(record)) throw new TypeError('record');
  const replay = message.replay;
  if (replay === null || typeof replay !== 'object') throw new TypeError('replay');
  // The clock does not run in a replay: every state is built at time 0.
  const steps = [applySnapshot(replay.table, 0)];
  const diffs = Array.isArray(replay.diffs) ? replay.diffs : [];
  let complete = Array.isArray(replay.diffs);
  for (const diff of diffs) {
    const before = steps.at(-1);
    let result;
    try {
      result = applyDiff(before, diff, 0);
    } catch {
      result = { resync: true };
    }
    if (result.resync || result.state === before) {
      complete = false;
      break;
    }
    steps.push(result.state);
  }
  const moves = Array.isArray(record.moves) ? record.moves : [];
  const times = [0];
  for (let k = 1; k < steps.length; k += 1) {
    const at = moves[k - 1]?.at;
    times.push(typeof at === 'number' && Number.isFinite(at) && at >= 0 ? at : times[k - 1]);
  }
  // The steps where a match was made (step by set): the players' matches grew.
  const matched = (state) => (state.table?.players ?? []).reduce((sum, p) => sum + (p.matches ?? 0), 0);
  const matchSteps = [];
  for (let k = 1; k < steps.length; k += 1) {
    if (matched(steps[k]) > matched(steps[k - 1])) matchSteps.push(k);
  }
  return { record, steps, times, last: steps.length - 1, complete, matchSteps, lookBack: readLookBack(message.lookBack) };
}

/** A step index kept within the replay (0 … last). */
export function clampStep(replay, index) {
  if (!Number.isFinite(index)) return 0;
  return Math.max(0, Math.min(replay.last, Math.trunc(index)));
}

/** Where a step control goes from `index`: 'first' | 'prev' | 'next' | 'last', 'prevSet' |
 * 'nextSet' (the step of the match before or after this one), or a number (the slider's value). */
export function stepTo(replay, index, how) {
  if (typeof how === 'number') return clampStep(replay, how);
  const sets = replay.matchSteps ?? [];
  switch (how) {
    case 'prevSet':
      return [...sets].reverse().find((k) => k < index) ?? 0;
    case 'nextSet':
      return sets.find((k) => k > index) ?? replay.last;
    case 'first':
      return 0;
    case 'prev':
      return clampStep(replay, index - 1);
    case 'next':
      return clampStep(replay, index + 1);
    case 'last':
      return replay.last;
    default:
      return clampStep(replay, index);
  }
}

/** The page-wide keys of the replay view: ← previous, → next, Home first, End last (none while
 * typing in a field or operating the slider, which has its own arrows, nor with a modifier). */
export function replayKey({ key, ctrlKey = false, metaKey = false, altKey = false, inField = false }) {
  if (ctrlKey || metaKey || altKey || inField) return null;
  return { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last', PageUp: 'prevSet', PageDown: 'nextSet' }[key] ?? null;
}

/** How many matches were made by step `index` (the match steps up to it). */
export function setsBy(replay, index) {
  return (replay.matchSteps ?? []).filter((k) => k <= index).length;
}

/** "Move 3 of 20" (step 0 is "Move 0 of 20": the deal, before anyone moved), and how many of
 * the game's matches were made by then when it made any: "Move 9 of 86 · set 2 of 27" (the
 * game's word for a match, `matchWord`). */
export function stepText(replay, index, matchWord = 'match') {
  const moves = `Move ${index} of ${replay.last}`;
  const total = (replay.matchSteps ?? []).length;
  return total === 0 ? moves : `${moves} · ${matchWord} ${setsBy(replay, index)} of ${total}`;
}

/** The time into the game at a step: "1:05". */
export function timeText(replay, index) {
  return formatAt(replay.times[clampStep(replay, index)] ?? 0);
}

/** The slider's spoken value: "Move 3 of 20, 1:05 into the game". */
export function sliderText(replay, index, matchWord = 'match') {
  return `${stepText(replay, index, matchWord)}, ${timeText(replay, index)} into the game`;
}

/** The heading and the line under it: {title: "Replay: Set", meta: "Ada, Bob · ended Nov 24,
 * 2026, 7:12 AM · 5:12"}. */
export function replayHeading(record, { locale, timeZone } = {}) {
  const title = `Replay: ${gameLabel(record.game)}`;
  const players = Array.isArray(record.players) ? record.players : [];
  const names = players
    .filter((p) => p !== null && typeof p === 'object')
    .map((p) => (typeof p.name === 'string' ? p.name : ''))
    .filter((n) => n !== '');
  const ended = formatEnded(record.endedAt, { locale, timeZone });
  const parts = [names.join(', '), ended === null ? '' : `ended ${ended.full}`, formatDuration(record.seconds)];
  return { title, meta: parts.filter((p) => p !== '').join(' · ') };
}

/** Export: the record as kept (not the replay), as a JSON file named for its game and id:
 * {name: "matchismo-set-g2.json", text, mime}. */
export function exportFile(record) {
  const safe = (value, fallback) => {
    const text = String(value ?? '').replace(/[^A-Za-z0-9_-]+/g, '');
    return text === '' ? fallback : text.slice(0, 64);
  };
  return {
    name: `matchismo-${safe(record.game, 'game')}-${safe(record.id, 'record')}.json`,
    text: `${JSON.stringify(record, null, 2)}\n`,
    mime: 'application/json',
  };
}

/**
 * Everything the replay view shows, from the controller's `replay` state ({status, data, index,
 * error}): {ready, message (loading or error text, '' when ready), title, meta, table (the step's
 * table state, or null), last, index, step ("Move 3 of 20"), time, sliderText, canBack, canForward}.
 */
export function replayView(replay, { locale, timeZone } = {}) {
  const ready = replay?.status === 'ready';
  if (!ready) {
    const message = replay?.status === 'error' ? (replay.error ?? 'This game could not be shown.') : 'Loading the game…';
    return { ready, message, title: 'Replay', meta: '', table: null, last: 0, index: 0, step: '', time: '', sliderText: '', canBack: false, canForward: false, canBackSet: false, canForwardSet: false, matchWord: 'match' };
  }
  const { data, index } = replay;
  const heading = replayHeading(data.record, { locale, timeZone });
  return {
    ready,
    message: '',
    title: heading.title,
    meta: heading.meta + (data.complete ? '' : ' · the rest of this game could not be read'),
    table: data.steps[index].table,
    last: data.last,
    index,
    step: stepText(data, index, gameInfo(data.record.game).match[0]),
    time: timeText(data, index),
    sliderText: sliderText(data, index, gameInfo(data.record.game).match[0]),
    canBack: index > 0,
    canForward: index < data.last,
    canBackSet: index > 0,
    canForwardSet: (data.matchSteps ?? []).some((k) => k > index),
    matchWord: gameInfo(data.record.game).match[0],
  };
}

/** What was said at the table up to step `index` (PROTOCOL.md, "Chat": a record's `chat`, each
 * line `at` seconds into the game): [{name, who, text, at ("m:ss")}], oldest first. */
export function replayChat(data, index) {
  const lines = Array.isArray(data?.record?.chat) ? data.record.chat : [];
  const until = data.times[Math.max(0, Math.min(index, data.times.length - 1))] ?? 0;
  return lines
    .filter((line) => line !== null && typeof line === 'object' && typeof line.name === 'string' && typeof line.text === 'string')
    .filter((line) => (typeof line.at === 'number' ? line.at : 0) <= until)
    .map((line) => ({
      name: line.name,
      who: Number.isInteger(line.seat) ? `Seat ${line.seat + 1}` : line.spectator === true ? 'watching' : '',
      text: line.text,
      at: formatAt(typeof line.at === 'number' ? line.at : 0),
    }));
}
