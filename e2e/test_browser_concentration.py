"""Concentration for two in headless Chromium against the real server: the deal starts face down,
whose turn it is and the turn clock, a board that waits for the turn, and the end with its
standings and a vote to play again, followed by a spectator."""
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_games import (CARDS, board_kinds, card, flip, kind, record_sockets, severe_errors, start_concentration_for_two,
                           table_barrier, text_of)
from mp_support import FAST, start_server  # noqa: F401  (a fixture)


def test_a_concentration_game_for_two_starts_face_down(start_server, browsers):
    server = start_server(*FAST)
    ann, bob = browsers(), browsers()
    start_concentration_for_two(server, ann, bob)
    # The deal that starts the game names slots and shows no face (the server of 4908f7c sent
    # every face, under card ids), and says whose turn it is.
    assert board_kinds(ann) == {"down"} and board_kinds(bob) == {"down"}
    assert sorted(int(e.get_attribute("data-card-id")) for e in ann.find_elements(By.CSS_SELECTOR, CARDS)) == list(range(8))
    for driver in (ann, bob):
        WebDriverWait(driver, 5).until(lambda d: text_of(d, "turn-text") != "")
    assert sorted(text_of(d, "turn-text") for d in (ann, bob))[1] == "Your turn"


def test_concentration_for_two_shows_whose_turn_and_the_clock(start_server, browsers):
    server = start_server(*FAST)
    ann, bob = browsers(), browsers()
    record_sockets(ann, bob)
    # Eight pairs: the mover turns up neighbours until two differ (a miss); that every pair of
    # neighbours matches is a chance of 1 in 2,027,025 (with four pairs, 1 in 105).
    start_concentration_for_two(server, ann, bob, pairs=8)
    # Ann reloads (a resumed session gets the table's snapshot, with turn and turnLeft); Bob keeps
    # the state his diffs built. A turn passes when its seat is away, as during a reload: wait
    # until both are back and agree.
    ann.refresh()
    WebDriverWait(ann, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, CARDS)) == 16)
    assert board_kinds(ann) == {"down"}
    def settled(_):
        connected = all(e.get_attribute("data-connected") == "true"
                        for d in (ann, bob) for e in d.find_elements(By.CSS_SELECTOR, "#scoreboard li.seat"))
        mine = [text_of(d, "turn-text") == "Your turn" for d in (ann, bob)]
        return connected and sum(mine) == 1
    WebDriverWait(ann, 10).until(settled)
    # Both clocks run: Ann's from the snapshot's turnLeft, Bob's from the turn event.
    for driver in (ann, bob):
        assert re.match(r"^0:[0-2]\d$", text_of(driver, "turn-clock")), text_of(driver, "turn-clock")
    mover, waiter = (ann, bob) if text_of(ann, "turn-text") == "Your turn" else (bob, ann)
    mover_name, waiter_name = ("Ann", "Bob") if mover is ann else ("Bob", "Ann")
    assert text_of(waiter, "turn-text") == f"{mover_name}'s turn"
    assert mover.find_element(By.ID, "turn").get_attribute("data-mine") == "true"
    # The seat whose turn it is is marked on both scoreboards.
    for driver in (ann, bob):
        row = driver.find_element(By.CSS_SELECTOR, "#scoreboard li.turn")
        assert row.find_element(By.CSS_SELECTOR, ".name").text == mover_name
    # Not my turn: the board does not take clicks.
    assert card(waiter, 0).get_attribute("aria-disabled") == "true"
    card(waiter, 0).click()
    # The barrier: a line the waiter says after the click, heard by both pages; a choice sent and
    # taken would have turned the card up on both before it.
    table_barrier(waiter, mover)
    assert kind(waiter, 0) == "down" and kind(mover, 0) == "down"
    # The mover turns up two cards: both screens show them and count the flips.
    seen = {}
    flip(mover, 0, seen)
    WebDriverWait(waiter, 5).until(lambda d: kind(d, 0) == "emoji")
    flip(mover, 1, seen)
    WebDriverWait(waiter, 5).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "#scoreboard li.seat:not(.you) .sets").text.endswith("2 flips"))
    assert text_of(mover, "flips") == "2"
    for first in range(2, 16, 2):
        if seen[first - 2] != seen[first - 1]:
            break
        # A pair: the same player goes again, until a miss.
        assert text_of(mover, "turn-text") == "Your turn"
        flip(mover, first, seen)
        flip(mover, first + 1, seen)
    assert any(seen[i] != seen[i + 1] for i in range(0, len(seen), 2)), \
        f"the deal paired every pair of neighbours (1 in 2,027,025): {seen}"
    miss = max(i for i in range(0, len(seen), 2) if seen[i] != seen[i + 1])
    # A miss passes the turn (a `turn` event): the clock starts again at the full 20 s.
    WebDriverWait(waiter, 5).until(lambda d: text_of(d, "turn-text") == "Your turn")
    assert text_of(mover, "turn-text") == f"{waiter_name}'s turn"
    clock = text_of(waiter, "turn-clock")
    assert re.match(r"^0:(1[2-9]|20)$", clock), clock
    # It runs down (waited for, not slept on).
    WebDriverWait(waiter, 5).until(lambda d: text_of(d, "turn-clock") < clock)
    assert card(mover, miss).get_attribute("aria-disabled") == "true"
    WebDriverWait(waiter, 3).until(lambda d: kind(d, miss) == "down")
    assert card(waiter, miss).get_attribute("aria-disabled") == "false"
    assert not severe_errors(ann) and not severe_errors(bob), (severe_errors(ann), severe_errors(bob))


def test_concentration_for_two_ends_with_standings_and_a_vote_to_play_again(start_server, browsers):
    server = start_server(*FAST)
    ann, bob, eve = browsers(), browsers(), browsers()
    start_concentration_for_two(server, ann, bob)
    # A spectator follows the game from its link.
    eve.get(server.http_url + f"#/t/{text_of(ann, 'table-code')}")
    WebDriverWait(eve, 10).until(lambda d: d.find_element(By.ID, "invite-name").is_displayed())
    eve.find_element(By.ID, "invite-watch").click()
    WebDriverWait(eve, 15).until(lambda d: d.find_element(By.ID, "spectating").is_displayed())
    seen = {}
    for _ in range(16):
        if ann.find_element(By.ID, "gameover").is_displayed():
            break
        WebDriverWait(ann, 10).until(
            lambda d: [text_of(x, "turn-text") == "Your turn" for x in (ann, bob)].count(True) == 1
            and all(kind(x, s) == "down" or "matched" in card(x, s).get_attribute("class")
                    for x in (ann, bob) for s in range(8)))
        mover = ann if text_of(ann, "turn-text") == "Your turn" else bob
        open_slots = [s for s in range(8) if "matched" not in card(mover, s).get_attribute("class")]
        by_face = {}
        for s in open_slots:
            if s in seen:
                by_face.setdefault(seen[s], []).append(s)
        pair = next((v for v in by_face.values() if len(v) == 2), None)
        first = pair[0] if pair else next(s for s in open_slots if s not in seen)
        flip(mover, first, seen)
        if pair:
            second = pair[1]
        else:
            match = [s for s in open_slots if s != first and seen.get(s) == seen[first]]
            second = match[0] if match else next(s for s in open_slots if s != first and s not in seen)
        flip(mover, second, seen)
    for driver in (ann, bob, eve):
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
    rows = ann.find_elements(By.CSS_SELECTOR, "#standings li")
    assert sorted(r.find_element(By.CSS_SELECTOR, ".name").text for r in rows) == ["Ann", "Bob"]
    watched = [(r.find_element(By.CSS_SELECTOR, ".name").text, r.get_attribute("data-matches"))
               for r in eve.find_elements(By.CSS_SELECTOR, "#standings li")]
    assert watched == [(r.find_element(By.CSS_SELECTOR, ".name").text, r.get_attribute("data-matches")) for r in rows]
    assert sum(int(r.get_attribute("data-matches")) for r in rows) == 4
    assert rows[0].find_element(By.CSS_SELECTOR, ".rank").text == "1."
    assert re.match(r"^Time played \d+:\d\d$", text_of(ann, "gameover-time"))
    # Playing again is a vote for everyone, the host included.
    for driver in (ann, bob):
        assert driver.find_element(By.ID, "play-again").text == "Vote to play again"
        assert driver.find_element(By.ID, "back-to-lobby").is_displayed()
        # No second "Vote to re-deal" beside it (issue 21).
        assert not driver.find_element(By.ID, "redeal").is_displayed()
    ann.find_element(By.ID, "play-again").click()
    WebDriverWait(bob, 5).until(lambda d: d.find_element(By.ID, "gameover-vote").is_displayed())
    needed = int(re.match(r"^1 of (\d+) want to play again$", text_of(bob, "gameover-vote")).group(1))
    assert needed == 2
    assert ann.find_element(By.ID, "play-again").text == "Voted to play again"
    assert not ann.find_element(By.ID, "play-again").is_enabled()
    bob.find_element(By.ID, "play-again").click()
    for driver in (ann, bob):
        WebDriverWait(driver, 10).until(lambda d: not d.find_element(By.ID, "gameover").is_displayed())
    assert board_kinds(ann) == {"down"} and board_kinds(bob) == {"down"}, "the new deal is face down"
    assert text_of(ann, "flips") == "0"
    # Leaving the new game in progress asks first.
    ann.find_element(By.ID, "leave").click()
    WebDriverWait(ann, 5).until(lambda d: d.find_element(By.ID, "confirm-leave").is_displayed())
    ann.find_element(By.ID, "confirm-leave-yes").click()
    WebDriverWait(ann, 5).until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    assert not severe_errors(ann) and not severe_errors(bob), (severe_errors(ann), severe_errors(bob))
