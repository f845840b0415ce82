#!/usr/bin/env python3
"""The HTML lesson (embdemo --format html) in a real browser: Debian's chromium, headless,
driven through chromedriver by python3-selenium.

For the notebook lesson and grad: the page loads without console errors, exactly one step is
shown, the right arrow key and the Next button advance it and the left arrow goes back, the
rows of E outlined at each step are the ones that step is about (checked against ids written
here, not read from the page), the page does not overflow a phone's width, printing shows
every step, and screenshots at 1280x720 and at a phone's 390x844 are not blank (distinct
colours counted by decoding the PNG with the standard library).

Usage: html_lesson.py EMBDEMO OUTDIR. Exit 77 (skipped) when chromium, chromedriver or
selenium is missing: install them with tools/setup.sh.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77


def skip(message):
    print(f"SKIP: {message}; tools/setup.sh installs chromium, chromium-driver and python3-selenium")
    sys.exit(SKIP)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    skip("python3-selenium is not installed")

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
if not CHROMIUM or not DRIVER:
    skip("chromium or chromedriver is not installed")


def png_colours(path):
    """Distinct RGB colours of an 8-bit RGB/RGBA PNG, and the share of pixels that are not white."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, kind = 8, b"", 0, 0, 0
    while pos < len(data):
        length, tag = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if tag == b"IHDR":
            width, height, depth, kind = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and kind in (2, 6), f"unexpected PNG format {depth}/{kind}"
        elif tag == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    channels = 3 if kind == 2 else 4
    stride = width * channels
    previous = bytearray(stride)
    colours, coloured = set(), 0
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind_of_filter, row = line[0], bytearray(line[1:])
        for i in range(stride):
            left = row[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind_of_filter == 1:
                row[i] = (row[i] + left) & 255
            elif kind_of_filter == 2:
                row[i] = (row[i] + up) & 255
            elif kind_of_filter == 3:
                row[i] = (row[i] + (left + up) // 2) & 255
            elif kind_of_filter == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                row[i] = (row[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        for x in range(0, stride, channels):
            pixel = bytes(row[x:x + 3])
            colours.add(pixel)
            coloured += pixel != b"\xff\xff\xff"
        previous = row
    return len(colours), coloured / (width * height)


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # No network on CI machines: without these flags chromium waits on connection attempts.
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1280,720"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def outlined(driver):
    """The rows of E (or dE) the page outlines now: its groups with class `current`."""
    rows = driver.execute_script(
        "return Array.from(document.querySelectorAll('[data-e-row].current'), r => r.getAttribute('data-e-row'))")
    return sorted({int(row) for row in rows})


def shown_steps(driver):
    """The ids of the steps the browser lays out (one script call: is_displayed per step is slow)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('section.step'))"
        ".filter(s => getComputedStyle(s).display !== 'none' && s.getClientRects().length > 0).map(s => s.id)")


def press(driver, key):
    driver.find_element(By.TAG_NAME, "body").send_keys(key)


def viewport(driver, width, height, mobile):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def screenshot(driver, path, width, height, mobile):
    """At this viewport: a screenshot checked for content (when `path` is given), and on a phone
    no horizontal overflow."""
    viewport(driver, width, height, mobile)
    if path:
        driver.save_screenshot(path)
        colours, coloured = png_colours(path)
        print(f"{os.path.basename(path)}: {colours} colours, {coloured:.1%} not white")
        assert colours >= 8 and coloured > 0.02, f"{path} looks blank"
    if mobile:
        overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page is {overflow} px wider than a {width} px phone"


def check_page(driver, html, expected, outdir, name, shots):
    """`expected`: the rows of E (or dE) each step outlines, step by step. Decoding a PNG in pure
    Python takes a few seconds, so only the pages marked `shots` are photographed."""
    shot = (lambda size: os.path.join(outdir, f"{name}_{size}.png")) if shots else (lambda size: None)
    viewport(driver, 1280, 720, False)
    driver.get("file://" + html)
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"console errors: {errors}"
    count = len(expected)
    assert shown_steps(driver) == ["step-1"], shown_steps(driver)
    assert outlined(driver) == expected[0], (1, outlined(driver), expected[0])
    screenshot(driver, shot("1280x720"), 1280, 720, False)
    for step in range(2, count + 1):
        press(driver, Keys.ARROW_RIGHT)
        assert shown_steps(driver) == [f"step-{step}"], (step, shown_steps(driver))
        assert outlined(driver) == expected[step - 1], (step, outlined(driver), expected[step - 1])
    press(driver, Keys.ARROW_RIGHT)  # past the last step: stays there
    assert shown_steps(driver) == [f"step-{count}"]
    press(driver, Keys.ARROW_LEFT)
    assert shown_steps(driver) == [f"step-{count - 1}"]
    press(driver, Keys.HOME)
    driver.find_element(By.ID, "next").click()
    assert shown_steps(driver) == ["step-2"] and driver.find_element(By.ID, "counter").text == f"Step 2 of {count}"
    screenshot(driver, shot("phone"), 390, 844, True)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert len(shown_steps(driver)) == count, "printing must show every step"
    assert not driver.find_element(By.TAG_NAME, "nav").is_displayed()
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"console errors: {errors}"
    print(f"{name}: {count} steps, arrow keys and buttons, outlined rows, print view: ok")


def main():
    embdemo, outdir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        pages = {
            # ids 5, 0, 5: steps 1-5 and 7 are about every id; step 6 traces ids[0] = 5.
            "lookup": (["--ids", "5,0,5", "--vocab", "8", "--dim", "4"], [[0, 5]] * 5 + [[5], [0, 5]], True),
            # grad: the overview outlines the used rows 1, 3; then one step per used row.
            "grad": (["grad", "--ids", "3,1,3", "--dim", "3"], [[1, 3], [1], [3]], True),
            # GPT-2 sizes: E summarised, the selected rows still outlined.
            "gpt2": (["--ids", "464,3290", "--vocab", "50257", "--dim", "768"],
                     [[464, 3290]] * 5 + [[464], [464, 3290]], False),
        }
        driver = browser(os.path.join(work, "profile"))
        try:
            for name, (args, expected, shots) in pages.items():
                html = os.path.join(work, f"{name}.html")
                with open(html, "wb") as out:
                    subprocess.run([embdemo, *args, "--format", "html"], stdout=out, check=True)
                check_page(driver, html, expected, outdir, name, shots)
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
