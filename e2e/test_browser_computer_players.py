"""Playing against the computer in headless Chromium against the real server (issue 33), at
1280×900 in the light theme and 390×844 in the dark one: the lobby offers it for the games the
server says computers play (its levels in the game's words, face up or face down); two expert
computers and the page's player sit at a new table, the computers marked in the scoreboard; the
computers take sets by the table's clock (a server with `--bot-pace`, so that a whole game takes
seconds), the page's player takes one too, and the game ends with everyone in the standings.
Nothing overflows the page at either size, and the page logs no error."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from mp_support import FAST, start_server  # noqa: F401  (a fixture)
from browser_games import claim_a_set, severe_errors
from test_browser_ratings import check_fits
from test_browser_rough_edges import SIZES, artifact, open_page, text_of

# Each scoreboard row: its name, whether its computer badge shows, and what that badge says.
SCOREBOARD = """
return [...document.querySelectorAll('#scoreboard li.seat')].map((li) => {
  const badge = li.querySelector('.bot-badge');
  return [li.querySelector('.name').textContent, !badge.hidden, badge.getAttribute('aria-label') ?? '',
          li.querySelector('.sets').textContent];
});"""

STANDINGS = "return [...document.querySelectorAll('#standings li .name')].map((e) => e.textContent);"


def pick(driver, game):
    driver.find_element(By.CSS_SELECTOR, f'button[data-game="{game}"]').click()


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_two_computers_and_a_person_play_a_game_to_its_end(start_server, browsers, width, height, theme):
    # Expert computers take a set 2.5 s (median) after one shows; at a pace of 0.1, in 0.25 s.
    server = start_server(*FAST, "--bot-pace", "0.1")
    driver = browsers()
    open_page(driver, server.http_url, width, height, theme)
    driver.find_element(By.ID, "name").send_keys("Kim")

    # Face down, a level is how fast a computer turns cards and how soon it forgets them.
    pick(driver, "matchismo")
    assert driver.find_element(By.ID, "play-bot").is_enabled()
    levels = [o.text for o in Select(driver.find_element(By.ID, "bot-level")).options]
    assert levels[3] == "Expert: turns a card in about 0.6 s, forgets nothing", levels
    # Face up, how fast it takes a match: UltraSet's levels speak of UltraSets.
    pick(driver, "ultraSet")
    assert driver.find_element(By.ID, "play-bot").is_enabled()
    assert not driver.find_element(By.ID, "bot-note").is_displayed()
    levels = [o.text for o in Select(driver.find_element(By.ID, "bot-level")).options]
    assert levels[0] == "Beginner: an UltraSet in about 20 s, one claim in 5 wrong", levels
    assert len(levels) == 4 and levels[3].startswith("Expert: an UltraSet in about 2.5 s")

    pick(driver, "set")
    Select(driver.find_element(By.ID, "bot-level")).select_by_value("expert")
    Select(driver.find_element(By.ID, "bot-count")).select_by_value("2")
    check_fits(driver, "lobby", "the lobby")
    driver.find_element(By.ID, "play-bot").click()

    WebDriverWait(driver, 10).until(lambda d: len(d.execute_script(SCOREBOARD)) == 3)
    rows = driver.execute_script(SCOREBOARD)
    assert [row[:3] for row in rows] == [
        ["Computer 1 (expert)", True, "computer player, expert"],
        ["Computer 2 (expert)", True, "computer player, expert"],
        ["Kim", False, ""],
    ], rows
    check_fits(driver, "scoreboard", "the scoreboard")

    # The computers play by the clock: sets go to them with nobody at the page clicking.
    WebDriverWait(driver, 20).until(
        lambda d: any(row[1] and row[3] != "0 sets" for row in d.execute_script(SCOREBOARD)))
    # The page's player takes sets too, racing them, until the game ends.
    for _ in range(40):
        if driver.find_element(By.ID, "gameover").is_displayed():
            break
        claim_a_set(driver, [driver])
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
    standings = driver.execute_script(STANDINGS)
    assert sorted(standings) == ["Computer 1 (expert)", "Computer 2 (expert)", "Kim"], standings
    driver.save_screenshot(artifact(f"computer-players-{width}.png"))
    check_fits(driver, "gameover", "the game-over box")
    assert not severe_errors(driver), severe_errors(driver)


# Makes the page's quick matches offer a computer after 1 s alone (the table setting
# `offerComputer`; the page sends none, and gets the 20 s default).
SOON = """
(() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const message = JSON.parse(data);
    if (message.type === 'quickMatch') data = JSON.stringify({ ...message, offerComputer: 1 });
    return send.call(this, data);
  };
})();"""


def test_a_player_waiting_alone_is_offered_a_computer_and_plays_it(start_server, browsers):
    server = start_server(*FAST, "--bot-pace", "0.1")
    driver = browsers()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SOON})
    open_page(driver, server.http_url, 1280, 900, "light")
    driver.find_element(By.ID, "name").send_keys("Kim")
    pick(driver, "set")
    Select(driver.find_element(By.ID, "seats")).select_by_value("2")
    driver.find_element(By.ID, "quick-match").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "waiting").is_displayed())
    # After its time alone, the host is offered a computer, with the levels in the game's words.
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "computer-offer").is_displayed())
    levels = [o.text for o in Select(driver.find_element(By.ID, "offer-level")).options]
    assert len(levels) == 4 and levels[1].startswith("Casual: a set in about 10 s"), levels
    # It fits a phone's width too.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    check_fits(driver, "table", "the offer at a phone's width")
    driver.save_screenshot(artifact("computer-offer-390.png"))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    Select(driver.find_element(By.ID, "offer-level")).select_by_value("expert")
    driver.find_element(By.ID, "add-computer").click()
    # The computer fills the table for two: it starts, and the offer is gone.
    WebDriverWait(driver, 10).until(lambda d: len(d.execute_script(SCOREBOARD)) == 2)
    assert [row[:3] for row in driver.execute_script(SCOREBOARD)] == [
        ["Kim", False, ""], ["Computer 2 (expert)", True, "computer player, expert"]]
    assert not driver.find_element(By.ID, "computer-offer").is_displayed()
    WebDriverWait(driver, 20).until(
        lambda d: any(row[1] and row[3] != "0 sets" for row in d.execute_script(SCOREBOARD)))
    assert not severe_errors(driver), severe_errors(driver)
