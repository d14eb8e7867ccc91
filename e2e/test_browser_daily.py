"""The daily puzzle (issue 21), seen by a person in headless Chromium against the real server, at
1280×900 in the light theme and 390×844 in the dark one: another player (a plain WebSocket
client) finishes today's Set puzzle; the browser's player plays it to its end by clicking sets,
dealt the same cards; its look back compares the game with Theo's; the lobby's Daily tab shows both results, the player's place and a result
to share as text that gives no card away; yesterday's board is empty. Issue 34, point 4: the
attempt offers no hint, no re-deal and (at its end) no playing again; back in the lobby the daily
button says the day's attempt is used and leads to the results instead of a refusal; the game is
in a high-score list of its own, "Daily puzzle"."""
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from mp_support import FAST, start_server  # noqa: F401  (a fixture)
from browser_games import severe_errors
from test_browser_look_back import play_set_to_the_end
from test_browser_rough_edges import SIZES, Seat, artifact, board_ids, open_page, text_of

MINE, THEIRS = "browserPlayer0000000A1", "someoneElse00000000B2"


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_the_daily_puzzle_is_played_ranked_and_shared(start_server, browsers, width, height, theme):
    server = start_server(*FAST, "--rate-limit", "1000")
    theo = Seat(server.ws_url, THEIRS, "Theo")
    try:
        dealt = theo.request({"type": "playDaily", "game": "set"})["table"]
        theos_board = [card["id"] for card in dealt["board"]]
        assert theo.take_every_set(dealt)["over"]
    finally:
        theo.close()

    driver = browsers()
    open_page(driver, server.http_url, width, height, theme)
    driver.execute_script("localStorage.setItem('matchismo.player', arguments[0]);", MINE)
    driver.get(server.http_url)
    driver.find_element(By.ID, "name").send_keys("Kim")
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="set"]').click()
    driver.find_element(By.ID, "play-daily").click()
    WebDriverWait(driver, 10).until(lambda d: len(board_ids(d)) >= 12)
    # The same deal as Theo's, played without help: nothing is offered that would be refused.
    assert board_ids(driver) == theos_board
    for offer in ("hint", "redeal"):
        assert not driver.find_element(By.ID, offer).is_displayed(), f"#{offer} offered at the daily puzzle"
    play_set_to_the_end(driver)
    assert not driver.find_element(By.ID, "play-again").is_displayed(), "Play again offered at its end"
    # The look back says how the game went against everyone's that day (Theo's and Kim's).
    look_back = driver.find_element(By.ID, "look-back")
    if look_back.get_attribute("open") is None:
        driver.execute_script("arguments[0].open = true", look_back)
    WebDriverWait(driver, 10).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#look-back-body .look-back-daily p"))
    lines = [p.text for p in driver.find_elements(By.CSS_SELECTOR, "#look-back-body .look-back-daily p")]
    assert re.fullmatch(r"Daily puzzle, \d{4}-\d\d-\d\d: (1st|2nd) of 2\.", lines[0]), lines
    assert re.fullmatch(r"Quicker than (0|100)% of the others, fewer mistakes than \d+%, more sets than \d+%\.", lines[1]), lines
    assert "the day's median" in lines[2], lines
    assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth + 1")
    driver.save_screenshot(artifact(f"daily-look-back-{width}x{height}-{theme}.png"))
    driver.find_element(By.ID, "back-to-lobby").click()
    # The lobby's tabs take clicks once the lobby is shown again (a barrier, not a sleep).
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "tab-daily").is_displayed())
    # The game is ranked in the daily puzzle's own list, not with other solo games.
    driver.find_element(By.ID, "tab-scores").click()
    WebDriverWait(driver, 10).until(lambda d: "Daily puzzle" in text_of(d, "scores-caption"))
    assert "Daily puzzle · course scoring" in text_of(driver, "scores-caption")
    # The daily button says the day's attempt is used, before any click, and leads to the results.
    assert "played ✓" in text_of(driver, "play-daily")
    driver.find_element(By.ID, "play-daily").click()
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.ID, "tab-daily").get_attribute("aria-selected") == "true")
    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#daily-results li")) == 2)
    names = [li.find_element(By.CLASS_NAME, "name").text for li in driver.find_elements(By.CSS_SELECTOR, "#daily-results li")]
    assert sorted(names) == ["Kim", "Theo"], names
    mine = driver.find_element(By.CSS_SELECTOR, "#daily-results li.you")
    assert mine.find_element(By.CLASS_NAME, "name").text == "Kim"
    you = text_of(driver, "daily-you")
    assert re.fullmatch(r"You: (1st|2nd) of 2 — \d+ sets · \d+ mistakes? · \d+:\d\d", you), you
    assert text_of(driver, "daily-day").startswith("Today, 20")
    driver.find_element(By.ID, "daily-share").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "daily-you").get_attribute("data-shared"))
    shared = driver.find_element(By.ID, "daily-you").get_attribute("data-shared")
    assert re.fullmatch(r"Matchismo Live daily Set, \d{4}-\d\d-\d\d: \d+ sets · \d+ mistakes? · \d+:\d\d — (1st|2nd) of 2\.", shared), shared
    assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth + 1")
    driver.save_screenshot(artifact(f"daily-board-{width}x{height}-{theme}.png"))

    # One try each: the button led here, and no refusal was said.
    assert not driver.find_element(By.ID, "toast").is_displayed()
    # Yesterday: nobody played here.
    yesterday = driver.find_element(By.ID, "daily-yesterday")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", yesterday)
    yesterday.click()
    WebDriverWait(driver, 10).until(lambda d: "yesterday" in text_of(d, "daily-empty"))
    assert not severe_errors(driver), severe_errors(driver)
