"""Random programs of array operations, drawn while NumPy runs them.

A program is Python source, one statement a line, over a module `xp` (numpy or accelpy): the
same text runs on either library. The generator runs each statement on NumPy as it draws it, so
it knows every variable's shape, dtype and values and only draws statements that make sense for
them (a statement NumPy rejects is kept now and then: the program ends there, and accelpy must
raise the same exception type). For each variable it also tracks whether its value is computed
by correctly rounded operations only (`exact`: accelpy must give NumPy's bits) and, otherwise, how
many approximate steps and how large the values were that it came from (the comparison's
tolerance). Operations whose result jumps with the last bit of their input (comparisons,
floor, casts to integers, argmax, masks) only ever read exact variables.
"""

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]


def data(seed, k, shape, dtype, mode=0):
    """The k-th input array of program `seed`: fresh NumPy memory, the same values on every run.
    mode 0: small values; 1: the dtype's whole range (integers); 2: with NaN, infinities, -0."""
    rng = np.random.default_rng([seed, k])
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        if mode == 1:
            info = np.iinfo(dt)
            return rng.integers(info.min, info.max, shape, endpoint=True, dtype=dt)
        return rng.integers(0 if dt.kind == "u" else -20, 21, shape).astype(dt)
    values = rng.uniform(-4, 4, shape)
    if dt.kind == "c":
        values = values + 1j * rng.uniform(-4, 4, shape)
    out = np.asarray(values.astype(dt))
    if mode == 2 and out.size >= 4:
        flat = out.reshape(-1)
        for i, v in zip(rng.choice(flat.size, 4, replace=False), [np.nan, np.inf, -np.inf, -0.0],
                        strict=True):
            flat[i] = v
    return out


@dataclass
class Stmt:
    """One line of a program and what the comparison needs to know about it."""
    src: str
    kind: str  # the family of the operation (known.py matches on it)
    out: str | None = None  # the variable it binds, compared when the program ends
    tags: set = field(default_factory=set)  # facts known.py matches on ("int64_uint64", ...)
    check: bool = True  # False: the value is the device's business (a foreign buffer's alias)
    layout: bool = False  # compare the C/F-contiguity too (set for every computed result)
    ins: tuple = ()  # the variables it reads
    raises: bool = False  # NumPy raised here: the program stops


@dataclass
class Var:
    exact: bool = True  # computed by correctly rounded steps from the inputs
    depth: int = 0  # approximate steps it went through
    scale: float = 1.0  # the size of the values its error is relative to
    eps: float = 0.0  # the coarsest precision an approximate step of it was computed in
    sources: set = field(default_factory=set)  # foreign buffers it was computed from
    taint: set = field(default_factory=set)  # known.py tags of what its value went through


@dataclass
class Program:
    seed: int
    stmts: list
    vars: dict = field(default_factory=dict)  # variable -> Var, for drawn programs

    @classmethod
    def from_lines(cls, lines):
        """A hand-written program: each `name = ...` line binds a compared variable."""
        stmts = []
        for line in lines:
            out = line.split(" = ")[0] if " = " in line and line.split(" = ")[0].isidentifier() \
                else None
            stmts.append(Stmt(line, "written", out, layout="sort(" in line or "cum" in line))
        return cls(0, stmts)

    def source(self, mark=None):
        """The program as text; `mark`: a statement index to flag (the first mismatch)."""
        lines = [f"# fuzz program, seed {self.seed}: run with xp = numpy or accelpy"]
        for i, s in enumerate(self.stmts):
            flag = "   # <-- first mismatch" if i == mark else ""
            lines.append(f"{s.src}{flag}")
        return "\n".join(lines)


def namespace(xp):
    return {"xp": xp, "np": np, "data": data}


def execute(src, ns):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(src, ns)  # noqa: S102 - the program's own line


class Generator:
    """Draws one program; statements.py holds the statement makers."""

    def __init__(self, seed, n_ops):
        self.seed = seed
        self.n_ops = n_ops
        self.rng = np.random.default_rng(seed)
        self.ns = namespace(np)
        self.stmts = []
        self.pool = []  # live variables statements may read
        self.vars = {}  # every variable bound so far -> Var
        self.buffers = {}  # foreign NumPy buffer -> the variable imported from it
        self.counter = 0
        self.done = False

    # ---- drawing --------------------------------------------------------------------------
    def chance(self, p):
        return self.rng.random() < p

    def choice(self, items):
        return items[int(self.rng.random() * len(items))]

    def value(self, name):
        return self.ns[name]

    def pick(self, pred=lambda v, info: True, exact=False):
        """A live variable whose value (and Var) satisfy `pred`, or None."""
        names = [n for n in self.pool if isinstance(self.ns[n], np.ndarray | np.generic)
                 and (not exact or self.vars[n].exact) and pred(self.ns[n], self.vars[n])]
        return self.choice(names) if names else None

    def fresh(self, prefix="v"):
        self.counter += 1
        return f"{prefix}{self.counter}"

    # ---- recording ------------------------------------------------------------------------
    def emit(self, stmt, ins=(), op_exact=True, growth="lin", keep_error=0.1):
        """Runs `stmt` on NumPy; records it (and its output's Var) when NumPy accepts it. A
        statement NumPy rejects is kept with probability `keep_error` (the program ends)."""
        try:
            execute(stmt.src, self.ns)
        except Exception:
            if self.chance(keep_error):
                stmt.raises = True
                self.stmts.append(stmt)
                self.done = True
            return False
        self.stmts.append(stmt)
        stmt.ins = tuple(ins)
        if stmt.out is not None:
            v = self.ns[stmt.out]
            stmt.layout = stmt.kind not in ("new", "foreign", "view", "index_scalar")
            if not isinstance(v, np.ndarray | np.generic):
                stmt.check = False
                return True
            self.vars[stmt.out] = self.derive(v, ins, op_exact, growth)
            self.vars[stmt.out].taint |= stmt.tags
            if stmt.out not in self.pool:
                self.pool.append(stmt.out)
        return True

    def derive(self, value, ins, op_exact, growth):
        infos = [self.vars[i] for i in ins if i in self.vars]
        top = magnitude(value)
        scales = [max(1.0, i.scale) for i in infos] or [1.0]
        if growth == "mul":
            scale = math.prod(scales)
        elif growth == "exp":  # an error d in the input is a relative error d in the result
            scale = max(scales) * top
        elif growth == "sum":
            scale = max(scales) * max(1, max((np.size(self.ns[i]) for i in ins), default=1))
        else:
            scale = max(scales)
        depth = max((i.depth for i in infos), default=0)
        exact = all(i.exact for i in infos) and op_exact
        sources = set().union(*(i.sources for i in infos)) if infos else set()
        taint = set().union(*(i.taint for i in infos)) if infos else set()
        eps = max((i.eps for i in infos), default=0.0)
        if not op_exact and np.asarray(value).dtype.kind in "fc":
            eps = max(eps, float(np.finfo(np.asarray(value).dtype).eps))
        return Var(exact=exact, depth=depth + (0 if op_exact else 1), scale=max(scale, top),
                   sources=sources, eps=eps, taint=taint)

    def touched(self, target, src_vars=(), op_exact=True, growth="lin"):
        """An in-place statement wrote `target`: every variable sharing its memory (on NumPy)
        now also depends on the values written."""
        base = self.derive(self.ns[target], (target, *src_vars), op_exact, growth)
        for name, info in self.vars.items():
            v = self.ns.get(name)
            if isinstance(v, np.ndarray) and np.may_share_memory(v, self.ns[target]):
                info.exact = info.exact and base.exact
                info.depth = max(info.depth, base.depth)
                info.scale = max(info.scale, base.scale)
                info.eps = max(info.eps, base.eps)
                info.taint |= base.taint
                info.sources |= base.sources

    def drop(self, name):
        if name in self.pool:
            self.pool.remove(name)


def magnitude(v):
    a = np.abs(np.asarray(v))
    if a.dtype.kind not in "fc" or a.size == 0:
        return 1.0 if a.dtype.kind not in "iu" or a.size == 0 else float(np.max(a)) or 1.0
    finite = a[np.isfinite(a)]
    return float(np.max(finite)) if finite.size else 1.0


def generate(seed, n_ops=None, with_vars=False):
    """Program `seed`: 50 to 200 statements (or `n_ops`), stopping early where NumPy raised;
    `with_vars`: also each variable's Var (what the comparison's tolerance needs)."""
    from . import statements  # the statement makers build this module's Stmt

    g = Generator(seed, n_ops)
    n = n_ops or int(g.rng.integers(50, 201))
    for _ in range(3):
        statements.new_array(g)
    while len(g.stmts) < n and not g.done:
        maker = statements.draw(g)
        maker(g)
    program = Program(seed, g.stmts, g.vars)
    return (program, g.vars) if with_vars else program
