"""What the browser tests of the web client's own features share: a solo Set table in headless
Chromium against the real server, an exact viewport, colours and the console's errors."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait


CARDS = "#board .card"


def severe_errors(driver):
    return [e for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and e.get("source") != "network"]


def set_viewport(driver, width, height, mobile=False):
    """An exact CSS viewport (a headless window cannot be narrower than 500 px)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def with_motion(driver, motion=True):
    """Motion on (or, with False, reduced) in the current tab, whatever the browser was started
    with: the pass's browsers ask for reduced motion (conftest.py)."""
    value = "no-preference" if motion else "reduce"
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-reduced-motion", "value": value}]})


def play_solo(driver, url, cards=12, scoring="course"):
    """A solo Set table; course scoring unless told (the tests here count its points)."""
    driver.get(url)
    driver.find_element(By.ID, "name").send_keys("Kim")
    Select(driver.find_element(By.ID, "opt-scoring")).select_by_value(scoring)
    if cards != 12:
        Select(driver.find_element(By.ID, "opt-boardSize")).select_by_value(str(cards))
    driver.find_element(By.ID, "play-solo").click()
    WebDriverWait(driver, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, CARDS)) >= cards)


def luminance(css_color):
    """Relative luminance of a computed `rgb(r, g, b)` colour."""
    r, g, b = [int(float(x)) for x in css_color[css_color.index("(") + 1:css_color.index(")")].split(",")[:3]]
    lin = [(c / 255) / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


PAGE_BACKGROUND = "return getComputedStyle(document.documentElement).backgroundColor"


def artifact(name):
    import pathlib
    folder = pathlib.Path(__file__).resolve().parent.parent / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder / name
