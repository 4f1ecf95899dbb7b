"""Several inputs promote together, as NumPy's result_type over the whole sequence (pairwise
promotion is not associative: (uint8, int8) -> int16, then with float16 -> float32, where NumPy
gives float16)."""

import itertools

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_exact, to_device

NUMERIC = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
           np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]


def test_result_type_of_every_triple_matches_numpy():
    for dts in itertools.combinations_with_replacement(NUMERIC, 3):
        arrays = [ap.zeros(1, dtype=d) for d in dts]
        assert ap.result_type(*arrays) == np.result_type(*dts), dts


JOINS = {
    "concatenate": lambda m, xs: m.concatenate(xs),
    "concatenate None": lambda m, xs: m.concatenate(xs, axis=None),
    "stack": lambda m, xs: m.stack(xs),
    "hstack": lambda m, xs: m.hstack(xs),
    "vstack": lambda m, xs: m.vstack(xs),
    "concat": lambda m, xs: m.concat(xs) if m is ap else np.concatenate(xs),
    "block": lambda m, xs: m.block(list(xs)),
    "column_stack": lambda m, xs: m.column_stack(xs),
}


@pytest.mark.parametrize("dts", [(np.uint8, np.int8, np.float16), (np.int16, np.uint16, np.float32),
                                 (np.int8, np.uint16, np.float16), (np.uint32, np.int8, np.float32),
                                 (np.uint8, np.int16, np.uint16, np.float16)],
                         ids=lambda d: "-".join(np.dtype(t).name for t in d))
@pytest.mark.parametrize("name", list(JOINS))
def test_joins_promote_all_inputs_at_once(rng, device, dts, name):
    xs_np = [rng.integers(0, 100, 4).astype(d) for d in dts]
    assert_exact(JOINS[name](ap, [to_device(x) for x in xs_np]), JOINS[name](np, xs_np))


def test_append_and_where_promote_like_numpy(rng, device):
    a = rng.integers(0, 9, 3).astype(np.uint8)
    b = rng.integers(0, 9, 3).astype(np.int8)
    assert_exact(ap.append(to_device(a), to_device(b)), np.append(a, b))
    c = rng.integers(0, 9, 3).astype(np.float16)
    assert_exact(ap.clip(to_device(c), to_device(a), to_device(b)), np.clip(c, a, b))
