"""Words that are true (issue 34, point 9), in headless Chromium against the real server.
Before: leaving a solo game warned that "your seat goes to the next player who joins"; after
muting the only speaker the chat said "Nothing said yet"; Concentration ignored a click out of
turn without a word. Now the leave dialog of a solo game says the game ends; the muted chat says
lines are hidden; a click out of turn says whose turn it is."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from mp_support import FAST, start_server  # noqa: F401  (a fixture)
from browser_games import CARDS, play_solo, start_concentration_for_two
from test_browser_chat import open_chat, say
from test_browser_rough_edges import text_of, toast_says


def test_leaving_a_solo_game_says_it_ends(start_server, browsers):
    server = start_server(*FAST)
    kim = browsers()
    play_solo(kim, server.http_url, "set", cards=12)
    kim.find_element(By.ID, "leave").click()
    WebDriverWait(kim, 5).until(lambda d: d.find_element(By.ID, "confirm-leave").is_displayed())
    words = kim.find_element(By.CSS_SELECTOR, "#confirm-leave p").text
    assert "solo game closes" in words and "next player" not in words, words


def test_muting_the_only_speaker_and_a_click_out_of_turn_are_said_as_they_are(start_server, browsers):
    server = start_server(*FAST)
    ann, bob = browsers(), browsers()
    start_concentration_for_two(server, ann, bob)
    # Bob, whose turn it is not, clicks a card: he is told whose turn it is.
    whose = ann if "Your turn" in text_of(ann, "turn") else bob
    other = bob if whose is ann else ann
    other.find_elements(By.CSS_SELECTOR, CARDS)[0].click()
    assert "Not your turn" in toast_says(other, "Not your turn")
    # Bob speaks, Ann mutes him: her chat says his line is hidden, not that nothing was said.
    open_chat(bob)
    say(bob, "hello Ann")
    open_chat(ann)
    mute = '#chat-lines button.mute[data-mute="Bob"]'
    WebDriverWait(ann, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, mute))
    ann.find_element(By.CSS_SELECTOR, mute).click()
    WebDriverWait(ann, 5).until(lambda d: d.find_element(By.ID, "chat-empty").is_displayed())
    assert text_of(ann, "chat-empty").startswith("Nothing to show: one line is hidden"), text_of(ann, "chat-empty")
