"""`x[mask] = values` on CUDA's host path (the fake driver: launches are counted, not run). The
CUDA backend keeps IndexingBackend::place's default, the selection of the mask's positions
(its counting and scan kernels) then a scatter; the CPU's block pass must not run on device
memory. No kernel runs on the fake driver, so its "device" memory is zeroed
(FAKE_CUDA_ZERO_MEMORY) and the count read back is 0: the assignment ends in the ValueError of
a count that does not match (heap garbage there made the test flaky); the GPU suite
(test_mask_place.py, test_mask_runs.py) checks values."""

from test_cuda_host_path import fake_driver, pytestmark, run_fake  # noqa: F401 - fixture

PROGRAM = """
    import ctypes, os
    import numpy as np, accelpy as ap
    launches = ctypes.c_ulonglong.in_dll(ctypes.CDLL(os.environ["ACCELPY_CUDA_DRIVER"]),
                                         "fake_cuda_launches")
    rng = np.random.default_rng(0)
    m_np = rng.random((40, 50)) < 0.5
    x, m = ap.asarray(rng.random((40, 50))), ap.asarray(m_np)
    assert x.device.type == "cuda" and m.device.type == "cuda"
    v = ap.asarray(rng.random(int(m_np.sum())))
    before = launches.value
    try:
        x[m] = v
    except ValueError:
        pass  # the zero count read back
    placed = launches.value - before
    before = launches.value
    x[m] = 2.0
    where = launches.value - before
    # the CPU's arrays beside still take the CPU's pass, exactly
    with ap.device("cpu"):
        xc_np = rng.random((40, 50)); xc = ap.asarray(xc_np)
        vc_np = rng.random(int(m_np.sum()))
        xc[ap.asarray(m_np)] = ap.asarray(vc_np)
        xc_np[m_np] = vc_np
        assert (ap.asnumpy(xc) == xc_np).all()
    print("ok", placed, where)
"""


def test_cuda_mask_assignment_selects_positions_on_the_device(fake_driver):  # noqa: F811 - the fixture
    out = run_fake(fake_driver, PROGRAM, env={"FAKE_CUDA_ZERO_MEMORY": "1"}).split()
    assert out[0] == "ok", out
    placed, where = int(out[1]), int(out[2])
    assert placed >= 2  # the selection's counting and scan kernels, at least
    assert where >= 1  # one value: a where() kernel
