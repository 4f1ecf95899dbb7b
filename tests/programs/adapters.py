"""Adapters: how the harness runs a corpus program that draws, animates or runs forever.

Each adapter takes the Program and the module under test (numpy or accelpy) and returns the
variables to compare. It loads the program's own functions with the import swapped
(runner.load_definitions), makes the inputs with NumPy's generator (the same numbers for both
runs, moved to the module by `asarray`, as a user's data would be), calls the functions the way
the program's own driver does, for a fixed number of steps at `program.size`, and returns the
final state. Nothing of the programs is copied here: only the driving.
"""

from __future__ import annotations

import re

import numpy as np

import runner


class _Image:
    """Stands for the matplotlib image an animation's update() redraws."""

    def set_data(self, data):
        pass

    def set_clim(self, vmin=None, vmax=None):
        pass


def _inputs(seed=0):
    return np.random.default_rng(seed)


def game_of_life(program, xp):
    """from-python-to-numpy's game_of_life_numpy.py: update() (its animation's frame) 50 times
    on a random (size, 2*size) board, as the program's own globals Z, M and im."""
    defs = runner.load_definitions(program, xp.__name__)
    board = _inputs().integers(0, 2, (program.size, 2 * program.size))
    defs.update(Z=xp.asarray(board), M=xp.zeros(board.shape), im=_Image())
    for _ in range(50):
        defs["update"]()
    return {"Z": defs["Z"], "M": defs["M"]}


def mandelbrot(program, xp):
    """from-python-to-numpy's mandelbrot_numpy_{1,2}.py: the set on a size x size grid, 64
    iterations, over the window the book draws."""
    defs = runner.load_definitions(program, xp.__name__)
    Z, N = defs["mandelbrot"](-2.25, 0.75, -1.25, 1.25, program.size, program.size, 64)
    return {"Z": Z, "N": N}


def maze(program, xp):
    """from-python-to-numpy's maze_numpy.py: the maze is built by its build_maze under NumPy
    (a Python loop of random draws; NumPy's numbers for both runs), then BellmanFord's
    value-iteration relaxation finds the shortest path under the module."""
    walls = _built_maze(program.name, program)
    defs = runner.load_definitions(program, xp.__name__)
    start, goal = (1, 1), (walls.shape[0] - 2, walls.shape[1] - 2)
    G, P = defs["BellmanFord"](xp.asarray(walls), start, goal)
    return {"G": G, "P": P}


_MAZES = {}


def _built_maze(key, program):
    """The maze of that size, built once (seconds of Python loops; not what is compared)."""
    if key in _MAZES:
        return _MAZES[key]
    np.random.seed(1)
    build = runner.load_definitions(program, "numpy")["build_maze"]
    _MAZES[key] = build((program.size, 2 * program.size))
    return _MAZES[key]


def smoke(program, xp):
    """from-python-to-numpy's smoke_solver.py (Stam's stable fluids), driven as its smoke_1.py
    driver does: a ring of density, random velocities, vel_step then dens_step, 10 frames."""
    defs = runner.load_definitions(program, xp.__name__)
    n = program.size
    rng = _inputs()
    y, x = np.indices((n + 2, n + 2))
    radius = np.hypot(y - (n + 2) / 2, x - (n + 2) / 2)
    fields = {
        "dens": ((radius <= n / 4) ^ (radius <= n / 8)) * 10.0,
        "dens_prev": np.zeros((n + 2, n + 2)),
        "u": 0.5 * rng.uniform(-1, 1, (n + 2, n + 2)),
        "v": 0.5 * rng.uniform(-1, 1, (n + 2, n + 2)),
        "u_prev": np.zeros((n + 2, n + 2)),
        "v_prev": np.zeros((n + 2, n + 2)),
    }
    f = {k: xp.asarray(a.astype(np.float32)) for k, a in fields.items()}
    for _ in range(10):
        defs["vel_step"](n, f["u"], f["v"], f["u_prev"], f["v_prev"], 0.0, 0.1)
        defs["dens_step"](n, f["dens"], f["dens_prev"], f["u"], f["v"], 0.0, 0.1)
    return f


def boids(program, xp):
    """from-python-to-numpy's boid_numpy.py: a Flock of `size` boids (pairwise forces between
    all of them, an n-body step), 20 steps of Flock.run from NumPy-drawn positions."""
    defs = runner.load_definitions(program, xp.__name__)
    flock = defs["Flock"](program.size)
    rng = _inputs()
    angle = rng.uniform(0, 2 * np.pi, program.size)
    flock.velocity = xp.asarray(np.stack([np.cos(angle), np.sin(angle)], 1).astype(np.float32))
    flock.position = xp.asarray(rng.uniform(0, 1, (program.size, 2)).astype(np.float32)
                                * np.float32([flock.width, flock.height]))
    for _ in range(20):
        flock.run()
    return {"position": flock.position, "velocity": flock.velocity}


def gray_scott(program, xp):
    """from-python-to-numpy's gray_scott.py: its set-up runs as written (a (n+2)^2 structured
    array Z of two float64 fields, U and V, and the views U, V, u, v of them that update()
    steps), then Z takes the set-up's values under NumPy (its random perturbation is NumPy's
    draws, the same for both runs; assigned record by record, which keeps the views), and
    update() (the animation's frame: 10 reaction-diffusion steps) runs `size` times."""
    np.random.seed(0)
    start = runner.load_set_up(program, "numpy")["Z"]
    defs = runner.load_set_up(program, xp.__name__)
    defs["Z"][...] = xp.asarray(start)
    defs["im"] = _Image()
    for frame in range(program.size):
        defs["update"](frame)
    return {"Z": defs["Z"], "U": defs["U"], "V": defs["V"]}


def setup_run(program, xp):
    """serge-sans-paille/numpy-benchmarks: each file names its inputs on a `#setup:` line and
    its call on a `#run:` line. The setup runs under NumPy (it makes the data); its arrays move
    to the module and the run line calls the kernel. Returns the result and the final inputs
    (kernels that update their arguments in place)."""
    text = runner.program_source(program)
    setup = re.search(r"^#setup:(.*)$", text, re.M)[1].strip()
    call = re.search(r"^#run:(.*)$", text, re.M)[1].strip()
    data = {}
    exec(setup, data)
    moved = {k: _move(v, xp) for k, v in data.items() if not k.startswith("__")}
    moved = {k: v for k, v in moved.items() if v is not None}
    env = {**runner.load_definitions(program, xp.__name__), **moved}
    return {"result": eval(call, env), **moved}


def _move(value, xp):
    """A setup value as the kernel gets it: arrays moved to xp, numbers as they are, modules
    and functions left out (None)."""
    if isinstance(value, np.ndarray):
        return xp.asarray(value)
    if isinstance(value, tuple):
        return tuple(_move(v, xp) if isinstance(v, np.ndarray) else v for v in value)
    return value if isinstance(value, (int, float, complex)) else None


def cupy_example(program, xp):
    """cupy/cupy's examples/{cg,kmeans}: their `fit` functions take NumPy or CuPy arrays and
    pick the module with cupy.get_array_module, as the examples' own CPU and GPU runs do. Both
    runs import cupy as accelpy; the NumPy run passes NumPy arrays (the example's CPU run), the
    accelpy run accelpy arrays (and bench/host_corpus.py's CuPy run imports CuPy itself)."""
    defs = runner.load_definitions(program, "cupy" if xp.__name__ == "cupy" else "accelpy")
    rng = _inputs()
    n = program.size
    if "fit_xp" in defs:  # kmeans: two Gaussian blobs, as the example's run()
        samples = rng.standard_normal((n, 2))
        X = np.concatenate([samples + 1, samples - 1])
        centers, pred = defs["fit_xp"](xp.asarray(X), 2, 10)
        return {"centers": centers, "pred": pred}
    A = rng.integers(-50, 50, (n, n))  # cg: a random symmetric positive matrix, as run()
    A = (A @ A.T).astype(np.float64)
    b = A @ rng.integers(-50, 50, n).astype(np.float64)
    return {"x": defs["fit"](xp.asarray(A), xp.asarray(b), 0.1, 5000)}


def npbench(program, xp):
    """spcl/npbench: the kernel's bench_info file names its function, its arguments, the
    initialize that makes them (in the kernel's sibling module, run as it is under NumPy: the
    same data for both runs) and its array arguments (`array_args`; `output_args`, those it
    updates in place, is not always complete). Its parameters are preset S's with the program's
    `params` replacing some. Returns what the kernel returns and all its array arguments."""
    import json

    base = runner.checkout_dir(program.source)
    init_path, info_path = program.data  # npbench.py's order
    info = json.loads((base / info_path).read_text())["benchmark"]
    params = {**info["parameters"]["S"], **program.params}
    data = dict(params)
    if "init" in info:  # some kernels take their parameters only (mandelbrot)
        init = {"__name__": init_path}  # NumPy's module, as it is (some import numpy.random)
        exec(compile((base / init_path).read_text(), init_path, "exec"), init)
        np.random.seed(0)  # mlp's input is a legacy draw: the same numbers for both runs
        made = init[info["init"]["func_name"]](*(params[n] for n in info["init"]["input_args"]))
        names = info["init"]["output_args"]
        data.update(zip(names, made if len(names) > 1 else (made,), strict=True))
    moved = {k: xp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in data.items()}
    # load_set_up: its module-level constants too (vadv's BET_M)
    kernel = runner.load_set_up(program, xp.__name__)[info["func_name"]]
    result = kernel(*(moved[name] for name in info["input_args"]))
    # All its arrays, not only `output_args`: doitgen and scattering_self_energies update A and
    # Sigma in place and list no output_args.
    arrays = dict.fromkeys([*info["array_args"], *info["output_args"]])
    return {"result": result, **{name: moved[name] for name in arrays}}
