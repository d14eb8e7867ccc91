"""The look back at a finished game (issue 21), seen by a person in headless Chromium against
the real server, at 1280×900 in the light theme and 390×844 in the dark one: a solo Set game
played to its end by clicking sets; the game-over box's "Look back" shows each player's sets,
fastest and mean, the sets that were on the board and nobody took, and every set in order with
how long it had been there; the replay of the same game, from the high scores, shows it too,
and what was said at the table (as text) up to the step shown."""
import itertools

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from table_state import set_from_ids
from browser_games import play_solo, severe_errors
from test_browser_rough_edges import SIZES, artifact, board_ids, click_card, open_page, text_of

CARDS = "#board .card"


def play_set_to_the_end(driver):
    """Clicks the first set of the board (in board order) until the game is over; returns how
    many sets were taken."""
    taken = 0
    for _ in range(40):
        if driver.find_element(By.ID, "gameover").is_displayed():
            return taken
        board = board_ids(driver)
        triple = next((t for t in itertools.combinations(board, 3) if set_from_ids(*t)), None)
        assert triple is not None, f"no set on a board of a game that is not over: {board}"
        for card_id in triple:
            click_card(driver, card_id)
        taken += 1
        WebDriverWait(driver, 10).until(
            lambda d: d.find_element(By.ID, "gameover").is_displayed() or not set(triple) & set(board_ids(d)))
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
    return taken


def look_back_of(driver, details_id):
    """Opens the <details> and reads what it shows."""
    details = driver.find_element(By.ID, details_id)
    WebDriverWait(driver, 10).until(lambda d: details.is_displayed())
    if details.get_attribute("open") is None:
        details.find_element(By.TAG_NAME, "summary").click()
    return driver.execute_script("""
      const d = document.getElementById(arguments[0]);
      return {
        players: [...d.querySelectorAll('.look-back-players tbody tr')].map((tr) =>
          [...tr.querySelectorAll('td')].map((td) => td.textContent)),
        missed: d.querySelector('.look-back-missed')?.textContent ?? '',
        found: [...d.querySelectorAll('.look-back-found li')].map((li) => li.textContent),
        note: d.querySelector('.look-back-note')?.textContent ?? '',
        right: d.getBoundingClientRect().right };""", details_id)


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_the_look_back_at_a_finished_game_at_its_end_and_in_its_replay(server, browsers, width, height, theme):
    driver = browsers()
    open_page(driver, server.http_url, width, height, theme)
    play_solo(driver, server.http_url, "set", {"scoring": "classic"}, cards=12)
    # A line said at the table, kept with the game for its replay.
    driver.find_element(By.ID, "chat-button").click()
    field = driver.find_element(By.ID, "chat-input")
    field.send_keys("here goes <i>nothing</i>")
    field.send_keys(Keys.ENTER)
    WebDriverWait(driver, 10).until(lambda d: "here goes <i>nothing</i>" in text_of(d, "chat-lines"))
    driver.find_element(By.ID, "chat-back").click()
    taken = play_set_to_the_end(driver)
    shown = look_back_of(driver, "look-back")
    assert shown["players"] and shown["players"][0][0] == "Kim", shown
    assert shown["players"][0][1] == f"{taken} sets", shown
    assert all(cell.endswith(" s") for cell in shown["players"][0][2:]), shown
    assert len(shown["found"]) == taken and shown["found"][0].startswith("0:"), shown
    # Always the first set in board order: others on the board were passed over.
    assert "on the board and left untaken" in shown["missed"], shown
    assert "on the board when it was taken" in shown["note"]
    assert shown["right"] <= width + 0.5
    driver.save_screenshot(artifact(f"look-back-gameover-{width}x{height}-{theme}.png"))

    # The same look back under the game's replay.
    driver.find_element(By.ID, "back-to-lobby").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "tab-scores").is_displayed())
    driver.find_element(By.ID, "tab-scores").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#scores-body button.replay"))
    driver.find_element(By.CSS_SELECTOR, "#scores-body button.replay").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "replay").is_displayed())
    replayed = look_back_of(driver, "replay-look-back")
    assert replayed["players"] == shown["players"] and replayed["found"] == shown["found"], (replayed, shown)
    assert replayed["missed"] == shown["missed"]
    # What was said, up to the step shown: the line at the last move.
    driver.find_element(By.ID, "replay-last").click()
    WebDriverWait(driver, 10).until(lambda d: "here goes <i>nothing</i>" in text_of(d, "replay-chat-lines"))
    assert not driver.find_elements(By.CSS_SELECTOR, "#replay-chat-lines i")
    driver.save_screenshot(artifact(f"look-back-replay-{width}x{height}-{theme}.png"))
    assert text_of(driver, "replay-title") != ""
    assert not severe_errors(driver), severe_errors(driver)
