"""The corpus's loop programs: public NumPy programs that loop over small and medium arrays
(time steps, relaxations, iterative solvers), where the host's cost per operation decides.
corpus.py adds these sources and programs to its own; bench/host_corpus.py times them.

from-python-to-numpy (N. P. Rougier's book, code BSD-3-Clause) and cupy's examples (MIT) draw,
animate or parse a command line: an adapter (adapters.py) drives their own functions at `size`.
gray_scott.py keeps its two fields in one structured array (decisions.md D82) and steps views
of them.

numpy-benchmarks (S. Guelton's collection of kernels from forums and papers, BSD-3-Clause): each
file's own `#setup:` and `#run:` lines make its inputs and call it (adapters.setup_run). The
kernels kept are those with a Python loop over array operations.
"""

LOOP_SOURCES = {
    "from-python-to-numpy": {
        "url": "https://github.com/rougier/from-python-to-numpy",
        "commit": "8a5f0d9973fe7513ef8463291ec71bf0f2453688",
        "licence": "BSD-3-Clause (code/, LICENSE-code.txt)",
    },
    "numpy-benchmarks": {
        "url": "https://github.com/serge-sans-paille/numpy-benchmarks",
        "commit": "2039a6d1247327b20089f85ee37ff0637f43b7f2",
        "licence": "BSD-3-Clause",
    },
}
# CuPy's examples (cg, kmeans) come from corpus.py's "cupy-examples" source.


def _book(name, path, adapter, size, **how):
    return {"name": f"fp2n_{name}_{size}", "source": "from-python-to-numpy",
            "path": f"code/{path}", "adapter": adapter, "size": size, **how}


def _kernel(name, **how):
    return {"name": f"npbench_{name}", "source": "numpy-benchmarks",
            "path": f"numpy_benchmarks/benchmarks/{name}.py", "adapter": "setup_run", **how}


def _cupy(name, size, **how):
    return {"name": f"cupy_{name}_{size}", "source": "cupy-examples",
            "path": f"examples/{name}/{name}.py",
            "adapter": "cupy_example", "size": size, **how}


LOOP_PROGRAMS = [
    # Conway's game of life on an int64 board: 8 shifted slices summed per step
    _book("game_of_life", "game_of_life_numpy.py", "game_of_life", 32),
    _book("game_of_life", "game_of_life_numpy.py", "game_of_life", 128),
    # Mandelbrot set with boolean-mask updates of the points still bounded (complex64)
    _book("mandelbrot1", "mandelbrot_numpy_1.py", "mandelbrot", 64),
    _book("mandelbrot1", "mandelbrot_numpy_1.py", "mandelbrot", 256),
    # Mandelbrot set that drops diverged points each step (shrinking arrays). Its escaping
    # points amplify one rounding of a complex64 product to ~1e-3: it holds to the default
    # tolerance because every build rounds the product as NumPy does (complex.h's fma form).
    _book("mandelbrot2", "mandelbrot_numpy_2.py", "mandelbrot", 64),
    # Shortest path through a maze: Bellman-Ford value relaxation until the exit is reached
    _book("maze", "maze_numpy.py", "maze", 21),
    _book("maze", "maze_numpy.py", "maze", 41),
    # Stam's stable fluids: Gauss-Seidel sweeps, advection by gathered indices, projection
    _book("smoke", "smoke_solver.py", "smoke", 32),
    _book("smoke", "smoke_solver.py", "smoke", 64),
    # Boids: all-pairs distances and steering, an n-body step
    _book("boids", "boid_numpy.py", "boids", 64),
    # Gray-Scott reaction-diffusion on the two float64 fields of a 258 x 258 structured array,
    # stepped through views of its fields (Z['U'][1:-1, 1:-1]); size: frames of 10 steps
    _book("gray_scott", "gray_scott.py", "gray_scott", 5),
    # Gray-Scott reaction-diffusion, 280 x 280 float32, 40 steps
    _kernel("grayscott"),
    # Heat equation, forward Euler (a Jacobi-style stencil), 128 x 128, 100 steps
    _kernel("diffusion"),
    # Mandelbrot set, complex128, 100 x 100, 100 iterations
    _kernel("mandelbrot"),
    # A string of 4000 masses: a Python loop of 2-element vector operations per mass
    _kernel("wave"),
    # Weighted distances of 70 x 70 pairs of columns, one small reduction each
    _kernel("wdist"),
    # Row-wise sums of differences, 100 rows
    _kernel("multiple_sum"),
    # Nearest symbol of 4096 complex samples, one argmin each
    _kernel("make_decision"),
    # A constant-modulus equaliser: a filter update per sample (complex128)
    _kernel("cma_pt"),
    # Boolean mask test per row, 1000 rows
    _kernel("check_mask"),
    # Conjugate gradients on a dense symmetric positive matrix (until the residual is below
    # 0.1: the iterates carry the dot products' rounding, 3e-8 apart from NumPy's at 256)
    _cupy("cg", 64, rtol=1e-6),
    _cupy("cg", 256, rtol=1e-6),
    # k-means with two clusters; its initial centres are random draws (the generators differ)
    _cupy("kmeans", 1000, compare="shapes"),
]
