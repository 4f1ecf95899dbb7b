"""Copies on the CPU (decisions D95). A group that only copies an array into another of its
dtype (copy, ascontiguousarray, roll, concatenate's pieces, slice assignment) runs as memmoves
or typed strided loops instead of the block executor (src/cpu/copy_group.cpp); a copy inside a
fused group that no output takes reads its input; a join reads through a pending plain copy;
casts from bool read bytes. Against NumPy, exactly, over dtypes and layouts big enough to leave
the small-group interpreter (more than 64 elements not dense, or more than one block dense),
with fusion on and off giving the same bits; and medium host blocks (64 KiB - 1 MiB), now
cached after free, reused without corrupting their neighbours."""

import numpy as np
import pytest

import accelpy as ap
from accelpy import _core as core
from helpers import ALL_DTYPES, BF16, assert_matches, random_values, sum_atol
from helpers import assert_exact as same


def _layout(rng, name, dtype, specials=True):
    """A NumPy view of fresh random values and the same view of an accelpy copy of its base."""
    bases = {
        "c": ((70, 90), ()),
        "rows": ((90, 140), (slice(None), slice(3, -5))),
        "cols": ((90, 140), (slice(None), slice(None, None, 3))),
        "negstride": ((80, 60), (slice(None, None, -1), slice(None, None, -2))),
        "transposed": ((40, 70), "T"),
        "3d": ((6, 20, 30), (slice(None), slice(2, -1), slice(None, None, -1))),
        "0d": ((), ...),  # a 0-d view (() would give the scalar)
        "empty": ((0, 40), ()),
        "one_column": ((300, 7), (slice(None), slice(6, 7))),
        "large": ((800, 700), ()),  # past the single-thread bound: the block executor copies
    }
    if name == "broadcast":
        base = random_values(rng, (1, 97), dtype, specials=specials)
        return np.broadcast_to(base, (50, 97)), ap.broadcast_to(ap.asarray(base), (50, 97))
    shape, key = bases[name]
    base = random_values(rng, shape, dtype, specials=specials)
    base_ap = ap.asarray(base.copy())
    if key == "T":
        return base.T, base_ap.T
    return base[key], base_ap[key]


LAYOUT_NAMES = [
    "c",
    "rows",
    "cols",
    "negstride",
    "transposed",
    "3d",
    "0d",
    "empty",
    "one_column",
    "broadcast",
    "large",
]


def _bits(a):
    a = ap.asnumpy(a)
    return a.dtype, a.shape, a.tobytes()


def _fused_and_unfused(fn):
    """fn()'s results with fusion on and off, each evaluated before the switch."""

    def evaluated():
        out = fn()
        ap.eval(*(out if isinstance(out, list) else [out]))
        return out

    was = core._fusion_enabled()
    try:
        core._set_fusion(True)
        on = evaluated()
        core._set_fusion(False)
        off = evaluated()
    finally:
        core._set_fusion(was)
    return on, off


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("name", LAYOUT_NAMES)
def test_copies_match_numpy(rng, device, dtype, name):
    a_np, a = _layout(rng, name, dtype)
    cases = [
        (np.copy, ap.copy),
        (np.ascontiguousarray, ap.ascontiguousarray),
        (lambda x: x.copy(order="F"), lambda x: x.copy(order="F")),
        (lambda x: np.array(x, copy=True), lambda x: ap.array(x, copy=True)),
    ]
    if a_np.ndim:
        for axis in range(-a_np.ndim, a_np.ndim):
            for shift in (1, -1, 5):
                cases.append(
                    (
                        lambda x, s=shift, ax=axis: np.roll(x, s, ax),
                        lambda x, s=shift, ax=axis: ap.roll(x, s, ax),
                    )
                )
            cases.append(
                (
                    lambda x, ax=axis: np.concatenate([x, x[::-1]], axis=ax),
                    lambda x, ax=axis: ap.concatenate([x, x[::-1]], axis=ax),
                )
            )
        cases.append(
            (lambda x: np.roll(x, (1, -2), (0, -1)), lambda x: ap.roll(x, (1, -2), (0, -1)))
        )
    for np_fn, ap_fn in cases:
        expected = np_fn(a_np)
        on, off = _fused_and_unfused(lambda ap_fn=ap_fn: ap_fn(a))
        same(on, expected)
        assert _bits(on) == _bits(off) == (expected.dtype, expected.shape, expected.tobytes())


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float16, np.int64, np.complex128], ids=str)
@pytest.mark.parametrize("name", ["c", "rows", "cols", "negstride", "transposed", "broadcast"])
def test_slice_assignment_matches_numpy(rng, device, dtype, name):
    """`dst[1:-1, 1:-1] = src` writes a copy into a view that is not contiguous."""
    src_np, src = _layout(rng, name, dtype)
    shape = tuple(s + 2 for s in src_np.shape)

    def run(xp, s):
        dst = xp.zeros(shape, dtype=dtype)
        dst[1:-1, 1:-1] = s
        dst[::-1][1:-1, -2:0:-1] = s[:, ::-1]  # a negative-stride destination
        return dst

    expected = run(np, src_np)
    on, off = _fused_and_unfused(lambda: run(ap, src))
    same(on, expected)
    assert _bits(on) == _bits(off)


def test_self_copy_in_place(rng, device):
    """`a[...] = a` copies a view onto itself (the evaluator lets a write read its own view)."""
    a_np = random_values(rng, (300, 40), np.float64)
    a = ap.asarray(a_np.copy())
    v_np, v = a_np[:, ::2], a[:, ::2]
    v[...] = v
    a[10:200] = a[10:200]
    same(a, a_np)
    same(v, v_np)


def test_medium_blocks_reused_intact(rng, device):
    """Arrays of 64 KiB to 1 MiB come from the host cache after the first loop's frees: each
    keeps its values while its neighbours, of the same and other size classes, come and go."""
    sizes = [8193, 9000, 16384, 20000, 40000, 65536, 70000, 100000, 131071]  # float64 elements
    for _ in range(3):
        kept = []
        for n in sizes:
            values = rng.random(n)
            a = ap.asarray(values) * 2.0 + 1.0  # a result allocated by accelpy
            b = ap.roll(a, 3)
            kept.append((values, a, b))
        for values, a, b in kept:
            same(a, values * 2.0 + 1.0)
            same(b, np.roll(values * 2.0 + 1.0, 3))
        del kept


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(), (0, 3), (5,), (70, 90)], ids=str)
def test_masks_cast_from_bool(rng, device, dtype, shape):
    """bool -> any dtype reads bytes (vectorized); a byte other than 0 is True, as NumPy's
    casts read it (ml_dtypes' bfloat16 cast keeps the byte's value: not followed)."""
    # Bytes other than 0 and 1 on the CPU only: the CUDA code generator's bool loads are
    # CUDA C++'s (not checked without a GPU).
    high = 256 if str(device) == "cpu" else 2
    raw = rng.integers(0, high, size=shape, dtype=np.uint8)
    raw.reshape(-1)[: raw.size // 2] = rng.integers(0, 2, size=raw.size // 2, dtype=np.uint8)
    mask_np = raw.view(np.bool_)
    mask = ap.asarray(raw.copy()).view(np.bool_)
    for m_np, m in ((mask_np, mask), (mask_np.T, mask.T)):
        on, off = _fused_and_unfused(lambda m=m: m.astype(dtype))
        expected = (m_np.view(np.uint8) != 0).astype(dtype)
        if dtype != BF16:
            same(ap.asarray(expected), m_np.astype(dtype))
        same(on, expected)
        assert _bits(on) == _bits(off)


@pytest.mark.parametrize("dtype", [np.bool_, np.int64, np.float32, np.complex128], ids=str)
@pytest.mark.parametrize("name", ["c", "cols", "negstride", "transposed", "broadcast"])
def test_copies_inside_fused_groups(rng, device, deferred, dtype, name):
    """A copy that a fused group reads and does not write out reads its input in place; kept
    copies are still written, reductions read the copies' values."""
    x_np, x = _layout(rng, name, dtype, specials=False)
    y_np = random_values(rng, x_np.shape, dtype)
    y = ap.asarray(y_np)

    def run(xp, x, y):
        kept = xp.copy(x)
        out = [xp.copy(x) + y, xp.copy(x + y) * y, kept, kept != y]
        if dtype != np.bool_:
            out.append((xp.copy(x) * y).sum(axis=0))
        out.append(sum(xp.roll(xp.roll(x, i, 0), j, 1) for i in (-1, 0) for j in (0, 1)))
        return out

    expected = run(np, x_np, y_np)
    on, off = _fused_and_unfused(lambda: run(ap, x, y))
    for got, e in zip(on, expected, strict=True):
        if got.ndim < 2:  # the sum: its error is bounded by its terms' size
            assert_matches(got, e, atol=sum_atol(x_np * y_np, axis=0, ulps=16))
        else:
            same(got, e)
    for a, b in zip(on, off, strict=True):
        if a.ndim == 2:  # elementwise results: bit for bit (sums may add in another order)
            assert _bits(a) == _bits(b)


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float64, np.complex64], ids=str)
@pytest.mark.parametrize("name", ["c", "rows", "negstride", "transposed", "broadcast"])
def test_joins_read_through_pending_copies(rng, device, stats, dtype, name):
    """roll(copy(x), ...) joins views of x itself where the copy is laid out as x (C order, a
    transposed x): the copy is not computed for it; a write to x after the join is taken
    still leaves the join NumPy's (the write barrier evaluates it first)."""
    x_np, x = _layout(rng, name, dtype)
    x = x + x if dtype != np.bool_ else x | x  # memory accelpy computed, not NumPy's
    x_np = x_np + x_np if dtype != np.bool_ else x_np | x_np
    ap.eval(x)
    stats_before = stats()["groups_run"]
    kept = ap.copy(x)
    joined = [ap.roll(kept, 1, 1), ap.roll(ap.copy(x), -2, 0), ap.concatenate([kept, x], axis=0)]
    ap.eval(*joined)
    if name in ("c", "transposed"):  # the three joins only: no copy computed
        assert stats()["groups_run"] - stats_before == 3
    x[...] = x[::-1]  # after the joins: what they read must not change
    same(joined[0], np.roll(x_np, 1, 1))
    same(joined[1], np.roll(x_np, -2, 0))
    same(joined[2], np.concatenate([x_np, x_np], axis=0))
    same(kept, x_np)
    later = ap.roll(ap.copy(x), 3, 1)  # pending while x is written again
    x[...] = 0 if dtype != np.bool_ else False
    same(later, np.roll(x_np[::-1], 3, 1))
