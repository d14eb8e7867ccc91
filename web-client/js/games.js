// What differs between the games on the client, as data. Pure. Set Junior, UltraSet and
// Set-Chain are played with Set's cards (Junior's all solid), drawn by Set's renderer. Set-Chain
// (`chain: true`) shows the chain, the previous set, beside the board (chain-view.js).

/** The games, with the words the table view uses for them. */
export const GAMES = Object.freeze({
  set: {
    title: 'Set', match: ['set', 'sets'], step: 3, base: 12, hint: true,
    lede: 'Find three cards where every feature — number, symbol, shading, colour — is all the same or all different on each card. Race others to it, or play alone.',
  },
  setJunior: {
    title: 'Set Junior', match: ['set', 'sets'], step: 3, base: 9, hint: true,
    lede: 'Set with three features — number, symbol, colour — and 27 cards, all solid: three cards are a set when each feature is all the same or all different.',
  },
  ultraSet: {
    title: 'UltraSet', match: ['UltraSet', 'UltraSets'], step: 3, base: 12, hint: true,
    lede: 'Find four cards that make two pairs needing the same third card to be a set (that card need not be on the table). Race others to it, or play alone.',
  },
  setChain: {
    title: 'Set-Chain', match: ['set', 'sets'], step: 3, base: 12, hint: true, chain: true,
    lede: 'Set, chained: the first set is any set; after it, every set takes exactly one card of the set before (the chain, shown above the board) and two cards of the table, and becomes the next chain.',
  },
  matchismo: {
    title: 'Matchismo', match: ['match', 'matches'], step: 0, base: 24, hint: false,
    lede: 'Turn up playing cards two at a time: the same suit scores, the same rank scores four times as much. A miss costs you.',
  },
  concentration: {
    title: 'Concentration', match: ['pair', 'pairs'], step: 0, base: 0, hint: false,
    lede: 'Take turns flipping two cards. Find a pair and go again; miss and they turn back over. Remember where everything is.',
  },
});

/** The games in the order the lobby offers them. */
export const GAME_IDS = Object.freeze(Object.keys(GAMES));

/** The game's entry, Set for a snapshot that does not name one (the first servers). */
export function gameInfo(game) {
  return Object.hasOwn(GAMES, game) ? GAMES[game] : GAMES.set;
}

/** How the board grows, for layout.js chooseStableGrid: {base, step}. Set deals three more cards
 * when the board holds no set; the face-down games keep every slot until the end. */
export function boardShape(game, settings, boardLength) {
  const info = gameInfo(game);
  if (info.step === 0) return { base: boardLength, step: 0 };
  const size = Number.isInteger(settings?.boardSize) && settings.boardSize > 0 ? settings.boardSize : info.base;
  return { base: size, step: info.step };
}

/** "1 set", "3 matches", "2 pairs". */
export function matchesText(game, count) {
  const [one, many] = gameInfo(game).match;
  return `${count} ${count === 1 ? one : many}`;
}

/** The heading of the "Sets" statistic: "Sets", "Matches", "Pairs". */
export function matchesHeading(game) {
  const word = gameInfo(game).match[1];
  return word.charAt(0).toUpperCase() + word.slice(1);
}
