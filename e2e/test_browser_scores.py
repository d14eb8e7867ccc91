"""High scores and replays in headless Chromium against the real server: finished games are played
to their end by a plain WebSocket client (solo Concentration of 4 pairs, remembering every face it
saw) under two player tokens, one of them the browser's own; the page's High scores tab lists
them, sorts them by date, score and duration, pages through them, keeps only the browser's own
games, and marks the best and the shortest; a replay steps through one game with its buttons, its
slider and the keyboard, ends on the recorded scores, and exports the record as JSON."""
import json
import pathlib
import tempfile
import time
from itertools import count

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait
from websockets.sync.client import connect

from conftest import RunningServer

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


def text_of(driver, element_id):
    return driver.find_element(By.ID, element_id).get_attribute("textContent").strip()


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


def test_the_high_scores_tab_sorts_pages_filters_and_marks_the_best(server, finished, browsers):
    games, best, shortest = finished
    driver = browsers()
    open_scores(driver, server.http_url)
    by_id = {g["id"]: g for g in games}
    newest = [g["id"] for g in games]  # the server's answer, newest first
    assert [r["id"] for r in rows(driver)] == newest[:PAGE_SIZE]
    assert aria_sort(driver, "date") == "descending" and aria_sort(driver, "score") == "none"
    assert text_of(driver, "scores-page") == "Page 1 of 3"
    assert not driver.find_element(By.ID, "scores-prev").is_enabled()
    first = rows(driver)[0]
    assert first["position"] == "1"
    assert first["players"] in ("Mo", "Theo")
    assert first["duration"] == f"{int(by_id[first['id']]['seconds']) // 60}:{int(by_id[first['id']]['seconds']) % 60:02d}"

    # Paging: Next to the end (disabled there), Previous back.
    seen = rows(driver)
    seen += click_and_wait(driver, driver.find_element(By.ID, "scores-next"), newest[3:6])
    assert text_of(driver, "scores-page") == "Page 2 of 3"
    assert [r["position"] for r in rows(driver)] == ["4", "5", "6"]
    seen += click_and_wait(driver, driver.find_element(By.ID, "scores-next"), newest[6:])
    assert text_of(driver, "scores-page") == "Page 3 of 3"
    assert not driver.find_element(By.ID, "scores-next").is_enabled()
    click_and_wait(driver, driver.find_element(By.ID, "scores-prev"), newest[3:6])

    # Best and shortest are over all pages: exactly those two rows are marked, with a badge.
    assert [r["id"] for r in seen if r["best"]] == [best["id"]]
    assert [r["id"] for r in seen if r["shortest"]] == [shortest["id"]]
    assert all(("Best score" in r["badges"]) == r["best"] and ("Shortest" in r["badges"]) == r["shortest"] for r in seen)
    assert best["score"] == max(g["score"] for g in games)
    assert shortest["seconds"] == min(g["seconds"] for g in games)
    assert [r["mine"] for r in seen] == [by_id[r["id"]]["mine"] for r in seen]

    # Sort by score: highest first (from page 1), then the same heading again: lowest first.
    by_score = sorted(games, key=lambda g: -g["score"])
    # (Equal scores may come in any order: the scores shown are compared, not the ids.)
    sort_button(driver, "score").click()
    WebDriverWait(driver, 10).until(lambda d: aria_sort(d, "score") == "descending"
                                    and [r["score"] for r in rows(d)] == [g["score"] for g in by_score[:PAGE_SIZE]])
    assert text_of(driver, "scores-page") == "Page 1 of 3"
    assert rows(driver)[0]["score"] == best["score"]
    assert aria_sort(driver, "date") == "none"
    # For review: the best scores at both sizes (no sideways scrolling at either).
    for width, height in ((1280, 900), (390, 844)):
        set_viewport(driver, width, height)
        WebDriverWait(driver, 5).until(lambda d: d.execute_script("return innerWidth") == width)
        driver.execute_script("document.getElementById('scores-panel').scrollIntoView()")
        assert no_sideways_scroll(driver), (width, height)
        # A rank of several digits stays on one line (issue 21: "10" wrapped on a phone).
        lines = driver.execute_script("""
            const td = document.querySelector('#scores-body td.pos');
            const was = td.textContent;
            td.textContent = '1000';
            const range = document.createRange();
            range.selectNodeContents(td);
            const lines = range.getClientRects().length;
            td.textContent = was;
            return lines;""")
        assert lines == 1, (width, lines)
        driver.save_screenshot(str(artifact(f"scores-{width}x{height}.png")))
    set_viewport(driver, 1280, 900)
    sort_button(driver, "score").click()
    WebDriverWait(driver, 10).until(lambda d: aria_sort(d, "score") == "ascending"
                                    and [r["score"] for r in rows(d)] == sorted(g["score"] for g in games)[:PAGE_SIZE])

    # Sort by duration: shortest first; the first row is the shortest game, marked.
    by_time = sorted(g["seconds"] for g in games)
    sort_button(driver, "duration").click()
    WebDriverWait(driver, 10).until(lambda d: aria_sort(d, "duration") == "ascending"
                                    and [r["seconds"] for r in rows(d)] == by_time[:PAGE_SIZE])
    assert rows(driver)[0]["id"] == shortest["id"] and rows(driver)[0]["shortest"]
    sort_button(driver, "duration").click()
    WebDriverWait(driver, 10).until(lambda d: aria_sort(d, "duration") == "descending"
                                    and [r["seconds"] for r in rows(d)] == by_time[::-1][:PAGE_SIZE])

    # Sort by date again: newest first, then oldest first.
    click_and_wait(driver, sort_button(driver, "date"), newest[:PAGE_SIZE])
    assert aria_sort(driver, "date") == "descending"
    # (Games that ended in the same second may come in either order: the dates are compared.)
    oldest = sorted(g["endedAt"] for g in games)[:PAGE_SIZE]
    click_and_wait(driver, sort_button(driver, "date"), lambda shown: [r["ended"] for r in shown] == oldest)
    assert aria_sort(driver, "date") == "ascending"

    # Only my games: the browser's player's three, one page.
    mine = {g["id"] for g in games if g["mine"]}
    assert len(mine) == PAGE_SIZE
    shown = click_and_wait(driver, driver.find_element(By.ID, "scores-mine"), lambda shown: {r["id"] for r in shown} == mine)
    assert all(r["mine"] for r in shown)
    assert text_of(driver, "scores-page") == "Page 1 of 1"
    assert not driver.find_element(By.ID, "scores-next").is_enabled()
    # The caption says what the table holds.
    assert text_of(driver, "scores-caption") == "My finished Concentration games (Solo · 4 pairs), oldest first"
    driver.find_element(By.ID, "scores-mine").click()
    WebDriverWait(driver, 10).until(lambda d: text_of(d, "scores-page") == "Page 1 of 3")

    # Keyboard: the tabs move with the arrow keys; a sort heading is a button.
    driver.find_element(By.ID, "tab-scores").send_keys(Keys.ARROW_LEFT)
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "tables-panel").is_displayed())
    assert driver.switch_to.active_element.get_attribute("id") == "tab-tables"
    driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "scores-panel").is_displayed())
    WebDriverWait(driver, 10).until(lambda d: len(rows(d)) == PAGE_SIZE)
    assert not severe_errors(driver), severe_errors(driver)


def board_kinds(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.dataset.kind"
        " + (e.classList.contains('matched') ? '*' : ''));", REPLAY_CARDS)


def test_a_replay_steps_through_a_finished_game_and_exports_it(server, finished, browsers):
    games, _, _ = finished
    # The game with the most moves: one with wrong pairs on purpose.
    me = Player(server.ws_url, MINE, "Mo")
    try:
        records = {g["id"]: me.request({"type": "record", "record": g["id"]}) for g in games}
    finally:
        me.close()
    chosen = max(records.values(), key=lambda r: len(r["record"]["moves"]))
    record = chosen["record"]
    moves = len(record["moves"])
    assert len(chosen["replay"]["diffs"]) == moves
    position = [g["id"] for g in games].index(record["id"])

    driver = browsers()
    downloads = tempfile.mkdtemp(prefix="matchismo-downloads-")
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    open_scores(driver, server.http_url)
    for _ in range(position // PAGE_SIZE):
        driver.find_element(By.ID, "scores-next").click()
        WebDriverWait(driver, 10).until(lambda d: record["id"] in [r["id"] for r in rows(d)])
    driver.find_element(By.CSS_SELECTOR, f'#scores-body tr[data-record="{record["id"]}"] button.replay').click()
    wait = WebDriverWait(driver, 10)
    wait.until(lambda d: d.find_element(By.ID, "replay").is_displayed() and len(board_kinds(d)) == 8)
    assert driver.execute_script("return location.hash") == f"#/replay/{record['id']}"
    assert not driver.find_element(By.ID, "lobby").is_displayed()
    assert text_of(driver, "replay-title") == "Replay: Concentration"
    slider = driver.find_element(By.ID, "replay-slider")
    assert (slider.get_attribute("min"), slider.get_attribute("max"), slider.get_attribute("value")) == ("0", str(moves), "0")
    assert text_of(driver, "replay-step") == f"Move 0 of {moves}"
    assert text_of(driver, "replay-time") == "0:00"
    assert board_kinds(driver) == ["down"] * 8
    # Read-only: the cards are pictures, not buttons, and carry no keys.
    assert driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].every((c) => c.getAttribute('role') === 'img'"
        " && c.tabIndex === -1 && !c.querySelector('.key-label'))", REPLAY_CARDS)
    driver.find_element(By.CSS_SELECTOR, REPLAY_CARDS).click()
    assert board_kinds(driver) == ["down"] * 8, "nothing is chosen in a replay"
    assert not driver.find_element(By.ID, "replay-first").is_enabled()

    # Next: the first card turned up, the status line says so; Previous: down again.
    driver.find_element(By.ID, "replay-next").click()
    wait.until(lambda d: text_of(d, "replay-step") == f"Move 1 of {moves}")
    assert board_kinds(driver).count("emoji") == 1
    assert slider.get_attribute("value") == "1"
    assert text_of(driver, "replay-status") != ""
    driver.find_element(By.ID, "replay-prev").click()
    wait.until(lambda d: board_kinds(d) == ["down"] * 8)
    # The keyboard: → and ← step (focus on a step button), the slider takes its own arrows and End.
    driver.find_element(By.ID, "replay-next").send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    wait.until(lambda d: text_of(d, "replay-step") == f"Move 2 of {moves}")
    driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    wait.until(lambda d: text_of(d, "replay-step") == f"Move 1 of {moves}")
    slider.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    wait.until(lambda d: text_of(d, "replay-step") == f"Move 3 of {moves}")
    assert slider.get_attribute("aria-valuetext").startswith(f"Move 3 of {moves}, ")
    at = record["moves"][2]["at"]
    assert text_of(driver, "replay-time") == f"{int(at) // 60}:{int(at) % 60:02d}"
    kinds_before = board_kinds(driver)
    slider.send_keys(Keys.END)
    wait.until(lambda d: text_of(d, "replay-step") == f"Move {moves} of {moves}")
    assert board_kinds(driver) != kinds_before
    # The last step: every pair found, the scoreboard shows the recorded final scores.
    assert board_kinds(driver) == ["emoji*"] * 8
    shown = driver.execute_script(
        "return [...document.querySelectorAll('#replay-scoreboard li.seat')].map((li) =>"
        " [li.querySelector('.name').textContent, Number(li.querySelector('.score').textContent)]);")
    assert shown == [[p["name"], p["score"]] for p in sorted(record["players"], key=lambda p: p["seat"])]
    assert not driver.find_element(By.ID, "replay-last").is_enabled()
    # The slider moved by a script, as assistive technology may move it.
    driver.execute_script("const s = arguments[0]; s.value = '0'; s.dispatchEvent(new Event('input'));", slider)
    wait.until(lambda d: board_kinds(d) == ["down"] * 8)
    driver.find_element(By.ID, "replay-last").click()
    wait.until(lambda d: text_of(d, "replay-step") == f"Move {moves} of {moves}")
    # The button just disabled hands the keyboard to the slider.
    assert driver.switch_to.active_element.get_attribute("id") == "replay-slider"

    # Export: the record (not the replay) as JSON, named for its game and id.
    driver.find_element(By.ID, "replay-export").click()
    path = pathlib.Path(downloads) / f"matchismo-concentration-{record['id']}.json"
    WebDriverWait(driver, 10).until(lambda d: path.exists() and path.stat().st_size > 0)
    time.sleep(0.2)
    exported = json.loads(path.read_text(encoding="utf-8"))
    assert len(exported["moves"]) == int(slider.get_attribute("max")) == moves
    assert exported == record
    assert "replay" not in exported

    for width, height in ((1280, 900), (390, 844)):
        set_viewport(driver, width, height)
        WebDriverWait(driver, 5).until(lambda d: d.execute_script("return innerWidth") == width)
        driver.find_element(By.ID, "replay-prev").click()
        time.sleep(0.4)  # the cards' turn
        fits = driver.execute_script(
            "const area = document.getElementById('replay-board-area'), root = document.documentElement;"
            "const cards = [...document.querySelectorAll(arguments[0])].map((c) => c.getBoundingClientRect());"
            "return {page: root.scrollWidth <= innerWidth + 1 && root.scrollHeight <= innerHeight + 1,"
            " inside: cards.every((r) => r.left >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5),"
            " area: area.scrollWidth <= area.clientWidth + 1};", REPLAY_CARDS)
        assert all(fits.values()), (width, height, fits)
        driver.save_screenshot(str(artifact(f"replay-{width}x{height}.png")))

    # Back to high scores: the lobby's tab, the row's Replay button focused.
    driver.find_element(By.ID, "replay-back").click()
    wait.until(lambda d: d.find_element(By.ID, "scores-panel").is_displayed())
    wait.until(lambda d: d.switch_to.active_element.get_attribute("class") == "replay small")
    assert driver.execute_script("return document.activeElement.closest('tr').dataset.record") == record["id"]
    assert driver.execute_script("return location.hash") in ("", "#/")

    # The replay's address opens it directly.
    driver.get(f"{server.http_url}#/replay/{record['id']}")
    wait.until(lambda d: d.find_element(By.ID, "replay").is_displayed()
               and text_of(d, "replay-step") == f"Move 0 of {moves}")
    driver.get(f"{server.http_url}#/replay/g999999")
    wait.until(lambda d: text_of(d, "replay-message") == "That game is not kept on this server.")
    assert not severe_errors(driver), severe_errors(driver)


def test_a_server_without_records_says_so(browsers):
    running = RunningServer(extra_args=["--no-journal"])
    try:
        driver = browsers()
        driver.get(running.http_url)
        driver.find_element(By.ID, "tab-scores").click()
        WebDriverWait(driver, 10).until(lambda d: text_of(d, "scores-empty") == "This server keeps no records of finished games.")
        assert not driver.find_element(By.ID, "scores").is_displayed()
        assert not driver.find_element(By.ID, "scores-pager").is_displayed()
        assert not severe_errors(driver), severe_errors(driver)
    finally:
        running.stop()


def test_no_finished_games_yet_is_said_in_place_of_the_table(server, browsers):
    driver = browsers()
    driver.get(server.http_url)
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="matchismo"]').click()
    driver.find_element(By.ID, "tab-scores").click()
    WebDriverWait(driver, 10).until(lambda d: text_of(d, "scores-empty").startswith("No finished Matchismo games yet"))
    assert text_of(driver, "scores-title") == "Matchismo high scores"
    driver.find_element(By.ID, "scores-mine").click()
    WebDriverWait(driver, 10).until(lambda d: text_of(d, "scores-empty") == "You have not finished a Matchismo game here yet.")
    # The hello carried this browser's token, made once and kept.
    token = driver.execute_script("return localStorage.getItem('matchismo.player')")
    assert len(token) == 22 and all(c.isalnum() or c in "-_" for c in token)
    driver.refresh()
    assert driver.execute_script("return localStorage.getItem('matchismo.player')") == token
    assert not severe_errors(driver), severe_errors(driver)
