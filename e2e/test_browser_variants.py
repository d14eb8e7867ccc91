"""Set's variants in headless Chromium against the real server (issue 21), at 1280×900 in the
light theme and 390×844 in the dark one: the lobby offers Set Junior, UltraSet and Set-Chain
beside the other games, each with its rules; a solo game of each deals Set's cards (Junior's all
solid), a hint outlines a card of a match, and clicking an UltraSet's four cards takes it.
Set-Chain shows its chain beside the board once the first set is taken, its hint outlines a
card of the chain, a second chain card is refused, and a chain set is taken by clicks."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_games import severe_errors
from test_browser_rough_edges import SIZES, artifact, board_ids, click_card, open_page, text_of
from table_state import third_id

CARDS = "#board .card"


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_the_variants_are_offered_and_played(server, browsers, width, height, theme):
    driver = browsers()
    open_page(driver, server.http_url, width, height, theme)
    games = [b.get_attribute("data-game") for b in driver.find_elements(By.CSS_SELECTOR, "#game-picker button")]
    assert games == ["set", "setJunior", "ultraSet", "setChain", "matchismo", "concentration"], games
    driver.find_element(By.ID, "name").send_keys("Kim")

    driver.find_element(By.CSS_SELECTOR, 'button[data-game="setJunior"]').click()
    assert text_of(driver, "lobby-title") == "Set Junior" and "27 cards" in text_of(driver, "lobby-lede")
    assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth + 1")
    driver.save_screenshot(artifact(f"variants-lobby-{width}x{height}-{theme}.png"))
    driver.find_element(By.ID, "play-solo").click()
    WebDriverWait(driver, 10).until(lambda d: len(board_ids(d)) >= 9)
    kinds = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((c) => c.dataset.kind);", CARDS)
    assert set(kinds) == {"set-card"}, kinds
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


CHAIN = "#chain .card"


def chain_ids(driver):
    return [int(i) for i in driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.getAttribute('data-card-id'));", CHAIN)]


def in_view(driver, selector):
    """Whether every element `selector` finds is inside the window."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].every((e) => {"
        " const r = e.getBoundingClientRect();"
        " return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight; });",
        selector)


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_set_chain_shows_its_chain_and_a_chain_set_is_taken_by_clicks(server, browsers, width, height, theme):
    driver = browsers()
    open_page(driver, server.http_url, width, height, theme)
    driver.find_element(By.ID, "name").send_keys("Kim")
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="setChain"]').click()
    assert text_of(driver, "lobby-title") == "Set-Chain"
    assert "one card of the set before" in text_of(driver, "lobby-lede")
    solo = driver.find_element(By.ID, "play-solo")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", solo)
    WebDriverWait(driver, 10).until(lambda d: not d.find_element(By.ID, "toast").is_displayed())
    solo.click()
    # 12 cards, or 15 when the deal held no set.
    WebDriverWait(driver, 10).until(lambda d: len(board_ids(d)) >= 12)
    # The chain's place shows, empty until the first set.
    assert driver.find_element(By.ID, "chain-area").is_displayed()
    assert driver.find_element(By.ID, "chain-empty").is_displayed()
    assert chain_ids(driver) == []

    # The first set: any set of the board.
    board = board_ids(driver)
    first = next([a, b, third_id(a, b)] for i, a in enumerate(board) for b in board[i + 1:]
                 if third_id(a, b) in board and third_id(a, b) != a and third_id(a, b) != b)
    for card_id in first:
        click_card(driver, card_id)
    WebDriverWait(driver, 10).until(lambda d: text_of(d, "matches") == "1" and len(chain_ids(d)) == 3)
    chain = chain_ids(driver)
    assert sorted(chain) == sorted(first)
    assert not set(chain) & set(board_ids(driver))
    assert not driver.find_element(By.ID, "chain-empty").is_displayed()
    assert in_view(driver, CHAIN) and in_view(driver, CARDS + ":first-child")
    assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth + 1")

    # The hint outlines a card of the chain: a chain set starts there.
    driver.find_element(By.ID, "hint").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, f"{CHAIN}.hint"))

    # A second card of the chain is refused, and said so; the first stays chosen.
    board = board_ids(driver)
    anchor, a, b = next([c, x, third_id(c, x)] for c in chain for x in board
                        if third_id(c, x) in board and third_id(c, x) != x)
    other = next(c for c in chain if c != anchor)
    driver.find_element(By.CSS_SELECTOR, f'{CHAIN}[data-card-id="{anchor}"]').click()
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'{CHAIN}.selected[data-card-id="{anchor}"]'))
    driver.find_element(By.CSS_SELECTOR, f'{CHAIN}[data-card-id="{other}"]').click()
    WebDriverWait(driver, 5).until(lambda d: "one card of the chain" in text_of(d, "toast"))
    assert not driver.find_elements(By.CSS_SELECTOR, f'{CHAIN}.selected[data-card-id="{other}"]')

    # The chain set, by clicks: the chain card chosen above and two cards of the board (once the
    # toast, which covers the board's last row on a phone, has gone).
    WebDriverWait(driver, 10).until(lambda d: not d.find_element(By.ID, "toast").is_displayed())
    click_card(driver, a)
    click_card(driver, b)
    WebDriverWait(driver, 10).until(lambda d: text_of(d, "matches") == "2")
    WebDriverWait(driver, 10).until(lambda d: sorted(chain_ids(d)) == sorted([anchor, a, b]))
    assert chain_ids(driver)[0] == anchor
    assert not {anchor, a, b} & set(board_ids(driver))
    assert "matched" in text_of(driver, "status")
    assert in_view(driver, CHAIN)
    driver.save_screenshot(artifact(f"variants-setchain-{width}x{height}-{theme}.png"))
    assert not severe_errors(driver), severe_errors(driver)
