"""A restart in a real browser: a player's solo Set game in headless Chromium; the server is
stopped with SIGTERM and started again on the same folder and port; the page reconnects by
itself, shows the same cards, score and selection, plays on to the end of the game, and the
game is kept with the score the page showed."""
import itertools
import signal

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_games import text_of
from conftest import RunningServer
from mp_support import run
from table_state import set_from_ids
from test_records import ask

CARDS = "#board .card"


def board_ids(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.getAttribute('data-card-id'));", CARDS)


def selected_ids(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0] + '.selected')].map((e) => e.getAttribute('data-card-id'));",
        CARDS)


# The test plays a whole game three JavaScript clicks per Selenium round trip, faster than the
# default limit of 20 messages a second (bursts of 40) lets anyone play: the server would close
# the page with 1008 and a click would be lost. A person never clicks that fast.
UNHURRIED = ("--rate-limit", "1000")


def test_after_a_restart_the_page_reconnects_and_the_game_goes_on(browsers):
    first = RunningServer(extra_args=UNHURRIED)
    servers = [first]
    try:
        driver = browsers()
        driver.get(first.http_url)
        driver.find_element(By.ID, "name").send_keys("Kim")
        driver.find_element(By.CSS_SELECTOR, 'button[data-game="set"]').click()
        driver.find_element(By.ID, "play-solo").click()
        WebDriverWait(driver, 15).until(lambda d: len(board_ids(d)) >= 12)
        ids = board_ids(driver)
        driver.find_element(By.CSS_SELECTOR, f'{CARDS}[data-card-id="{ids[0]}"]').click()
        WebDriverWait(driver, 5).until(lambda d: selected_ids(d) == [ids[0]])
        score = text_of(driver, "score")

        assert first.signal(signal.SIGTERM) == 0
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") != "online")
        second = RunningServer(extra_args=UNHURRIED, data_dir=first.data_dir, port=first.port)
        servers.append(second)
        # The page comes back by itself (its backoff), to the same table.
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "online")
        WebDriverWait(driver, 10).until(lambda d: board_ids(d) == ids and selected_ids(d) == [ids[0]])
        assert text_of(driver, "score") == score
        # And plays on: un-choosing the card is accepted.
        driver.find_element(By.CSS_SELECTOR, f'{CARDS}[data-card-id="{ids[0]}"]').click()
        WebDriverWait(driver, 5).until(lambda d: selected_ids(d) == [])
        # ...to the end of the game, a set at a time.
        for _ in range(40):
            if driver.find_element(By.ID, "gameover").is_displayed():
                break
            board = [int(i) for i in board_ids(driver)]
            triple = next((t for t in itertools.combinations(board, 3) if set_from_ids(*t)), None)
            if triple is None:
                WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
                break
            for card_id in triple:
                driver.execute_script(
                    "document.querySelector(arguments[0] + '[data-card-id=\"' + arguments[1] + '\"]').click();",
                    CARDS, str(card_id))
            WebDriverWait(driver, 10).until(lambda d: not set(map(str, triple)) & set(board_ids(d))
                                            or d.find_element(By.ID, "gameover").is_displayed())
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
        final = int(text_of(driver, "score"))
        page = run(ask, second.ws_url, {"type": "scores", "game": "set"})
        assert [g["players"][0]["name"] for g in page["games"]] == ["Kim"], page
        assert page["games"][0]["score"] == final, (page, final)
        severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and e.get("source") != "network"]
        assert not severe, severe
    finally:
        for s in servers:
            s.stop()
