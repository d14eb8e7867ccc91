"""What the high-score and replay browser tests share: finished games played to their end by a
plain WebSocket client (solo Concentration of 4 pairs, remembering every face it saw) under two
player tokens, one of them the browser's own (the `finished` fixture), and the page's High
scores tab read in one script."""
import json
import pathlib
import time
from itertools import count

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from websockets.sync.client import connect

from browser_games import text_of


# The browser's player token (set in its localStorage before the page loads) and another person's.
MINE = "browserPlayer0000000A1"


THEIRS = "someoneElse00000000B2"


PAGE_SIZE = 3


# (player, wrong pairs on purpose, seconds waited before the last pair): scores and durations that
# differ, in an order that is neither the order of the dates nor each other's.
GAMES = [(THEIRS, 1, 0.0), (MINE, 0, 1.4), (THEIRS, 3, 0.5), (MINE, 2, 2.4),
         (THEIRS, 0, 3.0), (MINE, 1, 0.9), (THEIRS, 2, 1.8)]


# Solo Concentration, 8 cards: a pair is worth 5, a wrong pair costs 2, choosing is free.
SETTINGS = {"boardSize": 8, "scoring": "custom", "costToChoose": 0, "mismatchPenalty": 2, "matchBonus": 5}


ROWS = "#scores-body tr"


REPLAY_CARDS = "#replay-board .card"


def severe_errors(driver):
    return [e for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and e.get("source") != "network"]


def artifact(name):
    folder = pathlib.Path(__file__).resolve().parent.parent / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder / name


def set_viewport(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})


class Player:
    """A plain WebSocket client (not the page's code) that says hello with a player token."""

    def __init__(self, url, player, name):
        self.connection = connect(url, subprotocols=["matchismo.v2"], open_timeout=10)
        self.ws = self.connection.__enter__()
        self.ids = count(1)
        welcome = self.request({"type": "hello", "name": name, "player": player})
        assert welcome["type"] == "welcome", welcome

    def request(self, message, timeout=10):
        """Sends `message` and returns its answer (the message whose replyTo is its id)."""
        message = {**message, "id": next(self.ids)}
        self.ws.send(json.dumps(message))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            answer = json.loads(self.ws.recv(timeout=timeout))
            if answer.get("replyTo") == message["id"]:
                return answer
        raise AssertionError(f"no answer to {message}")

    def close(self):
        self.connection.__exit__(None, None, None)


def finish_concentration(player, wrong_pairs, pause):
    """Plays solo Concentration to its end: every face seen is remembered and a known pair is taken
    at once; `wrong_pairs` times, two known different cards are turned up on purpose. Waits
    `pause` seconds before the last pair. Returns the final standings."""
    snapshot = player.request({"type": "playSolo", "game": "concentration", **SETTINGS})
    assert snapshot["type"] == "snapshot", snapshot
    slots = [c["id"] for c in snapshot["table"]["board"]]
    assert len(slots) == 8
    seen, matched = {}, set()
    standings = None

    def choose(slot):
        nonlocal standings
        diff = player.request({"type": "choose", "card": slot})
        assert diff["type"] == "diff", diff
        for event in diff["events"]:
            if event["kind"] == "flip":
                seen[event["card"]["id"]] = event["card"]["emoji"]
            elif event["kind"] == "match":
                matched.update(event["cards"])
            elif event["kind"] == "over":
                standings = event["standings"]

    for _ in range(40):
        if standings is not None:
            return standings
        open_slots = [s for s in slots if s not in matched]
        known = [s for s in open_slots if s in seen]
        pair = next(((a, b) for a in known for b in known if a < b and seen[a] == seen[b]), None)
        different = next(((a, b) for a in known for b in known if seen[a] != seen[b]), None)
        if wrong_pairs > 0 and different is not None:
            wrong_pairs -= 1
            choose(different[0])
            choose(different[1])
            continue
        if pair is not None:
            if len(open_slots) == 2:
                time.sleep(pause)
            choose(pair[0])
            choose(pair[1])
            continue
        first = next(s for s in open_slots if s not in seen)
        choose(first)
        partner = next((s for s in open_slots if s != first and seen.get(s) == seen[first]), None)
        if partner is None:
            partner = next(s for s in open_slots if s != first and s not in seen)
        if len(open_slots) == 2:
            time.sleep(pause)
        choose(partner)
    raise AssertionError("the game did not end")


@pytest.fixture
def finished(server):
    """The games of GAMES played to their end. Returns (the server's list of them as the browser's
    player sees it, every game newest first; best; shortest)."""
    for token, wrong, pause in GAMES:
        player = Player(server.ws_url, token, "Mo" if token == MINE else "Theo")
        try:
            finish_concentration(player, wrong, pause)
        finally:
            player.close()
    me = Player(server.ws_url, MINE, "Mo")
    try:
        answer = me.request({"type": "scores", "game": "concentration", "sort": "date", "pageSize": 50})
    finally:
        me.close()
    assert answer["type"] == "scores", answer
    assert answer["total"] == len(GAMES), answer
    assert sum(g["mine"] for g in answer["games"]) == sum(t == MINE for t, _, _ in GAMES)
    return answer["games"], answer["best"], answer["shortest"]


def open_scores(driver, url):
    """The page as the browser's player (token in localStorage first), pages of PAGE_SIZE, the
    Concentration tab's high scores."""
    driver.get(url)
    driver.execute_script("localStorage.setItem('matchismo.player', arguments[0]);", MINE)
    driver.get(f"{url}?pageSize={PAGE_SIZE}")
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="concentration"]').click()
    driver.find_element(By.ID, "tab-scores").click()
    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ROWS)) > 0)


# Every row of the page in one script (rows are redrawn by each answer).
READ_ROWS = """
return [...document.querySelectorAll('#scores-body tr')].map((tr) => ({
  id: tr.dataset.record, score: Number(tr.dataset.score), seconds: Number(tr.dataset.seconds), ended: tr.dataset.ended,
  best: tr.classList.contains('best'), shortest: tr.classList.contains('shortest'), mine: tr.classList.contains('mine'),
  badges: [...tr.querySelectorAll('.badge')].map((b) => b.textContent),
  position: tr.querySelector('.pos').textContent, duration: tr.querySelector('.duration').textContent,
  players: tr.querySelector('.players li .name')?.textContent,
}));
"""


def rows(driver):
    return driver.execute_script(READ_ROWS)


def click_and_wait(driver, element, expect):
    """Clicks (a sort heading, a page button, the checkbox) and waits for the rows asked for:
    `expect` is the list of their ids, or a test of the rows read."""
    check = expect if callable(expect) else (lambda shown: [r["id"] for r in shown] == expect)
    element.click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "scores").get_attribute("aria-busy") == "false"
                                    and check(rows(d)))
    return rows(driver)


def sort_button(driver, sort):
    return driver.find_element(By.CSS_SELECTOR, f'#scores button.sort[data-sort="{sort}"]')


def aria_sort(driver, sort):
    return driver.find_element(By.CSS_SELECTOR, f'#scores th[data-sort="{sort}"]').get_attribute("aria-sort")


def no_sideways_scroll(driver):
    return driver.execute_script(
        "const root = document.documentElement, lobby = document.getElementById('lobby');"
        "return root.scrollWidth <= innerWidth + 1 && lobby.scrollWidth <= lobby.clientWidth + 1;")


def board_kinds(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.dataset.kind"
        " + (e.classList.contains('matched') ? '*' : ''));", REPLAY_CARDS)
