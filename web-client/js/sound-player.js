// Plays the sounds of sounds.js with WebAudio: no audio files. Browsers refuse sound before the
// user has interacted with the page, so the AudioContext is made on the first pointer or key
// press; until then `play` does nothing (silently).

import { SOUNDS } from './sounds.js';

export class SoundPlayer {
  /** @param {{enabled: boolean}} options  whether sounds play (the mute switch) */
  constructor({ enabled }) {
    this.enabled = enabled;
    this.context = null;
    const unlock = () => {
      this.unlock();
      window.removeEventListener('pointerdown', unlock, true);
      window.removeEventListener('keydown', unlock, true);
    };
    window.addEventListener('pointerdown', unlock, true);
    window.addEventListener('keydown', unlock, true);
  }

  unlock() {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (this.context !== null || typeof Context !== 'function') return;
    try {
      this.context = new Context();
    } catch {
      this.context = null;
    }
  }

  /** Play the sound `name` (a key of SOUNDS), if sound is on and allowed. */
  play(name) {
    const notes = SOUNDS[name];
    const context = this.context;
    if (!this.enabled || notes === undefined || context === null) return;
    if (context.state === 'suspended') context.resume().catch(() => {});
    const t0 = context.currentTime + 0.01;
    for (const note of notes) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = note.type;
      osc.frequency.value = note.freq;
      const start = t0 + note.start;
      const end = start + note.duration;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(note.gain, start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, end);
      osc.connect(gain).connect(context.destination);
      osc.start(start);
      osc.stop(end + 0.02);
    }
  }
}
