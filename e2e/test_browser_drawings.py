"""The web client's drawings in headless Chromium: the solo board fits the window without
scrolling, playing cards, emoji and card backs are drawn, a face-down board turns a card up in
place, and Set cards carry colour letters when asked."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_client import CARDS, artifact, play_solo, set_viewport, severe_errors, with_motion


FITS = """
const area = document.getElementById('board-area');
const cards = [...document.querySelectorAll('#board .card')].map(c => c.getBoundingClientRect());
const inside = cards.every(r => r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5);
const ratios = cards.map(r => r.height / r.width);
return {
  areaScrolls: area.scrollHeight > area.clientHeight + 1 || area.scrollWidth > area.clientWidth + 1,
  pageScrolls: document.documentElement.scrollHeight > innerHeight + 1 || document.documentElement.scrollWidth > innerWidth + 1,
  inside, count: cards.length, minRatio: Math.min(...ratios), maxRatio: Math.max(...ratios),
  width: cards[0]?.width ?? 0, viewport: [innerWidth, innerHeight],
};
"""


@pytest.mark.parametrize("cards", [12, 15, 18])
@pytest.mark.parametrize("width,height,min_card", [(1280, 900, 110), (390, 844, 62)])
def test_the_solo_board_fits_without_scrolling(server, browsers, width, height, min_card, cards):
    driver = browsers()
    set_viewport(driver, width, height, mobile=width < 500)
    play_solo(driver, server.http_url, cards)
    WebDriverWait(driver, 5).until(lambda d: d.execute_script(FITS)["viewport"] == [width, height])
    fit = WebDriverWait(driver, 5).until(lambda d: (lambda f: f if f["inside"] and not f["areaScrolls"] else None)(d.execute_script(FITS)))
    assert not fit["pageScrolls"], fit
    # A deal without a set gets three more cards at once.
    assert fit["count"] in (cards, cards + 3, cards + 6), fit
    assert abs(fit["minRatio"] - 1.4) < 0.02 and abs(fit["maxRatio"] - 1.4) < 0.02, fit
    assert fit["width"] >= min_card, fit
    if cards != 12:
        return  # the screenshots for review are of the usual board
    driver.save_screenshot(str(artifact(f"board-{width}x{height}-light.png")))
    # The same board in the dark theme, for review (the session comes back after the reload).
    driver.execute_script("localStorage.setItem('matchismo.theme', 'dark')")
    driver.refresh()
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.documentElement.dataset.theme") == "dark")
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(FITS)["count"] >= 12)
    driver.save_screenshot(str(artifact(f"board-{width}x{height}-dark.png")))
    assert not severe_errors(driver), severe_errors(driver)


# Draws every kind of board entry through the page's own modules, as board-view would.
GALLERY = """
const done = arguments[arguments.length - 1];
import('/js/card-element.js').then(({createBoardCard, updateBoardCard}) => {
  const board = document.getElementById('board');
  document.getElementById('lobby').hidden = true;
  document.getElementById('table').hidden = false;
  board.style.setProperty('--cols', '9');
  board.style.setProperty('--card-w', '100px');
  const suits = ['♠', '♥', '♦', '♣'];
  const entries = [];
  for (let rank = 1; rank <= 13; rank += 1) entries.push({id: rank, faceUp: true, rank, suit: suits[rank % 4]});
  entries.push({id: 20, faceUp: false}, {id: 21, faceUp: true, emoji: '🦊'}, {id: 22, faceUp: true, emoji: '🪐'},
               {id: 23, faceUp: true, rank: 12, suit: '♥', matched: true});
  const els = entries.map(e => createBoardCard(e, {}));
  board.replaceChildren(...els);
  const labels = els.map(e => e.getAttribute('aria-label'));
  const backs = document.querySelectorAll('#board .card-back').length;
  // Turn the face-down card up: same element, new face, a flip.
  const turned = updateBoardCard(els[13], entries[13], {id: 20, faceUp: true, rank: 10, suit: '♦'}, {});
  done({
    labels, backs,
    pips: els.slice(0, 10).map(e => e.querySelectorAll('svg > path').length),
    redFill: els[1].querySelector('svg > path').getAttribute('fill'),
    sameElement: turned === els[13], flipping: turned.classList.contains('flipping'),
    turnedLabel: turned.getAttribute('aria-label'), backsAfter: document.querySelectorAll('#board .card-back').length,
    matched: [els[16].tabIndex, els[16].classList.contains('matched')],
    html: els.some(e => e.innerHTML.includes('<script')),
  });
}, (error) => done({error: String(error)}));
"""


def test_playing_cards_emoji_and_backs_are_drawn(server, browsers):
    driver = browsers()
    driver.get(server.http_url)
    result = driver.execute_async_script(GALLERY)
    assert "error" not in result, result
    assert result["labels"][:3] == ["ace of hearts", "two of diamonds", "three of clubs"]
    assert result["labels"][10:17] == ["jack of clubs", "queen of spades", "king of hearts",
                                       "face-down card", "fox", "card showing 🪐", "queen of hearts, matched"]
    assert result["pips"] == list(range(1, 11)), result["pips"]  # pips are the card's only top-level paths
    assert result["sameElement"] and result["flipping"] and result["turnedLabel"] == "ten of diamonds"
    assert result["matched"] == [-1, True]
    assert (result["backs"], result["backsAfter"]) == (1, 0)
    assert not result["html"]
    driver.save_screenshot(str(artifact("card-gallery.png")))
    assert not severe_errors(driver), severe_errors(driver)


# A Matchismo board through the real BoardView, as main.js will drive it once the server deals one:
# 24 face-down slots, one turned up by a `flip`, one matched; slot handles keep their elements.
FACE_DOWN_BOARD = """
const done = arguments[arguments.length - 1];
Promise.all([import('/js/board-view.js'), import('/js/table-state.js')]).then(([{BoardView}, ts]) => {
  document.getElementById('lobby').hidden = true;
  document.getElementById('table').hidden = false;
  const chosen = [];
  const view = new BoardView(document.getElementById('board'), document.getElementById('board-area'),
                             {onChoose: (id) => chosen.push(id), palette: {}});
  view.setShape({base: 24, step: 0});
  const board = Array.from({length: 24}, (_, id) => ({id, faceUp: false}));
  board[5] = {id: 5, faceUp: true, rank: 1, suit: '♠', matched: true};
  let state = ts.applySnapshot({id: 't', game: 'matchismo', version: 0, you: 0, board,
                                players: [{seat: 0, name: 'Kim', selection: []}]});
  view.render(state.table.board, [], {});
  const before = document.querySelector('#board .card[data-card-id="3"]');
  state = ts.applyDiff(state, {table: 't', version: 1, seat: 0, events: [
    {kind: 'flip', card: {id: 3, faceUp: true, rank: 12, suit: '♥'}}, {kind: 'select', seat: 0, card: 3}]}).state;
  view.render(state.table.board, ts.mySelection(state), {});
  const after = document.querySelector('#board .card[data-card-id="3"]');
  const flipping = after.classList.contains('flipping');
  document.querySelector('#board .card[data-card-id="5"]').click();
  document.querySelector('#board .card[data-card-id="7"]').click();
  const area = document.getElementById('board-area');
  setTimeout(() => done({
    same: before === after, flipping, label: after.getAttribute('aria-label'), pressed: after.getAttribute('aria-pressed'),
    downs: document.querySelectorAll('#board .card.face-down .card-back').length,
    keys: [...document.querySelectorAll('#board .key-label')].map(k => k.textContent).join(''),
    chosen, fits: area.scrollHeight <= area.clientHeight + 1 && area.scrollWidth <= area.clientWidth + 1,
    matched: document.querySelector('#board .card[data-card-id="5"]').getAttribute('aria-disabled'),
  }), 300);
}, (error) => done({error: String(error)}));
"""


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_a_face_down_board_turns_a_card_up_in_place(server, browsers, width, height):
    driver = browsers()
    set_viewport(driver, width, height, mobile=width < 500)
    driver.get(server.http_url)
    result = driver.execute_async_script(FACE_DOWN_BOARD)
    assert "error" not in result, result
    assert result["same"] and result["flipping"], result
    assert (result["label"], result["pressed"]) == ("queen of hearts", "true")
    assert result["downs"] == 22
    assert result["keys"] == "1234567890abcdefgjklnopq"
    assert result["chosen"] == [7], "a matched card cannot be chosen"
    assert result["matched"] == "true"
    assert result["fits"], "24 cards fit without scrolling"
    driver.save_screenshot(str(artifact(f"face-down-{width}x{height}.png")))
    assert not severe_errors(driver), severe_errors(driver)


def test_colour_letters_on_set_cards(server, browsers):
    driver = browsers()
    play_solo(driver, server.http_url)
    cue = driver.find_element(By.CSS_SELECTOR, f"{CARDS} .color-cue")
    assert not cue.is_displayed()
    driver.find_element(By.ID, "settings-button").click()
    driver.find_element(By.ID, "color-cues").click()
    driver.find_element(By.ID, "settings-close").click()
    palette = {"#d6204e": "R", "#1a9b4b": "G", "#6a3fb5": "P"}
    for card in driver.find_elements(By.CSS_SELECTOR, CARDS):
        stroke = card.find_element(By.CSS_SELECTOR, "use").get_attribute("stroke")
        letter = card.find_element(By.CSS_SELECTOR, ".color-cue")
        assert letter.is_displayed() and letter.text == palette[stroke]
    driver.refresh()
    WebDriverWait(driver, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, CARDS)) >= 12)
    assert driver.find_element(By.CSS_SELECTOR, f"{CARDS} .color-cue").is_displayed(), "remembered"


# The animation each kind of feedback gets: a card dealt, turned, shaken or flashed, and a match's
# points (elements of those classes on the board, read as the page's style sheet draws them).
ANIMATIONS = """
const area = document.getElementById('board-area');
const names = {};
for (const cls of ['entering', 'flipping', 'mismatch', 'found', 'points-pop']) {
  const el = document.createElement('div');
  el.className = cls === 'points-pop' ? cls : `card ${cls}`;
  area.append(el);
  names[cls] = getComputedStyle(el).animationName;
  el.remove();
}
return names;
"""


def test_reduced_motion_stills_the_board_and_motion_runs_its_animations_to_the_end(server, browsers):
    driver = browsers()
    driver.get(server.http_url)
    # Reduced motion (as the pass's browsers ask): nothing moves; the points still show, fading in place.
    with_motion(driver, False)
    assert driver.execute_script(ANIMATIONS) == {
        "entering": "none", "flipping": "none", "mismatch": "none", "found": "none", "points-pop": "pop-fade"}
    with_motion(driver)
    assert driver.execute_script(ANIMATIONS) == {
        "entering": "deal", "flipping": "flip", "mismatch": "shake", "found": "found", "points-pop": "pop"}
    # With motion, a card turned up runs its animation, and the class goes when it ends.
    result = driver.execute_async_script(FACE_DOWN_BOARD)
    assert "error" not in result and result["flipping"], result
    WebDriverWait(driver, 5).until(lambda d: d.execute_script(
        "return !document.querySelector('#board .card[data-card-id=\"3\"]').classList.contains('flipping')"))
    assert not severe_errors(driver), severe_errors(driver)
