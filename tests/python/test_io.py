"""Input and output (save/load/savez/savetxt/loadtxt/genfromtxt/frombuffer/fromstring), print
options and floating-point error state, against NumPy."""

import io
import threading

import numpy as np
import pytest

import accelpy as ap


def _pair(rng, shape, dtype=np.float64):
    a = (rng.standard_normal(shape) * 10).astype(dtype)
    return a, ap.asarray(a)


def _same(x, expected):
    assert isinstance(x, ap.ndarray) and x.device == ap.get_default_device()
    assert x.dtype == expected.dtype and x.shape == expected.shape
    np.testing.assert_array_equal(ap.asnumpy(x), expected)


@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4)])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128, np.bool_])
def test_save_load_roundtrip(device, rng, tmp_path, shape, dtype):
    a, x = _pair(rng, shape, dtype)
    f = tmp_path / "a.npy"
    ap.save(f, x)
    np.testing.assert_array_equal(np.load(f), a)  # NumPy reads accelpy's files
    _same(ap.load(f), a)
    np.save(tmp_path / "b.npy", x)  # numpy.save of an accelpy array, through the protocol
    _same(ap.load(tmp_path / "b.npy"), a)
    if len(shape) == 2:
        ap.save(tmp_path / "t.npy", x.T[::-1])
        _same(ap.load(tmp_path / "t.npy"), a.T[::-1])


@pytest.mark.parametrize("compressed", [False, True])
def test_savez_load(device, rng, tmp_path, compressed):
    a, x = _pair(rng, (3, 2))
    b, y = _pair(rng, (4,), np.int32)
    f = tmp_path / "z.npz"
    (ap.savez_compressed if compressed else ap.savez)(f, x, second=y)
    with ap.load(f) as z:
        assert sorted(z.files) == ["arr_0", "second"] and len(z) == 2 and "second" in z
        _same(z["arr_0"], a)
        _same(z["second"], b)
        assert sorted(z) == sorted(z.files)
    with np.load(f) as z:
        np.testing.assert_array_equal(z["second"], b)


def test_load_of_objects_and_bad_input(tmp_path):
    f = tmp_path / "o.npy"
    np.save(f, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match="allow_pickle"):
        ap.load(f)
    assert ap.load(f, allow_pickle=True)[0] == {"a": 1}
    with pytest.raises(FileNotFoundError):
        ap.load(tmp_path / "missing.npy")
    with pytest.raises(TypeError, match="float128|longdouble"):
        if np.dtype(np.longdouble).itemsize <= 8:
            raise TypeError("float128: no extended precision on this platform")
        np.save(tmp_path / "l.npy", np.ones(2, np.longdouble))
        ap.load(tmp_path / "l.npy")


def test_text_files(device, rng, tmp_path):
    a, x = _pair(rng, (4, 3))
    f = tmp_path / "t.txt"
    ap.savetxt(f, x, fmt="%.6f", delimiter=",")
    np.savetxt(tmp_path / "n.txt", a, fmt="%.6f", delimiter=",")
    assert f.read_text() == (tmp_path / "n.txt").read_text()
    _same(ap.loadtxt(f, delimiter=","), np.loadtxt(f, delimiter=","))
    _same(ap.loadtxt(f, delimiter=",", unpack=True), np.loadtxt(f, delimiter=",", unpack=True))
    _same(ap.loadtxt(f, delimiter=",", usecols=1), np.loadtxt(f, delimiter=",", usecols=1))
    text = "1,2,3\n4,,6\n"
    _same(ap.genfromtxt(io.StringIO(text), delimiter=","),
          np.genfromtxt(io.StringIO(text), delimiter=","))
    with pytest.raises(ValueError):
        ap.loadtxt(io.StringIO("1 2\n3\n"))


def test_frombuffer_fromstring(device):
    raw = np.arange(6, dtype=np.int16).tobytes()
    _same(ap.frombuffer(raw, dtype=np.int16), np.frombuffer(raw, dtype=np.int16))
    _same(ap.frombuffer(raw, dtype=np.int16, count=2, offset=4),
          np.frombuffer(raw, dtype=np.int16, count=2, offset=4))
    _same(ap.fromstring("1 2 3.5", sep=" "), np.fromstring("1 2 3.5", sep=" "))
    with pytest.raises(ValueError):
        ap.frombuffer(b"abc", dtype=np.int16)
    with pytest.raises(TypeError):
        ap.fromstring("1 2")  # sep is required, as NumPy's


def test_print_options_govern_accelpy_repr(device, rng):
    a, x = _pair(rng, (3, 3))
    assert repr(x) == repr(a) and str(x) == str(a)
    with ap.printoptions(precision=2, suppress=True):
        assert repr(x) == repr(a) and ap.get_printoptions()["precision"] == 2
    assert ap.get_printoptions()["precision"] == 8
    old = ap.get_printoptions()
    try:
        ap.set_printoptions(threshold=5, edgeitems=1)
        big, y = _pair(rng, (100,))
        assert repr(y) == repr(big) and "..." in repr(y)
    finally:
        ap.set_printoptions(**old)
    assert ap.array2string(x, precision=3, separator=",") == np.array2string(
        a, precision=3, separator=",")
    assert ap.array_repr(x, precision=1) == np.array_repr(a, precision=1)
    assert ap.array_str(x, max_line_width=20) == np.array_str(a, max_line_width=20)
    assert ap.format_float_positional(np.float32(0.1)) == "0.1"
    assert ap.format_float_scientific(1234.5, precision=2) == "1.23e+03"
    with pytest.raises(TypeError):
        ap.set_printoptions(precision="x")


def test_errstate_is_numpys_per_thread_and_restored():
    before = ap.geterr()
    assert before == np.geterr()
    with ap.errstate(divide="raise", invalid="ignore"):
        assert ap.geterr()["divide"] == "raise" and ap.geterr()["invalid"] == "ignore"
        seen = {}
        t = threading.Thread(target=lambda: seen.update(ap.geterr()))
        t.start()
        t.join()
        assert seen["divide"] == before["divide"]  # another thread keeps its own state
        with pytest.raises(FloatingPointError):
            np.float64(1.0) / np.float64(0.0)  # the state is NumPy's: one setting for both
    assert ap.geterr() == before
    old = ap.seterr(over="raise")
    assert old == before and ap.geterr()["over"] == "raise"
    ap.seterr(**old)
    calls = []
    prev = ap.seterrcall(lambda kind, flag: calls.append(kind))
    assert ap.geterrcall() is not None
    ap.seterrcall(prev)
    with pytest.raises(ValueError):
        ap.seterr(divide="loudly")
    with pytest.raises(TypeError):
        ap.errstate(bogus="raise")
    x = ap.asarray([1.0, 0.0])
    with ap.errstate(all="ignore"):
        assert np.isinf(ap.asnumpy(1.0 / x[1:]))[0]  # IEEE results as NumPy's
