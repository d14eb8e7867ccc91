"""Arenas in headless Chromium against the real server (issue 33, part 2): Kim (1280×900, light)
creates a private arena in the lobby's Arenas tab, Lee (390×844, dark) joins it with its code;
the arena pairs them at once and their pages show the arena bar; Kim wins the sprint (five
sets), both pages say the next game is coming and are seated at it, where Lee wins; the
standings show both games. Max watches the featured game from the arena's row and follows it to
the next one. Nothing overflows either page, and no page logs an error."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from mp_support import FAST, start_server  # noqa: F401  (a fixture)
from browser_games import claim_a_set, severe_errors
from test_browser_ratings import check_fits
from test_browser_rough_edges import artifact, open_page, text_of

def in_game(driver):
    """Whether the page shows an arena game being played."""
    return (driver.find_element(By.ID, "arena-bar").is_displayed()
            and not driver.find_element(By.ID, "gameover").is_displayed()
            and driver.execute_script("return document.querySelectorAll('#board .card').length") > 0)


def win_sprint(winner, loser):
    """`winner` takes five sets; both pages then show the game over and the next one coming."""
    for _ in range(5):
        assert claim_a_set(winner, [winner, loser]) is not None
    for page in (winner, loser):
        WebDriverWait(page, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())


# Records every text the page's "next game" line shows (it is shown, then hidden once the next
# game begins).
NEXT_LINES = """
window.__next = [];
const line = document.getElementById('arena-next');
new MutationObserver(() => {
  if (!line.hidden && line.textContent) window.__next.push(line.textContent);
}).observe(line, {attributes: true, childList: true, characterData: true, subtree: true});"""


def click(driver, selector):
    """Clicks the first element `selector` finds as it is now (the list is redrawn when an
    answer comes)."""
    driver.execute_script("document.querySelector(arguments[0]).click();", selector)


def open_arenas(driver, name):
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "tab-arenas").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "arenas-panel").is_displayed())


def test_two_players_play_two_arena_games_and_a_spectator_follows_the_featured_one(
        start_server, browsers):
    server = start_server(*FAST, "--arena-schedule", "off")
    kim, lee, max_ = browsers(), browsers(), browsers()
    open_page(kim, server.http_url, 1280, 900, "light")
    open_page(lee, server.http_url, 390, 844, "dark")
    open_page(max_, server.http_url, 1280, 900, "light")

    open_arenas(kim, "Kim")
    Select(kim.find_element(By.ID, "arena-game")).select_by_value("set")
    Select(kim.find_element(By.ID, "arena-starts-in")).select_by_index(0)
    kim.find_element(By.ID, "create-arena").click()
    WebDriverWait(kim, 10).until(lambda d: d.find_element(By.ID, "arena-dialog").is_displayed())
    code = text_of(kim, "arena-code-shown")
    assert len(code) == 10, code
    check_fits(kim, "arena-dialog", "the arena dialog")
    kim.find_element(By.ID, "arena-close").click()

    open_arenas(lee, "Lee")
    lee.find_element(By.ID, "arena-code").send_keys(code)
    check_fits(lee, "arenas-panel", "the Arenas tab on a phone")
    lee.find_element(By.ID, "join-arena-code").click()
    # Paired at once: both pages are at the arena's first game, the arena bar above the board.
    for page in (kim, lee):
        WebDriverWait(page, 15).until(in_game)
        assert "first to 5 sets" in text_of(page, "arena-bar-text"), text_of(page, "arena-bar-text")
    check_fits(lee, "arena-bar", "the arena bar on a phone")
    lee.save_screenshot(artifact("arena-game-390.png"))

    # Max joins with the code and leaves again at once, to watch: the arena's row offers the
    # top game, and his page shows it as a spectator.
    open_arenas(max_, "Max")
    max_.find_element(By.ID, "arena-code").send_keys(code)
    max_.find_element(By.ID, "join-arena-code").click()
    WebDriverWait(max_, 10).until(lambda d: d.find_element(By.ID, "arena-dialog").is_displayed())
    max_.find_element(By.ID, "arena-close").click()
    row = 'li.arena-row[data-arena] .arena-leave'
    WebDriverWait(max_, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, row))
    click(max_, row)
    featured = 'li.arena-row[data-arena] .arena-featured'
    WebDriverWait(max_, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, featured))
    click(max_, featured)
    WebDriverWait(max_, 10).until(
        lambda d: d.execute_script("return document.querySelectorAll('#board .card').length") > 0)

    watched = max_.execute_script("return location.hash")
    # Kim wins the first sprint; both pages say a next game is coming, then play it. What the
    # line says is recorded as it changes: on a busy machine the next game may have begun (and
    # the line gone) by the time a check after the sprint looks.
    kim.execute_script(NEXT_LINES)
    win_sprint(kim, lee)
    WebDriverWait(kim, 10).until(
        lambda d: any("Next game" in line for line in d.execute_script("return window.__next")))
    for page in (kim, lee):
        WebDriverWait(page, 15).until(in_game)
    # The spectator followed the leader to the new game.
    WebDriverWait(max_, 15).until(lambda d: d.execute_script("return location.hash") != watched
                                  and not d.find_element(By.ID, "gameover").is_displayed())
    assert max_.execute_script("return location.hash") == kim.execute_script("return location.hash")
    win_sprint(lee, kim)
    # A third game starts within the pairing wait, and a game that starts closes the dialog: the
    # standings are opened once it has (opened before it, they closed again on a busy machine).
    for page in (kim, lee):
        WebDriverWait(page, 15).until(in_game)

    # The standings: one game won each.
    kim.find_element(By.ID, "arena-bar-standings").click()
    WebDriverWait(kim, 10).until(lambda d: d.find_element(By.ID, "arena-dialog").is_displayed())
    WebDriverWait(kim, 10).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#arena-standings-body tr")) == 3)
    rows = kim.execute_script(
        "return [...document.querySelectorAll('#arena-standings-body tr')].map((tr) =>"
        " [tr.dataset.name, tr.querySelector('.points').textContent.trim(),"
        "  tr.querySelector('.played').textContent.trim()]);")
    assert sorted(rows) == [["Kim", "2", "2"], ["Lee", "2", "2"], ["Max", "0", "0"]], rows
    kim.save_screenshot(artifact("arena-standings-1280.png"))
    check_fits(kim, "arena-dialog", "the standings")
    for page in (kim, lee, max_):
        assert not severe_errors(page), severe_errors(page)
