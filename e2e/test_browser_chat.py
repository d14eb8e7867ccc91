"""Chat in headless Chromium against the real server (issue 21), at 1280×900 in the light theme
and 390×844 in the dark one: two players in two browsers at one table and a spectator (a plain
WebSocket client). A line with markup shows as its text in every page, never as elements; the
Chat button counts unread lines; a spectator's line says "watching", and a player who hides the
spectators' chat stops seeing it; a player who mutes another stops seeing their lines (checked
behind a barrier: the player's own line, answered after them); a line over 200 characters is
refused by the input, saying why."""
import json
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from mp_support import FAST, start_server  # noqa: F401  (a fixture)
from browser_games import CARDS, CODE, open_lobby, record_sockets, severe_errors, start_concentration_for_two
from test_browser_rough_edges import SIZES, Seat, artifact, open_page, text_of

MARKUP = '<b>bold</b> <img src=x onerror="window.pwned=1"> & &amp;'


def chat_lines(driver):
    return driver.execute_script("""
      return [...document.querySelectorAll('#chat-lines li')].map((li) => ({
        name: li.querySelector('.name').textContent, who: li.querySelector('.who')?.textContent ?? '',
        text: li.querySelector('.text').textContent,
        markup: li.querySelectorAll('.text *').length }));""")


def say(driver, text):
    field = driver.find_element(By.ID, "chat-input")
    field.send_keys(text)
    field.send_keys(Keys.ENTER)


def open_chat(driver):
    if driver.find_element(By.ID, "chat-view").is_displayed():
        return
    button = driver.find_element(By.ID, "chat-button")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "chat-view").is_displayed())


def wait_for_line(client, text, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = json.loads(client.ws.recv(timeout=timeout))
        if message.get("type") == "chat" and message.get("text") == text:
            return message
    raise AssertionError(f"no line {text!r}")


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_two_players_and_a_spectator_chat_as_text_with_mute_and_hide(start_server, browsers, width, height, theme):
    server = start_server(*FAST)
    ann, bob = browsers(), browsers()
    for driver in (ann, bob):
        open_page(driver, server.http_url, width, height, theme)
    start_concentration_for_two(server, ann, bob)
    code = text_of(ann, "table-code")
    eve = Seat(server.ws_url, "someoneElse00000000B2", "Eve")
    try:
        assert eve.request({"type": "spectate", "code": code})["type"] == "snapshot"

        # Bob says something with markup; Ann's Chat button counts it, and it shows as text.
        open_chat(bob)
        say(bob, MARKUP)
        WebDriverWait(ann, 10).until(lambda d: text_of(d, "chat-unread") == "1")
        open_chat(ann)
        WebDriverWait(ann, 10).until(lambda d: [line["text"] for line in chat_lines(d)] == [MARKUP])
        line = chat_lines(ann)[0]
        assert line["name"] == "Bob" and line["who"] == "Seat 2" and line["markup"] == 0, line
        assert ann.execute_script("return window.pwned === undefined && !document.querySelector('#chat-lines img, #chat-lines b')")
        assert wait_for_line(eve, MARKUP)["seat"] == 1

        # The spectator's line says so; a player who hides the spectators' chat no longer sees it.
        eve.request({"type": "chat", "text": "watching you two"})
        WebDriverWait(ann, 10).until(lambda d: any(l["who"] == "watching" for l in chat_lines(d)))
        ann.find_element(By.ID, "chat-hide").click()
        WebDriverWait(ann, 5).until(lambda d: all(l["who"] != "watching" for l in chat_lines(d)))
        WebDriverWait(bob, 10).until(lambda d: any(l["text"] == "watching you two" for l in chat_lines(d)))

        # Ann mutes Bob: his next line does not show for her (her own line, answered after it,
        # is the barrier), but does for the spectator.
        mute = ann.find_element(By.CSS_SELECTOR, '#chat-lines button.mute[data-mute="Bob"]')
        mute.click()
        WebDriverWait(ann, 5).until(lambda d: chat_lines(d) == [])
        assert "Unmute Bob" in ann.find_element(By.ID, "chat-muted").get_attribute("innerHTML")
        say(bob, "can you hear me")
        wait_for_line(eve, "can you hear me")
        say(ann, "a barrier")
        WebDriverWait(ann, 10).until(lambda d: [l["text"] for l in chat_lines(d)] == ["a barrier"])

        # Too long: refused by the input, saying why, and nothing sent.
        say(ann, "x" * 201)
        WebDriverWait(ann, 5).until(lambda d: "at most 200" in text_of(d, "chat-problem"))
        right = ann.execute_script("return document.getElementById('chat-view').getBoundingClientRect().right")
        assert right <= width + 0.5, right
        assert ann.execute_script("return document.documentElement.scrollWidth <= innerWidth + 1")
        ann.save_screenshot(artifact(f"chat-ann-{width}x{height}-{theme}.png"))
        bob.save_screenshot(artifact(f"chat-bob-{width}x{height}-{theme}.png"))
        assert not severe_errors(ann) and not severe_errors(bob), (severe_errors(ann), severe_errors(bob))
    finally:
        eve.close()


def texts(driver):
    return [line["text"] for line in chat_lines(driver)]


def shown(driver, element_id):
    return driver.find_element(By.ID, element_id).is_displayed()


def click(driver, element_id):
    element = driver.find_element(By.ID, element_id)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def table_state(driver):
    """What a card chosen by a key would change: the status line, the flips, whose turn."""
    return (text_of(driver, "status"), text_of(driver, "flips"), text_of(driver, "turn-text"))


def say_until_taken(driver, text, timeout=15):
    """Says `text` (typed into the table's input) again whenever the server refused it as too
    fast, until it is said."""
    field = driver.find_element(By.ID, "chat-input")
    field.send_keys(Keys.ENTER)

    def taken(d):
        if text in texts(d):
            return True
        if shown(d, "chat-problem") and "too fast" in text_of(d, "chat-problem"):
            field.send_keys(Keys.ENTER)  # a line still on its way is not sent twice
        return False
    WebDriverWait(driver, timeout, poll_frequency=0.3).until(taken)


def start_untimed_concentration(server, ann, bob):
    """Ann creates a 2-seat Concentration table with no turn limit (a turn that ran out would
    change the table under a test that checks keys change nothing); Bob joins by its link."""
    open_lobby(ann, server.http_url, "Ann", "concentration", {"boardSize": 8, "turnSeconds": 0})
    Select(ann.find_element(By.ID, "seats")).select_by_value("2")
    ann.find_element(By.ID, "create-private").click()
    WebDriverWait(ann, 15).until(lambda d: CODE.match(text_of(d, "table-code")))
    bob.get(server.http_url)
    bob.find_element(By.ID, "name").send_keys("Bob")
    bob.get(server.http_url + f"#/t/{text_of(ann, 'table-code')}")
    for driver in (ann, bob):
        WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, "table").get_attribute("data-phase") == "playing")
        WebDriverWait(driver, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, CARDS)) == 8 and text_of(d, "turn-text") != "")


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_chat_keys_panels_refusals_resync_and_leaving(start_server, browsers, width, height, theme):
    server = start_server(*FAST)
    ann, bob = browsers(), browsers()
    record_sockets(bob)
    for driver in (ann, bob):
        open_page(driver, server.http_url, width, height, theme)
    start_untimed_concentration(server, ann, bob)
    eve = Seat(server.ws_url, "someoneElse00000000B2", "Eve")
    try:
        assert eve.request({"type": "spectate", "code": text_of(ann, "table-code")})["type"] == "snapshot"
        # Whoever has the turn types card keys (1, 2, h, r) into the chat: none is a shortcut.
        mover, other = (ann, bob) if text_of(ann, "turn-text") == "Your turn" else (bob, ann)
        before = table_state(mover)
        open_chat(mover)
        assert mover.switch_to.active_element.get_attribute("id") == "chat-input"
        say(mover, "12 hr")
        WebDriverWait(mover, 10).until(lambda d: texts(d) == ["12 hr"])  # the barrier: its answer
        assert table_state(mover) == before and not shown(mover, "history-view")
        # A key typed elsewhere in the open panel goes to its input, not to the board.
        mover.find_element(By.ID, "chat-title").click()
        ActionChains(mover).send_keys("3").perform()
        WebDriverWait(mover, 5).until(lambda d: d.switch_to.active_element.get_attribute("id") == "chat-input")
        say(mover, "x")
        WebDriverWait(mover, 10).until(lambda d: texts(d) == ["12 hr", "3x"])  # the 3 went to the input
        assert table_state(mover) == before
        # Escape closes the panel and gives the keyboard back to its button.
        mover.find_element(By.ID, "chat-input").send_keys(Keys.ESCAPE)
        WebDriverWait(mover, 5).until(lambda d: not shown(d, "chat-view"))
        assert mover.switch_to.active_element.get_attribute("id") == "chat-button"
        assert table_state(mover) == before

        # The chat panel and the history view take one place: opening one closes the other.
        open_chat(mover)
        click(mover, "history-button")
        WebDriverWait(mover, 5).until(lambda d: shown(d, "history-view") and not shown(d, "chat-view"))
        click(mover, "chat-button")
        WebDriverWait(mover, 5).until(lambda d: shown(d, "chat-view") and not shown(d, "history-view"))
        box = mover.execute_script("const r = document.getElementById('chat-view').getBoundingClientRect();"
                                   "return [r.left, r.right, r.width, innerWidth];")
        assert box[0] >= 0 and box[1] <= box[3] + 0.5 and box[2] > 200, box
        mover.save_screenshot(artifact(f"chat-panel-{width}x{height}-{theme}.png"))

        # Too fast: the line refused stays in the input and the problem is said under it.
        mover.execute_script("""
          const input = document.getElementById('chat-input'), form = document.getElementById('chat-form');
          for (let i = 1; i <= 8; i += 1) { input.value = `burst ${i}`; form.requestSubmit(); }
          input.value = 'kept line'; form.requestSubmit();""")
        WebDriverWait(mover, 10).until(lambda d: shown(d, "chat-problem") and "too fast" in text_of(d, "chat-problem"))
        field = mover.find_element(By.ID, "chat-input")
        assert field.get_attribute("value") == "kept line"
        assert text_of(mover, "lobby-chat-problem") == "", "the lobby's input has its own problem line"
        field.send_keys("!")
        WebDriverWait(mover, 5).until(lambda d: not shown(d, "chat-problem"))  # edited: the problem goes
        say_until_taken(mover, "kept line!")
        assert field.get_attribute("value") == "" and not shown(mover, "chat-problem")
        assert texts(mover).count("kept line!") == 1
        # All spaces (the server's whitespace): not a line, said so, nothing sent.
        field.send_keys("\u3000 \u00a0")
        field.send_keys(Keys.ENTER)
        WebDriverWait(mover, 5).until(lambda d: "Type something" in text_of(d, "chat-problem"))

        # The log is a polite live region that grows row by row, and keeps a reader's place.
        log = "document.getElementById('chat-lines')"
        assert mover.execute_script(f"return {log}.getAttribute('aria-live')") == "polite"
        mover.execute_script(f"{log}.style.maxHeight = '60px'; {log}.scrollTop = 0; {log}.firstElementChild.id = 'first-row';")
        eve.request({"type": "chat", "text": "reading up"})
        WebDriverWait(mover, 10).until(lambda d: "reading up" in texts(d))
        assert mover.execute_script(f"return {log}.scrollTop") == 0, "the reader's place is kept"
        assert mover.execute_script(f"return {log}.firstElementChild.id") == "first-row", "the rows drawn stay"
        mover.execute_script(f"{log}.scrollTop = {log}.scrollHeight")
        eve.request({"type": "chat", "text": "at the bottom"})
        WebDriverWait(mover, 10).until(lambda d: "at the bottom" in texts(d))
        assert mover.execute_script(f"const l = {log}; return l.scrollHeight - l.scrollTop - l.clientHeight < 24")

        # A resync's snapshot carries every line: the other player's page adds none twice, and
        # its unread count stays what was unread (its own line, answered after, is the barrier).
        seen = texts(other)
        unread = text_of(other, "chat-unread")
        assert seen and unread == str(len(seen)), (seen, unread)
        other.execute_script("""
          const socket = window.__sockets.at(-1);
          socket.send(JSON.stringify({type: 'resync', id: 900001}));
          socket.send(JSON.stringify({type: 'chat', id: 900002, text: 'after the resync'}));""")
        WebDriverWait(other, 10).until(lambda d: "after the resync" in texts(d))
        assert texts(other) == seen + ["after the resync"]
        assert text_of(other, "chat-unread") == unread

        # Leaving the table drops its chat: the next table shows none of it, and no unread count.
        click(other, "leave")
        WebDriverWait(other, 5).until(lambda d: shown(d, "confirm-leave"))
        other.find_element(By.ID, "confirm-leave-yes").click()
        WebDriverWait(other, 10).until(lambda d: shown(d, "lobby"))
        click(other, "play-solo")
        WebDriverWait(other, 15).until(lambda d: shown(d, "table") and d.find_elements(By.CSS_SELECTOR, CARDS))
        assert not shown(other, "chat-unread") and texts(other) == []
        open_chat(other)
        assert shown(other, "chat-empty")
        assert not severe_errors(ann) and not severe_errors(bob), (severe_errors(ann), severe_errors(bob))
    finally:
        eve.close()


def test_lobby_chat_under_the_name_typed_with_unmute_and_its_own_problem_line(server, browsers):
    ann, bob = browsers(), browsers()
    for driver, name in ((ann, "Ann"), (bob, "Bob")):
        # The page says hello under the name it remembers, and lists the tables. (The session it
        # resumes is the first load's, which had no name: the server knows it as Player.)
        driver.get(server.http_url)
        driver.execute_script("localStorage.setItem('matchismo.name', arguments[0])", name)
        driver.get(server.http_url)
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "online"
                                        and text_of(d, "tables-empty") != "Loading tables…")
    eve = Seat(server.ws_url, "someoneElse00000000B2", "Eve")
    try:
        eve.request({"type": "lobby"})
        lobby_lines = "return [...document.querySelectorAll('#lobby-chat-lines li')].map((li) => [li.querySelector('.name').textContent, li.querySelector('.text').textContent])"
        # Ann edits her name after the page said hello: her line is said under the new one.
        name = ann.find_element(By.ID, "name")
        name.clear()
        name.send_keys("Annie")
        field = ann.find_element(By.ID, "lobby-chat-input")
        field.send_keys("hello lobby", Keys.ENTER)
        assert wait_for_line(eve, "hello lobby")["name"] == "Annie"
        WebDriverWait(ann, 10).until(lambda d: d.execute_script(lobby_lines) == [["Annie", "hello lobby"]])
        assert field.get_attribute("value") == ""
        WebDriverWait(bob, 10).until(lambda d: d.execute_script(lobby_lines) == [["Annie", "hello lobby"]])

        # Bob mutes Annie: her next line does not show (his own line, answered after it, is the
        # barrier), and the lobby offers to unmute her, which shows it.
        bob.find_element(By.CSS_SELECTOR, '#lobby-chat-lines button.mute[data-mute="Annie"]').click()
        WebDriverWait(bob, 5).until(lambda d: d.execute_script(lobby_lines) == [])
        unmute = bob.find_element(By.CSS_SELECTOR, '#lobby-chat-muted button[data-mute="Annie"]')
        assert unmute.is_displayed() and unmute.text == "Unmute Annie"
        field.send_keys("can you hear me", Keys.ENTER)
        wait_for_line(eve, "can you hear me")
        bob.find_element(By.ID, "lobby-chat-input").send_keys("a barrier", Keys.ENTER)
        WebDriverWait(bob, 10).until(lambda d: d.execute_script(lobby_lines) == [["Bob", "a barrier"]])
        unmute.click()
        WebDriverWait(bob, 5).until(lambda d: [t for _, t in d.execute_script(lobby_lines)] == ["hello lobby", "can you hear me", "a barrier"])
        assert not shown(bob, "lobby-chat-muted")

        # The names muted are kept: a page opened again offers to unmute them at once.
        bob.find_element(By.CSS_SELECTOR, '#lobby-chat-lines button.mute[data-mute="Annie"]').click()
        bob.refresh()
        WebDriverWait(bob, 10).until(lambda d: shown(d, "lobby-chat-muted"))
        bob.find_element(By.CSS_SELECTOR, '#lobby-chat-muted button[data-mute="Annie"]').click()
        WebDriverWait(bob, 5).until(lambda d: not shown(d, "lobby-chat-muted"))

        # A line too long is refused under the lobby's input, which keeps it.
        bob_field = bob.find_element(By.ID, "lobby-chat-input")
        bob_field.send_keys("y" * 201, Keys.ENTER)
        WebDriverWait(bob, 5).until(lambda d: shown(d, "lobby-chat-problem") and "at most 200" in text_of(d, "lobby-chat-problem"))
        assert bob_field.get_attribute("value") == "y" * 201
        bob_field.send_keys(Keys.BACKSPACE)
        WebDriverWait(bob, 5).until(lambda d: not shown(d, "lobby-chat-problem"))
        assert not severe_errors(ann) and not severe_errors(bob), (severe_errors(ann), severe_errors(bob))
    finally:
        eve.close()
