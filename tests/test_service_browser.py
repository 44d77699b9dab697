"""The analysis page in a real headless browser (Debian's chromium + chromedriver, via selenium).

Skips when no browser is installed; ``.ci/run`` installs one when it can. The last screenshot
goes to tests/artifacts/service_page.png (git-ignored): look at it after changing the page.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

webdriver = pytest.importorskip("selenium.webdriver")
pytest.importorskip("uvicorn")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as seen  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from bgengine.service.app import create_app  # noqa: E402
from bgengine.service.background import background_server  # noqa: E402

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")
ARTIFACTS = Path(__file__).parent / "artifacts"
#: A position the page does not load by itself: a 5-point match, the player on roll to play 52.
XGID = "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:4:0:9:10"

pytestmark = pytest.mark.skipif(not (BROWSER and DRIVER), reason="needs chromium and chromedriver")


@pytest.fixture(scope="module")
def server_url():
    with background_server(create_app()) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1300,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=DRIVER))
    yield driver
    driver.quit()


def test_pasting_an_xgid_shows_the_board_ranked_moves_and_cube_advice(server_url, browser):
    browser.get(server_url + "/")
    wait = WebDriverWait(browser, 30)
    wait.until(seen.presence_of_element_located((By.CSS_SELECTOR, "#moves tbody tr")))  # the example loaded
    field = browser.find_element(By.ID, "position")
    field.clear()
    field.send_keys(XGID)
    browser.find_element(By.ID, "analyze").click()
    wait.until(seen.text_to_be_present_in_element((By.ID, "moves-note"), "52:"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#moves tbody tr")
    assert len(rows) > 5
    first = rows[0].find_elements(By.TAG_NAME, "td")
    assert first[0].text == "1" and first[3].text == "0.000"  # the best play, no loss to itself
    assert browser.find_element(By.ID, "cube-action").text  # e.g. "No double / take"
    assert "9-point match, 2-4" in browser.find_element(By.ID, "board-caption").text
    assert browser.find_element(By.CSS_SELECTOR, "#board-view svg")
    assert not browser.find_element(By.ID, "error").is_displayed()

    rows[1].click()  # the second play: the board shows the position after it
    second = rows[1].find_elements(By.TAG_NAME, "td")[1].text
    wait.until(seen.text_to_be_present_in_element((By.ID, "board-caption"), f"After {second}"))
    assert "picked" in rows[1].get_attribute("class")
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "service_page.png"))


def test_a_rollout_from_the_page_fills_the_progress_bar_and_shows_the_result(server_url, browser):
    browser.get(server_url + "/")
    wait = WebDriverWait(browser, 60)
    wait.until(seen.presence_of_element_located((By.CSS_SELECTOR, "#moves tbody tr")))
    field = browser.find_element(By.ID, "position")
    field.clear()
    field.send_keys("4HPwATDgc/ABMA")  # before the roll: one rollout of the position
    browser.find_element(By.ID, "analyze").click()
    trials = browser.find_element(By.ID, "trials")
    trials.clear()
    trials.send_keys("72")
    browser.find_element(By.ID, "seed").send_keys("3")
    browser.find_element(By.ID, "rollout-start").click()
    wait.until(seen.text_to_be_present_in_element((By.ID, "rollout-status"), "Done"))
    assert browser.find_element(By.ID, "rollout-progress").get_attribute("value") == "1"
    result = browser.find_element(By.ID, "rollout-result").text
    assert "Before the roll" in result and "72" in result
    browser.save_screenshot(str(ARTIFACTS / "service_rollout.png"))
