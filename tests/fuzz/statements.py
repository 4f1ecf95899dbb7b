"""The statement makers: each draws one statement of a family for the live variables of a
Generator (generator.py), or nothing when no variable fits. `draw` picks a family by weight."""

import numpy as np

from .generator import DTYPES, Stmt, magnitude

INTS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}


def capped_power(scale, n):
    """The size of a product of n factors of up to `scale`, at most 1e300."""
    b = max(1.0, float(scale))
    return 1e300 if max(1, n) * np.log10(b) > 300 else b ** max(1, n)


def kind(v):
    return np.asarray(v).dtype.kind


def real(v, info=None):
    return kind(v) in "biuf"


def floating(v, info=None):
    return kind(v) in "fc"


def array(v, info=None):
    return isinstance(v, np.ndarray)


def writeable(v, info=None):
    return isinstance(v, np.ndarray) and v.flags.writeable


def nonempty(v, info=None):
    return np.ndim(v) >= 1 and np.size(v) > 0


def shape_of(g):
    """A shape: often one a live variable has (or broadcasts with), else a new one."""
    names = [n for n in g.pool if np.ndim(g.ns[n]) > 0]
    if names and g.chance(0.6):
        shape = list(np.shape(g.ns[g.choice(names)]))
        if g.chance(0.3):
            shape[int(g.rng.integers(len(shape)))] = 1
        if g.chance(0.2):
            shape = shape[1:]
        return tuple(shape)
    ndim = g.choice([0, 1, 1, 2, 2, 2, 3, 3])
    return tuple(g.choice([0, 1, 2, 3, 4, 5, 6] if g.chance(0.05) else [1, 2, 3, 4, 5, 6])
                 for _ in range(ndim))


def dtype_of(v):
    return str(np.asarray(v).dtype)


def new_array(g):
    name = g.fresh()
    dt = g.choice(DTYPES)
    mode = 0 if g.chance(0.7) else (1 if dt in INTS else 2)
    g.emit(Stmt(f"{name} = xp.asarray(data({g.seed}, {g.counter}, {shape_of(g)}, '{dt}', "
                f"{mode}))", "new", name))


def foreign(g):
    """An array imported from NumPy memory that the program writes later (foreign_write)."""
    buf, name = g.fresh("buf"), g.fresh()
    dt = g.choice([d for d in DTYPES if d != "bool"])
    g.emit(Stmt(f"{buf} = data({g.seed}, {g.counter}, {shape_of(g)}, '{dt}')", "foreign_buffer"))
    if g.emit(Stmt(f"{name} = xp.asarray({buf})", "foreign", name)):
        g.vars[name].sources = {buf}
        g.buffers[buf] = name


def foreign_write(g):
    if not g.buffers:
        return
    buf = g.choice(sorted(g.buffers))
    del g.buffers[buf]
    src = g.choice([f"{buf} *= 3", f"{buf}[...] = 7", f"{buf}[::2] = -1"])
    if not g.emit(Stmt(src, "foreign_write"), keep_error=0):
        return
    for s in g.stmts:
        if s.out is None or s.out not in g.vars:
            continue
        v = g.ns[s.out]
        if isinstance(v, np.ndarray) and np.may_share_memory(v, g.ns[buf]):
            s.check = False  # an alias of the buffer: NumPy's sees the write, a GPU copy not
            g.drop(s.out)
        elif buf in g.vars[s.out].sources:  # and what is computed from it from now on
            s.tags.add("foreign_read_before_write")
            g.vars[s.out].taint.add("foreign_read_before_write")


UNARY = [  # (template, dtype kinds, result exact, needs exact input, growth)
    ("-{x}", "iufc", True, False, "lin"),
    ("xp.abs({x})", "biuf", True, False, "lin"),
    ("xp.abs({x})", "c", False, False, "lin"),
    ("xp.square({x})", "iuf", True, False, "square"),
    ("xp.sin({x})", "f", False, False, "lin"),
    ("xp.sin({x})", "c", False, False, "exp"),  # sinh of the imaginary part
    ("xp.cos({x})", "f", False, False, "lin"),
    ("xp.tanh({x})", "f", False, False, "lin"),
    ("xp.arctan({x})", "f", False, False, "lin"),
    ("xp.exp(xp.clip({x}, -5, 5))", "f", False, False, "exp"),
    ("xp.exp({x} * 0.25)", "c", False, False, "exp"),
    ("xp.sqrt(xp.abs({x}) + 1)", "f", True, False, "lin"),
    ("xp.sqrt({x})", "c", False, False, "lin"),
    ("xp.log1p(xp.abs({x}))", "f", False, False, "lin"),
    ("xp.floor({x})", "f", True, True, "lin"),
    ("xp.ceil({x})", "f", True, True, "lin"),
    ("xp.rint({x})", "f", True, True, "lin"),
    ("xp.sign({x})", "iuf", True, True, "lin"),
    ("xp.isnan({x})", "fc", True, True, "lin"),
    ("xp.isfinite({x})", "fc", True, True, "lin"),
    ("xp.signbit(xp.nan_to_num({x}) + 0.0)", "f", True, True, "lin"),  # NaN, -0: unspecified
    ("xp.conj({x})", "c", True, False, "lin"),
    ("{x}.real", "c", True, False, "lin"),
    ("{x}.imag", "c", True, False, "lin"),
    ("~{x}", "biu", True, False, "lin"),
    ("xp.logical_not({x})", "biufc", True, True, "lin"),
]


def unary(g):
    x = g.pick()
    if x is None:
        return
    v = g.value(x)
    rows = [r for r in UNARY if kind(v) in r[1] and (g.vars[x].exact or not r[3])]
    if not rows:
        return
    template, _, exact, _, growth = g.choice(rows)
    name = g.fresh()
    ins = (x, x) if growth == "square" else (x,)
    g.emit(Stmt(f"{name} = {template.format(x=x)}", "unary", name), ins, exact,
           "mul" if growth == "square" else growth)


def cast(g):
    x = g.pick()
    if x is None:
        return
    v, dt = g.value(x), g.choice(DTYPES)
    name = g.fresh()
    expr = f"{x}.astype('{dt}')"
    if kind(v) in "fc" and dt in INTS | {"bool"}:
        if kind(v) == "c" or not g.vars[x].exact:
            return
        lo = 0 if dt.startswith("u") else -100
        expr = f"xp.clip(xp.where(xp.isfinite({x}), {x}, 0), {lo}, 100).astype('{dt}')"
    elif kind(v) == "c" and dt not in ("complex64", "complex128"):
        return
    g.emit(Stmt(f"{name} = {expr}", "cast", name), (x,))


def partner(g, x, exact=False, pred=lambda v, info: True):
    """A variable whose shape broadcasts with x's."""
    shape = np.shape(g.value(x))

    def fits(v, info):
        try:
            np.broadcast_shapes(shape, np.shape(v))
        except ValueError:
            return False
        return pred(v, info)
    return g.pick(fits, exact=exact)


def mixed_signs_64(*values):
    kinds = {np.asarray(v).dtype for v in values}
    return np.dtype("uint64") in kinds and any(k.kind == "i" for k in kinds)


BINARY = [  # (template, dtype kinds, result exact, needs exact inputs, growth, kind)
    ("{x} + {y}", "biufc", True, False, "lin", "arith"),
    ("{x} - {y}", "iufc", True, False, "lin", "arith"),
    ("{x} * {y}", "biuf", True, False, "mul", "arith"),
    ("{x} * {y}", "c", False, False, "mul", "arith"),
    ("{x} / {y}", "biuf", True, True, "lin", "arith"),
    ("{x} / (xp.abs({y}) + 1)", "f", True, False, "lin", "arith"),
    ("{x} // {y}", "iuf", True, True, "lin", "arith"),
    ("{x} % {y}", "iuf", True, True, "lin", "arith"),
    ("{x} ** ({y} % 4)", "iu", True, True, "lin", "power"),
    ("{x} ** {y}", "iu", True, True, "lin", "power"),
    ("xp.abs({x}) ** 1.5", "f", False, False, "exp", "power"),
    ("{x} == {y}", "biufc", True, True, "lin", "compare"),
    ("{x} != {y}", "biufc", True, True, "lin", "compare"),
    ("{x} < {y}", "biuf", True, True, "lin", "compare"),
    ("{x} >= {y}", "biuf", True, True, "lin", "compare"),
    ("xp.maximum({x}, {y})", "biuf", True, False, "lin", "extrema"),
    ("xp.minimum({x}, {y})", "biuf", True, False, "lin", "extrema"),
    # Complex values order by the real part first: an ulp in a near-zero real part picks the
    # other operand, whose imaginary part can be anything (not a claim on rounded inputs).
    ("xp.minimum({x}, {y})", "c", True, True, "lin", "extrema"),
    ("xp.fmax({x}, {y})", "f", True, False, "lin", "extrema"),
    ("{x} & {y}", "biu", True, True, "lin", "bitwise"),
    ("{x} | {y}", "biu", True, True, "lin", "bitwise"),
    ("{x} ^ {y}", "biu", True, True, "lin", "bitwise"),
    ("{x} << ({y} % 8)", "iu", True, True, "lin", "bitwise"),
    ("{x} >> ({y} % 8)", "iu", True, True, "lin", "bitwise"),
    ("xp.logical_and({x}, {y})", "biuf", True, True, "lin", "logic"),
    ("xp.arctan2({x}, {y} + 0.0)", "f", False, True, "lin", "arith"),  # +0.0: one zero
    ("xp.hypot({x}, {y})", "f", False, False, "lin", "arith"),
    # nan_to_num: the sign of a NaN that arithmetic returns is the hardware's (x86 keeps the
    # operand's, CUDA's is positive); + 0.0: one zero.
    ("xp.copysign({x}, xp.nan_to_num({y}) + 0.0)", "f", True, True, "lin", "arith"),
]


def binary(g):
    x = g.pick()
    if x is None:
        return
    v = g.value(x)
    rows = [r for r in BINARY if kind(v) in r[1] and (g.vars[x].exact or not r[3])]
    if not rows:
        return
    template, kinds, exact, needs_exact, growth, family = g.choice(rows)
    y = partner(g, x, exact=needs_exact,
                pred=lambda w, info: kind(w) in kinds or g.chance(0.05))
    if y is None:
        return
    w = g.value(y)
    stmt = Stmt(f"{g.fresh()} = {template.format(x=x, y=y)}", family)
    stmt.out = stmt.src.split(" = ")[0]
    if family == "compare" and mixed_signs_64(v, w):
        stmt.tags.add("int64_uint64")
    if family == "power" and kind(v) in "iu" and "%" not in template and kind(w) in "iu" \
            and np.size(w) and np.min(w) < 0:
        stmt.tags.add("negative_exponent")
    rounds = ("*" in template or "/" in template) and "c" in (kind(v), kind(w))
    # A power that promotes to float (int64 ** uint64 -> float64) is pow: NumPy's is within an
    # ulp of the exact power accelpy gives (AVX-512 hosts' differs from glibc's in the last bit).
    rounds = rounds or (family == "power" and np.result_type(v, w).kind in "fc")
    g.emit(stmt, (x, y), exact and not rounds, growth)


SCALARS = ["2", "-3", "0.5", "1.5", "True", "7", "2.5j", "300", "2**40"]


def scalar_binary(g):
    x = g.pick(lambda v, info: kind(v) != "b" or g.chance(0.3))
    if x is None:
        return
    s = g.choice(SCALARS)
    ops = ["+", "-", "*"] + (["/", "//", "%", "<", "=="] if g.vars[x].exact else []) \
        + (["**"] if s in ("2", "7") and kind(g.value(x)) != "b" else [])  # np.True_ ** 2: int64
    op = g.choice(ops)
    name = g.fresh()
    exact = op != "**" and not (kind(g.value(x)) == "c" and op in "*/")
    g.emit(Stmt(f"{name} = {x} {op} {s}", "scalar_" + op, name), (x,), exact,
           "mul" if op in "*" else "lin", keep_error=0.3)


def target_view(g, t):
    nd = np.ndim(g.value(t))
    options = [t] + ([f"{t}[::-1]", f"{t}[1:]", f"{t}[..., ::2]"] if nd >= 1 else [])
    return g.choice(options)


def inplace(g):
    t = g.pick(writeable)
    if t is None:
        return
    shape, tv = np.shape(g.value(t)), g.value(t)
    y = g.pick(lambda v, info: np.broadcast_shapes(shape, np.shape(v)) == shape
               if _broadcasts(shape, np.shape(v)) else False)
    if y is None:
        return
    exact = g.vars[y].exact and g.vars[t].exact
    op = g.choice(["+=", "-=", "*="] + (["//=", "|="] if exact and kind(tv) in "iu" else []))
    if g.chance(0.3):
        fn = {"+=": "add", "-=": "subtract", "*=": "multiply", "//=": "floor_divide",
              "|=": "bitwise_or"}[op]
        src = f"xp.{fn}({t}, {y}, out={t})"
    else:
        src = f"{target_view(g, t)} {op} {y}"
    if g.emit(Stmt(src, "inplace"), keep_error=0.1):
        g.touched(t, (y,), op_exact=kind(tv) != "c" or op != "*=",
                  growth="mul" if op == "*=" else "lin")


def _broadcasts(a, b):
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        return False
    return True


def setitem(g):
    t = g.pick(lambda v, info: writeable(v) and np.ndim(v) >= 1)
    if t is None:
        return
    tv = g.value(t)
    n = tv.shape[0]
    # [0, -1] names one element twice when n == 1: NumPy leaves which write wins open ("no
    # guarantee for the iteration order" of advanced assignments), and CUDA's scatter differs.
    keys = ["...", "::-1", "1:", "::2", f"{int(g.rng.integers(-n, n)) if n else 0}",
            "[0, -1]" if n > 1 else "[0]" if n else "[]"]
    if g.vars[t].exact and kind(tv) in "iuf":
        keys.append(f"{t} > 0")
    key = g.choice(keys)
    if g.chance(0.5):
        value = g.choice(["0", "1", "-2", "True", "2.5"])
        if value == "2.5" and kind(tv) in "biu":
            value = "3"
        if value == "-2" and kind(tv) in "bu":
            value = "2"
        vals = ()
    else:
        try:
            sel = np.shape(eval(f"{t}[{key}]", dict(g.ns)))  # noqa: S307 - the program's own
        except IndexError:
            return
        # A mask write's value must not overlap the target: NumPy's boolean assignment reads
        # such a value while it writes (x[x > 0] = x[::-1] sees its own writes), where accelpy,
        # like NumPy's slice and integer-array writes, reads it first (user guide).
        masked = key.endswith("> 0")
        y = g.pick(lambda v, info: isinstance(v, np.ndarray)  # np.uint64(2**64-9): overflow
                   and not (masked and np.shares_memory(v, tv))
                   and _broadcasts(sel, np.shape(v))
                   and np.broadcast_shapes(sel, np.shape(v)) == sel
                   and np.can_cast(np.asarray(v).dtype, tv.dtype, "same_kind"))
        if y is None:
            return
        value, vals = y, (y,)
    if g.emit(Stmt(f"{t}[{key}] = {value}", "setitem"), keep_error=0.1):
        g.touched(t, vals)


VIEWS = [
    ("{x}[::-1]", 1), ("{x}[::2]", 1), ("{x}[1:]", 1), ("{x}.T", 0), ("{x}[None]", 0),
    ("{x}[..., None]", 0), ("{x}[:, ::-2]", 2), ("{x}[1:, ::2]", 2), ("{x}.swapaxes(0, -1)", 1),
    ("{x}.transpose()", 0), ("{x}.ravel()", 0), ("{x}.reshape(-1)", 0),
    ("{x}.reshape(1, -1)", 0), ("{x}.reshape({rev})", 0),
    ("xp.broadcast_to({x}, (2,) + {x}.shape)", 0),
    ("xp.expand_dims({x}, 0)", 0), ("xp.squeeze({x})", 0), ("{x}.flatten()", 0),
    ("{x}[::-1].reshape(-1)", 1), ("{x}.T.reshape({rev})", 0),
]


def view(g):
    x = g.pick(array)
    if x is None:
        return
    v = g.value(x)
    rows = [t for t, nd in VIEWS if v.ndim >= nd]
    template = g.choice(rows)
    name = g.fresh()
    rev = tuple(reversed(v.shape)) if v.ndim else ()
    g.emit(Stmt(f"{name} = {template.format(x=x, rev=rev)}", "view", name), (x,))


REDUCTIONS = ["sum", "prod", "min", "max", "mean", "argmax", "argmin", "any", "all"]


def reduce(g):
    x = g.pick()
    if x is None:
        return
    v, info = g.value(x), g.vars[x]
    fn = g.choice(REDUCTIONS)
    if fn in ("argmax", "argmin", "any", "all") and not info.exact:
        fn = "max"
    if fn in ("min", "max", "argmax", "argmin") and kind(v) == "c" and g.chance(0.7):
        fn = "sum"
    nd = np.ndim(v)
    axes = [None] + [i for i in range(-nd, nd)]
    if nd >= 2 and fn not in ("argmax", "argmin"):
        axes.append((0, nd - 1))
    axis = g.choice(axes)
    keep = fn not in ("argmax", "argmin") and g.chance(0.3)
    args = f"axis={axis}" + (", keepdims=True" if keep else "")
    src = f"xp.{fn}({x}, {args})" if g.chance(0.5) else f"{x}.{fn}({args})"
    name = g.fresh()
    inexact = fn in ("sum", "prod", "mean") and kind(v) in "fc"
    # The mean of integers sums them in float64: exact while the sum stays below 2^53, else
    # rounded in an order each backend picks (CUDA's tree differs from NumPy's pairwise sum).
    inexact = inexact or (fn == "mean" and kind(v) in "iu"
                          and magnitude(v) * max(np.size(v), 1) >= 2.0**53)
    growth = {"sum": "sum", "mean": "lin", "prod": "prod"}.get(fn, "lin")
    stmt = Stmt(f"{name} = {src}", "reduce", name)
    if growth == "prod":
        stmt.tags.add("prod")
    g.emit(stmt, (x,), not inexact, "sum" if growth == "prod" else growth)
    if growth == "prod" and name in g.vars:
        g.vars[name].scale = capped_power(info.scale, np.size(v))


def index(g):
    x = g.pick(nonempty)
    if x is None:
        return
    v = g.value(x)
    n = v.shape[0]
    keys = [f"[{int(g.rng.integers(-n, n))}, {int(g.rng.integers(-n, n))}, -1]",
            f"[[{int(g.rng.integers(n))}], [0]]"]
    if v.ndim >= 2:
        keys.append(f":, [{int(g.rng.integers(v.shape[1]))}, 0]")
    if g.vars[x].exact and kind(v) in "iuf":
        keys.append(f"{x} > 0")
    masks = [m for m in g.pool if np.asarray(g.ns[m]).dtype == np.bool_
             and np.shape(g.ns[m]) == v.shape]
    if masks:
        keys.append(g.choice(masks))
    name = g.fresh()
    if g.chance(0.2):
        src = f"{name} = xp.take({x}, {keys[0]}, axis=0)"
    else:
        src = f"{name} = {x}[{g.choice(keys)}]"
    g.emit(Stmt(src, "index", name), (x,))


def index_scalar(g):
    x = g.pick(nonempty)
    if x is None:
        return
    key = ", ".join(str(int(g.rng.integers(-d, d))) for d in g.value(x).shape)
    name = g.fresh()
    stmt = Stmt(f"{name} = {x}[{key}]", "index_scalar", name, tags={"index_scalar"})
    g.emit(stmt, (x,))


def sort_scan(g):
    x = g.pick(lambda v, info: np.ndim(v) >= 1)
    if x is None:
        return
    v = g.value(x)
    fn = g.choice(["sort", "argsort", "cumsum", "cumprod"])
    if fn == "argsort" and not g.vars[x].exact:
        fn = "sort"
    axis = g.choice(list(range(-v.ndim, v.ndim)) + ([None] if fn != "sort" else []))
    extra = ", kind='stable'" if fn == "argsort" else ""
    name = g.fresh()
    stmt = Stmt(f"{name} = xp.{fn}({x}, axis={axis}{extra})", fn, name)
    if axis is not None and v.ndim >= 2 and axis % v.ndim != v.ndim - 1:
        stmt.tags.add("not_last_axis")
    scan = fn in ("cumsum", "cumprod")
    inexact = scan and kind(v) in "fc"
    g.emit(stmt, (x,), not inexact, "sum" if scan else "lin")
    if fn == "cumprod" and name in g.vars:
        g.vars[name].scale = capped_power(g.vars[x].scale, np.size(v))


def join(g):
    groups = {}
    for n in g.pool:
        s = np.shape(g.ns[n])
        if isinstance(g.ns[n], np.ndarray) and len(s) >= 1:
            groups.setdefault(s[1:], []).append(n)
    groups = [m for m in groups.values() if len(m) >= 2]
    if not groups:
        return
    members = list(g.choice(groups))
    g.rng.shuffle(members)
    parts = members[:int(g.rng.integers(2, 4))]
    fn = g.choice(["concatenate", "concatenate", "vstack", "stack"])
    name = g.fresh()
    stmt = Stmt(f"{name} = xp.{fn}([{', '.join(parts)}])", "join", name)
    if len({dtype_of(g.ns[p]) for p in parts}) >= 3:
        stmt.tags.add("three_dtypes")
    g.emit(stmt, tuple(parts))


def where(g):
    c = g.pick(lambda v, info: np.asarray(v).dtype == np.bool_)
    x = g.pick()
    if c is None or x is None:
        return
    y = partner(g, x)
    name = g.fresh()
    g.emit(Stmt(f"{name} = xp.where({c}, {x}, {y})", "where", name), (c, x, y))


def bad(g):
    """A statement NumPy rejects: the program ends there; accelpy must raise the same type."""
    x = g.pick()
    if x is None:
        return
    name = g.fresh()
    src, tags = g.choice([
        (f"{x}.sum(axis=True)", {"axis_bool"}), (f"{x}.sum(axis=5)", set()),
        (f"{x}.reshape(7, 11)", set()), (f"{x}[100]", set()), (f"{x} + xp.ones((7, 11))", set()),
        (f"xp.subtract({x} > 0, {x} > 0)", set()), (f"{x}.astype('flot32')", set()),
        (f"xp.concatenate([{x}, xp.ones((7, 11))])", set()), (f"{x}.transpose(0, 0)", set()),
    ])
    g.emit(Stmt(f"{name} = {src}", "bad", name, tags=tags), (x,), keep_error=1.0)


def drop(g):
    if len(g.pool) > 3:
        g.drop(g.choice(g.pool))


WEIGHTS = [(new_array, 5), (foreign, 1.5), (foreign_write, 1), (unary, 12), (cast, 3),
           (binary, 14), (scalar_binary, 5), (inplace, 7), (setitem, 6), (view, 10),
           (reduce, 8), (index, 5), (index_scalar, 1.5), (sort_scan, 4), (join, 2), (where, 2),
           (bad, 0.15), (drop, 4)]
_CUMULATIVE = np.cumsum([w for _, w in WEIGHTS]) / sum(w for _, w in WEIGHTS)


def draw(g):
    if len(g.pool) > 12:
        drop(g)
    k = min(int(np.searchsorted(_CUMULATIVE, g.rng.random(), side="right")), len(WEIGHTS) - 1)
    return WEIGHTS[k][0]
