"""Solo Matchismo and Concentration in headless Chromium against the real server: face-down boards,
flips, the styled status line and the feedback drawn on the board, turns and flips, a whole game
to the end."""
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_games import (CARDS, RANKS, SUITS, card, flip, kind, play_concentration_to_the_end, play_solo,
                           severe_errors, status_cards, text_of)


# Records the feedback drawn on the board: the points that pop up and the classes cards get.
WATCH_FEEDBACK = """
window.feedback = {pops: [], classes: []};
new MutationObserver((records) => {
  for (const r of records) {
    for (const n of r.addedNodes) if (n.classList?.contains('points-pop')) window.feedback.pops.push(n.textContent);
    if (r.type === 'attributes' && r.target.classList?.contains('card')) window.feedback.classes.push(...r.target.classList);
  }
}).observe(document.getElementById('board-area'), {childList: true, subtree: true, attributes: true, attributeFilter: ['class']});
"""


def test_solo_matchismo_turns_cards_up_and_the_status_line_draws_them(server, browsers):
    driver = browsers()
    play_solo(driver, server.http_url, "matchismo", cards=24)
    assert {kind(driver, s) for s in range(24)} == {"down"}
    assert text_of(driver, "table-settings-text") == "2-card matches · 24 cards · a choice costs 1"

    card(driver, 0).click()
    WebDriverWait(driver, 5).until(lambda d: kind(d, 0) == "playing")
    first = card(driver, 0).get_attribute("aria-label")  # "ten of diamonds"
    rank, suit = RANKS[first.split()[0]], SUITS[first.split()[-1]]
    # The face is a drawn playing card: its corner index shows the rank, in the suit's colour
    # (suits are drawn as paths, not glyphs).
    face = card(driver, 0).find_element(By.CSS_SELECTOR, "svg.card-face")
    corner = face.find_element(By.CSS_SELECTOR, "g.corner text")
    assert corner.get_attribute("textContent") == rank
    red = suit in "♥♦"
    assert corner.get_attribute("fill").lower() == ("#c8102e" if red else "#1b1b1f")
    assert len(face.find_elements(By.CSS_SELECTOR, "g.corner path")) >= 1, "the corner draws its suit"
    # The status line draws the card (rank + suit, red or black), not just its text.
    WebDriverWait(driver, 5).until(lambda d: status_cards(d, ".run-playing"))
    assert status_cards(driver, ".run-playing") == [(rank, suit, first)]
    colour = driver.find_element(By.CSS_SELECTOR, "#status .run-playing").value_of_css_property("color")
    assert ("198, 40, 40" in colour) == red, colour

    driver.execute_script(WATCH_FEEDBACK)
    card(driver, 1).click()
    WebDriverWait(driver, 5).until(lambda d: len(status_cards(d, ".run-playing")) == 2)
    second = card(driver, 1).get_attribute("aria-label").replace(", matched", "")
    assert [c[2] for c in status_cards(driver, ".run-playing")] == [first, second]
    status = text_of(driver, "status")
    if "matched" in status:
        # Matched cards stay on the board, face up and dimmed, and cannot be chosen again.
        for slot in (0, 1):
            assert "matched" in card(driver, slot).get_attribute("class")
            assert card(driver, slot).get_attribute("aria-disabled") == "true"
        assert float(card(driver, 0).value_of_css_property("opacity")) < 0.6
        # The match flashed and showed its points at the cards.
        points = re.search(r"\+(\d+)", status).group(0)
        feedback = driver.execute_script("return window.feedback")
        assert points in feedback["pops"] and "found" in feedback["classes"], feedback
    else:
        assert "don't match" in status
        # The mismatch shook the cards.
        assert "mismatch" in driver.execute_script("return window.feedback")["classes"]
        # The card just chosen stays up; the other turns back down (a hide event).
        WebDriverWait(driver, 5).until(lambda d: kind(d, 0) == "down")
        assert kind(driver, 1) == "playing"
    assert text_of(driver, "flips") == "2"
    driver.save_screenshot("/tmp/matchismo-solo.png")
    assert not severe_errors(driver), severe_errors(driver)


def test_solo_concentration_flips_turns_and_plays_to_the_end(server, browsers):
    driver = browsers()
    play_solo(driver, server.http_url, "concentration", {"boardSize": 8, "theme": 0})
    assert len(driver.find_elements(By.CSS_SELECTOR, CARDS)) == 8
    # The settings line names the theme (issue 21: it used to leave it out).
    assert text_of(driver, "table-settings-text") == "4 pairs · Animals · no turn limit"
    assert text_of(driver, "turn-text") == "Your turn"
    assert text_of(driver, "flips") == "0"

    seen = {}
    flip(driver, 0, seen)
    flip(driver, 1, seen)
    assert text_of(driver, "flips") == "2"
    status = text_of(driver, "status")
    labels = driver.execute_script(
        "return [...document.querySelectorAll('#status .run-emoji')].map((e) => e.getAttribute('aria-label'));")
    assert labels == [seen[0], seen[1]], status
    if seen[0] != seen[1]:
        # The second card stays visible for a moment, then both turn back down.
        assert kind(driver, 1) == "emoji"
        WebDriverWait(driver, 4).until(lambda d: kind(d, 0) == "down" and kind(d, 1) == "down")
        assert "don't match" in status
    play_concentration_to_the_end(driver, seen)
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
    # The standings may be drawn again as the last messages arrive: read them in one go, once
    # they say the game's size (an element found before a redraw would be stale).
    read_rows = ("return [...document.querySelectorAll('#standings li')].map((r) => ["
                 "r.querySelector('.rank').textContent, r.querySelector('.detail').textContent, "
                 "r.getAttribute('data-mistakes')]);")
    rows = WebDriverWait(driver, 5).until(
        lambda d: (lambda rows: rows if len(rows) == 1 and "4 pairs" in rows[0][1] else None)(
            d.execute_script(read_rows)))
    rank, detail, mistakes = rows[0]
    assert rank.strip() == "1."
    # Mistakes come from the history: every two flips that were not one of the 4 pairs.
    misses = int(text_of(driver, "flips")) // 2 - 4
    assert mistakes == str(misses)
    assert f"{misses} mistake" in detail
    assert re.match(r"^Time played \d+:\d\d$", text_of(driver, "gameover-time")), text_of(driver, "gameover-time")
    assert driver.find_element(By.ID, "play-again").text == "Play again"
    assert driver.find_element(By.ID, "back-to-lobby").is_displayed()
    # The toolbar's re-deal gives way to "Play again" (issue 21: both showed).
    assert not driver.find_element(By.ID, "redeal").is_displayed()
    driver.save_screenshot("/tmp/concentration-over.png")

    # Back to the lobby leaves the table (Play again: see the game for two).
    driver.find_element(By.ID, "back-to-lobby").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    assert driver.execute_script("return location.hash") in ("", "#/")
    assert not severe_errors(driver), severe_errors(driver)
