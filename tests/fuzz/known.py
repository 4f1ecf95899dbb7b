"""Mismatch classes being fixed: one entry each, with the reason and a minimal program that
shows it. The fuzzer counts a program whose first mismatch matches an entry as known (reported,
not failed); test_fuzz.py runs each entry's program as xfail(strict), so a fixed class fails
there until its entry is removed here (remove it when the fix merges).

`matches(stmt, mismatch)` looks at the statement's kind and tags (generator.Stmt) and at what
differed (runner.Mismatch.what)."""

import copy
from dataclasses import dataclass


@dataclass(frozen=True)
class Known:
    name: str
    reason: str
    matches: object  # (Stmt, Mismatch) -> bool
    program: tuple  # source lines; some variable they bind differs from NumPy's


def same_sharing(m):
    """A view shares its input's memory in both libraries alike; only the input's strides
    differ (along length-1 or empty axes, which no flag or later view depends on)."""
    return m.detail.endswith(("expected True, got True", "expected False, got False"))


KNOWN = [
    Known("layouts_of_composed_mixed_sign_comparisons_and_length1_strides",
          "every result follows NumPy's layout rules (D68, D79) except: int64 against uint64 "
          "comparisons, composed of several elementwise ops, are laid out from the "
          "intermediates, not as NumPy's one comparison ufunc over the operands; and the "
          "strides of length-1 or empty axes of a few results (logical_not over length-1 axes, "
          "slices of empty arrays) differ where no flag, view or value depends on them",
          lambda s, m: (m.what == "layout" and "int64_uint64" in s.tags)
          or (m.what == "aliasing (input layout differs)" and same_sharing(m)),
          ("a = xp.asarray(np.arange(6, dtype=np.int64).reshape(3, 2)).T",
           "b = xp.asarray(np.arange(6, dtype=np.uint64).reshape(3, 2)).T",
           "c = a >= b", "d = c.T.reshape(-1)", "d[0] = False", "e = c + 0")),
]


def classify(stmt, mismatch, taint=frozenset()):
    """The Known entry a mismatch belongs to, or None (a new bug). `taint`: the tags of the
    statements the differing value came from (a value computed from a[i] after a write to a
    differs because of a[i])."""
    seen = copy.copy(stmt)
    seen.tags = set(stmt.tags) | set(taint)
    for k in KNOWN:
        if k.matches(seen, mismatch):
            return k
    return None


def first_mismatch_class(program, found):
    """(the first exception mismatch of `found`, else the first that is more than a layout, else
    the first layout mismatch; its Known entry or None). A value computed from an
    array whose view shared memory on one library only, because of the array's layout, is put
    down to layouts (a write through the view reached the array on that library only)."""
    # Where one run raised and the other went on, the values after that statement differ too.
    rest = [m for m in found if m.what == "exception"] \
        or [m for m in found if m.what != "layout"] or found[:1]
    first = rest[0]
    stmt = program.stmts[first.index]
    names = [stmt.out] if stmt.out in program.vars else list(stmt.ins)
    taint = set().union(*(program.vars[n].taint for n in names if n in program.vars))
    aliased = set().union(*(reads(program, m.index) for m in found
                            if m.what == "aliasing (input layout differs)"))
    aliased.discard(None)
    if aliased & reads(program, first.index):
        taint.add("reads_layout_aliased")
    return first, classify(stmt, first, taint)


def reads(program, index):
    """The variables statement `index` read, directly or through the statements before it."""
    stmt = program.stmts[index]
    names = set(stmt.ins) | ({stmt.out} if stmt.out else set())
    for s in reversed(program.stmts[:index]):
        if s.out in names:
            names |= set(s.ins)
    return names
