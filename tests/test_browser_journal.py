"""A restart in a real browser: a player's solo Set game in headless Chromium; the server is
stopped with SIGTERM and started again on the same folder and port; the page reconnects by
itself, shows the same cards, score and selection, and plays on."""
import signal

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import RunningServer

CARDS = "#board .card"


def board_ids(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.getAttribute('data-card-id'));", CARDS)


def selected_ids(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0] + '.selected')].map((e) => e.getAttribute('data-card-id'));",
        CARDS)


def text_of(driver, element_id):
    return driver.find_element(By.ID, element_id).get_attribute("textContent").strip()


def test_after_a_restart_the_page_reconnects_and_the_game_goes_on(browsers):
    first = RunningServer()
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
        second = RunningServer(data_dir=first.data_dir, port=first.port)
        servers.append(second)
        # The page comes back by itself (its backoff), to the same table.
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "online")
        WebDriverWait(driver, 10).until(lambda d: board_ids(d) == ids and selected_ids(d) == [ids[0]])
        assert text_of(driver, "score") == score
        # And plays on: un-choosing the card is accepted.
        driver.find_element(By.CSS_SELECTOR, f'{CARDS}[data-card-id="{ids[0]}"]').click()
        WebDriverWait(driver, 5).until(lambda d: selected_ids(d) == [])
        severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and e.get("source") != "network"]
        assert not severe, severe
    finally:
        for s in servers:
            s.stop()
