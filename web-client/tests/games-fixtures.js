// Shared by the tests of the games as the server describes them (welcome's `games`).

/** A game only the tests describe, as a server that dealt it would: welcome knows it, no code does. */
export const TWINS = {
  name: 'twins', title: 'Twins', rules: 'Eight cards face up, the numbers 1 to 4 twice: take the two of a number.',
  match: { one: 'twin pair', many: 'twin pairs', a: 'a twin pair' }, matchSize: 2, board: { base: 8, step: 0 },
  hints: true, chain: false, faceDown: false, turnBased: false,
  settings: [
    { name: 'boardSize', label: 'Cards', default: 8, choices: [{ value: 8, text: '8 cards' }] },
    { name: 'showSelections', label: 'Opponents’ picks', default: true, choices: [{ value: true, text: 'shown', summary: '' }, { value: false, text: 'hidden', summary: 'opponents’ picks hidden' }], withOthersOnly: true },
  ],
  texts: { hintOne: 'Hint: the outlined card is part of a twin pair.', hintTwo: 'Hint: the two outlined cards are a twin pair.', hintNone: 'No twin pair on this board.', kept: { 2: 'No twin pair. Pick one more.' } },
};
