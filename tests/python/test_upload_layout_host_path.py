"""Uploads keep a dense NumPy array's layout (`to_device`, src/core/ops/creation.cpp): a
transposed or reversed array lands on the device with its strides, as numpy.asarray keeps them,
so iteration in memory order (nditer, ravel(order='K')) visits the elements as NumPy's does.
On the fake driver, whose device memory is host memory, the device bytes are read back through
the CUDA array interface."""

from test_cuda_host_path import fake_driver, pytestmark, run_fake  # noqa: F401 - fixture


def test_uploads_keep_a_dense_arrays_layout(fake_driver):  # noqa: F811 - the fixture
    out = run_fake(fake_driver, """
        import ctypes
        import numpy as np, accelpy as ap
        rng = np.random.default_rng(3)
        base = rng.standard_normal((3, 4, 5))
        dense = [base, base.T, base[::-1], base[:, ::-1, ::-1].transpose(1, 0, 2),
                 np.asfortranarray(base)[::-1], base[1:2], base.astype(np.float32).T]
        for a in dense:
            d = ap.asarray(a)
            assert d.device.type == "cuda" and d.strides == a.strides, (d.strides, a.strides)
            ptr = d.__cuda_array_interface__["data"][0]
            for idx in np.ndindex(a.shape):
                at = ptr + sum(i * s for i, s in zip(idx, a.strides))
                got = np.frombuffer(ctypes.string_at(at, a.itemsize), a.dtype)[0]
                assert got == a[idx], (idx, got, a[idx])
        # Not dense (every other element): gathered to C order on the host, as before.
        g = ap.asarray(base[:, ::2])
        assert g.flags.c_contiguous, g.strides
        print("ok")
    """)
    assert out.startswith("ok")
