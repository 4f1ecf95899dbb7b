"""Shared fixtures: every test runs per device and draws fresh random inputs.

Devices: "cpu" always, "cuda" when a GPU is present (ACCELPY_TEST_DEVICES=cuda,cpu narrows it).
Each test gets its own seed; it is printed, so a failure can be replayed with ACCELPY_SEED.
"""

import os

import numpy as np
import pytest

import accelpy as ap

# numba-cuda 0.30 (on the GPU machine's image) still references np.row_stack, which NumPy 2.5
# removed; without this alias its kernels fail to compile there, unrelated to accelpy.
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack


def _devices():
    wanted = os.environ.get("ACCELPY_TEST_DEVICES")
    found = ["cpu"]
    cuda = getattr(ap, "cuda", None)
    if cuda is not None and cuda.is_available():
        found.append("cuda")
    if wanted:
        return [d for d in wanted.split(",") if d in found]
    return found


DEVICES = _devices()


@pytest.fixture(params=DEVICES)
def device(request):
    """The device a test runs on; new arrays go there for the test's duration."""
    dev = ap.device(request.param)
    with dev:
        yield dev


@pytest.fixture
def rng(request):
    """A NumPy Generator with a fresh seed (or ACCELPY_SEED), printed for replay."""
    seed = int(os.environ.get("ACCELPY_SEED", 0)) or int.from_bytes(os.urandom(4), "little")
    print(f"ACCELPY_SEED={seed}")
    return np.random.default_rng(seed)




@pytest.fixture
def cpu_default(request):
    """The CPU as the default device for a test that is not parametrized over devices: for
    files whose tests pin the CPU's own semantics (zero-copy NumPy imports, floating-point
    error flags, float16 rounding by in-order steps) whatever ACCELPY_TEST_DEVICES says. Use
    with `pytestmark = pytest.mark.usefixtures("cpu_default")`."""
    if "device" in request.fixturenames or request.node.get_closest_marker("cuda"):
        yield
        return
    with ap.device("cpu"):
        yield

@pytest.fixture
def deferred():
    """Every operation deferred for the test, small ones over computed CPU arrays too (they are
    otherwise computed at the call: ap.fusion.eager_elements()), then restored."""
    with ap.fusion.eager(0):
        yield


@pytest.fixture
def fused(deferred):
    """Automatic fusion on for the test (ACCELPY_FUSION may have turned it off), every operation
    deferred so that it fuses, then restored."""
    was = ap._core._fusion_enabled()
    ap._core._set_fusion(True)
    yield
    ap._core._set_fusion(was)


@pytest.fixture
def stats(device, fused):
    """Fusion's counters (and the plan cache) since the test started, on the test's device."""
    ap.fusion.reset_stats()
    return ap.fusion.stats


def pytest_runtest_setup(item):
    """Tests marked `cuda` need a GPU: skipped, with the reason, without one."""
    if item.get_closest_marker("cuda") is not None and not ap.cuda.is_available():
        pytest.skip(f"needs a CUDA GPU: {ap.cuda.unavailable_reason()}")
