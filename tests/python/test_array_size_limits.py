"""Shapes whose element or byte count overflows raise NumPy's ValueError at the call; huge but
representable arrays fail cleanly (OutOfMemoryError) when computed, and print without being
computed whole. Probes that used to crash the interpreter run in a subprocess."""

import subprocess
import sys

import numpy as np
import pytest

import accelpy as ap

TOO_BIG = "array is too big"

OVERFLOWING = [
    ("zeros 2**61 float64", lambda m: m.zeros(2**61)),
    ("empty 2**61 float64", lambda m: m.empty(2**61)),
    ("ones 2**62 float64", lambda m: m.ones(2**62)),
    ("zeros (2**31, 2**31)", lambda m: m.zeros((2**31, 2**31))),
    ("zeros (2**62, 2**62, 0)", lambda m: m.zeros((2**62, 2**62, 0))),
    ("full 2**61", lambda m: m.full(2**61, 1.5)),
    ("arange 2**61 float64", lambda m: m.arange(0, 2**61, dtype=m.float64)),
    ("arange 2**62 int64", lambda m: m.arange(0, 2**62)),
    ("broadcast_to (2**40, 2**40)", lambda m: m.broadcast_to(m.ones(1), (2**40, 2**40))),
    ("broadcast_to (2**62, 2**62, 0)", lambda m: m.broadcast_to(m.ones(1), (2**62, 2**62, 0))),
    ("reshape to (2**62, 2**62, 0)", lambda m: m.zeros(0).reshape((2**62, 2**62, 0))),
]


@pytest.mark.parametrize(("name", "make"), OVERFLOWING, ids=[n for n, _ in OVERFLOWING])
def test_overflowing_sizes_raise_value_error_at_the_call(device, name, make):
    with pytest.raises(ValueError):  # noqa: PT011 - NumPy's type, checked against NumPy next
        make(np)
    with pytest.raises(ValueError, match=TOO_BIG):
        make(ap)


def test_elementwise_result_of_a_huge_broadcast_view_is_too_big(device):
    view = ap.broadcast_to(ap.ones(1), (2**61,))  # a view: fits, as in NumPy
    assert view.size == 2**61
    with pytest.raises(ValueError, match=TOO_BIG):
        view + 1.0  # float64 result: 2**64 bytes


def test_representable_sizes_are_still_accepted(device):
    assert ap.zeros((2**20, 0, 2**30)).size == np.zeros((2**20, 0, 2**30)).size == 0
    a = ap.empty(0)
    assert a.reshape((0, 2**40)).shape == (0, 2**40)
    np.testing.assert_array_equal(ap.asnumpy(ap.zeros((2, 3)).reshape(3, 2)), np.zeros((3, 2)))


def _run(code):
    return subprocess.run([sys.executable, "-c", "import accelpy as ap\n" + code],
                          capture_output=True, text=True, timeout=300)


CRASHED_BEFORE = [
    "ap.zeros(2**61).sum()",
    "ap.empty(2**61).sum()",
    "repr(ap.zeros(2**62))",
    "ap.arange(0, 2**61, dtype=ap.float64)[3]",
    "repr(ap.zeros((2**31, 2**31)))",
    "ap.arange(0, 2**62).sum()",
]


@pytest.mark.parametrize("expr", CRASHED_BEFORE)
def test_former_crashes_raise_value_error_in_a_subprocess(expr):
    r = _run(f"try:\n    {expr}\nexcept ValueError as e:\n    print('ValueError', e)\n")
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert r.stdout.startswith("ValueError array is too big"), r.stdout


@pytest.mark.faults_device
def test_huge_representable_array_fails_cleanly_when_computed():
    # 2**43 float64 = 64 TiB: representable, never allocatable here.
    r = _run("try:\n    ap.asnumpy(ap.zeros(2**43) + 1.0)\n"
             "except MemoryError as e:\n    print('MemoryError', type(e).__name__)\n")
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert r.stdout.split() == ["MemoryError", "OutOfMemoryError"]


@pytest.mark.faults_device
def test_repr_of_a_huge_array_prints_or_fails_cleanly():
    # 2**50 int8 (1 PiB): printed as NumPy summarises it, or a clean OutOfMemoryError where the
    # pending producer must be computed whole before its edges can be read; never a crash.
    r = _run("try:\n    print(repr(ap.zeros(2**50, dtype=ap.int8)))\n"
             "except MemoryError as e:\n    print(type(e).__name__)\n")
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert r.stdout.strip() in (f"array([0, 0, 0, ..., 0, 0, 0], shape=({2**50},), dtype=int8)",
                                "OutOfMemoryError"), r.stdout


def test_repr_of_a_large_computed_array_copies_only_its_edges():
    # A computed 2**24-element array: only the edges come to the host (tracemalloc sees NumPy's
    # allocations; the whole array would be 128 MiB).
    import tracemalloc
    a = ap.arange(2**24, dtype=ap.float64).reshape(2**12, 2**12)
    ap.eval(a)
    tracemalloc.start()
    try:
        text = repr(a)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak
    assert text.startswith("array([[") and "..." in text and "1.6777215e+07" in text
    assert text.endswith(f"shape={(2**12, 2**12)})")


@pytest.mark.parametrize("shape", [(1001,), (3, 400), (7, 7, 7, 7), (2, 1000, 3), (8, 2000)])
def test_summarised_repr_and_str_match_numpy(rng, device, shape):
    a_np = rng.standard_normal(shape)
    a = ap.asarray(a_np)
    assert repr(a) == repr(a_np)
    assert str(a) == str(a_np)
    assert repr(a[::2].T) == repr(a_np[::2].T)
    with np.printoptions(edgeitems=1, threshold=10):
        assert repr(a) == repr(a_np)
