"""The bad-input table: calls NumPy rejects, by chapter, each a line of source over `xp` (numpy
or accelpy) and the arrays `setup` makes. test_bad_input.py runs them in subprocesses (many a
process: `main` prints one RESULT line per case) and compares accelpy's exception type with the
one NumPy raises for the same line, computed live. A case whose expected type is given (an
accelpy-only call: users' kernels) is checked against that type instead."""

import json
import sys

import numpy as np

K = "import accelpy as ap; "  # users' kernels: accelpy only
R = "import numpy.lib.recfunctions; "  # makes np.lib.recfunctions (accelpy's is lazy)

CASES = {
    "creation": [
        "xp.zeros((2, -1))", "xp.zeros((2.5, 3))", "xp.ones('abc')", "xp.empty([[2]])",
        "xp.zeros((1,) * 65)", "xp.eye(-1)", "xp.ones(3, dtype='flot32')",
        "xp.asarray([[1, 2], [3]])", "xp.asarray([1, 2], copy=False)",
        "xp.full(3, 300, dtype='int8')", "xp.arange(0, 10, 0)", "xp.linspace(0, 1, -2)",
        "xp.zeros(3, order='X')", "xp.identity(2.5)", "xp.full((2, 2), [1, 2, 3])",
        "xp.linspace(0, 1, 2.5)", "xp.asarray(a, dtype='int8', copy=False)",
        "xp.meshgrid(a, indexing='ij2')", "xp.diag(xp.ones((2, 2, 2)))", "xp.logspace(0, 1, -1)",
        "xp.arange(1, 2, dtype='flot')", "xp.ones((2, 3), dtype=int, order='Q')",
        "xp.empty_like(a, shape=(-1, 2))", "xp.eye(2, 3, k=1.5)",
    ],
    "elementwise": [
        "xp.add(a, xp.ones(4))", "a * xp.ones((3, 2))", "xp.subtract(b, b)", "-b",
        "xp.add(a.astype('int8'), 300)", "xp.add(a, 1, out=xp.ones(4))", "xp.sqrt(a, out=[1, 2])",
        "i += 1.5", "r = a[0]; r += a", "a + None", "xp.add(a, 'x')", "xp.bitwise_and(a, a)",
        "~a", "a << 1", "xp.floor_divide(c, 2)", "xp.add(a, a, casting='bogus')",
        "xp.multiply(a, a, dtype='flot')", "xp.add(a, a, a, a)", "xp.sqrt()",
        "xp.remainder(c, c)", "xp.maximum(a, 1, out=i)", "xp.logaddexp(c, c)",
        "xp.arctan2(c, c)", "xp.ldexp(a, a)", "xp.gcd(a, a)", "xp.right_shift(i, a)",
        "xp.power(i, -1)", "xp.add(a, a, order='X')", "xp.exp(a, dtype='int8')",
        "xp.clip(a, 0, 1, out=i)", "xp.isnan('x')", "xp.where(b, a, xp.ones(4))",
    ],
    "reductions": [
        "a.sum(axis=2)", "a.sum(axis=-3)", "a.max(axis=(0, 5))", "xp.sum(a, axis=(0, 0))",
        "a.sum(axis=1.5)", "xp.max(xp.ones(0))", "xp.argmax(a[:0])", "xp.argmin(a, axis=(0, 1))",
        "a.sum(axis=True)", "a.sum(axis='0')", "a.mean(dtype='flot')", "a.prod(out=xp.ones(5))",
        "xp.var(a, axis=3)", "xp.any(a, axis=2)", "xp.all(a, axis=(1, 1))",
        "xp.cumsum(a, axis=2)", "xp.cumprod(a, axis=1.0)", "xp.median(a, axis=4)",
        "xp.percentile(a, 150)", "xp.quantile(a, -0.5)", "xp.average(a, weights=xp.ones(5))",
        "xp.nanmean(a, axis=3)", "xp.ptp(a, axis=2)", "xp.count_nonzero(a, axis=5)",
        "xp.std(a, axis=(0, 0))",
    ],
    "manipulation": [
        "a.reshape(4, 2)", "a.reshape(-1, -1)", "a.reshape(2.0, 3)", "a.reshape(6, order='X')",
        "a.ravel(order='Q')", "xp.transpose(a, (0, 0))", "a.transpose(1, 2)",
        "xp.swapaxes(a, 0, 3)", "xp.moveaxis(a, 0, 5)", "xp.expand_dims(a, 4)",
        "xp.squeeze(a, axis=0)", "xp.broadcast_to(a, (3, 2))", "xp.broadcast_to(a, (-1, 3))",
        "xp.concatenate([a, xp.ones((2, 4))])", "xp.concatenate([a, a], axis=3)",
        "xp.concatenate([])", "xp.stack([a, xp.ones((3, 2))])", "xp.stack([])",
        "xp.vstack([a, xp.ones(4)])", "xp.hstack([a, xp.ones(3)])", "xp.split(a, 4, axis=1)",
        "xp.split(a, 2, axis=5)", "xp.array_split(a, 0)", "xp.repeat(a, -1)",
        "xp.repeat(a, [1, 2], axis=1)", "xp.roll(a, 1, axis=4)", "xp.flip(a, axis=3)",
        "xp.pad(a, -1)", "xp.pad(a, 1, mode='bogus')", "xp.rot90(a, axes=(0, 0))",
        "xp.delete(a, 10, axis=0)", "xp.insert(a, 10, 1, axis=0)",
        "xp.append(a, xp.ones(3), axis=0)", "xp.resize(a, -1)", "xp.block([[a], a])",
        "xp.moveaxis(a, [0, 1], [0])", "xp.diagonal(a, axis1=0, axis2=0)",
        "xp.trace(a, axis1=0, axis2=5)", "a.astype('foo')", "a.astype('int8', casting='safe')",
        "xp.copyto(i, a, casting='same_kind')", "xp.broadcast_shapes((2,), (3,))",
        "xp.broadcast_arrays(a, xp.ones(4))", "xp.tile(a, 1.5)",
    ],
    "indexing": [
        "a[5]", "a[0, 5]", "a[0, 0, 0]", "a[1.5]", "a['x']", "a[[0, 5]]",
        "a[xp.ones(3, bool)]", "a[:, xp.ones(2, bool)]", "a[2**70]", "a[..., ...]",
        "a[0] = xp.ones(4)", "a[[0, 1]] = xp.ones((3, 3))", "xp.take(a, 10)",
        "xp.take(a, [0], axis=3)", "xp.take(a, [0], mode='bogus')", "xp.put(a, 10, 1)",
        "xp.take_along_axis(a, xp.ones((2, 3)), axis=1)", "xp.take_along_axis(a, i, axis=5)",
        "xp.compress([True] * 5, a, axis=0)", "xp.unravel_index(10, (2, 3))",
        "xp.ravel_multi_index((5, 0), (2, 3))", "xp.diag_indices_from(xp.ones((2, 3)))",
        "xp.select([b], [a, a])", "xp.fill_diagonal(xp.ones(3), 1)", "xp.where(b, a)",
        "xp.nonzero(xp.asarray(5))", "a[b[0]]", "a[:, :, None, 0, 0]",
        "a[a > 0] = xp.ones((1, int((a > 0).sum())))", "a[a > -9] = xp.ones((6, 1))",
    ],
    "linalg": [
        "xp.linalg.inv(a)", "xp.linalg.inv(xp.zeros((2, 2)))", "xp.linalg.solve(m, xp.ones(4))",
        "xp.linalg.det(xp.ones(3))", "xp.linalg.cholesky(-xp.eye(2))", "xp.linalg.eigh(a)",
        "xp.linalg.svd(xp.ones(3))", "xp.linalg.qr(xp.ones(3))",
        "xp.linalg.norm(a, ord='bogus')", "xp.linalg.norm(a, axis=3)",
        "xp.linalg.matrix_power(a, 2)", "xp.linalg.matrix_power(m, 1.5)", "xp.matmul(a, a)",
        "a @ xp.ones(4)", "xp.dot(a, a)", "xp.tensordot(a, a, axes=5)",
        "xp.einsum('ij,jk', a, a)", "xp.einsum('i', a)", "xp.linalg.lstsq(a, xp.ones(3))",
        "xp.linalg.pinv(xp.ones(3))", "xp.cross(xp.ones(4), xp.ones(4))", "xp.linalg.eig(a)",
        "xp.linalg.slogdet(a)", "xp.trace(xp.ones(3))",
    ],
    "fft": [
        "xp.fft.fft(a, n=0)", "xp.fft.fft(a, n=-1)", "xp.fft.fft(a, axis=2)",
        "xp.fft.fft(a, norm='bogus')", "xp.fft.ifft(a, n=1.5)", "xp.fft.fftn(a, axes=(0, 0, 5))",
        "xp.fft.irfft(a, n=0)", "xp.fft.fftshift(a, axes=3)", "xp.fft.rfftn(a, s=(0, 0))",
        "xp.fft.fftfreq(0)", "xp.fft.rfft(c)",
    ],
    "random": [
        "xp.random.uniform(0, 1, size=-1)", "xp.random.normal(0, -1, size=3)",
        "xp.random.randint(5, 2)", "xp.random.randint(0, 10, size=(2, -1))",
        "xp.random.choice(5, 10, replace=False)", "xp.random.choice([], 1)",
        "xp.random.default_rng('x')", "xp.random.default_rng(0).integers(5, 2)",
        "xp.random.default_rng(0).normal(size=-2)", "xp.random.exponential(-1.0)",
        "xp.random.seed(-1)", "xp.random.rand(-1)",
        "xp.random.default_rng(0).choice(3, 5, replace=False)",
    ],
    "sorting_sets": [
        "xp.sort(a, axis=2)", "xp.sort(a, kind='bogus')", "xp.argsort(a, axis=3)",
        "xp.searchsorted(v, 1, side='middle')", "xp.partition(a, 10)",
        "xp.argpartition(a, 10, axis=1)", "xp.lexsort([a[0], xp.ones(4)])",
        "xp.argmax(a, axis=4)", "xp.sort(a, axis=1.5)", "xp.unique(a, axis=3)",
        "xp.isin(a, a, kind='bogus')", "xp.unique(a, return_index=True, axis=9)",
        "xp.searchsorted(a, 1)",
    ],
    "conversion_io": [
        "float(a)", "int(a)", "complex(a)", "bool(a)", "len(xp.asarray(5))", "a.item(10)",
        "a.item()", "iter(xp.asarray(5))", "hash(a)", "xp.from_dlpack(5)",
        "a.__array_namespace__(api_version='1900.01')", "xp.can_cast(a, 'flot')",
        "xp.result_type()", "xp.finfo('int32')", "xp.iinfo('float32')", "a.tolist(1)",
        "xp.asarray(a).tobytes(order='X')", "[1, 2][a]",
    ],
    "surface": [
        "xp.packbits(a)", "xp.packbits(i, bitorder='middle')", "xp.packbits(i, axis=2)",
        "xp.unpackbits(i)", "xp.unpackbits(i.astype('uint8'), count=-100)",
        "xp.unpackbits(i.astype('uint8'), count=1.5)", "xp.unpackbits(i.astype('uint8'), axis=3)",
        "xp.fromiter([1, 2], dtype=int, count=5)", "xp.fromiter(5, dtype=float)",
        "xp.fromiter([1, 2], dtype='flot')", "xp.nditer(a, op_flags=['bogus'])",
        "xp.nditer([a, xp.ones(4)])", "xp.nditer(a, flags=['bogus'])", "xp.emath.logn(2)",
        "xp.asarray_chkfinite(xp.asarray([1.0, xp.inf]))", "xp.asfortranarray(a, dtype='flot')",
        "xp.linalg.tensorinv(a, ind=0)", "xp.linalg.tensorsolve(a, xp.ones(4))",
        "xp.einsum_path('ij,jk', a, a)", "xp.mask_indices(3, 5)", "xp.zeros(3, order=1)",
        "xp.full(3, [1, 2])", "xp.isin(a, a, kind='table')", "xp.binary_repr(1.5)",
        "xp.min_scalar_type()", "xp.common_type(xp.asarray([True]))", "xp.identity(-1)",
        "xp.eye(2, 2.5)", "xp.empty(3, order='K')", "xp.linspace(0, 1, '5')",
        "xp.lib.stride_tricks.sliding_window_view(a, (3, 4))",
        "xp.lib.stride_tricks.sliding_window_view(a, -1, axis=0)",
        "xp.lib.stride_tricks.sliding_window_view(a, 2)",
        "xp.lib.stride_tricks.sliding_window_view(a, 2, axis=5)",
        "xp.lib.stride_tricks.sliding_window_view(a, 1.5, axis=0)",
        "xp.lib.stride_tricks.sliding_window_view(a, (2, 2), axis=0)",
        "xp.show_config(mode='yaml')", "xp.seterr(divide='loudly')", "xp.seterrcall(42)",
        "xp.errstate(all='x').__enter__()", "xp.seterr(over=1)",
        "xp.array(a, order='X')", "xp.array(a, order=3)", "xp.array(a, ndmin=1.5)",
        "xp.array(a, order='F', copy=False)", "del a[0]", "del a[:, 1]",
        "xp.dstack(x for x in a)", "xp.vstack({1, 2})", "a['ab']", "a[range(3)]",
        "xp.can_cast(a, 'U3', casting='bogus')", "a[0, 0] = 1.5j", "i[1:] = 2j",
    ],
    # Structured arrays: s has fields a (float64) and b (two int32), r is its recarray view.
    "structured": [
        "s['zz']", "s[['a', 'zz']]", "s[0]['zz']", "s[0][5]", "s['zz'] = 1", "s[0] = (1, 2, 3)",
        "s + 1", "s < s", "s == 1", "-s", "s.astype(float)", "s[0, 0]", "s[5]", "r.zz",
        "xp.zeros(3, [('a', 'f8'), ('a', 'i4')])", "xp.zeros(3, [('a', 'f9')])",
        "xp.zeros(3, {'names': ['a', 'b'], 'formats': ['f8']})", "xp.zeros(-1, 'i4,f8')",
        "xp.asarray([(1, 2.0)], dtype='i4,f8', copy=False)", "s.sum()", "s * s",
        "s[['a', 'b']] = (1,)", "xp.rec.fromarrays([a, a[0]])",
        "xp.zeros(3, 'i4,f8')['f2']", "len(s[0]['a'])", "s.reshape(4)",
        "s[0] = 'abc'", "s['a'] = s", "s[xp.asarray([True, False])]",
        "s[1, 2]",
        # NumPy's functions on records (D88): promotion, shapes, axes, fields, views of bytes
        "xp.concatenate([s, a[0]])", "xp.concatenate([s, xp.zeros(3, [('z', 'f8'), ('b', 'i4')])])",
        "xp.concatenate([s, s.reshape(3, 1)])", "xp.stack([s, s[:2]])", "xp.where(b[0], s, 1.0)",
        "xp.sort(s, order='zz')", "xp.take(s, [5])", "xp.unique(s, axis=3)",
        "a.view([('x', 'f8'), ('y', 'f8'), ('z', 'f8'), ('w', 'f8')])",
        "a[:, ::2].view([('x', 'f4')])", "s.view('f8,f8,f8,f8,f8')",
        "s[0:0].view('V3')",
        # void records (D92): made directly, refused as NumPy refuses them
        "xp.zeros(3, 'V4') + 1", "xp.zeros(3, 'V4') < xp.zeros(3, 'V4')",
        "xp.zeros(3, 'V4') == b'ab'", "xp.zeros(3, 'V4') == xp.zeros(3, 'V8')",
        "xp.zeros(3, 'V4')['f0']", "v = xp.zeros(3, 'V4'); v[0] = 5",
        "xp.zeros(3, 'V4').view('i8')", "xp.zeros((), 'V8').view('i4')",
        "xp.concatenate([xp.zeros(3, 'V4'), xp.zeros(3, 'V8')])",
        "xp.full((2, 4), [b'a', b'b', b'c'], 'V1')", "xp.zeros(3, 'V4').astype('i4')",
        # numpy.lib.recfunctions' joins (D92)
        R + "xp.lib.recfunctions.join_by('zz', s, s, usemask=False)",
        R + "xp.lib.recfunctions.join_by('a', s, s, 'left', usemask=False)",
        R + "xp.lib.recfunctions.join_by('a', s, s, r1postfix='', r2postfix='', usemask=False)",
        R + "xp.lib.recfunctions.stack_arrays((s, xp.zeros(2, [('a', 'i8')])), usemask=False)",
        R + "xp.lib.recfunctions.apply_along_fields(xp.mean, a)",
        R + "xp.lib.recfunctions.find_duplicates(a)",
        R + "xp.lib.recfunctions.assign_fields_by_name(s, a)",
        R + "xp.lib.recfunctions.merge_arrays((xp.zeros(2, [('p', 'i2'), ('q', 'u1')]), "
        "xp.arange(3.0)), flatten=True)",
    ],
    # Python ints past 64 bits as shifts, axes, counts, sizes and indices: NumPy's C
    # conversion raises OverflowError, its bounds checks IndexError or ValueError.
    "huge_ints": [
        "xp.roll(a, 1, axis=2**70)", "xp.repeat(a, 2**70)", "xp.repeat(a, [2**70] * 3, axis=1)",
        "a[-2**70]", "a[[2**70]]", "a[0, 2**64]", "xp.take(a, 2**70)", "xp.take(a, [2**70])",
        "a.take(2**70)", "xp.sum(a, axis=2**70)", "a.sum(axis=-2**70)", "xp.zeros(2**70)",
        "xp.zeros((2**70, 2))", "xp.ones((2, 2**64))", "xp.empty(2**70)", "xp.full(2**70, 1.0)",
        "a.reshape(2**70)", "xp.expand_dims(a, 2**70)", "xp.moveaxis(a, 2**70, 0)",
        "xp.tile(a, 2**70)", "xp.arange(2**70)", "xp.swapaxes(a, 0, 2**70)",
        "xp.squeeze(a, 2**70)", "xp.flip(a, 2**70)", "xp.cumsum(a, 2**70)", "xp.sort(a, 2**70)",
        "xp.argsort(a, 2**70)", "xp.argmax(a, 2**70)", "xp.concatenate([a], 2**70)",
        "xp.stack([a], 2**70)", "xp.partition(a, 2**70)", "xp.insert(a, 2**70, 1)",
        "xp.delete(a, 2**70)", "xp.diagonal(a, 2**70)", "xp.trace(a, 2**70)",
        "xp.linspace(0, 1, 2**70)", "xp.eye(2**70)", "xp.identity(2**70)", "xp.tri(2**70)",
        "a.item(2**70)", "xp.broadcast_to(a, (2**70, 3))", "xp.put(i, [2**70], 1)",
        "xp.indices((2**70,))", "xp.bincount(xp.arange(3), minlength=2**70)",
        "xp.unravel_index(2**70, (3,))", "xp.resize(a, 2**70)",
        # NumPy's object arrays of such ints: no integer index (IndexError, TypeError), or its
        # C conversion's OverflowError
        "a[[2**70]] = 1", "a[2**70]", "a[2**70] = 1", "i[0, [2**70]]", "i[[0], -2**70]",
        "xp.put(i, 2**70, 1)", "xp.put(i, [1], 2**70)", "xp.partition(a, [1, 2**70])",
        "xp.argpartition(a, [2**70])", "xp.unravel_index([2**70], (3,))",
        "xp.unravel_index(1, (2**70,))", "xp.ravel_multi_index((2**70,), (3,))",
        "xp.ravel_multi_index((1,), (2**70,))", "xp.choose([2**70], [i])",
        "xp.compress([True], a, axis=2**70)", "xp.take_along_axis(i, i, 2**70)",
        "xp.arange(0, 2**70)", "xp.arange(-2**70, 0, 1)", "xp.where(i > 2, i, 2**70)",
    ],
    "kernels": [
        (K + "ap.RawKernel(123, 'k')", "TypeError"),
        (K + "ap.ElementwiseKernel('T x', 'T y', 'y = x', 'k')(a, a, a, a)", "TypeError"),
        (K + "ap.ElementwiseKernel('T x', 'T y', 'y = x', 'k')(a, i)", "TypeError"),
        (K + "ap.ElementwiseKernel('float32 x', 'float32 y', 'y = x', 'k')(a[0], xp.ones(4, "
         "'float32'))", "ValueError"),
        # On the CPU a CUDA C kernel is refused before it compiles.
        (K + "ap.ElementwiseKernel('T x', 'T y', 'y = x +', 'k')(a)",
         "(ValueError, ap.CompileError)"),
        (K + "ap.ReductionKernel('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'k')(a, axis=5)",
         "np.exceptions.AxisError"),
        (K + "ap.ElementwiseKernel('T x', 'T y', 'y = x', 'k')('not an array')", "TypeError"),
        (K + "ap.RawModule(code=5)", "TypeError"),
        (K + "ap.eval(np.ones(3))", "TypeError"),
        (K + "ap.eval(a, [1])", "TypeError"),
    ],
}

# Cases that fail now: each must keep failing until its entry goes (the test says so when one
# passes). "fix:" ones are being fixed by other work; "new:" ones were found by this table.
KNOWN_BAD: dict[str, str] = {}


def cases():
    """{name: (source, expected type name or None: NumPy's, computed live)}."""
    out = {}
    for chapter, rows in CASES.items():
        for k, row in enumerate(rows):
            src, expected = row if isinstance(row, tuple) else (row, None)
            out[f"{chapter}-{k:02d}"] = (src, expected)
    return out


def setup(xp):
    rng = np.random.default_rng(1)
    ns = {"xp": xp, "np": np}
    ns["a"] = xp.asarray(rng.uniform(-2, 2, (2, 3)))
    ns["i"] = xp.asarray(np.arange(6).reshape(2, 3))
    ns["b"] = xp.asarray(rng.random((2, 3)) < 0.5)
    ns["c"] = xp.asarray(rng.uniform(-2, 2, (2, 3)) + 1j)
    ns["m"] = xp.asarray(rng.uniform(-2, 2, (3, 3)) + 3 * np.eye(3))
    ns["v"] = xp.asarray(np.arange(5.0))
    ns["s"] = xp.zeros(3, [("a", "f8"), ("b", "i4", (2,))])
    ns["r"] = ns["s"].view(xp.recarray)
    return ns


def outcome(xp, src):
    import warnings

    ns = setup(xp)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(src, ns)  # noqa: S102 - the table's own line
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return type(e), str(e)
    return None, ""


def public(exc):
    """The first public class of an exception type (NumPy's UFuncTypeError -> TypeError)."""
    for t in exc.__mro__:
        if t.__module__ in ("builtins", "numpy.exceptions", "numpy.linalg") \
                or t.__module__.startswith("accelpy"):
            return t
    return exc


def name_of(want):
    return "/".join(t.__name__ for t in want) if isinstance(want, tuple) else public(want).__name__


def check(name, src, expected):
    import accelpy as ap

    if expected is None:
        want, _ = outcome(np, src)
    else:
        want = eval(expected, {"ap": ap, "np": np})  # noqa: S307 - a name in the table
    got, msg = outcome(ap, src)
    problem = None
    if want is None:
        problem = "NumPy does not raise: not a bad input"
    elif got is None:
        problem = f"accelpy raises nothing (NumPy: {name_of(want)})"
    elif not issubclass(got, want if isinstance(want, tuple) else public(want)):
        problem = f"accelpy raises {got.__name__}: {msg[:200]} (NumPy: {name_of(want)})"
    elif "incompatible function arguments" in msg:
        problem = f"nanobind's signature dump: {msg[:200]}"
    return {"name": name, "problem": problem}


def main(names):
    table = cases()
    for name in names:
        src, expected = table[name]
        print("RESULT " + json.dumps(check(name, src, expected)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
