#!/usr/bin/python3
"""Write the small weight files embdemo's tests load, with real numpy.

Run with Debian's python3-numpy, which is installed for /usr/bin/python3, not for a pyenv python:

    /usr/bin/python3 tools/make_npy_fixtures.py

It writes tests/data/weights/ (files embdemo must read, and what it must read from them) and
tests/data/bad/ (files embdemo must refuse with a clear message). Everything is committed, so CI
does not need numpy; the output is deterministic. Expected values are float32 bit patterns, 8
lowercase hex digits each, row-major, one row per line, in NAME.expected next to NAME.npy.
"""

import io
import struct
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data"
GOOD = ROOT / "weights"
BAD = ROOT / "bad"

# torch.manual_seed(123); torch.nn.Embedding(4, 5).weight, as the notebook prints it.
NOTEBOOK = np.array([
    [0.3373702, -0.17777722, -0.3035276, -0.58801186, 1.5809696],
    [1.3010399, 1.2753012, -0.2009531, -0.16056378, -0.401488],
    [0.6957241, -1.8060527, -1.1588678, 0.325471, -0.63150537],
    [-2.839994, -0.78485334, -1.4095725, -0.40762687, 0.7953261],
], dtype=np.float32)


def save(path, array, **kwargs):
    with open(path, "wb") as f:
        np.lib.format.write_array(f, array, **kwargs)


def npy_bytes(array):
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def expected(path, array):
    rows = array.astype(np.float32).reshape(array.shape[0], -1)
    lines = [" ".join("%08x" % struct.unpack("<I", struct.pack("<f", v))[0] for v in row) for row in rows]
    path.write_text("\n".join(lines) + "\n")


def good():
    GOOD.mkdir(parents=True, exist_ok=True)
    np.save(GOOD / "notebook_f32.npy", NOTEBOOK)
    expected(GOOD / "notebook_f32.expected", NOTEBOOK)

    # float64 values that float32 must round: 0.1, a float32 subnormal, -0.0, near FLT_MAX.
    wide = np.array([[0.1, -2.5, 1e-40, -0.0], [1e38, -3.4028234663852886e38, 1 / 3, 7.0],
                     [np.inf, -np.inf, 2.0**-149, 123456789.0]], dtype=np.float64)
    np.save(GOOD / "values_f64.npy", wide)
    expected(GOOD / "values_f64.expected", wide.astype(np.float32))

    rng = np.random.default_rng(2026)
    big_endian = rng.standard_normal((3, 7)).astype(">f4")
    np.save(GOOD / "big_endian_f32.npy", big_endian)
    expected(GOOD / "big_endian_f32.expected", big_endian)

    version2 = rng.standard_normal((5, 2)).astype(np.float32)
    save(GOOD / "version2_f32.npy", version2, version=(2, 0))
    expected(GOOD / "version2_f32.expected", version2)

    # Weights where the one-hot product cannot equal the lookup (exit status 3).
    with_inf = NOTEBOOK.copy()
    with_inf[3, 1] = np.inf
    np.save(GOOD / "with_inf.npy", with_inf)
    with_negative_zero = NOTEBOOK.copy()
    with_negative_zero[2, 4] = -0.0
    np.save(GOOD / "with_negative_zero.npy", with_negative_zero)
    # NaNs told apart by their bits: a signalling NaN (the lookup copies it, a product quiets it)
    # and two payloads in one column (a sum keeps the one it meets first).
    with_nan_payloads = np.arange(12, dtype=np.float32).reshape(4, 3)
    bits = with_nan_payloads.view(np.uint32)
    bits[0, 2], bits[3, 2], bits[1, 1] = 0x7FC00001, 0xFFC00002, 0x7F800001
    np.save(GOOD / "with_nan_payloads.npy", with_nan_payloads)

    np.savetxt(GOOD / "notebook.csv", NOTEBOOK, fmt="%.9g", delimiter=",")
    np.savetxt(GOOD / "notebook.tsv", NOTEBOOK, fmt="%.18e", delimiter="\t")


def bad():
    BAD.mkdir(parents=True, exist_ok=True)
    small = np.arange(12, dtype=np.float32).reshape(3, 4)
    (BAD / "not_npy.npy").write_bytes(b"PK\x03\x04 this is a zip file, not .npy\n")
    (BAD / "empty.npy").write_bytes(b"")
    (BAD / "empty.csv").write_bytes(b"")
    np.save(BAD / "int64.npy", np.arange(12, dtype=np.int64).reshape(3, 4))
    np.save(BAD / "fortran.npy", np.asfortranarray(small))
    np.save(BAD / "three_d.npy", np.zeros((2, 3, 4), dtype=np.float32))
    np.save(BAD / "one_d.npy", np.zeros(5, dtype=np.float32))
    np.save(BAD / "zero_rows.npy", np.zeros((0, 4), dtype=np.float32))
    (BAD / "truncated.npy").write_bytes(npy_bytes(small)[:-3])
    (BAD / "trailing_bytes.npy").write_bytes(npy_bytes(small) + b"\0\0\0\0")
    # A header that claims 100,000,000 x 768 float32 values (286 GiB) and has no data at all.
    huge = npy_bytes(np.zeros((1, 768), dtype=np.float32)).replace(b"(1, 768)", b"(100000000, 768)", 1)
    (BAD / "huge_shape.npy").write_bytes(huge[:128])
    # Header lengths past numpy's own 10,000-byte limit, and no header after them.
    (BAD / "huge_header.npy").write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", 65535))
    (BAD / "huge_header_v2.npy").write_bytes(b"\x93NUMPY\x02\x00" + struct.pack("<I", 0xFFFFFFF0))
    header = npy_bytes(small)
    (BAD / "bad_header.npy").write_bytes(header.replace(b"'fortran_order': False", b"'fortran_order': 0    ", 1))
    (BAD / "ragged.csv").write_text("1,2,3\n4,5,6\n7,8\n")
    (BAD / "not_a_number.tsv").write_text("1\t2\n3\tfour\n")
    (BAD / "too_large.csv").write_text("1,2\n3,1e39\n")
    (BAD / "weights.txt").write_text("1,2\n3,4\n")


if __name__ == "__main__":
    good()
    bad()
