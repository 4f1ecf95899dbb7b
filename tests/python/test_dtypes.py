"""The data type routines of _dtypes that are not NumPy's own objects."""

import numpy as np
import pytest

import accelpy as ap


def test_astype_puts_the_result_on_the_device_asked(device):
    # The Array API's astype(x, dtype, /, *, copy=True, device=None).
    x = ap.asarray(np.arange(6, dtype=np.int32))
    y = ap.astype(x, np.float64, device=device)
    assert y.device == device and y.dtype == np.float64
    np.testing.assert_array_equal(ap.asnumpy(y), np.arange(6.0))
    assert ap.astype(x, np.int32, copy=False) is x
    with pytest.raises(TypeError):
        ap.astype(x=x, dtype=np.float64)  # positional-only, as NumPy's
