"""Runs a program (generator.py) on a library and compares the outcomes.

A run executes the statements in order, all of them before any value is read (so accelpy's
lazy graph and its fusion see the whole program, in-place writes and views included), then
reads every variable a statement bound: its dtype, shape, values and, for results NumPy makes
as new arrays, C-contiguity. An exception ends the run; accelpy must raise NumPy's type at the
same statement. Values compare exactly where the generator says the computation is exact
(integers, booleans, correctly rounded float steps) and within a tolerance elsewhere: a number
of ulps per approximate step, relative to the largest value the result came from (a sum's
terms, a product's factors), so cancellation does not fail a correct result.

Replay a program: `cd tests && python -m fuzz.runner SEED [DEVICE]` prints its source and the
mismatches found.
"""

import sys
from dataclasses import dataclass

import numpy as np

from .generator import execute, generate, namespace

ULPS = 32  # per approximate step


@dataclass
class Outcome:
    values: dict  # statement index -> (NumPy array, c_contiguous or None)
    error: tuple | None  # (statement index, exception type) where the run stopped


@dataclass
class Mismatch:
    index: int  # the statement
    what: str  # "exception", "dtype", "shape", "value", "layout", "fusion"
    detail: str


def to_numpy(xp, v):
    if xp is np:
        return np.asarray(v)
    import accelpy as ap

    return ap.asnumpy(v) if isinstance(v, ap.ndarray) else np.asarray(v)


def scalar_type(xp, v):
    """The type of one element read: NumPy's scalar (accelpy's on the CPU too); a 0-d array on
    a GPU counts as the scalar of its dtype (CuPy's rule there)."""
    if xp is not np and isinstance(v, xp.ndarray) and v.device.type != "cpu":
        return v.dtype.type.__name__
    return type(v).__name__


def run(program, xp, upto=None):
    """Executes `program` on module `xp`; reads the variables it bound."""
    ns = namespace(xp)
    error = None
    stmts = program.stmts if upto is None else program.stmts[:upto]
    for i, s in enumerate(stmts):
        try:
            execute(s.src, ns)
        except Exception as e:  # noqa: BLE001 - compared with NumPy's exception
            error = (i, type(e))
            break
    values = {}
    last = error[0] if error else len(stmts)
    for i, s in enumerate(stmts[:last]):
        if s.out is None or not s.check or s.out not in ns:
            continue
        v = ns[s.out]
        try:
            layout = None
            if s.layout and hasattr(v, "flags") and np.ndim(v) >= 2:
                layout = (bool(v.flags.c_contiguous), bool(v.flags.f_contiguous))
            elif s.kind == "index_scalar":
                layout = ("scalar", scalar_type(xp, v))
            elif s.kind == "view" and s.ins and s.ins[0] in ns:
                base = ns[s.ins[0]]
                layout = ("shares", bool(xp.shares_memory(v, base)),
                          tuple(st // base.itemsize for st in base.strides))
            values[i] = (to_numpy(xp, v), layout)
        except Exception as e:  # noqa: BLE001 - an error raised late, when the value is read
            values[i] = (None, type(e))
    return Outcome(values, error)


def tolerance(dtype, var):
    """(rtol, atol) for a value of `dtype` whose provenance is `var` (a generator.Var)."""
    if dtype.kind not in "fc" or var is None or var.exact:
        return 0.0, 0.0
    eps = max(float(np.finfo(dtype).eps), var.eps)
    steps = ULPS * (var.depth + 1)
    return steps * eps, steps * eps * var.scale


def compare_values(e, g, rtol, atol, bitwise=False):
    """None when g matches e, else a description of the first differing element."""
    if e.dtype.kind == "c" and not bitwise:  # the parts separately: an infinite one says little
        return (compare_values(e.real.copy(), g.real.copy(), rtol, atol)
                or compare_values(e.imag.copy(), g.imag.copy(), rtol, atol))
    if bitwise or e.dtype.kind not in "fc":
        if e.dtype.kind in "fc":
            same = (e == g) | (np.isnan(e) & np.isnan(g))
        else:
            same = e == g
        if bitwise:
            # Bit for bit, NaNs aside: which NaN a sum of several propagates (an input's, or the
            # default NaN an invalid operation makes, of the other sign) follows the order the
            # hardware pairs them in, which IEEE 754 leaves open and NumPy does not promise.
            parts = (e.real, e.imag, g.real, g.imag) if e.dtype.kind == "c" else (e, e, g, g)
            nan = [np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)
                   for x in parts]
            both_nan = (nan[0] | nan[1]) & (nan[2] | nan[3]) & (nan[0] == nan[2]) \
                & (nan[1] == nan[3])
            bits = np.frombuffer(e.tobytes(), np.uint8) == np.frombuffer(g.tobytes(), np.uint8)
            same = bits.reshape(e.size, e.itemsize).all(axis=1).reshape(e.shape) | both_nan
    else:
        with np.errstate(all="ignore"):
            finite = np.isfinite(e) & np.isfinite(g)
            close = np.abs(e - g) <= atol + rtol * np.abs(e)
            both_nan = np.isnan(e) & np.isnan(g)
            # Past overflow an approximate value's sign or NaN-ness follows its last bits (the
            # sign of exp(x + iy) past overflow is cos(y)'s: chaotic where y is huge).
            same_inf = ~np.isfinite(e) & ~np.isfinite(g) if atol > 0 or rtol > 0 else \
                ~np.isfinite(e) & ~np.isnan(e) & (e == g)
            huge = np.isfinite(e) & (np.abs(e) > np.finfo(e.dtype).max / 16) & ~np.isnan(g)
            same = (finite & close) | both_nan | same_inf | huge
            if atol > np.finfo(e.dtype).max:
                # A value whose size may pass its dtype's range (a long product): NumPy
                # multiplies float16, float32 and complex64 in their own dtype, in its order,
                # and an overflow on the way leaves inf or NaN (inf * 0, inf - inf) where
                # accelpy's wider accumulator (reduce_ops.h) reaches the finite answer.
                same |= ~np.isfinite(e)
            if not np.isfinite(atol):
                same = np.ones(e.shape, bool)
    same = np.asarray(same)
    if same.all():
        return None
    k = int(np.flatnonzero(~same.reshape(-1))[0]) if same.ndim else 0
    if bitwise:
        return "bits differ"
    ev, gv = e.reshape(-1)[k], g.reshape(-1)[k]
    return f"element {k}: expected {ev!r}, got {gv!r} (rtol {rtol:.3g}, atol {atol:.3g})"


def compare(program, expected, got, vars_=None, bitwise=False, what_error="exception"):
    """Mismatches between two outcomes of `program`, in statement order."""
    out = []
    if (expected.error is None) != (got.error is None) or (
            expected.error and (expected.error[0] != got.error[0]
                                or not issubclass(got.error[1], expected.error[1])
                                and not issubclass(expected.error[1], got.error[1]))):
        name = lambda err: f"{err[1].__name__} at statement {err[0]}" if err else "no error"  # noqa: E731
        index = min(x[0] for x in (expected.error, got.error) if x)
        out.append(Mismatch(index, what_error,
                            f"expected {name(expected.error)}, got {name(got.error)}"))
    for i, (e, e_layout) in expected.values.items():
        if i not in got.values:
            continue
        g, g_layout = got.values[i]
        if g is None:
            out.append(Mismatch(i, "exception", f"reading the value raised {g_layout.__name__}"))
            continue
        if e.dtype != g.dtype:
            out.append(Mismatch(i, "dtype", f"expected {e.dtype}, got {g.dtype}"))
        elif e.shape != g.shape:
            out.append(Mismatch(i, "shape", f"expected {e.shape}, got {g.shape}"))
        else:
            rtol, atol = tolerance(e.dtype, (vars_ or {}).get(program.stmts[i].out))
            diff = compare_values(e, g, rtol, atol, bitwise)
            if e_layout is not None and g_layout is not None and e_layout != g_layout:
                out.append(layout_mismatch(i, e_layout, g_layout))
            if diff:
                out.append(Mismatch(i, "value", diff))
    return sorted(out, key=lambda m: m.index)


def layout_mismatch(i, e, g):
    """Contiguity differs (a computed result), or whether a view shares its input's memory
    does: because the input's layout differs, or (a new bug) not."""
    if e[0] == "scalar":
        return Mismatch(i, "scalar type", f"expected {e[1]}, got {g[1]}")
    if e[0] != "shares":
        return Mismatch(i, "layout", f"(C, F)-contiguous: expected {e}, got {g}")
    what = "aliasing" if e[2:] == g[2:] else "aliasing (input layout differs)"
    return Mismatch(i, what, f"shares its input's memory: expected {e[1]}, got {g[1]}")


def with_fusion(enabled, fn):
    import accelpy as ap

    core = ap._core
    was = core._fusion_enabled()
    core._set_fusion(enabled)
    try:
        return fn()
    finally:
        core._set_fusion(was)


def check(seed, device="cpu", n_ops=None, against_cpu=False):
    """Program `seed` on NumPy and on accelpy (`device`), fused and unfused with every operation
    deferred, and with small operations computed at the call (the default): its mismatches with
    NumPy's run, and between the fused run and the two others (bit for bit on the CPU);
    `against_cpu`: also accelpy on `device` against accelpy on the CPU."""
    import accelpy as ap

    program, vars_ = generate(seed, n_ops, with_vars=True)
    expected = run(program, np)
    with ap.device(device):
        # Every operation deferred in these two (small ones over computed CPU arrays are
        # otherwise computed at the call), then the default: the same bits in all three.
        with ap.fusion.eager(0):
            fused = with_fusion(True, lambda: run(program, ap))
            unfused = with_fusion(False, lambda: run(program, ap))
        eager = with_fusion(True, lambda: run(program, ap))
    found = compare(program, expected, fused, vars_)
    found += [Mismatch(m.index, "fusion", f"unfused run: {m.what}: {m.detail}") for m in
              compare(program, fused, unfused, vars_, bitwise=device == "cpu")]
    found += [Mismatch(m.index, "fusion", f"eager run: {m.what}: {m.detail}") for m in
              compare(program, fused, eager, vars_, bitwise=device == "cpu")]
    if against_cpu and device != "cpu":
        with ap.device("cpu"):
            cpu = run(program, ap)
        found += compare_devices(program, cpu, fused, vars_)
    return program, sorted(found, key=lambda m: m.index)


def compare_devices(program, cpu, other, vars_):
    """accelpy on another device against accelpy on the CPU: the same exceptions at the same
    statements, the same dtypes, shapes and layouts; integers and booleans bit for bit; floats
    equal where the generator tracks the computation as exact (correctly rounded steps), else
    within ULPS per approximate step of the magnitude they came from."""
    ints = {i for i, (v, _) in cpu.values.items() if v is not None and v.dtype.kind in "biu"}
    out = []
    for m in compare(program, cpu, other, vars_):
        out.append(Mismatch(m.index, "device", f"cpu run: {m.what}: {m.detail}"))
    for i in ints:
        g = other.values.get(i)
        e = cpu.values[i][0]
        if g is None or g[0] is None or g[0].dtype != e.dtype or g[0].shape != e.shape:
            continue  # reported above
        if compare_values(e, g[0], 0.0, 0.0, bitwise=True) and \
                not any(m.index == i and "value" in m.detail for m in out):
            out.append(Mismatch(i, "device", "cpu run: value: integer bits differ"))
    return out


def report(program, mismatch):
    return (f"program seed {program.seed}: statement {mismatch.index} "
            f"`{program.stmts[mismatch.index].src}`: {mismatch.what}: {mismatch.detail}\n"
            f"{program.source(mark=mismatch.index)}")


if __name__ == "__main__":
    seed = int(sys.argv[1])
    prog, found = check(seed, sys.argv[2] if len(sys.argv) > 2 else "cpu")
    print(prog.source(mark=found[0].index if found else None))
    for m in found:
        print(f"statement {m.index}: {m.what}: {m.detail}")
