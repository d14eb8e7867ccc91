"""The web client's own features in headless Chromium: themes, the help overlay, choosing a card
by its key, the board fitting the window, and the playing-card / emoji / face-down drawings."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

CARDS = "#board .card"


def severe_errors(driver):
    return [e for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and e.get("source") != "network"]


def set_viewport(driver, width, height, mobile=False):
    """An exact CSS viewport (a headless window cannot be narrower than 500 px)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def play_solo(driver, url, cards=12, scoring="course"):
    """A solo Set table; course scoring unless told (the tests here count its points)."""
    driver.get(url)
    driver.find_element(By.ID, "name").send_keys("Kim")
    Select(driver.find_element(By.ID, "opt-scoring")).select_by_value(scoring)
    if cards != 12:
        Select(driver.find_element(By.ID, "opt-boardSize")).select_by_value(str(cards))
    driver.find_element(By.ID, "play-solo").click()
    WebDriverWait(driver, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, CARDS)) >= cards)


def luminance(css_color):
    """Relative luminance of a computed `rgb(r, g, b)` colour."""
    r, g, b = [int(float(x)) for x in css_color[css_color.index("(") + 1:css_color.index(")")].split(",")[:3]]
    lin = [(c / 255) / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


PAGE_BACKGROUND = "return getComputedStyle(document.documentElement).backgroundColor"


def test_dark_theme_is_chosen_and_remembered(server, browsers):
    driver = browsers()
    driver.get(server.http_url)
    wait = WebDriverWait(driver, 10)
    # Headless Chromium reports a light system theme: the page starts light.
    assert driver.execute_script("return document.documentElement.dataset.theme") == "light"
    assert luminance(driver.execute_script(PAGE_BACKGROUND)) > 0.5

    driver.find_element(By.ID, "settings-button").click()
    wait.until(lambda d: d.find_element(By.ID, "settings").is_displayed())
    driver.find_element(By.ID, "theme-dark").click()
    driver.find_element(By.ID, "settings-close").click()
    wait.until(lambda d: luminance(d.execute_script(PAGE_BACKGROUND)) < 0.05)
    assert driver.execute_script("return localStorage.getItem('matchismo.theme')") == "dark"

    driver.refresh()
    wait.until(lambda d: d.execute_script("return document.documentElement.dataset.theme") == "dark")
    assert luminance(driver.execute_script(PAGE_BACKGROUND)) < 0.05
    assert driver.find_element(By.ID, "theme-dark").is_selected()

    # Back to following the system: light again.
    driver.find_element(By.ID, "settings-button").click()
    driver.find_element(By.ID, "theme-system").click()
    driver.find_element(By.ID, "settings-close").click()
    wait.until(lambda d: luminance(d.execute_script(PAGE_BACKGROUND)) > 0.5)
    assert not severe_errors(driver), severe_errors(driver)


def test_question_mark_opens_the_help_and_escape_closes_it(server, browsers):
    driver = browsers()
    play_solo(driver, server.http_url)
    help_box = driver.find_element(By.ID, "help")
    assert not help_box.is_displayed()
    driver.find_element(By.CSS_SELECTOR, "body").send_keys("?")
    WebDriverWait(driver, 5).until(lambda d: help_box.is_displayed())
    text = help_box.text
    for words in ("Keyboard shortcuts", "Re-deal", "History", "Un-choose", "Esc", "Backspace"):
        assert words in text, text
    driver.switch_to.active_element.send_keys("\ue00c")  # Escape
    WebDriverWait(driver, 5).until(lambda d: not help_box.is_displayed())
    # Escape closed the help; it did not un-choose or change anything on the board.
    assert driver.find_elements(By.CSS_SELECTOR, "#board .card.selected") == []
    assert not severe_errors(driver), severe_errors(driver)


def test_a_card_is_chosen_by_its_key_and_unchosen_with_escape(server, browsers):
    driver = browsers()
    play_solo(driver, server.http_url)
    wait = WebDriverWait(driver, 10)
    cards = driver.find_elements(By.CSS_SELECTOR, CARDS)
    keys = [c.find_element(By.CSS_SELECTOR, ".key-label").text for c in cards]
    assert keys == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "a", "b"][:len(cards)] + keys[12:]
    # When the game starts the board has the keyboard.
    assert driver.execute_script("return document.activeElement.closest('#board') !== null")

    third = cards[2].get_attribute("data-card-id")
    driver.switch_to.active_element.send_keys("3")
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, f'{CARDS}[data-card-id="{third}"]')
               .get_attribute("aria-pressed") == "true")
    assert driver.find_element(By.ID, "score").text.strip() == "-1"
    eleventh = cards[10].get_attribute("data-card-id")
    driver.switch_to.active_element.send_keys("a")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, f"{CARDS}.selected")) == 2)
    assert driver.find_element(By.CSS_SELECTOR, f'{CARDS}[data-card-id="{eleventh}"]').get_attribute("aria-pressed") == "true"

    driver.switch_to.active_element.send_keys("\ue00c")  # Escape: un-choose both, one choose each
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"{CARDS}.selected") == [])
    assert not severe_errors(driver), severe_errors(driver)


def test_r_asks_before_it_redeals(server, browsers):
    driver = browsers()
    play_solo(driver, server.http_url)
    driver.switch_to.active_element.send_keys("r")
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "confirm-redeal").is_displayed())
    driver.find_element(By.ID, "confirm-redeal-no").click()
    assert not driver.find_element(By.ID, "confirm-redeal").is_displayed()


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


def test_the_lobby_game_picker_is_sent_and_remembered(server, browsers):
    driver = browsers()
    driver.get(server.http_url)
    wait = WebDriverWait(driver, 15)
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="matchismo"]').click()
    assert driver.find_element(By.ID, "lobby-title").text == "Matchismo"
    assert driver.find_element(By.CSS_SELECTOR, 'button[data-game="matchismo"]').get_attribute("aria-pressed") == "true"
    assert driver.find_element(By.CSS_SELECTOR, 'button[data-game="set"]').get_attribute("aria-pressed") == "false"
    driver.find_element(By.ID, "name").send_keys("Kim")
    driver.find_element(By.ID, "play-solo").click()
    # Until the server deals Matchismo it refuses the game (and says so); after that, face-down cards.
    wait.until(lambda d: d.find_element(By.ID, "toast").is_displayed()
               or d.find_elements(By.CSS_SELECTOR, f'{CARDS}[data-kind="down"]'))
    # (A `playSolo` for Set would have dealt Set cards: the refusal shows the game was sent.)
    assert not driver.find_elements(By.CSS_SELECTOR, f'{CARDS}[data-kind="set-card"]')
    if not driver.find_elements(By.CSS_SELECTOR, CARDS):
        assert driver.find_element(By.ID, "lobby").is_displayed()
    driver.refresh()
    # The server deals Matchismo now, so the reloaded page may be back at that table: the lobby
    # (hidden then) still names the remembered game.
    wait.until(lambda d: d.find_element(By.ID, "lobby-title").get_attribute("textContent") == "Matchismo")
    assert driver.execute_script("return localStorage.getItem('matchismo.game')") == "matchismo"


def artifact(name):
    import pathlib
    folder = pathlib.Path(__file__).resolve().parent.parent / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder / name


def test_leaving_a_game_in_progress_asks_first_and_a_solo_table_has_no_invite(server, browsers):
    driver = browsers()
    driver.get(server.http_url)
    driver.find_element(By.ID, "name").send_keys("Kim")
    driver.find_element(By.ID, "play-solo").click()
    WebDriverWait(driver, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board .card")) >= 12)
    # Nobody to invite at a solo table.
    assert not driver.find_element(By.ID, "invite").is_displayed()
    driver.find_element(By.ID, "leave").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "confirm-leave").is_displayed())
    driver.find_element(By.ID, "confirm-leave-no").click()
    assert not driver.find_element(By.ID, "confirm-leave").is_displayed()
    assert driver.find_element(By.ID, "table").is_displayed()
    driver.find_element(By.ID, "leave").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "confirm-leave").is_displayed())
    driver.find_element(By.ID, "confirm-leave-yes").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "lobby").is_displayed())


def test_a_new_tab_of_the_same_browser_takes_the_game_back(server, browsers):
    driver = browsers()
    driver.get(server.http_url)
    driver.find_element(By.ID, "name").send_keys("Kim")
    driver.find_element(By.ID, "play-solo").click()
    WebDriverWait(driver, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board .card")) >= 12)
    ids = [e.get_attribute("data-card-id") for e in driver.find_elements(By.CSS_SELECTOR, "#board .card")]
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(server.http_url)
    # The session lives in the browser, not the tab: the new tab is back at the same table.
    WebDriverWait(driver, 15).until(
        lambda d: [e.get_attribute("data-card-id") for e in d.find_elements(By.CSS_SELECTOR, "#board .card")] == ids)
    # The first tab is told its game continued elsewhere, and stops.
    driver.switch_to.window(first)
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "stopped")
    assert "another tab" in driver.find_element(By.ID, "toast").get_attribute("textContent")


def test_the_keyboard_alone_plays_a_set(server, browsers):
    from protocol_client import set_from_ids
    import itertools
    driver = browsers()
    play_solo(driver, server.http_url)
    wait = WebDriverWait(driver, 10)
    board = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => "
        "[Number(e.getAttribute('data-card-id')), e.querySelector('.key-label').textContent]);", CARDS)
    keys = dict(board)
    triple = next(t for t in itertools.combinations(keys, 3) if set_from_ids(*t))
    # Focus is on the board from the start; no mouse from here on.
    for card_id in triple:
        driver.switch_to.active_element.send_keys(keys[card_id])
    # Read in one script: the board is redrawn as the set leaves it.
    shown = "return [...document.querySelectorAll(arguments[0])].map((e) => Number(e.getAttribute('data-card-id')));"
    wait.until(lambda d: not set(triple) & set(d.execute_script(shown, CARDS)))
    wait.until(lambda d: d.execute_script("return document.getElementById('matches').textContent.trim()") == "1")
    # "h" opens the history, which lists the set just found.
    driver.switch_to.active_element.send_keys("h")
    wait.until(lambda d: d.find_element(By.ID, "history-view").is_displayed())
    wait.until(lambda d: "matched" in d.find_element(By.ID, "history-view").text)
    assert not severe_errors(driver), severe_errors(driver)


def test_an_invite_link_asks_for_a_name_first(server, browsers):
    host, guest = browsers(), browsers()
    host.get(server.http_url)
    host.find_element(By.ID, "name").send_keys("Ann")
    Select(host.find_element(By.ID, "seats")).select_by_value("2")
    host.find_element(By.ID, "create-private").click()
    WebDriverWait(host, 15).until(lambda d: d.find_element(By.ID, "table-code").get_attribute("textContent").strip())
    code = host.find_element(By.ID, "table-code").get_attribute("textContent").strip()
    # The share link names the game, and the invitation says which (issue 21).
    link = host.find_element(By.ID, "share-link").get_attribute("href")
    assert link == f"{server.http_url}#/t/{code}/set", link
    guest.get(link)
    WebDriverWait(guest, 10).until(lambda d: d.find_element(By.ID, "invite-name").is_displayed())
    assert guest.find_element(By.ID, "invite-name-title").text == "You are invited to a game of Set"
    # An empty name is not taken; a name is.
    guest.find_element(By.ID, "invite-join").click()
    WebDriverWait(guest, 5).until(lambda d: d.find_element(By.ID, "invite-name-problem").is_displayed())
    guest.find_element(By.ID, "invite-name-field").send_keys("Bob")
    guest.find_element(By.ID, "invite-join").click()
    WebDriverWait(guest, 15).until(lambda d: d.find_element(By.ID, "table").get_attribute("data-phase") in ("countdown", "playing"))
    names = guest.execute_script("return [...document.querySelectorAll('#scoreboard .name')].map((e) => e.textContent)")
    assert "Bob" in " ".join(names), names
    assert guest.execute_script("return localStorage.getItem('matchismo.name')") == "Bob"


def test_leaving_a_table_on_a_phone_shows_the_lobby_from_its_top(server, browsers):
    """Issue 21: on a phone the lobby came back scrolled down to the table list, where the player
    had been before taking a seat."""
    driver = browsers()
    set_viewport(driver, 390, 844, mobile=True)
    driver.get(server.http_url)
    driver.find_element(By.ID, "name").send_keys("Kim")
    lobby_top = "return document.getElementById('lobby').scrollTop"
    driver.execute_script("const l = document.getElementById('lobby'); l.scrollTop = l.scrollHeight")
    WebDriverWait(driver, 5).until(lambda d: d.execute_script(lobby_top) > 100)
    driver.execute_script("document.getElementById('play-solo').click()")
    WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, "table").is_displayed())
    driver.find_element(By.ID, "leave").click()
    if driver.find_element(By.ID, "confirm-leave").is_displayed():
        driver.find_element(By.ID, "confirm-leave-yes").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    assert driver.execute_script(lobby_top) == 0
    assert not severe_errors(driver), severe_errors(driver)
