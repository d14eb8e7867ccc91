"""A replay in headless Chromium against the real server: one of the finished games
(`browser_scores.finished`) is stepped through with its buttons, its slider and the keyboard, ends
on the recorded scores, and exports the record as JSON; its address opens it directly."""
import json
import pathlib
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_scores import (MINE, PAGE_SIZE, REPLAY_CARDS, Player, artifact, board_kinds, finished,  # noqa: F401 (a fixture)
                            open_scores, rows, set_viewport, severe_errors, text_of)


def step_of(driver):
    """The replay's move count, without its count of matches."""
    return text_of(driver, "replay-step").split(" · ")[0]


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
    assert step_of(driver) == f"Move 0 of {moves}"
    assert text_of(driver, "replay-time") == "0:00"
    assert board_kinds(driver) == ["down"] * 8
    # Read-only: the cards are pictures, not buttons, and carry no keys.
    assert driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].every((c) => c.getAttribute('role') === 'img'"
        " && c.tabIndex === -1 && !c.querySelector('.key-label'))", REPLAY_CARDS)
    driver.find_element(By.CSS_SELECTOR, REPLAY_CARDS).click()
    assert board_kinds(driver) == ["down"] * 8, "nothing is chosen in a replay"
    assert not driver.find_element(By.ID, "replay-first").is_enabled()
    # Step by pair (issue 34, point 10): to the move that made the first one, and back.
    assert text_of(driver, "replay-step").endswith(" · pair 0 of 4"), text_of(driver, "replay-step")
    assert driver.find_element(By.ID, "replay-next-set").get_attribute("aria-label") == "Next pair"
    driver.find_element(By.ID, "replay-next-set").click()
    wait.until(lambda d: text_of(d, "replay-step").endswith(" · pair 1 of 4"))
    assert board_kinds(driver).count("emoji*") == 2, board_kinds(driver)
    driver.find_element(By.ID, "replay-prev-set").click()
    wait.until(lambda d: step_of(d) == f"Move 0 of {moves}")

    # Next: the first card turned up, the status line says so; Previous: down again.
    driver.find_element(By.ID, "replay-next").click()
    wait.until(lambda d: step_of(d) == f"Move 1 of {moves}")
    assert board_kinds(driver).count("emoji") == 1
    assert slider.get_attribute("value") == "1"
    assert text_of(driver, "replay-status") != ""
    driver.find_element(By.ID, "replay-prev").click()
    wait.until(lambda d: board_kinds(d) == ["down"] * 8)
    # The keyboard: → and ← step (focus on a step button), the slider takes its own arrows and End.
    driver.find_element(By.ID, "replay-next").send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    wait.until(lambda d: step_of(d) == f"Move 2 of {moves}")
    driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    wait.until(lambda d: step_of(d) == f"Move 1 of {moves}")
    slider.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    wait.until(lambda d: step_of(d) == f"Move 3 of {moves}")
    assert slider.get_attribute("aria-valuetext").startswith(f"Move 3 of {moves} · pair ")
    at = record["moves"][2]["at"]
    assert text_of(driver, "replay-time") == f"{int(at) // 60}:{int(at) % 60:02d}"
    kinds_before = board_kinds(driver)
    slider.send_keys(Keys.END)
    wait.until(lambda d: step_of(d) == f"Move {moves} of {moves}")
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
    wait.until(lambda d: step_of(d) == f"Move {moves} of {moves}")
    # The button just disabled hands the keyboard to the slider.
    assert driver.switch_to.active_element.get_attribute("id") == "replay-slider"

    # The sections under the board keep their text off the window's edges.
    for heading in ("#replay-chat h3", "#replay-look-back > summary"):
        box = driver.execute_script(
            "const e = document.querySelector(arguments[0]); if (e.closest('[hidden]')) return null;"
            " const r = e.getBoundingClientRect(); return [r.left, window.innerWidth - r.right];", heading)
        assert box is None or min(box) >= 8, (heading, box)
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
               and step_of(d) == f"Move 0 of {moves}")
    driver.get(f"{server.http_url}#/replay/g999999")
    wait.until(lambda d: text_of(d, "replay-message") == "That game is not kept on this server.")
    assert not severe_errors(driver), severe_errors(driver)
