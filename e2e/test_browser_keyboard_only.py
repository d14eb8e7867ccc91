"""Issue 34, "Playing without sight": games played by keyboard alone, in headless Chromium against
the real server. The single-key shortcuts are turned off in the settings (WCAG 2.2, 2.1.4), and
then a whole solo Set game is played with the keys that remain — Tab to the board, Home and the
arrows to move, Space to choose — and so is a two-player race, each player on their own page; a
card's key ("2") does nothing once the shortcuts are off, and no single key is announced
(`aria-keyshortcuts`) any more."""
import itertools

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from browser_games import CARDS, CODE, SHOWN_CARDS, severe_errors, text_of
from table_state import set_from_ids
from test_browser_rough_edges import open_page, selected_ids

FOCUSED_CARD = "return document.activeElement?.closest('#board .card')?.getAttribute('data-card-id') ?? null"


def shortcuts_off(driver):
    """Turns the single-key shortcuts off in the settings dialog, by keyboard."""
    driver.find_element(By.ID, "settings-button").send_keys(Keys.ENTER)
    box = driver.find_element(By.ID, "shortcuts")
    WebDriverWait(driver, 5).until(lambda d: box.is_displayed())
    assert box.is_selected(), "single-key shortcuts are on by default"
    box.send_keys(Keys.SPACE)
    WebDriverWait(driver, 5).until(lambda d: not box.is_selected())
    driver.find_element(By.ID, "settings-close").send_keys(Keys.ENTER)
    WebDriverWait(driver, 5).until(lambda d: not d.find_element(By.ID, "settings").is_displayed())
    assert driver.execute_script("return localStorage.getItem('matchismo.shortcuts')") == "off"


def keys(driver, *pressed):
    ActionChains(driver).send_keys(*pressed).perform()


def to_the_board(driver):
    """Tab until the keyboard is on a card (at most once round the page)."""
    for _ in range(60):
        if driver.execute_script(FOCUSED_CARD) is not None:
            return
        keys(driver, Keys.TAB)
    raise AssertionError("Tab never reached the board")


def choose_by_keyboard(driver, card_id):
    """Home, then the arrows to the card, then Space."""
    to_the_board(driver)
    board = driver.execute_script(SHOWN_CARDS, CARDS)
    keys(driver, Keys.HOME, *([Keys.ARROW_RIGHT] * board.index(card_id)))
    assert driver.execute_script(FOCUSED_CARD) == str(card_id)
    keys(driver, Keys.SPACE)


def claim_by_keyboard(player, everyone):
    """`player` takes a set of its board by keyboard; returns it once every page saw it go (or
    the game end), or None when the board holds none."""
    board = player.execute_script(SHOWN_CARDS, CARDS)
    triple = next((t for t in itertools.combinations(board, 3) if set_from_ids(*t)), None)
    if triple is None:
        return None
    for card_id in triple:
        choose_by_keyboard(player, card_id)
    for driver in everyone:
        WebDriverWait(driver, 20).until(lambda d: not set(triple) & set(d.execute_script(SHOWN_CARDS, CARDS))
                                        or d.find_element(By.ID, "gameover").is_displayed())
    return triple


def race_by_keyboard(players):
    claims = 0
    for turn in range(60):
        player = players[turn % len(players)]
        if player.find_element(By.ID, "gameover").is_displayed():
            break
        if claim_by_keyboard(player, players) is None:
            break
        claims += 1
    for driver in players:
        WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
    return claims


def test_a_whole_solo_set_game_by_keyboard_alone_with_single_key_shortcuts_off(server, browsers):
    driver = browsers()
    open_page(driver, server.http_url, 1280, 900, "light")
    shortcuts_off(driver)
    name = driver.find_element(By.ID, "name")
    name.send_keys("Kim")
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="set"]').send_keys(Keys.ENTER)
    driver.find_element(By.ID, "play-solo").send_keys(Keys.ENTER)
    WebDriverWait(driver, 15).until(lambda d: len(d.execute_script(SHOWN_CARDS, CARDS)) >= 12)
    board = driver.execute_script(SHOWN_CARDS, CARDS)
    # Nothing announces a single key that does nothing now (named keys such as Escape stay).
    announced = driver.execute_script(
        "return [...document.querySelectorAll('[aria-keyshortcuts]')].map((e) => e.getAttribute('aria-keyshortcuts'))")
    assert all(len(key) > 1 for key in announced), announced
    assert "Escape" in announced, announced
    # A card's key does nothing now: "2" first, then Space on the first card. Both would go on
    # the one connection in order, so once the first card shows chosen, "2" had its chance.
    to_the_board(driver)
    keys(driver, "2", Keys.HOME, Keys.SPACE)
    WebDriverWait(driver, 5).until(lambda d: board[0] in selected_ids(d))
    assert selected_ids(driver) == [board[0]]
    keys(driver, Keys.SPACE)  # un-chosen again
    WebDriverWait(driver, 5).until(lambda d: selected_ids(d) == [])
    sets = 0
    for _ in range(40):
        if driver.find_element(By.ID, "gameover").is_displayed():
            break
        assert claim_by_keyboard(driver, [driver]) is not None, "a game not over has a set"
        sets += 1
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
    assert sets >= 20, sets
    assert text_of(driver, "matches") == str(sets)
    assert not severe_errors(driver), severe_errors(driver)


def test_a_two_player_race_by_keyboard_alone(server, browsers):
    ann, bob = browsers(), browsers()
    for driver, name in ((ann, "Ann"), (bob, "Bob")):
        open_page(driver, server.http_url, 390, 844, "dark")
        shortcuts_off(driver)
        driver.find_element(By.ID, "name").send_keys(name)
    Select(ann.find_element(By.ID, "seats")).select_by_value("2")
    ann.find_element(By.ID, "create-private").send_keys(Keys.ENTER)
    WebDriverWait(ann, 15).until(lambda d: CODE.match(text_of(d, "table-code")))
    code = text_of(ann, "table-code")
    field = bob.find_element(By.ID, "join-code")
    field.send_keys(code, Keys.ENTER)
    for driver in (ann, bob):
        WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, "table").get_attribute("data-phase") == "playing")
    claims = race_by_keyboard([ann, bob])
    assert claims >= 20, claims
    scores = [int(text_of(driver, "matches")) for driver in (ann, bob)]
    assert sum(scores) == claims and min(scores) > 0, scores
    for driver in (ann, bob):
        assert not severe_errors(driver), severe_errors(driver)
