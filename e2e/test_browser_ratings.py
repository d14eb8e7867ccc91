"""Ratings in the web client (issue 21), seen by a person in headless Chromium against the real
server (journal on, the default), at 1280×900 in the light theme and 390×844 in the dark one.
The browser's player (its own player token, made by the page) and Bob (a plain WebSocket client
with a token of his own) play a rated quick match of Set for two; Bob takes every set. Before
it, the lobby's live list shows Bob's rating beside his name and the table shows both
provisional 1500s; at its end the game-over box shows each change (+32 for Bob, −32 for the
browser's player) and the table the new ratings; the high scores show each player's change, and
"Your rating" the browser's rating with the one rated game, whose replay it opens. Nothing
overflows the page at either size."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from mp_support import FAST, start_server  # noqa: F401  (a fixture)
from browser_games import severe_errors
from test_browser_rough_edges import SIZES, Seat, artifact, open_page, text_of

BOB = "ratingsBob000000000000B7"
QUICK = {"type": "quickMatch", "game": "set", "seats": 2}

# Every seat of the scoreboard: its name, the rating beside it and what that rating's title says.
SCOREBOARD = """
return [...document.querySelectorAll('#scoreboard li.seat')].map((li) => {
  const r = li.querySelector('.rating');
  return [li.querySelector('.name').textContent, r.hidden ? '' : r.textContent, r.title];
});"""

# The game-over standings: name, the new rating and the change.
STANDINGS = """
return [...document.querySelectorAll('#standings li')].map((li) => [
  li.querySelector('.name').textContent,
  li.querySelector('.standing-rating .rating')?.textContent ?? '',
  li.querySelector('.standing-rating .rating-change')?.textContent ?? '']);"""

# The high scores' rows: each player's name, rating after the game and change.
SCORE_PLAYERS = """
return [...document.querySelectorAll('#scores-body tr')].map((tr) => ({
  id: tr.dataset.record,
  players: [...tr.querySelectorAll('.player-list li')].map((li) => [
    li.querySelector('.name').textContent,
    li.querySelector('.player-rating .rating')?.textContent ?? '',
    li.querySelector('.player-rating .rating-change')?.textContent ?? ''])}));"""

# "Your rating": its history, newest first.
HISTORY = """
return [...document.querySelectorAll('#my-rating-history li')].map((li) => ({
  id: li.dataset.record, rank: li.querySelector('.rank').textContent,
  rating: li.querySelector('.history-rating').textContent,
  change: li.querySelector('.rating-change').textContent,
  when: li.querySelector('time').getAttribute('datetime')}));"""


def fits(driver, container_id):
    """Nothing sticks out sideways: not the page, not `container_id`, and no element inside it
    reaches past the viewport's right edge."""
    return driver.execute_script("""
      const root = document.documentElement, box = document.getElementById(arguments[0]);
      const inside = [...box.querySelectorAll('*')].filter((e) => e.getClientRects().length > 0)
        .every((e) => e.getBoundingClientRect().right <= innerWidth + 0.5);
      return {page: root.scrollWidth <= innerWidth + 1, box: box.scrollWidth <= box.clientWidth + 1, inside};""",
                                 container_id)


def check_fits(driver, container_id, where):
    shown = fits(driver, container_id)
    assert all(shown.values()), (where, shown)


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_ratings_beside_names_at_the_table_in_the_lobby_and_in_the_high_scores(
        start_server, browsers, width, height, theme):
    # Bob's client takes every set as fast as the answers come.
    server = start_server(*FAST, "--rate-limit", "1000")
    driver = browsers()
    open_page(driver, server.http_url, width, height, theme)
    driver.find_element(By.ID, "name").send_keys("Ada")
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="set"]').click()
    bob = Seat(server.ws_url, BOB, "Bob")
    try:
        opened = bob.request(QUICK)
        assert opened["type"] == "snapshot", opened
        table_id = opened["table"]["id"]

        # The lobby lists Bob's table with his rating beside his name: new, so provisional.
        row = f'#tables-body tr[data-table-id="{table_id}"]'
        wait = WebDriverWait(driver, 10)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"{row} .listing-player .rating"))
        listed = driver.find_element(By.CSS_SELECTOR, f"{row} .listing-player")
        assert listed.find_element(By.CSS_SELECTOR, ".name").text == "Bob"
        rating = listed.find_element(By.CSS_SELECTOR, ".rating")
        assert (rating.text, rating.get_attribute("title")) == ("1500?", "provisional rating")
        assert "provisional rating 1500" in listed.get_attribute("textContent")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", driver.find_element(By.CSS_SELECTOR, row))
        check_fits(driver, "lobby", "the live list")
        driver.save_screenshot(artifact(f"ratings-lobby-{width}x{height}-{theme}.png"))

        # Quick match for two: the browser's player sits at Bob's table; both are new.
        seats = driver.find_element(By.ID, "seats")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", seats)
        Select(seats).select_by_value("2")
        driver.find_element(By.ID, "quick-match").click()
        wait.until(lambda d: d.find_element(By.ID, "table").is_displayed()
                   and [s[1] for s in d.execute_script(SCOREBOARD)] == ["1500?", "1500?"])
        assert driver.execute_script(SCOREBOARD) == [
            ["Bob", "1500?", "provisional rating: no rated games yet"],
            ["Ada", "1500?", "provisional rating: no rated games yet"]]
        WebDriverWait(driver, 15).until(
            lambda d: d.find_element(By.ID, "table").get_attribute("data-phase") == "playing")
        check_fits(driver, "scoreboard", "the scoreboard")

        # Bob takes every set; once the game is written, the new ratings come to the table.
        playing = bob.request({"type": "resync"})["table"]
        assert playing["id"] == table_id and playing["phase"] == "playing", playing
        bob.take_every_set(playing)
        WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "gameover").is_displayed()
                                        and len(d.find_elements(By.CSS_SELECTOR, "#standings .standing-rating")) == 2)
        assert driver.execute_script(STANDINGS) == [["Bob", "1532?", "+32"], ["Ada", "1468?", "−32"]]
        up, down = (driver.find_element(By.CSS_SELECTOR, f"#standings .rating-change.{d}") for d in ("up", "down"))
        assert (up.text, down.text) == ("+32", "−32")
        assert driver.execute_script(SCOREBOARD) == [
            ["Bob", "1532?", "provisional rating: 1 rated game"],
            ["Ada", "1468?", "provisional rating: 1 rated game"]]
        # (The points of the last sets rise and go: the screenshot waits for them.)
        WebDriverWait(driver, 10).until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".points-pop"))
        check_fits(driver, "gameover", "the game-over box")
        check_fits(driver, "table", "the table")
        driver.save_screenshot(artifact(f"ratings-gameover-{width}x{height}-{theme}.png"))
    finally:
        bob.close()

    # The high scores: the game, each player's rating after it and its change.
    driver.find_element(By.ID, "back-to-lobby").click()
    wait.until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    driver.find_element(By.ID, "tab-scores").click()
    wait.until(lambda d: d.execute_script(SCORE_PLAYERS))
    [game] = driver.execute_script(SCORE_PLAYERS)
    assert game["players"] == [["Bob", "1532?", "+32"], ["Ada", "1468?", "−32"]], game

    # "Your rating": the browser's player's rating, and the one rated game.
    wait.until(lambda d: text_of(d, "my-rating-now") != "")
    assert text_of(driver, "my-rating-title") == "Your Set rating"
    assert text_of(driver, "my-rating-now") == "1468? · provisional, 1 rated game"
    assert driver.find_element(By.ID, "my-rating-now").get_attribute("title") == "provisional rating: 1 rated game"
    driver.find_element(By.CSS_SELECTOR, "#my-rating summary").click()
    wait.until(lambda d: d.find_element(By.ID, "my-rating-history").is_displayed())
    [entry] = driver.execute_script(HISTORY)
    assert (entry["id"], entry["rank"], entry["rating"], entry["change"]) == (game["id"], "2nd place", "1468?", "−32"), entry
    assert entry["when"].startswith("20"), entry
    assert "solo and private games do not" in text_of(driver, "my-rating-note")
    driver.execute_script("document.getElementById('my-rating').scrollIntoView()")
    check_fits(driver, "scores-panel", "the high scores")
    check_fits(driver, "lobby", "the lobby")
    driver.save_screenshot(artifact(f"ratings-scores-{width}x{height}-{theme}.png"))

    # Its Replay opens the game's replay, as a row of the high scores does.
    driver.find_element(By.CSS_SELECTOR, "#my-rating-history button.replay").click()
    wait.until(lambda d: d.find_element(By.ID, "replay").is_displayed())
    assert driver.execute_script("return location.hash") == f"#/replay/{game['id']}"
    # The replay says what the game did to both ratings (the browser's player lost every set).
    wait.until(lambda d: d.find_element(By.ID, "replay-ratings").is_displayed())
    rated = driver.find_element(By.ID, "replay-ratings").text
    assert rated.startswith("Rated: ") and "1532? (+32)" in rated and "1468? (−32)" in rated, rated
    check_fits(driver, "replay", "the replay")
    driver.find_element(By.ID, "replay-back").click()
    wait.until(lambda d: d.find_element(By.ID, "scores-panel").is_displayed())
    assert not severe_errors(driver), severe_errors(driver)
