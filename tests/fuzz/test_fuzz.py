"""The differential fuzzer's pytest entry: ACCELPY_FUZZ_PROGRAMS programs (2,000 by default)
from seed ACCELPY_FUZZ_SEED (0) on device ACCELPY_FUZZ_DEVICE (cpu), in chunks that
pytest-xdist spreads over its workers. Each program runs on NumPy and on accelpy fused and
unfused (runner.check); a program whose first mismatch is a known class (known.py) is counted
and printed, any other fails the chunk with the program's source (replay it with
`cd tests && python -m fuzz.runner SEED [DEVICE]`). On a GPU, accelpy on the device is also
compared with accelpy on the CPU."""

import os
from collections import Counter

import numpy as np
import pytest

from .generator import Program
from .known import KNOWN, first_mismatch_class
from .runner import check, compare, report, run

PROGRAMS = int(os.environ.get("ACCELPY_FUZZ_PROGRAMS", 2000))
SEED = int(os.environ.get("ACCELPY_FUZZ_SEED", 0))
DEVICE = os.environ.get("ACCELPY_FUZZ_DEVICE", "cpu")
CHUNK = 50
CHUNKS = [(start, min(start + CHUNK, PROGRAMS)) for start in range(0, PROGRAMS, CHUNK)]


def device_available():
    import accelpy as ap

    return DEVICE == "cpu" or (DEVICE == "cuda" and ap.cuda.is_available())


@pytest.mark.skipif(not device_available(), reason=f"no {DEVICE} device")
@pytest.mark.parametrize("chunk", CHUNKS, ids=lambda c: f"{SEED + c[0]}-{SEED + c[1] - 1}")
def test_programs_match_numpy(chunk):
    known, new = Counter(), []
    for seed in range(SEED + chunk[0], SEED + chunk[1]):
        program, found = check(seed, DEVICE, against_cpu=DEVICE != "cpu")
        if not found:
            continue
        first, entry = first_mismatch_class(program, found)
        if entry is None:
            new.append(report(program, first))
        else:
            known[entry.name] += 1
    print(f"known mismatches in this chunk: {dict(known)}")
    assert not new, f"{len(new)} programs differ from NumPy; the first:\n" + new[0]


@pytest.mark.parametrize("entry", KNOWN, ids=lambda k: k.name)
def test_known_mismatch_is_still_there(entry, request):
    """Passes once the class is fixed; strict xfail turns that into a failure, telling to remove
    the entry from known.py."""
    request.applymarker(pytest.mark.xfail(strict=True, reason=entry.reason))
    import accelpy as ap

    program = Program.from_lines(entry.program)
    with ap.device(DEVICE if device_available() else "cpu"):
        found = compare(program, run(program, np), run(program, ap))
    assert not found, found[0].detail


def test_device_comparison_flags_what_must_agree():
    """The GPU-against-CPU check (runner.compare_devices) itself: integers bit for bit, floats
    the generator tracks as exact equal, approximate floats within their ulps."""
    from .generator import Var
    from .runner import Outcome, compare_devices

    program = Program.from_lines(["i = x", "f = y", "g = z"])
    vars_ = {"i": Var(), "f": Var(exact=False, depth=1, eps=2.0**-52), "g": Var()}
    ints, floats = np.arange(5, dtype=np.int64), np.linspace(1.0, 2.0, 5)
    cpu = Outcome({0: (ints, None), 1: (floats, None), 2: (floats, None)}, None)
    assert compare_devices(program, cpu, cpu, vars_) == []
    near = floats * (1 + 4 * 2.0**-52)
    off = ints.copy()
    off[2] += 1
    other = Outcome({0: (off, None), 1: (near, None), 2: (near, None)}, None)
    found = compare_devices(program, cpu, other, vars_)
    assert sorted({m.index for m in found}) == [0, 2]
    assert all(m.what == "device" for m in found)
    far = Outcome({0: (ints, None), 1: (floats * (1 + 1e-9), None), 2: (floats, None)}, None)
    assert [m.index for m in compare_devices(program, cpu, far, vars_)] == [1]
