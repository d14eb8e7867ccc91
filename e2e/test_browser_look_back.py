"""The look back at a finished game (issue 21), seen by a person in headless Chromium against
the real server, at 1280×900 in the light theme and 390×844 in the dark one: a solo Set game
played to its end by clicking sets; the game-over box's "Look back" shows each player's sets,
fastest and mean, the sets that were on the board and nobody took, and every set in order with
how long it had been there; the replay of the same game, from the high scores, shows it too,
and what was said at the table (as text) up to the step shown.

Issue 34, point 7: every set in the look back shows its cards, drawn small and named in words
(the cards taken, as the board named them), and the sets left untaken that stood longest show
theirs, longest first, with the rest counted; in the game-over box the last row of the list
never runs under the Play again / Back buttons and can be scrolled into view."""
import itertools
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from table_state import set_from_ids
from browser_games import play_concentration_to_the_end, play_solo, severe_errors
from test_browser_rough_edges import SIZES, artifact, board_ids, click_card, open_page, text_of

CARDS = "#board .card"
SET_LABEL = re.compile(r"^(one|two|three) (solid|striped|open) (red|green|purple) (diamond|squiggle|oval)s?$")


def board_labels(driver):
    return dict(driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => "
        "[Number(e.getAttribute('data-card-id')), e.getAttribute('aria-label')]);", CARDS))


def play_set_to_the_end(driver, taken_sets=None):
    """Clicks the first set of the board (in board order) until the game is over; returns how
    many sets were taken. `taken_sets`, a list, gets each set taken: {card id: its name on the
    board}."""
    taken = 0
    for _ in range(40):
        if driver.find_element(By.ID, "gameover").is_displayed():
            return taken
        board = board_ids(driver)
        triple = next((t for t in itertools.combinations(board, 3) if set_from_ids(*t)), None)
        assert triple is not None, f"no set on a board of a game that is not over: {board}"
        if taken_sets is not None:
            labels = board_labels(driver)
            taken_sets.append({card_id: labels[card_id] for card_id in triple})
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


def drawn_cards(driver, details_id, rows):
    """The cards drawn in each row of `rows` (a list's CSS under the <details>): [[(id, role,
    name in words)]]."""
    return [[(int(c[0]), c[1], c[2]) for c in row] for row in driver.execute_script("""
      return [...document.querySelectorAll('#' + arguments[0] + ' ' + arguments[1])].map((li) =>
        [...li.querySelectorAll('.card-picture')].map((c) =>
          [c.getAttribute('data-card-id'), c.getAttribute('role'), c.getAttribute('aria-label')]));""",
        details_id, rows)]


def check_cards_shown(driver, details_id, taken_sets):
    """Every set taken shows its cards, in words as the board named them; the sets left untaken
    that stood longest show theirs (sets, longest first), and the rest are counted."""
    found = drawn_cards(driver, details_id, ".look-back-found li")
    assert len(found) == len(taken_sets), (found, taken_sets)
    for row, taken in zip(found, taken_sets):
        assert len(row) == 3, row
        assert all(role == "img" and SET_LABEL.match(name) for _, role, name in row), row
        assert {card_id: name for card_id, _, name in row} == taken, (row, taken)
    missed = drawn_cards(driver, details_id, ".look-back-missed-list li")
    said, rest = driver.execute_script(
        "const d = document.getElementById(arguments[0]);"
        "return [d.querySelector('.look-back-missed').textContent,"
        " d.querySelector('.look-back-missed-rest')?.textContent ?? null];", details_id)
    counted = int(re.match(r"\d+", said).group()) if re.match(r"\d+", said) else 0
    assert len(missed) == min(5, counted), (missed, counted)
    for row in missed:
        assert len(row) == 3 and set_from_ids(*(card_id for card_id, _, _ in row)), row
        assert all(role == "img" and SET_LABEL.match(name) for _, role, name in row), row
    seconds = [float(t.split()[0]) for t in driver.execute_script(
        "return [...document.querySelectorAll('#' + arguments[0] + ' .look-back-missed-list .seconds')]"
        ".map((e) => e.textContent);", details_id)]
    assert seconds == sorted(seconds, reverse=True), seconds
    if counted > 5:
        assert rest.startswith(f"And {counted - 5} more sets"), rest
    else:
        assert rest is None, rest
    return found


def last_row_clear_of_the_buttons(driver):
    """The game-over box's last row of the look back list, scrolled into view: where it is, and
    whether it is seen (the topmost element at its middle is in it) and clear of the buttons."""
    return driver.execute_script("""
      const rows = document.querySelectorAll('#look-back .look-back-found li');
      const last = rows[rows.length - 1];
      last.scrollIntoView({block: 'nearest'});
      const r = last.getBoundingClientRect();
      const clear = ['play-again', 'back-to-lobby'].map((id) => document.getElementById(id))
        .filter((b) => !b.hidden).every((b) => {
          const o = b.getBoundingClientRect();
          return r.bottom <= o.top || o.bottom <= r.top || r.right <= o.left || o.right <= r.left;
        });
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const box = last.closest('.look-back').getBoundingClientRect();
      const whole = r.top >= Math.max(0, box.top) - 1 && r.bottom <= Math.min(innerHeight, box.bottom) + 1;
      return {clear, seen: last.contains(hit) && whole,
              row: [r.top, r.bottom], box: document.getElementById('gameover').getBoundingClientRect().bottom};""")


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
    taken_sets = []
    taken = play_set_to_the_end(driver, taken_sets)
    shown = look_back_of(driver, "look-back")
    assert shown["players"] and shown["players"][0][0] == "Kim", shown
    assert shown["players"][0][1] == f"{taken} sets", shown
    assert all(cell.endswith(" s") for cell in shown["players"][0][2:]), shown
    assert len(shown["found"]) == taken and shown["found"][0].startswith("0:"), shown
    # Always the first set in board order: others on the board were passed over.
    assert "on the board and left untaken" in shown["missed"], shown
    assert "on the board when it was taken" in shown["note"]
    assert shown["right"] <= width + 0.5
    cards = check_cards_shown(driver, "look-back", taken_sets)
    # The last row is not under the buttons, and is seen once scrolled to.
    WebDriverWait(driver, 5).until(lambda d: (lambda r: r["clear"] and r["seen"])(last_row_clear_of_the_buttons(d)),
                                   message=str(last_row_clear_of_the_buttons(driver)))
    assert driver.find_element(By.ID, "play-again").is_displayed()
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
    assert check_cards_shown(driver, "replay-look-back", taken_sets) == cards
    # What was said, up to the step shown: the line at the last move.
    driver.find_element(By.ID, "replay-last").click()
    WebDriverWait(driver, 10).until(lambda d: "here goes <i>nothing</i>" in text_of(d, "replay-chat-lines"))
    assert not driver.find_elements(By.CSS_SELECTOR, "#replay-chat-lines i")
    driver.save_screenshot(artifact(f"look-back-replay-{width}x{height}-{theme}.png"))
    assert text_of(driver, "replay-title") != ""
    assert not severe_errors(driver), severe_errors(driver)


def test_a_face_down_game_s_look_back_draws_the_cards_turned_up(server, browsers):
    """Concentration: the look back's cards (ids in the full deck, told once the game is over)
    are the faces the board turned up, pair by pair."""
    driver = browsers()
    open_page(driver, server.http_url, *SIZES[0])
    play_solo(driver, server.http_url, "concentration", {"boardSize": 8, "theme": 3}, cards=8)
    seen = {}
    play_concentration_to_the_end(driver, seen, slots=8)
    look_back_of(driver, "look-back")
    found = drawn_cards(driver, "look-back", ".look-back-found li")
    assert len(found) == 4, found
    assert all(len(row) == 2 and row[0][2] == row[1][2] and row[0][0] != row[1][0] for row in found), found
    assert all(role == "img" for row in found for _, role, _ in row), found
    assert sorted(name for row in found for _, _, name in row) == sorted(seen.values()), (found, seen)
    assert not severe_errors(driver), severe_errors(driver)
