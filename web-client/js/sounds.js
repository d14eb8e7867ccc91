// Which sound a table change calls for, and what each sound is made of. Pure: the player
// (sound-player.js) synthesises the notes with WebAudio; nothing here touches audio.
//
// Sounds: found (my match), mismatch (my wrong choice), lost (someone else's match took a card I
// had chosen, or the server said my card was already gone), gameOver.

/** Each sound as notes: [{freq (Hz), start (s), duration (s), type (oscillator), gain}]. */
export const SOUNDS = Object.freeze({
  found: [
    { freq: 659.25, start: 0, duration: 0.09, type: 'triangle', gain: 0.25 },
    { freq: 830.61, start: 0.08, duration: 0.09, type: 'triangle', gain: 0.25 },
    { freq: 987.77, start: 0.16, duration: 0.16, type: 'triangle', gain: 0.25 },
  ],
  mismatch: [
    { freq: 220, start: 0, duration: 0.12, type: 'square', gain: 0.08 },
    { freq: 174.61, start: 0.1, duration: 0.18, type: 'square', gain: 0.08 },
  ],
  lost: [
    { freq: 523.25, start: 0, duration: 0.1, type: 'sine', gain: 0.2 },
    { freq: 392, start: 0.1, duration: 0.1, type: 'sine', gain: 0.2 },
    { freq: 311.13, start: 0.2, duration: 0.2, type: 'sine', gain: 0.2 },
  ],
  gameOver: [
    { freq: 523.25, start: 0, duration: 0.14, type: 'triangle', gain: 0.22 },
    { freq: 659.25, start: 0.14, duration: 0.14, type: 'triangle', gain: 0.22 },
    { freq: 783.99, start: 0.28, duration: 0.14, type: 'triangle', gain: 0.22 },
    { freq: 1046.5, start: 0.42, duration: 0.35, type: 'triangle', gain: 0.22 },
  ],
});

// When one diff calls for several sounds, the most important one plays.
const PRIORITY = ['gameOver', 'found', 'lost', 'mismatch'];

/**
 * The sound for one diff's events, or null.
 * @param {Array} events       the diff's events
 * @param {number|null} mySeat  null for a spectator (who hears only the end of the game)
 * @param {number[]} mySelection  my chosen card ids before the diff
 */
export function soundForEvents(events, mySeat, mySelection = []) {
  if (!Array.isArray(events)) return null;
  const mine = new Set(mySelection);
  const wanted = new Set();
  for (const e of events) {
    if (e === null || typeof e !== 'object') continue;
    if (e.kind === 'over') wanted.add('gameOver');
    if (mySeat === null || mySeat === undefined) continue;
    if (e.kind === 'match' && e.seat === mySeat) wanted.add('found');
    if (e.kind === 'match' && e.seat !== mySeat && Array.isArray(e.cards) && e.cards.some((id) => mine.has(id))) wanted.add('lost');
    if (e.kind === 'mismatch' && e.seat === mySeat) wanted.add('mismatch');
  }
  return PRIORITY.find((name) => wanted.has(name)) ?? null;
}

/** The sound for an error answering one of my moves: a card that was already taken is a lost race. */
export function soundForError(code) {
  return code === 'cardNotOnTable' ? 'lost' : null;
}
