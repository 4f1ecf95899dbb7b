"""Structured arrays (accelpy._structured, accelpy.rec) against NumPy: creation from every
dtype spec NumPy takes, fields as writable views, indexing and assignment by records, shapes
(0-d, empty, views with negative strides), printing, comparisons, record arrays, and NumPy's
errors. Each test on fresh random records, on every device."""

import numpy as np
import pytest

import accelpy as ap
from accelpy._structured import StructuredArray

# A float64, an int32, a subarray of two float32, a bool.
MIXED = np.dtype([("a", "f8"), ("b", "i4"), ("c", "f4", (2,)), ("d", "?")])
NESTED = np.dtype([("pos", [("x", "f8"), ("y", "f8")]), ("id", "i8")])
SPECS = [
    [("a", "f8"), ("b", "i4")],
    [("pos", "f8", 2), ("n", np.int16)],
    {"names": ("name", "age", "weight"), "formats": ("U10", "i4", "f8")},
    "i4,f8",
    np.dtype([("id", "i8"), ("mat", "f8", (3, 3))]),
    NESTED,
]


def records(rng, shape, dtype=MIXED):
    """Fresh random NumPy records of `dtype`."""
    out = np.zeros(shape, dtype)
    for name in dtype.names:
        field = out[name]
        if field.dtype.names is not None:
            out[name] = records(rng, shape, field.dtype)
        elif field.dtype.kind == "b":
            out[name] = rng.random(field.shape) < 0.5
        elif field.dtype.kind in "iu":
            out[name] = rng.integers(-100, 100, field.shape)
        elif field.dtype.kind == "U":
            out[name] = rng.choice(["Alice", "Bob", "Cathy"], field.shape)
        else:
            out[name] = rng.uniform(-10, 10, field.shape)
    return out


def same(got, want):
    """got (accelpy records) equals NumPy's records exactly: dtype, shape and every field."""
    assert isinstance(got, StructuredArray), type(got)
    have = ap.asnumpy(got)
    assert have.dtype == want.dtype and have.shape == want.shape
    np.testing.assert_array_equal(have, want)


@pytest.mark.parametrize("spec", SPECS, ids=range(len(SPECS)))
@pytest.mark.parametrize("shape", [(), (0,), (4,), (2, 3)])
def test_creation_from_every_spec(device, spec, shape):
    for make, ref in [(ap.zeros, np.zeros), (ap.ones, np.ones), (ap.empty, np.zeros)]:
        got = make(shape, spec)
        assert got.dtype == np.dtype(spec) and got.dtype.names == np.dtype(spec).names
        assert got.dtype.fields == np.dtype(spec).fields
        same(got, ref(shape, spec))
    fill = np.zeros((), spec)[()]
    same(ap.full(shape, fill, spec), np.full(shape, fill, spec))


def test_fields_live_on_the_device(device):
    x = ap.zeros(3, MIXED)
    assert x.device == device and x["a"].device == device and x["c"].device == device
    assert x["c"].shape == (3, 2) and x["c"].dtype == np.float32


def test_array_and_asarray(device, rng):
    want = records(rng, (5,))
    same(ap.asarray(want), want)
    same(ap.array(want), want)
    rows = [tuple(r) for r in want.tolist()]
    same(ap.array(rows, dtype=MIXED), np.array(rows, dtype=MIXED))
    x = ap.asarray(want)
    assert ap.asarray(x) is x
    y = ap.array(x)
    assert y is not x
    y["a"][0] = 99.0
    assert float(x["a"][0]) == want["a"][0]
    want["a"][1] = 50.0  # x is a copy of the NumPy records, not a view of them
    assert float(x["a"][1]) != 50.0
    with pytest.raises(ValueError):
        ap.asarray(want, copy=False)


def test_field_is_a_writable_view(device, rng):
    want = records(rng, (6, 5))
    x = ap.asarray(want)
    a, u = x["a"], x["a"][1:-1, 1:-1]
    u += 1.5
    want["a"][1:-1, 1:-1] += 1.5
    a[0, ::-1] = np.arange(5.0)
    want["a"][0, ::-1] = np.arange(5.0)
    x["c"][..., 1] = 7
    want["c"][..., 1] = 7
    same(x, want)


INDEXES = [
    (slice(1, 4),),
    (slice(None, None, -2),),
    (Ellipsis, 1),
    (slice(None), [0, 2]),
    ([1, 3, 0],),
    (np.s_[::2, ::-1],),
    (None, slice(2)),
    (Ellipsis,),
]


@pytest.mark.parametrize("key", INDEXES, ids=range(len(INDEXES)))
def test_indexing_applies_to_every_field(device, rng, key):
    key = key[0] if len(key) == 1 else key
    want = records(rng, (5, 4))
    x = ap.asarray(want)
    same(x[key], want[key])
    mask = rng.random((5, 4)) < 0.5
    same(x[ap.asarray(mask)], want[mask])
    same(x[1:1], want[1:1])


def test_records(device, rng):
    want = records(rng, (4,))
    x = ap.asarray(want)
    r = x[-1]
    assert repr(r) == repr(want[-1]) and str(r) == str(want[-1])
    assert str(r.item()) == str(want[-1].item()) and len(r) == 4
    np.testing.assert_array_equal(ap.asnumpy(r["c"]), want[-1]["c"])
    assert float(r[0]) == want[-1][0]
    r["b"] = 17  # writes through to x, as NumPy's np.void does
    want[-1]["b"] = 17
    same(x, want)
    assert [repr(rec) for rec in x] == [repr(rec) for rec in want]
    zero_d = ap.asarray(want[2:3].reshape(()))
    assert repr(zero_d[()]) == repr(want[2:3].reshape(())[()])
    same(zero_d[...], want[2:3].reshape(())[...])


def test_assignment(device, rng):
    want = records(rng, (5,))
    x = ap.asarray(want)
    new = records(rng, (5,))
    x[0] = (1.5, 2, [3, 4], True)
    want[0] = (1.5, 2, [3, 4], True)
    x[1:3] = ap.asarray(new[1:3])  # records by position
    want[1:3] = new[1:3]
    x[3] = x[4]  # a record
    want[3] = want[4]
    x[["a", "b"]] = (-1.0, -2)
    want[["a", "b"]] = (-1.0, -2)
    x[4] = 0  # one value for every field
    want[4] = 0
    x["d"] = [True, False, True, False, True]
    want["d"] = [True, False, True, False, True]
    same(x, want)
    x[...] = new
    same(x, new)


def test_multi_field_index(device, rng):
    want = records(rng, (3,))
    x = ap.asarray(want)
    v = x[["c", "a"]]
    assert v.dtype == want[["c", "a"]].dtype
    assert repr(v) == repr(want[["c", "a"]])
    v["a"][0] = 42.0  # a view of x's fields
    assert float(x["a"][0]) == 42.0


def test_nested_and_string_fields(device, rng):
    want = records(rng, (4,), NESTED)
    x = ap.asarray(want)
    assert isinstance(x["pos"], StructuredArray)
    x["pos"]["x"][1] = 3.0
    want["pos"]["x"][1] = 3.0
    same(x, want)
    people = {"names": ("name", "age"), "formats": ("U10", "i4")}
    d = ap.zeros(3, people)
    d["name"] = ["Alice", "Bob", "Cathy"]
    d["age"] = [25, 45, 37]
    n = np.zeros(3, people)
    n["name"], n["age"] = ["Alice", "Bob", "Cathy"], [25, 45, 37]
    same(d, n)
    np.testing.assert_array_equal(d[d["age"] < 30]["name"], n[n["age"] < 30]["name"])


def test_shapes_and_copies(device, rng):
    want = records(rng, (2, 3))
    x = ap.asarray(want)
    same(x.reshape(3, 2), want.reshape(3, 2))
    same(x.reshape(-1), want.reshape(-1))
    same(x.T, want.T)
    same(x.transpose(1, 0), want.transpose(1, 0))
    same(x.ravel(), want.ravel())
    same(x.flatten(), want.flatten())
    same(x[:1].squeeze(), want[:1].squeeze())
    c = x.copy()
    c["a"][...] = 0.0
    same(x, want)
    assert x.shape == (2, 3) and x.ndim == 2 and x.size == 6 and len(x) == 2
    assert x.itemsize == want.itemsize and x.nbytes == want.nbytes
    assert x.tobytes() == want.tobytes() and str(x.tolist()) == str(want.tolist())
    same(x.astype(MIXED), want.astype(MIXED))


def test_printing(device, rng):
    for want in (
        records(rng, (3,)),
        records(rng, (2, 2)),
        records(rng, ()),
        records(rng, (0,)),
        records(rng, (2,), NESTED),
    ):
        x = ap.asarray(want)
        assert repr(x) == repr(want) and str(x) == str(want)


def test_comparisons(device, rng):
    want = records(rng, (6,))
    other = want.copy()
    other["b"][::2] += 1
    other["c"][1, 1] += 1
    x, y = ap.asarray(want), ap.asarray(other)
    np.testing.assert_array_equal(ap.asnumpy(x == y), want == other)
    np.testing.assert_array_equal(ap.asnumpy(x != y), want != other)
    np.testing.assert_array_equal(ap.asnumpy(x == other), want == other)


@pytest.mark.parametrize(
    "op",
    [
        "x + 1",
        "x < x",
        "x == 1",
        "-x",
        "x * x",
        "x.astype(float)",
        "x['zz']",
        "x[['a', 'zz']]",
        "x[0]['zz']",
        "x[0][9]",
        "x[0] = (1, 2)",
        "x[0, 1]",
    ],
)
def test_refused_as_numpy(device, op):
    def run(xp):
        x = xp.zeros(3, MIXED)
        try:
            exec(op, {"x": x})  # noqa: S102 - the parametrized line
        except Exception as e:  # noqa: BLE001 - the exception is the result
            return e
        return None

    want, got = run(np), run(ap)
    assert want is not None and got is not None, (want, got)
    assert (
        isinstance(got, type(want))
        or type(got).__mro__[1:] == type(want).__mro__[1:]
        or isinstance(got, next(t for t in type(want).__mro__ if t.__module__ == "builtins"))
    )
    assert str(got) == str(want)


def test_moves_between_devices(rng):
    want = records(rng, (3,))
    x = ap.asarray(want, device="cpu")
    same(x.to("cpu"), want)
    assert ap.asarray(x, device="cpu") is x


def test_save_load_and_pickle(device, rng, tmp_path):
    import copy
    import io
    import pickle

    want = records(rng, (4,))
    x = ap.asarray(want)
    ap.save(tmp_path / "r.npy", x)
    back = ap.load(tmp_path / "r.npy")
    same(back, want)
    assert back["a"].device == device
    same(pickle.loads(pickle.dumps(x)), want)
    deep = copy.deepcopy(x)
    deep["a"][...] = 0.0
    same(x, want)
    text = io.StringIO("a,b\n1,2.5\n3,4.5\n")
    got = ap.genfromtxt(text, delimiter=",", names=True)
    text.seek(0)
    same(got, np.genfromtxt(text, delimiter=",", names=True))


def test_assignment_reads_before_it_writes(device, rng):
    want = records(rng, (5,))
    x = ap.asarray(want)
    x[["a", "b"]] = x[["b", "a"]]  # a swap, as NumPy does it
    want[["a", "b"]] = want[["b", "a"]]
    same(x, want)
    x[1:] = x[:-1]
    want[1:] = want[:-1]
    same(x, want)
    x[0] = x[4]
    want[0] = want[4]
    same(x, want)
