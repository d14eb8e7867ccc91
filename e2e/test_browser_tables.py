"""A table's screen in headless Chromium against the real server: settings chosen in the lobby and
shown at the table, the history view, a set taken by someone faster, two fingers zooming the
board, and hidden selections."""
import re
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from browser_games import CARDS, CODE, card, kind, open_lobby, play_solo, record_sockets, severe_errors, table_barrier, text_of
from mp_support import FAST, start_server  # noqa: F401  (a fixture)


def test_a_table_is_created_with_settings_and_shows_them(server, browsers):
    driver = browsers()
    open_lobby(driver, server.http_url, "Kim", "set", {"scoring": "classic", "boardSize": 15})
    Select(driver.find_element(By.ID, "seats")).select_by_value("2")
    driver.find_element(By.ID, "create-private").click()
    WebDriverWait(driver, 15).until(lambda d: text_of(d, "table-settings-text") != "")
    assert text_of(driver, "table-settings-text") == "Classic scoring · 15 cards"
    # The other games' forms: what the lobby offers.
    driver.find_element(By.ID, "leave").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="concentration"]').click()
    themes = [o.text for o in Select(driver.find_element(By.ID, "opt-theme")).options]
    assert themes == ["Animals", "Food", "Sports", "Travel", "Weather", "Music"]
    # Solo Set with 18 cards deals 18.
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="set"]').click()
    Select(driver.find_element(By.ID, "opt-boardSize")).select_by_value("18")
    driver.find_element(By.ID, "play-solo").click()
    WebDriverWait(driver, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, CARDS)) >= 18)
    assert "18 cards" in text_of(driver, "table-settings-text")
    assert not severe_errors(driver), severe_errors(driver)


def test_the_history_view_opens_with_h_and_lists_matches_and_mismatches(server, browsers):
    driver = browsers()
    driver.set_window_size(1280, 457)  # a short list, so that it scrolls (a 1280×600 window's viewport)
    play_solo(driver, server.http_url, "matchismo", cards=24)
    body = driver.find_element(By.CSS_SELECTOR, "body")
    body.send_keys("h")
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "history-view").is_displayed())
    assert not driver.find_element(By.ID, "board-area").is_displayed()
    assert driver.find_element(By.ID, "history-empty").is_displayed()
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    WebDriverWait(driver, 5).until(lambda d: not d.find_element(By.ID, "history-view").is_displayed())
    assert driver.find_element(By.ID, "board-area").is_displayed()

    # Two choices: a match or a mismatch either way, which the history should list.
    card(driver, 2).click()
    WebDriverWait(driver, 5).until(lambda d: kind(d, 2) == "playing")
    card(driver, 3).click()
    WebDriverWait(driver, 5).until(lambda d: "match" in text_of(d, "status"))
    driver.find_element(By.ID, "history-button").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "history-view").is_displayed())
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#history-list li"))
    row = driver.find_element(By.CSS_SELECTOR, "#history-list li")
    assert row.find_element(By.CSS_SELECTOR, ".h-n").text == "1."
    assert re.match(r"^\d+:\d\d$", row.find_element(By.CSS_SELECTOR, ".h-time").text)
    assert len(row.find_elements(By.CSS_SELECTOR, ".run-playing")) == 2
    points = row.find_element(By.CSS_SELECTOR, ".h-points")
    assert re.match(r"^(\+\d+|−\d+|0)$", points.text), points.text
    assert ("gain" in points.get_attribute("class")) == points.text.startswith("+")
    assert not driver.find_element(By.ID, "history-empty").is_displayed()

    # The board keeps changing under the open history: rows are appended, and a reader scrolled
    # up stays where they are; at the bottom, the list follows the new rows.
    def choose_hidden(slot):
        driver.execute_script("document.querySelector(arguments[0]).click()", f'{CARDS}[data-card-id="{slot}"]')

    def rows():
        return len(driver.find_elements(By.CSS_SELECTOR, "#history-list li"))

    def scroll(script):
        return driver.execute_script(f"const l = document.getElementById('history-list'); {script}")

    first_row = driver.find_element(By.CSS_SELECTOR, "#history-list li")
    slots = iter(s for s in range(4, 24))

    def play_until(count):
        for slot in slots:
            if rows() >= count:
                return
            if "matched" in card(driver, slot).get_attribute("class"):
                continue
            choose_hidden(slot)
            WebDriverWait(driver, 5).until(lambda d: d.execute_script(
                "return document.querySelectorAll('#board .card.pending').length") == 0)
        assert rows() >= count, rows()

    play_until(9)  # more rows than the list shows at this window size
    assert scroll("return l.scrollHeight > l.clientHeight + 20;"), "the list overflows"
    assert scroll("return l.scrollHeight - l.scrollTop - l.clientHeight;") < 8, "at the bottom it follows"
    scroll("l.scrollTop = 0;")
    play_until(rows() + 2)
    assert scroll("return l.scrollTop;") == 0, "a reader scrolled up stays there"
    assert first_row == driver.find_element(By.CSS_SELECTOR, "#history-list li"), "rows are appended, not redrawn"
    numbers = [int(e.get_attribute("data-n")) for e in driver.find_elements(By.CSS_SELECTOR, "#history-list li")]
    assert numbers == list(range(1, len(numbers) + 1))
    driver.find_element(By.ID, "history-back").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "board-area").is_displayed())
    assert not severe_errors(driver), severe_errors(driver)


def test_a_set_taken_by_someone_faster_says_who_took_it(start_server, browsers):
    """Ann (the browser) has chosen a card; Bob (a plain WebSocket client) claims a set with it."""
    import itertools
    import json

    from websockets.sync.client import connect
    from table_state import set_from_ids

    server = start_server(*FAST)
    ann = browsers()
    open_lobby(ann, server.http_url, "Ann", "set")
    Select(ann.find_element(By.ID, "seats")).select_by_value("2")
    ann.find_element(By.ID, "create-private").click()
    WebDriverWait(ann, 15).until(lambda d: CODE.match(text_of(d, "table-code")))
    code = text_of(ann, "table-code")
    with connect(server.ws_url, subprotocols=["matchismo.v2"], open_timeout=10) as bob:
        bob.send(json.dumps({"type": "hello", "id": 1, "name": "Bob"}))
        bob.send(json.dumps({"type": "join", "id": 2, "code": code}))
        board = None
        deadline = time.monotonic() + 15
        while board is None and time.monotonic() < deadline:
            message = json.loads(bob.recv(timeout=10))
            for event in message.get("events", []):
                if event.get("kind") == "redeal":
                    board = [c["id"] for c in event["board"]]
        assert board, "the game started"
        WebDriverWait(ann, 15).until(lambda d: d.find_element(By.ID, "table").get_attribute("data-phase") == "playing")
        triple = next(t for t in itertools.combinations(board, 3) if set_from_ids(*t))
        card(ann, triple[0]).click()
        WebDriverWait(ann, 5).until(lambda d: card(d, triple[0]).get_attribute("aria-pressed") == "true")
        for i, card_id in enumerate(triple):
            bob.send(json.dumps({"type": "choose", "id": 10 + i, "card": card_id}))
        WebDriverWait(ann, 5).until(lambda d: d.find_element(By.ID, "toast").is_displayed()
                                    and "took" in d.find_element(By.ID, "toast").text)
        assert ann.find_element(By.ID, "toast").text == "Bob took that set"
    assert not severe_errors(ann), severe_errors(ann)


def test_two_fingers_zoom_the_board_and_reset_puts_it_back(server, browsers):
    driver = browsers()
    record_sockets(driver)
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    play_solo(driver, server.http_url, "matchismo", cards=24)
    box = driver.execute_script(
        "const r = document.getElementById('board-area').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2

    def touch(kind, spread):
        points = [] if kind == "touchEnd" else [
            {"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}]
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def scale():
        return driver.execute_script("return new DOMMatrix(getComputedStyle(document.getElementById('board')).transform).a")

    assert scale() == 1
    assert not driver.find_element(By.ID, "zoom-reset").is_displayed()
    touch("touchStart", 50)
    for spread in (60, 80, 100):
        touch("touchMove", spread)
    touch("touchEnd", 0)
    assert abs(scale() - 2) < 0.05, scale()
    # The pinch chose no card: a choice would have been answered before the barrier line is.
    table_barrier(driver)
    assert not driver.find_elements(By.CSS_SELECTOR, f'{CARDS}[data-kind="playing"]')
    reset = driver.find_element(By.ID, "zoom-reset")
    assert reset.is_displayed()
    reset.click()
    assert scale() == 1 and not reset.is_displayed()
    assert not severe_errors(driver), severe_errors(driver)


def test_hidden_selections_keep_each_players_picks_to_themselves(start_server, browsers):
    server = start_server(*FAST)
    ann, bob = browsers(), browsers()
    open_lobby(ann, server.http_url, "Ann", "set")
    Select(ann.find_element(By.ID, "seats")).select_by_value("2")
    # The form offers the setting with others (Set and Matchismo), shown by default.
    picks = Select(ann.find_element(By.ID, "opt-showSelections"))
    assert [o.text for o in picks.options] == ["shown", "hidden"]
    assert picks.first_selected_option.text == "shown"
    picks.select_by_visible_text("hidden")
    ann.find_element(By.ID, "create-private").click()
    WebDriverWait(ann, 15).until(lambda d: CODE.match(text_of(d, "table-code")))
    code = text_of(ann, "table-code")
    bob.get(server.http_url)
    bob.find_element(By.ID, "name").send_keys("Bob")
    bob.get(server.http_url + f"#/t/{code}")
    for driver in (ann, bob):
        WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, "table").get_attribute("data-phase") == "playing")
        WebDriverWait(driver, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, CARDS)) >= 12)
        assert "opponents’ picks hidden" in text_of(driver, "table-settings-text")
    ids = [e.get_attribute("data-card-id") for e in ann.find_elements(By.CSS_SELECTOR, CARDS)]
    first, second = ids[0], ids[1]
    ann.find_element(By.CSS_SELECTOR, f'{CARDS}[data-card-id="{first}"]').click()
    WebDriverWait(ann, 5).until(
        lambda d: "selected" in d.find_element(By.CSS_SELECTOR, f'{CARDS}[data-card-id="{first}"]').get_attribute("class"))
    WebDriverWait(bob, 5).until(lambda d: "Ann chose a card." in text_of(d, "status"))
    bob.find_element(By.CSS_SELECTOR, f'{CARDS}[data-card-id="{second}"]').click()
    WebDriverWait(bob, 5).until(
        lambda d: "selected" in d.find_element(By.CSS_SELECTOR, f'{CARDS}[data-card-id="{second}"]').get_attribute("class"))
    WebDriverWait(ann, 5).until(lambda d: "Bob chose a card." in text_of(d, "status"))
    # Neither board marks the other player's card: no ring, no "chosen by" seats.
    for driver, theirs in ((ann, second), (bob, first)):
        other = driver.find_element(By.CSS_SELECTOR, f'{CARDS}[data-card-id="{theirs}"]')
        assert other.get_attribute("data-selected-by") is None, driver
        assert "others-selected" not in other.get_attribute("class")
        assert "selected" not in other.get_attribute("class").split()
    assert not severe_errors(ann) and not severe_errors(bob), (severe_errors(ann), severe_errors(bob))
