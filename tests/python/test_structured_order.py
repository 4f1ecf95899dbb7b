"""NumPy's order of records (accelpy._structured_order): sort and argsort by fields, ties
broken by the other fields, nested records, strings kept on the host and subarray fields by
their bytes, against NumPy on fresh random records, on every device."""

import numpy as np
import pytest
from test_structured import NESTED, records, same

import accelpy as ap


@pytest.mark.parametrize("order", [None, "b", ["d", "a"], "c"])
def test_sort_by_fields(device, rng, order):
    want = records(rng, (7,))
    want["b"] = rng.integers(0, 3, 7)  # ties broken by the other fields
    want["d"][:] = rng.random(7) < 0.5
    x = ap.asarray(want)
    np.testing.assert_array_equal(
        ap.asnumpy(x.argsort(order=order)), np.argsort(want, order=order, kind="stable")
    )
    x.sort(order=order)
    want.sort(order=order)
    same(x, want)
    grid = records(rng, (3, 4))
    y = ap.asarray(grid)
    y.sort(axis=0, order=order)
    grid.sort(axis=0, order=order)
    same(y, grid)


def test_sort_nested_and_string_fields(device, rng):
    want = records(rng, (6,), NESTED)
    x = ap.asarray(want)
    x.sort(order="id")
    want.sort(order="id")
    same(x, want)
    people = np.zeros(4, [("name", "U10"), ("age", "i4")])
    people["name"], people["age"] = ["Doug", "Bob", "Cathy", "Alice"], [19, 45, 37, 25]
    p = ap.asarray(people)
    p.sort()
    people.sort()
    same(p, people)
    with pytest.raises(ValueError, match="unknown field name: zz"):
        p.sort(order="zz")
    # NumPy orders subarray fields by their bytes (memcmp): 256 < 1 < -1, 0.5 < 1.0 < -1.0
    for values, dt in [([[1], [-1], [256]], "i4"), ([[1.0, 0], [-1, 0], [0.5, 0]], "f8")]:
        sub = np.zeros(3, [("c", dt, (len(values[0]),))])
        sub["c"] = values
        s = ap.asarray(sub)
        s.sort()
        sub.sort()
        same(s, sub)


@pytest.mark.parametrize("shape", [(0,), (3, 0), (3, 4)])
def test_argsort_flattened_and_strided(device, rng, shape):
    want = records(rng, shape)
    want["b"] = rng.integers(0, 2, shape)  # ties broken by the other fields
    x = ap.asarray(want)
    for got, expect in [
        (x.argsort(axis=None), np.argsort(want, axis=None, kind="stable")),
        (
            x.T.argsort(axis=None, order="b"),
            np.argsort(want.T, axis=None, order="b", kind="stable"),
        ),
        (x[::-1].argsort(axis=0), np.argsort(want[::-1], axis=0, kind="stable")),
    ]:
        assert got.device == device
        np.testing.assert_array_equal(ap.asnumpy(got), expect)
