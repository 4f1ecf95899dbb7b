"""Single statements of the corpus's loop programs on tiny arrays (tests/programs/loops.py: the
wave, smoke, check_mask, make_decision, wdist, cma_pt and cg loops), timed beside NumPy in the
same process: thread CPU time per statement (time.thread_time), median of --rounds rounds of
--calls calls.
Nothing converts results to NumPy: what is measured is the host's cost at the call (writes and
eager operations complete there; a deferred reduction stays pending). decisions.md D90.
--medium: the Mandelbrot programs' masked statements on their 256 x 256 complex64 grid after 8
steps (a third of the points still bounded; D94), with fewer calls per round.

    python bench/host_statements.py [--rounds N] [--calls N] [--medium] [NAME_PART]...
"""

import argparse
import statistics
import time
import warnings

import numpy

import accelpy as ap

SETUP = """
cpos = np.asarray(N.random.rand(4000, 2)); force = np.zeros((4000, 2)); i = 5
d = cpos[i] - cpos[i - 1]; dx, dy = d; fvec = np.array([dx, dy])
x = np.asarray(N.random.rand(34, 34))
db = np.asarray(N.random.randint(2, size=(1000, 4)).astype(bool)); vector = db[3][1:]
mask = (1, 0, 1); r = np.bitwise_and(mask, vector)
sc = np.asarray(N.random.rand(32) + 1j * N.random.rand(32)); out = np.zeros(64, dtype=sc.dtype)
im = np.argmin(abs(sc))
D = np.zeros((70, 70)); A = np.asarray(N.random.rand(70, 70))
r = np.asarray(N.random.rand(64)); p = np.asarray(N.random.rand(64))
M = np.asarray(N.random.rand(64, 64))
Xest = np.sum(sc[:4] * np.conj(sc[4:8])); tol = 0.1
"""
CASES = [
    ("wave: dx, dy = d", "a, b = d"),
    ("wave: np.array([dx*dy, dy*dx])", "np.array([dx * dy, dy * dx])"),
    ("wave: force[i-1] -= fvec", "force[i - 1] -= fvec"),
    ("smoke: x[0, 1:-1] = x[1, 1:-1]", "x[0, 1:-1] = x[1, 1:-1]"),
    ("smoke: x[1:-1, 0] = -x[1:-1, 1]", "x[1:-1, 0] = -x[1:-1, 1]"),
    ("smoke: x[0, 0] = 0.5*(x[1, 0] + x[0, 1])", "x[0, 0] = 0.5 * (x[1, 0] + x[0, 1])"),
    ("x[0, 0] = 0.5", "x[0, 0] = 0.5"),
    ("check_mask: np.bitwise_and(mask, vector)", "np.bitwise_and(mask, vector)"),
    ("check_mask: mask == r", "mask == r"),
    ("make_decision: out[i] = sc[im]", "out[i] = sc[im]"),
    ("wdist: D[3, 4] = np.sqrt((A[:, 3]**2).sum())", "D[3, 4] = np.sqrt((A[:, 3]**2).sum())"),
    ("cma_pt: (1.0 - abs(Xest)**2) * Xest", "(1.0 - abs(Xest)**2) * Xest"),
    (
        "cg: np.inner(r, r) / np.inner(p, np.dot(M, p))",
        "np.inner(r, r) / np.inner(p, np.dot(M, p))",
    ),
    ("cg: if np.linalg.norm(r) < tol", "if np.linalg.norm(r) < tol: pass"),
    ("0-d: Xest.real * 2.0", "Xest.real * 2.0"),
]

MEDIUM_SETUP = """
X = np.linspace(-2.25, 0.75, 256, dtype=np.float32)
Y = np.linspace(-1.25, 1.25, 256, dtype=np.float32)
C = X + Y[:, None] * 1j; N = np.zeros(C.shape, dtype=int); Z = np.zeros(C.shape, np.complex64)
for n in range(8):
    I = np.less(abs(Z), 2.0); N[I] = n; Z[I] = Z[I]**2 + C[I]
I = np.less(abs(Z), 2.0); ZI = Z[I]
"""
MEDIUM_CASES = [
    ("mandelbrot: N[I] = n", "N[I] = 3"),
    ("mandelbrot: Z[I]", "Z[I]"),
    ("mandelbrot: Z[I] = ZI", "Z[I] = ZI"),
    ("mandelbrot: Z[I] = Z[I]**2 + C[I]", "Z[I] = Z[I]**2 + C[I]"),
]


def seconds(code, scope, rounds, calls):
    exec(code, scope)
    out = []
    for _ in range(rounds):
        start = time.thread_time()
        for _ in range(calls):
            exec(code, scope)
        out.append((time.thread_time() - start) / calls)
    return statistics.median(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--medium", action="store_true", help="the medium-array statements")
    parser.add_argument("only", nargs="*")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    setup, cases = (MEDIUM_SETUP, MEDIUM_CASES) if args.medium else (SETUP, CASES)
    if args.medium and args.calls == parser.get_default("calls"):
        args.calls = 50
    cases = [c for c in cases if not args.only or any(part in c[0] for part in args.only)]
    times = {}
    for xp in (numpy, ap):
        scope = {"np": xp, "N_": numpy} if args.medium else {"np": xp, "N": numpy}
        numpy.random.seed(0)
        exec(setup, scope)
        for name, stmt in cases:
            code = compile(stmt, name, "exec")
            times.setdefault(name, []).append(seconds(code, scope, args.rounds, args.calls))
    print(f"{'statement':48} {'numpy us':>9} {'accelpy us':>11} {'ratio':>7}")
    for name, (t_np, t_ap) in times.items():
        print(f"{name:48} {t_np * 1e6:9.2f} {t_ap * 1e6:11.2f} {t_np / t_ap:6.2f}x")


if __name__ == "__main__":
    main()
