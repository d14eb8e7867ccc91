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
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from mp_support import FAST, start_server  # noqa: F401  (a fixture)
from test_browser_games import severe_errors, start_concentration_for_two
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
