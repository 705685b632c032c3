"""The desk checks a player in from a receipt's QR code seen by the camera (Chromium's fake camera plays a
video of the receipt's QR code)."""
from __future__ import annotations

import textwrap
from pathlib import Path

import qrcode
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.conftest import STAFF_PASSWORD

SETUP = textwrap.dedent('''
    import json
    import sqlalchemy as sa
    from tournament import create_app
    from tournament.auth.models import User
    from tournament.events import operations as events
    from tournament.extensions import db
    app = create_app()
    with app.app_context():
        olga = db.session.execute(sa.select(User).where(User.name == "Olga")).scalar_one()
        event = events.create_event(olga, {"name": "Camera night", "ruleset": "edh-2010"})
        reg = events.register_player(event, {"name": "Zoë Müller"})
        db.session.commit()
        print(json.dumps({"event": event.id, "code": reg.access_code}))
''')


def qr_video(text: str, path: Path, width: int = 640, height: int = 480, frames: int = 30) -> Path:
    """A Y4M video (what Chromium's fake camera reads) showing one QR code, black on white."""
    qr = qrcode.QRCode(border=4)
    qr.add_data(text)
    matrix = qr.get_matrix()
    cell = min(width, height) * 9 // 10 // len(matrix)
    left, top = (width - cell * len(matrix)) // 2, (height - cell * len(matrix)) // 2
    luma = bytearray(b"\xeb" * (width * height))
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                for dy in range(cell):
                    start = (top + y * cell + dy) * width + left + x * cell
                    luma[start:start + cell] = b"\x10" * cell
    chroma = b"\x80" * (width * height // 4)
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{width} H{height} F10:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            f.write(b"FRAME\n" + bytes(luma) + chroma + chroma)
    return path


def test_the_desk_checks_a_player_in_from_the_camera(live_server, browser_factory, tmp_path):
    import json
    data = live_server.prepare(SETUP)
    video = qr_video(f"http://192.168.1.20:5000/p/{data['code']}", tmp_path / "receipt.y4m")
    browser = browser_factory(flags=("--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                                     f"--use-file-for-fake-video-capture={video}"))
    browser.get(live_server + "/auth/login")
    browser.find_element(By.NAME, "name").send_keys("Olga")
    browser.find_element(By.NAME, "password").send_keys(STAFF_PASSWORD, Keys.ENTER)
    WebDriverWait(browser, 10).until(lambda b: "/events" in b.current_url)
    browser.get(f"{live_server}/events/{data['event']}/desk")
    browser.find_element(By.ID, "camera-scan").click()
    WebDriverWait(browser, 20).until(
        lambda b: "Checked in: Zoë Müller" in b.find_element(By.ID, "desk-status").text)
    counter = browser.find_element(By.CSS_SELECTOR, '[data-counter="checked_in"]').text
    assert counter == "1"
