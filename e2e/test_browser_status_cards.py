"""Issue 34, point 6: the status line and the history are easy to read and to hear, seen by a person
in headless Chromium against the real server, at 1280×900 in the light theme and 390×844 in the
dark one. After a miss at a solo Set table: each card is a small card frame of its own (the gap
between two cards is not the gap inside one), the player's name is marked in their seat's colour,
and each card is named in words ("three striped red squiggles") — in the status line, in the
history, and in Chromium's accessibility tree, where no card is heard as its symbols."""
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_games import severe_errors
from test_browser_rough_edges import SIZES, artifact, board_ids, mismatch, open_page, text_of

WORDS = re.compile(r"(one|two|three) (solid|striped|open) (red|green|purple) (diamond|squiggle|oval)s?")
SYMBOLS = re.compile("[◆∿⬬]")


def cards_and_names(driver, css):
    """The card frames and the name marks under `css`: each frame's label, box and symbols' box,
    and each name's text, seat, underline colour and the seat's colour."""
    return driver.execute_script("""
      const root = document.querySelector(arguments[0]);
      const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
      return {
        cards: [...root.querySelectorAll('.run-card')].map((e) => ({
          label: e.getAttribute('aria-label'), role: e.getAttribute('role'), box: box(e),
          inner: box(e.querySelector('svg')), border: getComputedStyle(e).borderTopWidth })),
        names: [...root.querySelectorAll('.run-name')].map((e) => ({
          text: e.textContent, seat: e.dataset.seat,
          underline: getComputedStyle(e).textDecorationColor,
          line: getComputedStyle(e).textDecorationLine,
          seatColor: getComputedStyle(e).getPropertyValue('--seat-color').trim() })),
      };""", css)


def rgb(color):
    """A CSS colour as Chromium computes it, from #rrggbb."""
    return "rgb({}, {}, {})".format(*(int(color[i:i + 2], 16) for i in (1, 3, 5)))


def check_line(seen, where):
    assert len(seen["cards"]) == 3, (where, seen)
    for card in seen["cards"]:
        assert card["role"] == "img" and WORDS.fullmatch(card["label"]), (where, card)
        assert card["border"] == "1px", (where, card)
        # The symbols sit inside their own frame.
        left, top, right, bottom = card["box"]
        inner = card["inner"]
        assert left < inner[0] and inner[2] < right, (where, card)
    # Frames stand apart: each begins after the one before it ends.
    boxes = sorted(card["box"] for card in seen["cards"])
    for before, after in zip(boxes, boxes[1:]):
        if abs(before[1] - after[1]) < 2:
            assert after[0] > before[2] + 1, (where, boxes)
    [name] = seen["names"]
    assert name["text"] == "Kim" and name["seat"] == "0", (where, name)
    assert "underline" in name["line"] and name["underline"] == rgb(name["seatColor"]), (where, name)


@pytest.mark.parametrize("width,height,theme", SIZES)
def test_cards_in_the_status_and_history_are_framed_named_in_words_and_names_in_seat_colours(
        server, browsers, width, height, theme):
    driver = browsers()
    open_page(driver, server.http_url, width, height, theme)
    driver.find_element(By.ID, "name").send_keys("Kim")
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="set"]').click()
    driver.find_element(By.ID, "play-solo").click()
    WebDriverWait(driver, 15).until(lambda d: len(board_ids(d)) >= 12)
    mismatch(driver)
    WebDriverWait(driver, 5).until(lambda d: "match" in text_of(d, "status"))
    check_line(cards_and_names(driver, "#status"), "status")
    driver.save_screenshot(artifact(f"status-cards-{width}x{height}-{theme}.png"))

    # What a screen reader gets: the status line's cards in words, and no card anywhere heard as
    # its symbols.
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    names = [node.get("name", {}).get("value", "") for node in tree if not node.get("ignored")]
    heard = [name for name in names if SYMBOLS.search(name)]
    assert not heard, heard
    images = [node.get("name", {}).get("value", "") for node in tree if node.get("role", {}).get("value") in ("image", "img")]
    roles = sorted({node.get("role", {}).get("value") for node in tree})
    status_labels = [card["label"] for card in cards_and_names(driver, "#status")["cards"]]
    assert all(label in images for label in status_labels), (status_labels, images, roles)

    driver.find_element(By.ID, "history-button").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#history-list li"))
    check_line(cards_and_names(driver, "#history-list li"), "history")
    driver.save_screenshot(artifact(f"history-cards-{width}x{height}-{theme}.png"))
    assert not severe_errors(driver), severe_errors(driver)
