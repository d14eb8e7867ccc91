"""Set's variants in headless Chromium against the real server (issue 21), at 1280×900 in the
light theme and 390×844 in the dark one: the lobby offers Set Junior and UltraSet beside the
other games, each with its rules; a solo game of each deals Set's cards (Junior's all solid),
a hint outlines a card of a match, and clicking an UltraSet's four cards takes it."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_browser_games import severe_errors
from test_browser_rough_edges import SIZES, artifact, board_ids, click_card, open_page, text_of
from test_variants import third_id

CARDS = "#board .card"


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_the_variants_are_offered_and_played(server, browsers, width, height, theme):
    driver = browsers()
    open_page(driver, server.http_url, width, height, theme)
    games = [b.get_attribute("data-game") for b in driver.find_elements(By.CSS_SELECTOR, "#game-picker button")]
    assert games == ["set", "setJunior", "ultraSet", "matchismo", "concentration"], games
    driver.find_element(By.ID, "name").send_keys("Kim")

    driver.find_element(By.CSS_SELECTOR, 'button[data-game="setJunior"]').click()
    assert text_of(driver, "lobby-title") == "Set Junior" and "27 cards" in text_of(driver, "lobby-lede")
    assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth + 1")
    driver.save_screenshot(artifact(f"variants-lobby-{width}x{height}-{theme}.png"))
    driver.find_element(By.ID, "play-solo").click()
    WebDriverWait(driver, 10).until(lambda d: len(board_ids(d)) == 9)
    kinds = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((c) => c.dataset.kind);", CARDS)
    assert set(kinds) == {"set"}, kinds
    driver.find_element(By.ID, "hint").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, f"{CARDS}.hint, {CARDS}[data-flash='hint']")
                                   or "Hint" in text_of(d, "toast"))
    driver.find_element(By.ID, "leave").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "confirm-leave").is_displayed())
    driver.find_element(By.ID, "confirm-leave-yes").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="ultraSet"]').click()
    assert text_of(driver, "lobby-title") == "UltraSet"
    solo = driver.find_element(By.ID, "play-solo")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", solo)
    WebDriverWait(driver, 10).until(lambda d: not d.find_element(By.ID, "toast").is_displayed())
    solo.click()
    WebDriverWait(driver, 10).until(lambda d: len(board_ids(d)) == 12)
    board = board_ids(driver)
    pairs = [(a, b) for i, a in enumerate(board) for b in board[i + 1:]]
    four = next([a, b, c, d] for (a, b) in pairs for (c, d) in pairs
                if len({a, b, c, d}) == 4 and third_id(a, b) == third_id(c, d))
    for card_id in four:
        click_card(driver, card_id)
    WebDriverWait(driver, 10).until(lambda d: text_of(d, "matches") == "1")
    assert "UltraSet" in text_of(driver, "status") or "matched" in text_of(driver, "status")
    driver.save_screenshot(artifact(f"variants-ultraset-{width}x{height}-{theme}.png"))
    assert not severe_errors(driver), severe_errors(driver)
