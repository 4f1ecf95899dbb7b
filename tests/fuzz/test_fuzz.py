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
