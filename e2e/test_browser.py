"""A person's view: headless Chromium plays a set on the drawn board."""
import itertools

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait


@pytest.fixture
def browser(browsers):
    return browsers()


# What a person sees on a card, read from the drawn SVG: how many symbols, which shape,
# how it is filled, and its colour.
READ_CARDS = """
return Array.from(document.querySelectorAll('#board .card')).map(card => {
  const uses = Array.from(card.querySelectorAll('use'));
  const first = uses[0];
  return {
    id: card.getAttribute('data-card-id'),
    count: uses.length,
    shape: first ? (first.getAttribute('href') || '') : '',
    fill: first ? (first.getAttribute('fill') || '') : '',
    stroke: first ? (first.getAttribute('stroke') || '') : '',
  };
});
"""


def shading_of(fill):
    if fill == "none":
        return "open"
    return "striped" if fill.startswith("url(") else "solid"


def is_set(a, b, c):
    for key in ("count", "shape", "shading", "stroke"):
        if len({a[key], b[key], c[key]}) == 2:
            return False
    return True


def test_player_finds_and_clicks_a_set(server, browser):
    browser.get(server.http_url)
    wait = WebDriverWait(browser, 15)
    browser.find_element(By.ID, "name").send_keys("Selenium")
    # The course's scoring (the form shows classic with its default of 4 seats): its points are
    # counted below.
    Select(browser.find_element(By.ID, "opt-scoring")).select_by_value("course")
    browser.find_element(By.ID, "play-solo").click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board .card")) >= 12)

    cards = browser.execute_script(READ_CARDS)
    for card in cards:
        card["shading"] = shading_of(card["fill"])
    assert all(1 <= c["count"] <= 3 and c["shape"] for c in cards), cards
    triple = next(t for t in itertools.combinations(cards, 3) if is_set(*t))

    score_before = browser.find_element(By.ID, "score").text
    status_before = browser.find_element(By.ID, "status").text
    for card in triple:
        element = browser.find_element(By.CSS_SELECTOR, f'#board .card[data-card-id="{card["id"]}"]')
        element.click()
        if card is not triple[-1]:
            wait.until(lambda d: d.find_element(
                By.CSS_SELECTOR, f'#board .card[data-card-id="{card["id"]}"]'
            ).get_attribute("aria-pressed") == "true")

    # 3 choices cost 3, the set earns 3 x 4 = 12: the score shown goes from 0 to 9.
    wait.until(lambda d: d.find_element(By.ID, "score").text.strip() == "9")
    assert score_before.strip() == "0"
    status = browser.find_element(By.ID, "status").text
    assert status != status_before and "matched" in status and "+12" in status
    # The three claimed cards left the board.
    ids_now = {c["id"] for c in browser.execute_script(READ_CARDS)}
    assert not ids_now & {c["id"] for c in triple}

    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    browser.save_screenshot(str(server_artifact("browser-after-set.png")))


def server_artifact(name):
    import pathlib
    folder = pathlib.Path(__file__).resolve().parent.parent / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder / name
