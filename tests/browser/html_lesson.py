#!/usr/bin/env python3
"""The HTML lesson (embdemo --format html) in a real browser: Debian's chromium, headless,
driven through chromedriver by python3-selenium.

For the notebook lesson and grad: the page loads without console errors, exactly one step is
shown, the right arrow key and the Next button advance it and the left arrow goes back, the
rows of E outlined at each step are the ones that step is about (checked against ids written
here, not read from the page), printing shows every step, and screenshots at 1280x720 and at a
phone's 390x844 are not blank (distinct colours counted by decoding the PNG with the standard
library).

At 1280x720, 1920x1080 and 390x844, for small, mid-sized (V = 50, d = 16) and GPT-2-sized runs
of both lessons: no text of the figure renders below 12 CSS px (its font size times the scale
the SVG is drawn at), the document is no wider than the viewport (the figure scrolls inside its
own box), and the arrow keys still step.

The lookup page's explorer: the ids it starts with and ids typed into its field give exactly the
numbers (as text, and as float32 bits) that `embdemo --ids NEW ... --format json` prints for the
same seed and sizes, the verdict line the text view prints, a message for an id out of range or
a bad item, arrow keys in the field do not step, the tables do not widen the page (on a phone).
Past the cap (GPT-2-sized E, a --text run's 50,257 rows) the page carries the rows the text view
shows, E's edge rows and the run's ids, and the first inf or nan of each column of the rows it
leaves out: typed carried ids match embdemo's JSON and verdict (a weights file whose left-out
rows hold a NaN payload, inf and -0 checks the sum over them), other ids are named as not in the
page; with a row wider than the cap allows it says it is off.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")


def skip(message):
    print(f"SKIP: {message}; tools/setup.sh --tests installs chromium, chromium-driver and python3-selenium")
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
    """At this viewport: a screenshot checked for content (when `path` is given)."""
    viewport(driver, width, height, mobile)
    if path:
        driver.save_screenshot(path)
        colours, coloured = png_colours(path)
        print(f"{os.path.basename(path)}: {colours} colours, {coloured:.1%} not white")
        assert colours >= 8 and coloured > 0.02, f"{path} looks blank"


VIEWPORTS = ((1280, 720, False), (1920, 1080, False), (390, 844, True))

# The smallest rendered font size of the figure's text: each <text>'s computed font size (user
# units) times the scale the SVG is drawn at (its rendered width over its viewBox's).
SMALLEST_FIGURE_TEXT = """
const svg = document.querySelector('figure svg');
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
const sizes = Array.from(svg.querySelectorAll('text'), t => parseFloat(getComputedStyle(t).fontSize) * scale);
return [Math.min(...sizes), sizes.length, scale];
"""


# Present mode, measured on the step shown now: the page itself does not scroll; the step (the
# one element with aria-current="step") lies inside the viewport; the figure's part it speaks of
# (its outlined rows, else its matrix) is inside the figure's visible box; the counter is in view
# and names the step; and the figure's numbers' smallest rendered size.
PRESENT = """
const inView = (r, b) => r.left >= b.left - 1 && r.top >= b.top - 1 && r.right <= b.right + 1 && r.bottom <= b.bottom + 1;
const screen = {left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight};
const current = document.querySelectorAll('[aria-current="step"]');
const step = current.length === 1 ? current[0] : null;
const boxElement = document.querySelector('.figure-box');
const box = boxElement.getBoundingClientRect();
// The box's client area: inside its border, without its scroll bars.
const inner = {left: box.left + boxElement.clientLeft, top: box.top + boxElement.clientTop};
const visible = {left: Math.max(inner.left, 0), top: Math.max(inner.top, 0),
                 right: Math.min(inner.left + boxElement.clientWidth, window.innerWidth),
                 bottom: Math.min(inner.top + boxElement.clientHeight, window.innerHeight)};
const focus = document.querySelector('[data-e-row].current') || document.querySelector('[data-matrix].current');
let focusShown = null;
if (focus) {
  const r = focus.getBoundingClientRect();
  // A part larger than the box fills it: its start is in view.
  const fits = r.width <= visible.right - visible.left + 1 && r.height <= visible.bottom - visible.top + 1;
  focusShown = fits ? inView(r, visible) : r.left >= visible.left - 1 && r.top >= visible.top - 1 &&
                                          r.left < visible.right && r.top < visible.bottom;
}
const svg = document.querySelector('figure svg');
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
const numbers = Array.from(svg.querySelectorAll('text')).filter(t => /^[-+]?[0-9][0-9.,]*(e[-+]?[0-9]+)?$/.test(t.textContent.trim()));
const smallest = Math.min(...numbers.map(t => parseFloat(getComputedStyle(t).fontSize) * scale));
const pre = step && step.querySelector('pre');
const counter = document.getElementById('counter');
return {
  step: step ? step.id : null,
  stepInView: step ? inView(step.getBoundingClientRect(), screen) : false,
  pageScrolls: document.documentElement.scrollHeight > window.innerHeight + 1 || window.scrollY > 0,
  focus: focus ? (focus.getAttribute('data-e-row') !== null ? 'row ' + focus.getAttribute('data-e-row')
                                                             : 'matrix ' + focus.getAttribute('data-matrix')) : null,
  focusShown: focusShown,
  counter: counter.textContent, counterInView: inView(counter.getBoundingClientRect(), screen),
  smallestNumber: smallest, numbers: numbers.length,
  textPx: pre ? parseFloat(getComputedStyle(pre).fontSize) : null,
};
"""


def check_present(driver, name, key, measured):
    """After Home and after every Next (then PageUp, PageDown and Space once each): each step in
    view with the figure's part it speaks of, the page still; at 1280x720 numbers of 20 px or more;
    at 1920x1080 step text of 20 px or more."""
    steps = driver.execute_script("return document.querySelectorAll('section.step').length")
    press(driver, Keys.HOME)
    smallest_text, seen = 99, []
    for index in range(1, steps + 1):
        if index > 1:
            driver.find_element(By.ID, "next").click() if index % 2 else press(driver, Keys.ARROW_RIGHT)
        m = driver.execute_script(PRESENT)
        where = f"{name} at {key}, step {index} of {steps}"
        assert m["step"] == f"step-{index}", (where, m)
        assert m["stepInView"], (where, "the step's text is not all in view", m)
        assert not m["pageScrolls"], (where, "the page scrolls", m)
        assert m["focusShown"] in (None, True), (where, f"the figure's {m['focus']} is out of view", m)
        assert m["counter"] == f"Step {index} of {steps}" and m["counterInView"], (where, m)
        if key == "1280x720":
            assert m["numbers"] == 0 or m["smallestNumber"] >= 20, (where, f"numbers at {m['smallestNumber']:.1f} px")
        smallest_text = min(smallest_text, m["textPx"] or 99)
        if key == "1920x1080":
            assert (m["textPx"] or 99) >= 20, (where, f"step text at {m['textPx']} px")
        seen.append(m["focus"])
    if steps > 1:
        press(driver, Keys.PAGE_UP)
        assert shown_steps(driver) == [f"step-{steps - 1}"], (name, key, "PageUp")
        press(driver, Keys.PAGE_DOWN)
        assert shown_steps(driver) == [f"step-{steps}"], (name, key, "PageDown")
        press(driver, Keys.HOME)
        press(driver, Keys.SPACE)
        assert shown_steps(driver) == ["step-2"], (name, key, "Space")
    measured.append((name, key, steps, m["smallestNumber"], smallest_text))
    print(f"{name} at {key}: {steps} steps, each in view with its part of the figure "
          f"({', '.join(sorted({f for f in seen if f}))[:80] or 'the whole figure'}); numbers {m['smallestNumber']:.1f} px, "
          f"step text down to {smallest_text:.0f} px")


def check_viewports(driver, name, smallest, measured=None):
    """At each size: the figure's text at 12 CSS px or more, no horizontal overflow, the arrow
    keys step. `smallest` collects the smallest font size seen per viewport."""
    for width, height, mobile in VIEWPORTS:
        viewport(driver, width, height, mobile)
        size, count, scale = driver.execute_script(SMALLEST_FIGURE_TEXT)
        key = f"{width}x{height}"
        smallest[key] = min(smallest.get(key, size), size)
        assert count > 0, f"{name}: the figure has no text"
        assert size >= 12, f"{name} at {key}: figure text at {size:.2f} px (scale {scale:.3f})"
        overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} at {key}: the page is {overflow} px wider than the viewport"
        steps = driver.execute_script("return document.querySelectorAll('section.step').length")
        press(driver, Keys.HOME)
        press(driver, Keys.ARROW_RIGHT)
        assert shown_steps(driver) == ["step-2" if steps > 1 else "step-1"], (name, key, shown_steps(driver))
        press(driver, Keys.ARROW_LEFT)
        assert shown_steps(driver) == ["step-1"], (name, key, shown_steps(driver))
        print(f"{name} at {key}: smallest figure text {size:.2f} px (scale {scale:.3f}), no overflow, arrows step")
        if measured is not None:
            assert steps > 1, f"{name}: one step only"
            check_present(driver, name, key, measured)


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
    viewport(driver, 1280, 720, False)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert len(shown_steps(driver)) == count, "printing must show every step"
    assert not driver.find_element(By.TAG_NAME, "nav").is_displayed()
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"console errors: {errors}"
    print(f"{name}: {count} steps, arrow keys and buttons, outlined rows, print view: ok")


def json_tensors(embdemo, args):
    """embdemo's JSON with every number kept as the text it prints (so "0.1" is not 0.1's double)."""
    # Only the matrices the explorer shows: all of a GPT-2-sized E is past json's limit.
    run = subprocess.run([embdemo, *args, "--show", "onehot,lookup,onehot_matmul", "--format", "json"], capture_output=True)
    assert run.returncode in (0, 3), run.stderr  # 3: the lookup and the product differ
    out = run.stdout
    return json.loads(out, parse_float=str, parse_int=str)


def verdict_line(embdemo, args):
    out = subprocess.run([embdemo, *args], capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"}).stdout
    return next(line for line in out.splitlines() if line.startswith("verdict:"))


def float32_bits(text):
    if text in ("nan", "inf", "-inf"):
        return None  # NaN payloads aside, the text comparison covers them
    return "%08x" % struct.unpack("<I", struct.pack("<f", float(text)))[0]


def explorer_tables(driver):
    """{table id: [[(column, text, bits), ...] per row]} of the explorer's tables."""
    return driver.execute_script("""
        const tables = {};
        for (const t of document.querySelectorAll('#explore-tables table')) {
            tables[t.id] = Array.from(t.tBodies[0].rows, r => Array.from(r.querySelectorAll('td[data-col]'),
                td => [Number(td.dataset.col), td.textContent, td.dataset.bits || null]));
        }
        return tables;""")


def check_explorer(driver, embdemo, sizes, ids, typed):
    """The explorer's tables and verdict for `ids` against embdemo's JSON and text view for the
    same sizes; `typed`: whether the ids were typed into the field (else the page's first ids)."""
    args = ["--ids", ",".join(map(str, ids)), *sizes]
    expected = json_tensors(embdemo, args)
    tables = explorer_tables(driver)
    assert driver.find_element(By.ID, "explore-message").text == "", driver.find_element(By.ID, "explore-message").text
    assert len(tables["explore-onehot"]) == len(ids)
    compared = 0
    for i, row in enumerate(tables["explore-onehot"]):
        assert any(col == ids[i] for col, _, _ in row), ("the 1 of row", i, "is not shown")
        for col, text, _ in row:
            assert text == expected["onehot"][i][col], ("onehot", i, col, text, expected["onehot"][i][col])
    for table, key in (("explore-lookup", "lookup"), ("explore-product", "onehot_matmul")):
        assert len(tables[table]) == len(ids)
        for i, row in enumerate(tables[table]):
            for col, text, bits in row:
                want = expected[key][i][col]
                assert text == want, (table, ids, i, col, text, want)
                assert float32_bits(want) in (None, bits), (table, i, col, bits, want)
                compared += 1
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"explorer with ids {ids}: the page is {overflow} px wider than the viewport"
    verdict = driver.find_element(By.ID, "explore-verdict").text
    assert verdict == verdict_line(embdemo, args), (verdict, verdict_line(embdemo, args))
    print(f"explorer, ids {ids} ({'typed' if typed else 'as run'}): {compared} values and '{verdict}' as embdemo prints them")


def type_ids(driver, text):
    field = driver.find_element(By.ID, "explore-ids")
    field.clear()
    field.send_keys(text)
    return field


def check_explorer_page(driver, embdemo, html, sizes, first_ids, tries):
    """The lookup page's explorer: the run's ids, then each of `tries` typed, then bad input."""
    viewport(driver, 390, 844, True)
    driver.get("file://" + html)
    check_explorer(driver, embdemo, sizes, first_ids, False)
    for ids in tries:
        field = type_ids(driver, ",".join(map(str, ids)))
        check_explorer(driver, embdemo, sizes, ids, True)
    vocab = int(json_tensors(embdemo, ["--ids", "0", *sizes])["vocab"])
    messages = {
        f"1,{vocab}": f"ids[1] = {vocab} is out of range for a vocab of {vocab:,} (allowed: ids 0 to {vocab - 1:,})",
        f"1;{vocab}": f"ids[1, 0] = {vocab} is out of range for a vocab of {vocab:,} (allowed: ids 0 to {vocab - 1:,})",
    }
    # Every other bad input: the CLI's own message for the same --ids, word for word.
    for text in ("1,x", "1,,2", "02", "-1", "0x1", "2,3;1", "2,3;", ";", " ", "1,99999999999999999999",
                 "2,3;1,1;4,x"):
        run = subprocess.run([embdemo, "--ids", text, *sizes], capture_output=True, text=True)
        assert run.returncode == 2 and run.stderr.startswith("embdemo: error: --ids "), (text, run.stderr)
        messages[text] = run.stderr.strip()[len("embdemo: error: "):]
    for text, message in messages.items():
        field = type_ids(driver, text)
        shown = driver.find_element(By.ID, "explore-message")
        assert shown.is_displayed() and shown.text == message, (text, shown.text, message)
        assert explorer_tables(driver) == {} and driver.find_element(By.ID, "explore-verdict").text == ""
    # A batch, as the CLI takes it: rows named ids[b, t], the numbers of `--ids B --format json`.
    field = type_ids(driver, "1,0;0,1")
    labels = driver.execute_script("return [...document.querySelectorAll('#explore-onehot tbody th')].map(th => th.textContent)")
    assert labels == ["ids[0, 0] = 1", "ids[0, 1] = 0", "ids[1, 0] = 0", "ids[1, 1] = 1"], labels
    batch = json_tensors(embdemo, ["--ids", "1,0;0,1", *sizes])
    flat = [row for rows in batch["lookup"] for row in rows]
    got = explorer_tables(driver)["explore-lookup"]
    assert all(text == flat[i][col] for i, row in enumerate(got) for col, text, _ in row), (got, flat)
    # Arrow keys in the field move its caret, not the steps.
    step = shown_steps(driver)
    field.send_keys(Keys.ARROW_LEFT, Keys.ARROW_RIGHT)
    assert shown_steps(driver) == step
    assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    print(f"explorer messages: {len(messages)} bad inputs, each named as the CLI names it; a batch as the CLI reads it; "
          "arrow keys in the field do not step")


def check_explorer_tokens(driver, embdemo, work):
    """With --text the explorer names the run's ids by their tokens (markup and quotes shown as
    text, as embdemo's JSON spells them); an id the text does not use stays a number."""
    text = 'Hi "there" <b> & \U0001F999'
    html = os.path.join(work, "lookup_text.html")
    with open(html, "wb") as out:
        subprocess.run([embdemo, "--text", text, "--dim", "1", "--format", "html"], stdout=out, check=True)
    run = json.loads(subprocess.run([embdemo, "--text", text, "--dim", "1", "--format", "json"],
                                    capture_output=True, check=True).stdout)
    named = {i: t for i, t in zip(run["ids"], run["tokens"])}
    driver.get("file://" + html)
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"lookup_text: console errors: {errors}"
    labels = "return [...document.querySelectorAll('#explore-onehot tbody th')].map(th => th.textContent)"
    want = [f'ids[{i}] = {id} "{named[id]}"' for i, id in enumerate(run["ids"])]
    assert driver.execute_script(labels) == want, (driver.execute_script(labels), want)
    unused = next(id for id in range(50257) if id not in named)
    type_ids(driver, f"{run['ids'][0]},{unused}")
    got = driver.execute_script(labels)
    assert got == [want[0], f"ids[1] = {unused}"], got
    print(f"explorer tokens: {len(want)} ids named as embdemo's JSON names them, id {unused} (not in the text) a number")


def write_npy(path, rows, cols, values):
    """A little-endian float32 .npy (format 1.0) of `rows` x `cols` uint32 bit patterns."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("ascii"))
        out.write(struct.pack(f"<{rows * cols}I", *values))


def check_partial_explorers(driver, embdemo, work):
    """E past the page's cap: the page carries E's edge rows and the run's ids (the text view's
    rows), computes the lookup and the product from them and the left-out rows' inf and nan, and
    names a row it does not carry as not in the page."""
    # GPT-2-sized E, drawn: the run's ids and typed carried ids against embdemo's JSON.
    sizes = ["--vocab", "50257", "--dim", "768"]
    html = os.path.join(work, "lookup_gpt2.html")
    check_explorer_page(driver, embdemo, html, sizes, [5, 40000, 50256], [[0, 50256], [40000, 5, 1, 2, 50255]])
    type_ids(driver, "5,7")
    message = driver.find_element(By.ID, "explore-message").text
    assert message.startswith("ids[1] = 7: row 7 of E is not in this page"), message
    assert explorer_tables(driver) == {}
    # A weights file of 20,000 x 4 (80,000 values): rows 500, 700 and 9,000 are left out; row
    # 500's signalling NaN (quieted by the sum) comes before the run's id 600's own quiet NaN in
    # column 1, so the product of id 600 differs from its lookup there (a page that left row 500
    # out of the sum would call them identical); inf in row 700 makes 0 * inf; -0 in row 9,000
    # changes no sum.
    V, d = 20000, 4
    values = [struct.unpack("<I", struct.pack("<f", ((k * 7 + j * 3) % 17 - 8) / 4.0))[0] for k in range(V) for j in range(d)]
    values[500 * d + 1] = 0x7fa00001
    values[600 * d + 1] = 0x7fc00001
    values[700 * d + 2] = 0x7f800000
    values[9000 * d + 3] = 0x80000000
    weights = os.path.join(work, "partial.npy")
    write_npy(weights, V, d, values)
    sizes = ["--weights", weights]
    html = os.path.join(work, "partial.html")
    with open(html, "wb") as out:
        assert subprocess.run([embdemo, "--ids", "600,3", *sizes, "--format", "html"], stdout=out).returncode in (0, 3)
    driver.get("file://" + html)
    outside = driver.execute_script("return document.getElementById('explore').getAttribute('data-outside')")
    assert outside == "1 500 7fa00001;2 700 7f800000", outside
    bits = driver.execute_script(
        "return [...document.querySelectorAll('#explore-product td[data-col=\"1\"]')].map(td => td.dataset.bits)")
    assert bits == ["7fe00001", "7fe00001"], bits
    check_explorer_page(driver, embdemo, html, sizes, [600, 3], [[600], [19999, 0, 600], [3]])
    # A --text run: GPT-2's 50,257 rows at d = 4, the text's ids named by their tokens.
    text = "Your journey starts with one step"
    html = os.path.join(work, "lookup_text4.html")
    with open(html, "wb") as out:
        subprocess.run([embdemo, "--text", text, "--dim", "4", "--format", "html"], stdout=out, check=True)
    run = json.loads(subprocess.run([embdemo, "--text", text, "--dim", "4", "--format", "json"],
                                    capture_output=True, check=True).stdout)
    driver.get("file://" + html)
    labels = driver.execute_script("return [...document.querySelectorAll('#explore-onehot tbody th')].map(th => th.textContent)")
    assert labels == [f'ids[{i}] = {id} "{t}"' for i, (id, t) in enumerate(zip(run["ids"], run["tokens"]))], labels
    check_explorer_page(driver, embdemo, html, ["--vocab", "50257", "--dim", "4"], run["ids"], [[run["ids"][2], 0, 50256]])
    # A row wider than the cap lets even the edge rows in: off, and why.
    html = os.path.join(work, "wide.html")
    with open(html, "wb") as out:
        subprocess.run([embdemo, "--ids", "1", "--vocab", "10", "--dim", "20000", "--format", "html"], stdout=out, check=True)
    driver.get("file://" + html)
    off = driver.find_element(By.ID, "explore-off").text
    assert "d = 20,000" in off and "65,536" in off, off
    assert not driver.find_elements(By.ID, "explore-ids")
    print("explorer past the cap: GPT-2-sized E, a weights file's left-out NaN payload, inf and -0, a --text run "
          "and a row too wide, each as embdemo prints them")


def main():
    embdemo, outdir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        pages = {
            # ids 5, 0, 5: the walkthrough's steps 1-5 and 7 are about every id; step 6 traces
            # ids[0] = 5 and takes two screens (a step longer than a screen goes on in the next).
            "lookup": (["--ids", "5,0,5", "--vocab", "8", "--dim", "4"], [[0, 5]] * 5 + [[5], [5], [0, 5]], True),
            # grad: the overview (two screens) outlines the used rows 1, 3; then one step per used row.
            "grad": (["grad", "--ids", "3,1,3", "--dim", "3"], [[1, 3], [1, 3], [1], [3]], True),
            # GPT-2 sizes: E summarised, the selected rows still outlined; steps 5 and 6 two screens each.
            "gpt2": (["--ids", "464,3290", "--vocab", "50257", "--dim", "768"],
                     [[464, 3290]] * 6 + [[464], [464], [464, 3290]], False),
        }
        # The three viewports' checks: the lessons' own examples, a mid-sized and a GPT-2-sized run.
        sized = {
            "lookup_small": ["--ids", "2,3,1", "--dim", "5"],
            "lookup_mid": ["--ids", "2,3,1", "--vocab", "50", "--dim", "16"],
            "lookup_gpt2": ["--ids", "5,40000,50256", "--dim", "768"],
            "grad_small": ["grad", "--ids", "2,3,1,3", "--dim", "5"],
            "grad_mid": ["grad", "--ids", "2,3,1,3", "--vocab", "50", "--dim", "16"],
            "grad_gpt2": ["grad", "--ids", "5,40000,50256", "--dim", "768"],
            # Every other lesson's page: its figure above its text view.
            "bag": ["bag", "--bags", "2,3;1,1,0;4", "--dim", "5", "--mode", "sum"],
            "bag_gpt2": ["bag", "--bags", "5,40000;50256", "--vocab", "50257", "--dim", "768"],
            "positions_rope": ["positions", "--ids", "2,3;1,1", "--dim", "8", "--encoding", "rope"],
            "positions_loader": ["positions", "--text", "Your journey starts with one step towards a bigger goal",
                                 "--context", "3", "--stride", "2", "--batch", "2", "--dim", "4"],
            "tied_gpt2": ["tied", "--ids", "464,3290", "--vocab", "50257", "--dim", "768", "--top", "3"],
            "factor": ["factor", "--ids", "2,3,1", "--vocab", "30", "--dim", "16", "--rank", "4"],
            "max_norm": ["--ids", "2,3,1,3", "--dim", "5", "--max-norm", "1"],
            "optimizer": ["grad", "--ids", "2,3;1,1", "--dim", "4", "--optimizer", "adam", "--steps", "3"],
            "tokens": ["tokens", "--text", "Your journey starts with one step, unbelievably"],
            "cost": ["cost", "--model", "llama3-8b"],
            # Each lesson's own example, as a class meets it first.
            "lookup_notebook": ["--ids", "2,3,1", "--dim", "5"],
            "positions": ["positions", "--ids", "2,3,1", "--dim", "4"],
            "tied": ["tied", "--ids", "2,3,1", "--dim", "4"],
            "bag_default": ["bag", "--bags", "2,3;1", "--dim", "4"],
            "factor_default": ["factor", "--ids", "2,3,1", "--vocab", "6", "--dim", "4", "--rank", "2"],
            "cost_default": ["cost", "--model", "gpt2"],
            "lookup_text": ["--text", "Your journey starts with one step", "--dim", "4"],
        }
        driver = browser(os.path.join(work, "profile"))
        smallest, measured = {}, []
        try:
            for name, (args, expected, shots) in pages.items():
                html = os.path.join(work, f"{name}.html")
                with open(html, "wb") as out:
                    subprocess.run([embdemo, *args, "--format", "html"], stdout=out, check=True)
                check_page(driver, html, expected, outdir, name, shots)
            for name, args in sized.items():
                html = os.path.join(work, f"{name}.html")
                with open(html, "wb") as out:
                    # max_norm exits 3 (its lookup read rescaled rows): the page is still whole.
                    assert subprocess.run([embdemo, *args, "--format", "html"], stdout=out).returncode in (0, 3), name
                driver.get("file://" + html)
                errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
                assert not errors, f"{name}: console errors: {errors}"
                check_viewports(driver, name, smallest, measured)
            print("smallest figure text: " + ", ".join(f"{k} {v:.2f} px" for k, v in smallest.items()))
            at_720 = [m for m in measured if m[1] == "1280x720"]
            print("present mode at 1280x720, smallest number: " +
                  ", ".join(f"{n} {v:.1f} px ({s} steps)" for n, _, s, v, _ in at_720))
            # The explorer, on the lesson's example (V = 4, inferred) and on V = 50, d = 16.
            html = os.path.join(work, "lookup_small.html")
            check_explorer_page(driver, embdemo, html, ["--dim", "5", "--vocab", "4"], [2, 3, 1], [[0], [3, 3, 0, 1, 2]])
            html = os.path.join(work, "lookup_mid.html")
            check_explorer_page(driver, embdemo, html, ["--vocab", "50", "--dim", "16"], [2, 3, 1],
                                [[49, 0, 7, 49], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26]])
            check_explorer_tokens(driver, embdemo, work)
            check_partial_explorers(driver, embdemo, work)
            # Weights files with inf, -0.0, NaN payloads and large values: the verdict says DIFFERENT
            # as embdemo's does (with_nan_payloads: the page read E as numbers and lost a NaN's bits,
            # "4 of 9 values differ" for ids 3,1,0 where embdemo and PyTorch count 5).
            for weights in ("with_inf.npy", "with_negative_zero.npy", "with_nan_payloads.npy", "large_values.npy"):
                sizes = ["--weights", os.path.join(DATA, "weights", weights)]
                html = os.path.join(work, weights + ".html")
                with open(html, "wb") as out:
                    # Exit 3: the run's lookup and product differ, as these files are made to.
                    assert subprocess.run([embdemo, "--ids", "0,3", *sizes, "--format", "html"], stdout=out).returncode in (0, 3)
                check_explorer_page(driver, embdemo, html, sizes, [0, 3], [[1], [2], [3, 2, 1, 0], [3, 1, 0]])
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
