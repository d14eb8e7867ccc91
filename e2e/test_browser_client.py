"""The web client's own features in headless Chromium: themes, the help overlay, choosing a card
by its key, a re-deal that asks first, the lobby's game picker, leaving a game, a second tab, the
keyboard alone, an invite link, a phone's lobby after leaving, and the games' descriptions asked
for once (the drawings: test_browser_drawings.py)."""
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from browser_client import CARDS, PAGE_BACKGROUND, luminance, play_solo, set_viewport, severe_errors


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
    from table_state import set_from_ids
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


# Records, from before the page's own scripts run, every frame its sockets send, every welcome
# they receive, and the sockets themselves.
RECORD_SOCKETS = """
window.sentFrames = []; window.welcomes = []; window.sockets = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (!window.sockets.includes(this)) {
    window.sockets.push(this);
    this.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'welcome') window.welcomes.push(message);
    });
  }
  window.sentFrames.push(String(data));
  return send.call(this, data);
};
"""


def test_the_page_asks_for_the_games_once_then_names_the_version_it_holds(server, browsers):
    driver = browsers()
    hook = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_SOCKETS})
    try:
        driver.get(server.http_url)
        wait = WebDriverWait(driver, 10)
        wait.until(lambda d: d.execute_script("return window.welcomes.length") == 1)
        # The connection drops; the page says hello again on a new socket.
        driver.execute_script("window.sockets[0].close()")
        wait.until(lambda d: d.execute_script("return window.welcomes.length") == 2)
        first, second = driver.execute_script("return window.welcomes")
        hellos = [m for m in map(json.loads, driver.execute_script("return window.sentFrames"))
                  if m["type"] == "hello"]
        assert [h.get("games") for h in hellos] == [True, first["gamesVersion"]], hellos
        assert len(first["games"]) == 6 and "games" not in second
        assert second["resumed"] is True
        # The page still offers every game it learnt.
        picker = driver.find_elements(By.CSS_SELECTOR, "#game-picker button[data-game]")
        assert [b.get_attribute("data-game") for b in picker] == [g["name"] for g in first["games"]]
        assert not severe_errors(driver), severe_errors(driver)
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": hook["identifier"]})
