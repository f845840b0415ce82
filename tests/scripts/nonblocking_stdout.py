#!/usr/bin/python3
"""Standard output set to O_NONBLOCK (as a shell or a program sharing the pipe may leave it) is
full for a moment, not broken: write() gives EAGAIN until the reader catches up. embdemo must
wait and write everything, exit 0, nothing on stderr, while the reader starts late and reads
slowly. Usage: nonblocking_stdout.py EMBDEMO
"""
import fcntl
import os
import subprocess
import sys
import time

binary = sys.argv[1]
failures = 0
# json of a 2,000 x 16 table: about 600 KB, ten times a pipe's buffer.
args = [binary, "--ids", "0,1", "--vocab", "2000", "--dim", "16", "--format", "json"]
expected = subprocess.run(args, capture_output=True, check=True).stdout
read_end, write_end = os.pipe()
flags = fcntl.fcntl(write_end, fcntl.F_GETFL)
fcntl.fcntl(write_end, fcntl.F_SETFL, flags | os.O_NONBLOCK)
process = subprocess.Popen(args, stdout=write_end, stderr=subprocess.PIPE)
os.close(write_end)
time.sleep(0.5)  # the pipe is full long before this
got = bytearray()
while True:
    chunk = os.read(read_end, 4096)
    if not chunk:
        break
    got += chunk
    time.sleep(0.001)
os.close(read_end)
stderr = process.stderr.read().decode(errors="replace")
status = process.wait(timeout=60)
if status != 0 or stderr:
    print(f"FAIL: exit {status}, stderr {stderr!r}")
    failures += 1
if bytes(got) != expected:
    print(f"FAIL: read {len(got)} bytes, expected {len(expected)}")
    failures += 1
print("a non-blocking stdout got the whole output" if not failures else f"{failures} failures")
sys.exit(1 if failures else 0)
