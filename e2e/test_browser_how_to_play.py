"""Issue 34, point 11, in headless Chromium against the real server, at 1280×900 in the light
theme and 390×844 in the dark one: "How to play" each game, from the lobby (the game picked)
and from the table (its game) — a labelled dialog, reached by the keyboard, with an example
match drawn with real cards named in words, what scores, the race and the end; Escape closes
it and the focus goes back to its button, and while it is open a key does not choose a card
behind it. And practice: the settings' switch shows how many sets are on the board at a solo
table, counted by the server (`countMatches`) for every new board."""
import itertools
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from table_state import set_from_ids
from browser_games import play_solo, severe_errors
from test_browser_rough_edges import SIZES, artifact, board_ids, click_card, open_page, selected_ids, text_of

CARDS = "#board .card"
# Each game's title and the cards of a match (the server's descriptions).
GAMES = {"set": ("Set", 3), "setJunior": ("Set Junior", 3), "ultraSet": ("UltraSet", 4),
         "setChain": ("Set-Chain", 3), "matchismo": ("Matchismo", 2), "concentration": ("Concentration", 2)}
WORDS = re.compile(r"^[a-z][a-z ]+$")


def dialog_shown(driver):
    """What the open dialog shows, read at once: its title, the example's cards, its headings,
    whether it lies within the window, and what has the keyboard."""
    return driver.execute_script("""
      const d = document.getElementById('how-to');
      const r = d.getBoundingClientRect();
      return {open: d.open, title: document.getElementById('how-to-title').textContent,
        labelledBy: d.getAttribute('aria-labelledby'),
        cards: [...d.querySelectorAll('.how-to-cards .card-picture')].map((c) =>
          [Number(c.getAttribute('data-card-id')), c.getAttribute('role'), c.getAttribute('aria-label'), c.tabIndex]),
        caption: d.querySelector('figcaption')?.textContent ?? '',
        headings: [...d.querySelectorAll('h3')].map((h) => h.textContent),
        text: d.textContent,
        inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5,
        focused: document.activeElement?.id ?? ''};""")


def closed_with_escape(driver, opener):
    """Escape closes the dialog, and the focus is back on the button that opened it."""
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    WebDriverWait(driver, 5).until(lambda d: not d.execute_script("return document.getElementById('how-to').open"))
    WebDriverWait(driver, 5).until(lambda d: d.execute_script("return document.activeElement?.id") == opener)


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_how_to_play_each_game_from_the_lobby_and_the_table(server, browsers, width, height, theme):
    driver = browsers()
    open_page(driver, server.http_url, width, height, theme)
    for game, (title, size) in GAMES.items():
        driver.find_element(By.CSS_SELECTOR, f'button[data-game="{game}"]').click()
        # By the keyboard: the button takes the focus, Enter opens the dialog.
        button = driver.find_element(By.ID, "how-to-lobby")
        driver.execute_script("arguments[0].focus()", button)
        button.send_keys(Keys.ENTER)
        WebDriverWait(driver, 5).until(lambda d: dialog_shown(d)["open"])
        shown = dialog_shown(driver)
        assert shown["title"] == f"How to play {title}" and shown["labelledBy"] == "how-to-title", shown
        assert len(shown["cards"]) == size, shown["cards"]
        for _, role, name, tab in shown["cards"]:
            assert role == "img" and WORDS.match(name) and tab == -1, shown["cards"]
            assert name in shown["caption"].lower(), (name, shown["caption"])
        if game in ("set", "setChain"):
            assert set_from_ids(*(card_id for card_id, *_ in shown["cards"])), shown["cards"]
        assert shown["headings"][0] == "What scores" and shown["headings"][-1] == "The end", shown["headings"]
        assert ("Turns" if game == "concentration" else "The race") in shown["headings"], shown["headings"]
        assert shown["inside"], f"{game}: the dialog runs out of the window"
        if game == "set":
            assert "Course (a choice costs 1, a miss 2)" in shown["text"] and "whoever completes a set first" in shown["text"]
            driver.save_screenshot(artifact(f"how-to-play-lobby-{width}x{height}-{theme}.png"))
        closed_with_escape(driver, "how-to-lobby")

    # At the table: its game, whatever the lobby picked last.
    play_solo(driver, server.http_url, "set", {"scoring": "classic"}, cards=12)
    driver.find_element(By.ID, "how-to-table").click()
    WebDriverWait(driver, 5).until(lambda d: dialog_shown(d)["open"])
    shown = dialog_shown(driver)
    assert shown["title"] == "How to play Set" and len(shown["cards"]) == 3, shown
    assert shown["inside"] and shown["focused"] == "how-to-close", shown
    # A card's key pressed in the dialog is the dialog's: nothing is chosen behind it.
    driver.switch_to.active_element.send_keys("1")
    assert not driver.find_elements(By.CSS_SELECTOR, f"{CARDS}.pending, {CARDS}.selected")
    assert dialog_shown(driver)["open"]
    driver.save_screenshot(artifact(f"how-to-play-table-{width}x{height}-{theme}.png"))
    closed_with_escape(driver, "how-to-table")
    # Closed, the same key chooses the first card.
    driver.switch_to.active_element.send_keys("1")
    WebDriverWait(driver, 5).until(lambda d: len(selected_ids(d)) == 1)
    # The Close button closes it too.
    driver.find_element(By.ID, "how-to-table").click()
    WebDriverWait(driver, 5).until(lambda d: dialog_shown(d)["open"])
    driver.find_element(By.ID, "how-to-close").click()
    WebDriverWait(driver, 5).until(lambda d: d.execute_script("return document.activeElement?.id") == "how-to-table")
    assert not severe_errors(driver), severe_errors(driver)


def sets_on(board):
    return sum(1 for t in itertools.combinations(board, 3) if set_from_ids(*t))


def count_shown(driver):
    """The practice count as shown: (text, dimmed while a newer count is on its way), or None."""
    return driver.execute_script("""
      const p = document.getElementById('practice-count');
      return p.hidden ? null : [p.textContent, p.classList.contains('stale')];""")


def set_practice(driver, on, words="sets"):
    driver.find_element(By.ID, "settings-button").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "settings").is_displayed())
    assert text_of(driver, "practice-label") == f"Practice: show how many {words} are on the board"
    box = driver.find_element(By.ID, "practice")
    if box.is_selected() != on:
        box.click()
    driver.find_element(By.ID, "settings-close").click()
    WebDriverWait(driver, 5).until(lambda d: not d.find_element(By.ID, "settings").is_displayed())


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_practice_shows_how_many_sets_are_on_the_board(server, browsers, width, height, theme):
    """Needs the server's `countMatches` (answered `matchCount`)."""
    driver = browsers()
    open_page(driver, server.http_url, width, height, theme)
    # The switch speaks the words of the game at hand.
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="matchismo"]').click()
    set_practice(driver, False, "matches")
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="set"]').click()
    set_practice(driver, True)
    play_solo(driver, server.http_url, "set", {"scoring": "classic"}, cards=12)

    def right_count(d):
        shown = count_shown(d)
        return shown is not None and shown == [f"{sets_on(board_ids(d))} sets on the board".replace("1 sets", "1 set"), False]

    WebDriverWait(driver, 10).until(right_count, message=str(count_shown(driver)))
    first = board_ids(driver)
    # Take a set: the new board is counted.
    triple = next(t for t in itertools.combinations(first, 3) if set_from_ids(*t))
    for card_id in triple:
        click_card(driver, card_id)
    WebDriverWait(driver, 10).until(lambda d: not set(triple) & set(board_ids(d)))
    WebDriverWait(driver, 10).until(right_count, message=str(count_shown(driver)))
    assert driver.find_element(By.ID, "practice-count").is_displayed()
    driver.save_screenshot(artifact(f"practice-count-{width}x{height}-{theme}.png"))
    # Off: gone.
    set_practice(driver, False)
    WebDriverWait(driver, 5).until(lambda d: count_shown(d) is None)
    assert not severe_errors(driver), severe_errors(driver)
