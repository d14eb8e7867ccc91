// Table settings (PROTOCOL.md, `createTable` / `playSolo`): what the lobby's small form offers per
// game, the message fields it turns into, and the line that shows a table's settings at the
// table. Pure: lobby-view.js reads the form's values and passes them in (lobby-form.js keeps the
// ones the player changed).

/** Concentration's emoji themes, by index (the server's EmojiCard.themes order). */
export const THEMES = Object.freeze(['Animals', 'Food', 'Sports', 'Travel', 'Weather', 'Music']);

/** Whether players see each other's chosen cards (Set and Matchismo with others; spectators
 * always do). */
const SELECTIONS = Object.freeze({
  label: 'Opponents’ picks',
  options: [['shown', 'shown'], ['hidden', 'hidden']],
  default: 'shown',
});

/** The fields of each game's form: name → {label, options: [[value, text]], default}. `seats`
 * chooses the default where the server's differs alone and with others, and whether there are
 * others to show picks to or pass turns to (a solo table leaves those fields out). */
export function settingsForm(game, seats = 1) {
  const others = seats > 1 ? { selections: SELECTIONS } : {};
  switch (game) {
    case 'matchismo':
      return {
        matchSize: { label: 'Match', options: [[2, '2 cards'], [3, '3 cards']], default: 2 },
        boardSize: { label: 'Cards', options: [12, 16, 20, 24, 30, 36].map((n) => [n, `${n} cards`]), default: 24 },
        ...others,
      };
    case 'concentration':
      return {
        pairs: { label: 'Pairs', options: [4, 5, 6, 7, 8, 9, 10].map((n) => [n, `${n} pairs`]), default: 8 },
        theme: { label: 'Theme', options: THEMES.map((name, i) => [i, name]), default: 0 },
        // Turns pass only between players: alone there is no turn to lose.
        ...(seats > 1
          ? {
              turnSeconds: {
                label: 'Turn',
                options: [[0, 'no limit'], [10, '10 s'], [20, '20 s'], [30, '30 s'], [60, '60 s']],
                default: 30,
              },
            }
          : {}),
      };
    default: {
      // Set and its variants: Set Junior's 27 cards lie 9 at a time, UltraSet's and Set-Chain's 12.
      const sizes =
        { setJunior: [[6, 9, 12], 9], ultraSet: [[9, 12, 15, 18], 12], setChain: [[9, 12, 15, 18], 12] }[game] ??
        [[12, 15, 18], 12];
      const point = game === 'ultraSet' ? 'an UltraSet' : 'a set';
      return {
        scoring: {
          label: 'Scoring',
          options: [['classic', `Classic (${point} is a point)`], ['course', 'Course (points and penalties)']],
          default: seats === 1 ? 'course' : 'classic',
        },
        boardSize: { label: 'Cards', options: sizes[0].map((n) => [n, `${n} cards`]), default: sizes[1] },
        ...others,
      };
    }
  }
}

/** The top-level message fields for `game` from the form's values (strings as a form gives
 * them). Values the form does not offer are left out, so the server's defaults apply. */
export function settingsFields(game, values = {}, seats = 1) {
  const form = settingsForm(game, seats);
  const pick = (name) => {
    const field = form[name];
    const raw = values[name];
    if (field === undefined || raw === undefined || raw === null || raw === '') return undefined;
    const option = field.options.find(([value]) => String(value) === String(raw));
    return option === undefined ? undefined : option[0];
  };
  const fields = {};
  if (game === 'concentration') {
    const pairs = pick('pairs');
    if (pairs !== undefined) fields.boardSize = pairs * 2;
    const theme = pick('theme');
    if (theme !== undefined) fields.theme = theme;
    const turn = pick('turnSeconds');
    if (turn !== undefined) fields.turnSeconds = turn;
  } else if (game === 'matchismo') {
    const matchSize = pick('matchSize');
    if (matchSize !== undefined) fields.matchSize = matchSize;
    const boardSize = pick('boardSize');
    if (boardSize !== undefined) fields.boardSize = boardSize;
  } else {
    const scoring = pick('scoring');
    if (scoring !== undefined) fields.scoring = scoring;
    const boardSize = pick('boardSize');
    if (boardSize !== undefined) fields.boardSize = boardSize;
  }
  const selections = pick('selections');
  if (selections !== undefined) fields.showSelections = selections === 'shown';
  return fields;
}

/** A table's settings in a few words, from the snapshot's `settings` and `turnSeconds`:
 * "Classic scoring · 15 cards", "2-card matches · 24 cards", "8 pairs · Animals · 30 s turns". */
export function settingsText(game, settings, turnSeconds = null) {
  const s = settings ?? {};
  const parts = [];
  if (game === 'concentration') {
    if (Number.isInteger(s.boardSize)) parts.push(`${s.boardSize / 2} pairs`);
    if (Number.isInteger(s.theme) && THEMES[s.theme] !== undefined) parts.push(THEMES[s.theme]);
    parts.push(Number.isInteger(turnSeconds) && turnSeconds > 0 ? `${turnSeconds} s turns` : 'no turn limit');
  } else if (game === 'matchismo') {
    if (Number.isInteger(s.matchSize)) parts.push(`${s.matchSize}-card matches`);
    if (Number.isInteger(s.boardSize)) parts.push(`${s.boardSize} cards`);
  } else {
    if (s.scoring === 'classic') parts.push('Classic scoring');
    else if (s.scoring === 'course') parts.push('Course scoring');
    else if (typeof s.scoring === 'string') parts.push('Custom scoring');
    if (Number.isInteger(s.boardSize)) parts.push(`${s.boardSize} cards`);
  }
  if (s.showSelections === false) parts.push('opponents’ picks hidden');
  return parts.join(' · ');
}
