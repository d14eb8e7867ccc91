"""Playing without sight, measured (issue 34): axe-core 4.12 finds no violation of WCAG 2.0, 2.1
and 2.2 A and AA, nor of its best practices (`region`: all content inside landmarks), on every
screen of the web client, in headless Chromium against the real server, at 1280×900 and 390×844,
each screen in the light theme and in the dark one.

The screens: the lobby and each of its tabs (live tables with a table listed and a chat line,
high scores, the daily puzzle's results, arenas), its form for Set, Matchismo and Concentration,
the settings dialog, the keyboard shortcuts and "How to play" (for each game shown, and at a table); a table of Set, Set Junior, UltraSet, Set-Chain
and Matchismo played solo (the re-deal and leave dialogs, the chat and the history opened on the
Set table). The ratings (the high scores with each player's change, "Your rating" open) and the
replay of the rated game with its look back open; the daily puzzle mid-game and played to its
end, its game-over box with the look back open, and the Daily tab after it. Two players: a
private Concentration table waiting, the invitation dialog of a page that follows its link
without a name, the game for two mid-game on both pages; a rated quick match's game over on both
pages; an arena created (its dialog), joined by code and played (the arena bar, its standings).

Per size, each group of screens is walked by one page (two for two players), and axe runs on
each screen twice, the theme switched between the runs on <html data-theme> as the settings
dialog switches it; every violation found is reported at the end (rule, impact, the elements and
why, which screen, size and theme). No rule is turned off.

axe ships as `axe.min.js` inside the PyPI package axe-playwright-python (installed by `make
test-deps` without its dependencies): without it the tests fail and say so."""
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from mp_support import FAST, start_server  # noqa: F401  (a fixture)
from browser_games import CODE, claim_a_set, flip, kind, open_lobby
from table_state import set_from_ids
from test_browser_rough_edges import SIZES, Seat, board_ids, click_card, open_page, text_of
from axe_support import (BOB, CARDS, MINE, THEO, Axe, choose_game, click, close_seat, leave_the_game, online,
                         open_dialog, play_set_to_the_end, play_solo_here, shown, take_a_set, wait_shown)


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_axe_finds_nothing_in_the_lobby_its_dialogs_and_each_game_played_solo(
        server, browsers, width, height, theme):
    axe = Axe(width, height)
    driver = browsers()
    open_page(driver, server.http_url, width, height, theme)
    online(driver)
    driver.find_element(By.ID, "name").send_keys("Kim")
    # A table in the live list (Bob waits at a quick match for four) and a line of lobby chat.
    bob = Seat(server.ws_url, BOB, "Bob")
    try:
        assert bob.request({"type": "quickMatch", "game": "set", "seats": 4})["type"] == "snapshot"
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tables-body tr"))
        field = driver.find_element(By.ID, "lobby-chat-input")
        field.send_keys("hello, lobby")
        field.send_keys(Keys.ENTER)
        WebDriverWait(driver, 10).until(lambda d: "hello, lobby" in text_of(d, "lobby-chat-lines"))
        axe.check(driver, "lobby: live tables and lobby chat")
    finally:
        close_seat(bob)
    open_dialog(axe, driver, "settings-button", "settings", "settings-close", "settings dialog")
    open_dialog(axe, driver, "help-button", "help", "help-close", "keyboard shortcuts")
    for tab, panel in (("tab-scores", "scores-panel"), ("tab-daily", "daily-panel"), ("tab-arenas", "arenas-panel")):
        click(driver, tab)
        wait_shown(driver, panel)
        WebDriverWait(driver, 10).until(
            lambda d: not d.execute_script("return document.querySelector('[aria-busy=\"true\"]')"))
        axe.check(driver, f"lobby: {text_of(driver, tab)} tab")
    click(driver, "tab-tables")
    # The form's settings are the game's: those of Matchismo and Concentration differ from Set's.
    for game in ("matchismo", "concentration"):
        choose_game(driver, game)
        WebDriverWait(driver, 5).until(
            lambda d: d.find_element(By.ID, "settings-fields").get_attribute("data-game") == game)
        axe.check(driver, f"lobby: the form for {game}")
        open_dialog(axe, driver, "how-to-lobby", "how-to", "how-to-close", f"how to play {game}")

    # Set, solo: a mistake, a set taken and a hint; the re-deal question; the chat; the history.
    play_solo_here(driver, "set", 12)
    board = board_ids(driver)
    wrong = next((a, b, c) for a, b in zip(board, board[1:]) for c in board[2:]
                 if len({a, b, c}) == 3 and not set_from_ids(a, b, c))
    for card_id in wrong:
        click_card(driver, card_id)
    WebDriverWait(driver, 5).until(lambda d: "match" in text_of(d, "status"))
    take_a_set(driver)
    click(driver, "hint")
    WebDriverWait(driver, 5).until(lambda d: shown(d, "toast"))
    axe.check(driver, "Set solo, mid-game")
    open_dialog(axe, driver, "how-to-table", "how-to", "how-to-close", "how to play Set, at the table")
    open_dialog(axe, driver, "redeal", "confirm-redeal", "confirm-redeal-no", "re-deal dialog")
    click(driver, "chat-button")
    wait_shown(driver, "chat-view")
    field = driver.find_element(By.ID, "chat-input")
    field.send_keys("nice one")
    field.send_keys(Keys.ENTER)
    WebDriverWait(driver, 10).until(lambda d: "nice one" in text_of(d, "chat-lines"))
    axe.check(driver, "Set solo, chat open")
    click(driver, "chat-back")
    click(driver, "history-button")
    wait_shown(driver, "history-view")
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#history-list li"))
    axe.check(driver, "Set solo, history open")
    click(driver, "history-back")
    leave_the_game(axe, driver, "leave dialog")

    # The other games, each mid-game.
    play_solo_here(driver, "setJunior", 9)
    take_a_set(driver)
    axe.check(driver, "Set Junior solo, mid-game")
    leave_the_game(axe, driver)
    play_solo_here(driver, "ultraSet", 12)
    axe.check(driver, "UltraSet solo, mid-game")
    leave_the_game(axe, driver)
    play_solo_here(driver, "setChain", 12)
    take_a_set(driver)
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chain .card"))
    axe.check(driver, "Set-Chain solo, mid-game with its chain")
    leave_the_game(axe, driver)
    play_solo_here(driver, "matchismo", 8)
    for card_id in board_ids(driver)[:2]:
        click_card(driver, card_id)
    WebDriverWait(driver, 5).until(lambda d: text_of(d, "status") != "")
    axe.check(driver, "Matchismo solo, mid-game")
    leave_the_game(axe, driver)
    axe.assert_clean()
    axe.assert_no_page_errors(driver)


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_axe_finds_nothing_in_the_daily_puzzle_its_look_back_the_ratings_and_a_replay(
        start_server, browsers, width, height, theme):
    server = start_server(*FAST, "--rate-limit", "1000")
    # Theo has played today's puzzle; the browser's player (Kim) has lost a rated game to Bob.
    theo = Seat(server.ws_url, THEO, "Theo")
    try:
        assert theo.take_every_set(theo.request({"type": "playDaily", "game": "set"})["table"])["over"]
    finally:
        close_seat(theo)
    kim, bob = Seat(server.ws_url, MINE, "Kim"), Seat(server.ws_url, BOB, "Bob")
    try:
        assert bob.request({"type": "quickMatch", "game": "set", "seats": 2})["type"] == "snapshot"
        assert kim.request({"type": "quickMatch", "game": "set", "seats": 2})["type"] == "snapshot"
        deadline = time.monotonic() + 10
        table = bob.request({"type": "resync"})["table"]
        while table["phase"] != "playing" or not table["board"]:
            assert time.monotonic() < deadline, table
            time.sleep(0.05)
            table = bob.request({"type": "resync"})["table"]
        assert bob.take_every_set(table)["over"]
    finally:
        for seat in (kim, bob):
            close_seat(seat)

    axe = Axe(width, height)
    driver = browsers()
    open_page(driver, server.http_url, width, height, theme)
    driver.execute_script("localStorage.setItem('matchismo.player', arguments[0]);", MINE)
    driver.get(server.http_url)
    online(driver)
    driver.find_element(By.ID, "name").send_keys("Kim")

    # The ratings: the high scores with each player's change, "Your rating" open.
    click(driver, "tab-scores")
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#scores-body .rating-change"))
    WebDriverWait(driver, 10).until(lambda d: text_of(d, "my-rating-now") != "")
    driver.find_element(By.CSS_SELECTOR, "#my-rating summary").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#my-rating-history button.replay"))
    axe.check(driver, "lobby: high scores with ratings, Your rating open")

    # The rated game's replay, its look back and its ratings.
    driver.execute_script("document.querySelector('#my-rating-history button.replay').click();")
    wait_shown(driver, "replay")
    WebDriverWait(driver, 10).until(lambda d: shown(d, "replay-ratings")
                                    and d.find_elements(By.CSS_SELECTOR, "#replay-board .card"))
    click(driver, "replay-next")
    replay_look_back = driver.find_element(By.ID, "replay-look-back")
    WebDriverWait(driver, 10).until(lambda d: replay_look_back.is_displayed())
    if replay_look_back.get_attribute("open") is None:
        replay_look_back.find_element(By.TAG_NAME, "summary").click()
    axe.check(driver, "replay of a rated game, look back open")
    click(driver, "replay-back")
    wait_shown(driver, "lobby")

    # The daily puzzle: mid-game, then at its end with the look back open.
    choose_game(driver, "set")
    click(driver, "play-daily")
    WebDriverWait(driver, 10).until(lambda d: len(board_ids(d)) >= 12)
    take_a_set(driver)
    axe.check(driver, "daily puzzle, mid-game")
    play_set_to_the_end(driver)
    look_back = driver.find_element(By.ID, "look-back")
    WebDriverWait(driver, 10).until(lambda d: look_back.is_displayed())
    if look_back.get_attribute("open") is None:
        look_back.find_element(By.TAG_NAME, "summary").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#look-back-body .look-back-daily p"))
    axe.check(driver, "game over, look back open")
    click(driver, "back-to-lobby")
    wait_shown(driver, "lobby")
    click(driver, "tab-daily")
    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#daily-results li")) == 2
                                    and shown(d, "daily-share"))
    axe.check(driver, "lobby: Daily tab after playing")
    axe.assert_clean()
    axe.assert_no_page_errors(driver)


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_axe_finds_nothing_at_a_table_for_two_its_invitation_and_an_arena(
        start_server, browsers, width, height, theme):
    server = start_server(*FAST, "--rate-limit", "1000", "--arena-schedule", "off")
    axe = Axe(width, height)
    ann, bob = browsers(), browsers()
    open_page(ann, server.http_url, width, height, theme)
    open_page(bob, server.http_url, width, height, theme)

    # Concentration for two: Ann's private table waits; Bob follows its link without a name.
    open_lobby(ann, server.http_url, "Ann", "concentration", {"boardSize": 8, "turnSeconds": 20})
    Select(ann.find_element(By.ID, "seats")).select_by_value("2")
    click(ann, "create-private")
    WebDriverWait(ann, 15).until(lambda d: CODE.match(text_of(d, "table-code")))
    wait_shown(ann, "waiting")
    axe.check(ann, "private Concentration table, waiting")
    code = text_of(ann, "table-code")
    bob.get(server.http_url + f"#/t/{code}")
    wait_shown(bob, "invite-name")
    axe.check(bob, "invitation dialog")
    bob.find_element(By.ID, "invite-name-field").send_keys("Bob")
    click(bob, "invite-join")
    for page in (ann, bob):
        WebDriverWait(page, 15).until(lambda d: d.find_element(By.ID, "table").get_attribute("data-phase") == "playing")
        WebDriverWait(page, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, CARDS)) == 8)
    # Whoever's turn it is turns a card up.
    WebDriverWait(ann, 10).until(lambda d: "Your turn" in (text_of(ann, "turn-text"), text_of(bob, "turn-text")))
    first = ann if text_of(ann, "turn-text") == "Your turn" else bob
    WebDriverWait(first, 5).until(lambda d: kind(d, 0) == "down")
    flip(first, 0, {})
    axe.check(first, "Concentration for two, a card turned up (the turn's player)")
    axe.check(bob if first is ann else ann, "Concentration for two, a card turned up (the other player)")
    for page in (ann, bob):
        leave_the_game(axe, page)

    # A rated game: a quick match of Set for two, which Ann takes every set of.
    for page in (ann, bob):
        choose_game(page, "set")
        Select(page.find_element(By.ID, "seats")).select_by_value("2")
        click(page, "quick-match")
        wait_shown(page, "table")
    for page in (ann, bob):
        WebDriverWait(page, 15).until(lambda d: d.find_element(By.ID, "table").get_attribute("data-phase") == "playing"
                                      and len(board_ids(d)) >= 12)
    play_set_to_the_end(ann)
    for page in (ann, bob):
        WebDriverWait(page, 15).until(lambda d: shown(d, "gameover")
                                      and len(d.find_elements(By.CSS_SELECTOR, "#standings .rating-change")) == 2)
    axe.check(ann, "rated game over (the winner)")
    axe.check(bob, "rated game over (the loser)")
    for page in (ann, bob):
        click(page, "back-to-lobby")
        wait_shown(page, "lobby")

    # An arena: Ann creates one (its dialog), Bob joins by its code; they are paired at once.
    click(ann, "tab-arenas")
    wait_shown(ann, "arenas-panel")
    Select(ann.find_element(By.ID, "arena-game")).select_by_value("set")
    Select(ann.find_element(By.ID, "arena-starts-in")).select_by_index(0)
    click(ann, "create-arena")
    wait_shown(ann, "arena-dialog")
    WebDriverWait(ann, 10).until(lambda d: len(text_of(d, "arena-code-shown")) == 10)
    axe.check(ann, "arena dialog")
    arena_code = text_of(ann, "arena-code-shown")
    click(ann, "arena-close")
    click(bob, "tab-arenas")
    wait_shown(bob, "arenas-panel")
    bob.find_element(By.ID, "arena-code").send_keys(arena_code)
    click(bob, "join-arena-code")
    for page in (ann, bob):
        WebDriverWait(page, 15).until(lambda d: shown(d, "arena-bar") and d.find_elements(By.CSS_SELECTOR, CARDS))
    assert claim_a_set(ann, [ann, bob]) is not None
    axe.check(bob, "arena game, mid-game")
    click(bob, "arena-bar-standings")
    wait_shown(bob, "arena-dialog")
    WebDriverWait(bob, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#arena-standings-body tr"))
    axe.check(bob, "arena standings dialog")
    axe.assert_clean()
    axe.assert_no_page_errors(ann, bob)
