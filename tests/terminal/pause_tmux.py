#!/usr/bin/python3
"""The text views on a real terminal, in tmux panes of their own (a private tmux server):

- `--walkthrough --pause` at 80x24: every screen starts on a cleared screen with the step's
  heading (or, for a step taller than the screen, the rest of it) in the top row, at most 23
  lines of text and the one prompt under them, no line past 80 columns, until the lesson ends;
  piped, --pause writes the same steps with no escape sequence at all;
- --palette auto asks the terminal for its background (OSC 11): in a pane whose background
  tmux reports as white the colours are --palette light's, as black --palette dark's; a
  terminal that does not answer (tmux with no background set) falls back to COLORFGBG.
Usage: pause_tmux.py EMBDEMO   (exit 77 when tmux is missing)
"""
import os
import shutil
import subprocess
import sys
import time

EMBDEMO = os.path.abspath(sys.argv[1])
if not shutil.which("tmux"):
    print("SKIP: tmux is not installed; tools/setup.sh --tests installs it")
    sys.exit(77)
SOCKET = f"embdemo-test-{os.getpid()}"
WALK = [EMBDEMO, "--ids", "2,3,1", "--dim", "5", "--walkthrough", "--pause"]


def tmux(*args):
    return subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, check=True).stdout


def pane(session, escapes=False):
    return tmux("capture-pane", "-p", *(["-e"] if escapes else []), "-t", session)


def alive(session):
    return subprocess.run(["tmux", "-L", SOCKET, "has-session", "-t", session], capture_output=True).returncode == 0


def start(session, command, background=None, env=()):
    """A detached 80x24 session running `command` (then a pause, so that its last screen can be read)."""
    line = " ".join(["env", *(f"'{word}'" for word in [*env, *command]), ";", "sleep", "3"])
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", "sleep 30")
    if background:
        tmux("set-option", "-t", session, "window-style", f"bg={background}")
    tmux("respawn-pane", "-k", "-t", session, line)


def wait_for(session, test, what):
    for _ in range(100):
        screen = pane(session)
        if test(screen):
            return screen
        time.sleep(0.05)
    raise AssertionError(f"{what}; the screen:\n{screen}")


def steps_piped():
    run = subprocess.run(WALK, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stderr
    assert "\x1b" not in run.stdout, "piped --pause wrote an escape sequence"
    headings = [line for line in run.stdout.splitlines() if line.startswith("Step ")]
    return headings


def check_pause():
    headings = steps_piped()
    start("pause", WALK, env=["NO_COLOR=1"])
    seen, screens, more = [], 0, False
    while True:
        screen = wait_for("pause", lambda s: "-- Enter:" in s or "why embedding layers" in s, "no prompt came")
        rows = screen.rstrip("\n").split("\n")
        prompts = [row for row in rows if row.startswith("-- Enter:")]
        assert all(len(row) <= 80 for row in rows), f"a line past 80 columns:\n{screen}"
        screens += 1
        # A new step's screen starts with its heading; a step's later screens with the rest of it.
        assert rows[0].startswith("Step ") != more, f"screen {screens} does not start as it should:\n{screen}"
        if not more:
            seen.append(rows[0])
        if not prompts:  # the last step, written whole
            break
        assert len(prompts) == 1 and rows[-1] == prompts[0], f"prompts on screen {screens}:\n{screen}"
        assert len(rows) <= 24, f"screen {screens} scrolled:\n{screen}"
        more = "more of this step" in prompts[0]
        tmux("send-keys", "-t", "pause", "Enter")
        wait_for("pause", lambda s, old=screen: s != old, "Enter did not move on")
    assert seen == headings, (seen, headings)
    print(f"--pause at 80x24: {len(headings)} steps on {screens} screens, each cleared, its heading in "
          "the top row, one prompt in the last, nothing scrolled away")


def palette_screen(session, args, background=None, env=()):
    start(session, [EMBDEMO, "--ids", "2,3,1", "--dim", "5", *args], background, ["TERM=xterm-256color", *env])
    wait_for(session, lambda s: "verdict:" in s, f"{session}: no verdict")
    return pane(session, escapes=True)


def check_palette():
    light = palette_screen("light", ["--palette", "light"])
    dark = palette_screen("dark", ["--palette", "dark"])
    assert light != dark
    assert palette_screen("on_white", [], "#ffffff", ["COLORFGBG=15;0"]) == light, "a white terminal got other colours"
    assert palette_screen("on_black", [], "#000000", ["COLORFGBG=0;15"]) == dark, "a black terminal got other colours"
    assert palette_screen("silent_light", [], None, ["COLORFGBG=0;15"]) == light, "no OSC 11 reply: COLORFGBG not read"
    assert palette_screen("silent_dark", [], None, ["COLORFGBG=15;0"]) == dark
    print("--palette auto: OSC 11 white -> light, black -> dark (over COLORFGBG); no reply -> COLORFGBG")


def main():
    try:
        check_pause()
        check_palette()
    finally:
        subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
