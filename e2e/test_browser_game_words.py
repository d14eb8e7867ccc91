"""Each game's words (issue 34, points 2 and 3), in headless Chromium against the real server:
Matchismo, two cards a match, says "No match … pick one more" after a miss that keeps the last
card chosen (it had said "No set … pick two more"); UltraSet's hint speaks of UltraSets and of
the two cards left to find (it had said "part of a set; find the third"). The texts come from
each game's definition (welcome's `games`)."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from mp_support import FAST, start_server  # noqa: F401  (a fixture)
from browser_games import CARDS, play_solo
from test_browser_rough_edges import text_of, toast_says


def test_matchismo_says_match_and_one_more_card_after_a_two_card_miss(start_server, browsers):
    server = start_server(*FAST)
    kim = browsers()
    play_solo(kim, server.http_url, "matchismo", {"matchSize": 2})
    seen = []
    for _ in range(40):
        slots = kim.execute_script(
            "return [...document.querySelectorAll(arguments[0] + ':not(.matched):not(.selected)')]"
            ".map((e) => e.getAttribute('data-card-id'));", CARDS)
        if not slots:
            break
        kim.find_element(By.CSS_SELECTOR, f'{CARDS}[data-card-id="{slots[0]}"]').click()
        try:
            WebDriverWait(kim, 1).until(
                lambda d: d.find_element(By.ID, "toast").is_displayed() and "stays chosen" in text_of(d, "toast"))
        except Exception:
            continue
        seen.append(text_of(kim, "toast"))
        break
    assert seen, "no miss that kept a card"
    assert seen[0].startswith("No match.") and "pick one more" in seen[0], seen[0]
    assert "set" not in seen[0].lower().replace("settings", ""), seen[0]


def test_ultraset_hints_speak_of_ultrasets(start_server, browsers):
    server = start_server(*FAST)
    kim = browsers()
    play_solo(kim, server.http_url, "ultraSet", cards=12)
    assert "UltraSet" in kim.find_element(By.ID, "hint").get_attribute("title")
    kim.find_element(By.ID, "hint").click()
    first = toast_says(kim, "UltraSet")
    assert "part of an UltraSet" in first, first
    kim.find_element(By.ID, "hint").click()
    second = toast_says(kim, "other two")
    assert "two outlined cards are part of an UltraSet; find the other two" in second, second


def test_the_points_shown_add_up_to_the_score_course_scoring(start_server, browsers):
    """Issue 34, point 5: course scoring, Set: a wrong triple said "don't match: −2" while the
    score dropped by 5 (each choice costs 1). The status and the history now say the whole
    change, and the settings line what a choice costs."""
    from selenium.webdriver.support.ui import Select
    from test_browser_rough_edges import mismatch, open_page
    server = start_server(*FAST)
    kim = browsers()
    open_page(kim, server.http_url, 1280, 900, "light")
    kim.find_element(By.ID, "name").send_keys("Kim")
    Select(kim.find_element(By.ID, "opt-scoring")).select_by_value("course")
    kim.find_element(By.ID, "play-solo").click()
    WebDriverWait(kim, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, CARDS)) >= 12)
    assert "a choice costs 1" in text_of(kim, "table-settings-text"), text_of(kim, "table-settings-text")
    mismatch(kim)
    WebDriverWait(kim, 5).until(lambda d: "don't match" in text_of(d, "status"))
    status = text_of(kim, "status")
    assert "don't match: −2, −3 for the choices." in status, status
    assert text_of(kim, "score") == "-5", text_of(kim, "score")
    kim.find_element(By.ID, "history-button").click()
    WebDriverWait(kim, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#history-list li"))
    entry = kim.find_element(By.CSS_SELECTOR, "#history-list li").text
    assert "−2" in entry and "−3 for the choices" in entry, entry
