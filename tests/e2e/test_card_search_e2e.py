"""The first page in a real browser: card database status and did-you-mean search."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait


def test_first_page_shows_cards_and_suggests_names(live_server, browser):
    browser.get(live_server + "/")
    status = browser.find_element(By.ID, "card-status").text
    assert "cards" in status and "starter" in status
    box = browser.find_element(By.NAME, "q")
    box.send_keys("Lightnign Bolt", Keys.ENTER)
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.ID, "card-suggestions")))
    browser.find_element(By.LINK_TEXT, "Lightning Bolt").click()
    result = WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.ID, "card-result")))
    assert "Lightning Bolt" in result.text and "Instant" in result.text
