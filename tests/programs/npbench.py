"""SPCL's NPBench (BSD-3-Clause): 54 NumPy kernels (PolyBench's linear algebra and stencils,
weather stencils, deep-learning layers, FFT, fluid solvers) written for NumPy and ported to
other frameworks; the corpus runs each `<module>_numpy.py` with its import changed.

Each kernel comes with an `initialize` in `<module>.py` (the inputs, made with NumPy) and a
`bench_info/<name>.json` naming the kernel's function, its arguments and its sizes (presets
S, M, L). adapters.npbench runs the initialize under NumPy at the program's `params` (preset S
with the sizes given here, smaller where S would slow CI), moves its arrays to the module
under test, calls the kernel and compares what it returns and all its array arguments (those
it updates in place included).
"""

NPBENCH_SOURCES = {
    "npbench": {
        "url": "https://github.com/spcl/npbench",
        "commit": "f2d7f27d87ba4881991e62c18a607aa6ba52b260",
        "licence": "BSD-3-Clause",
    },
}


def _kernel(name, folder="", module=None, rtol=None, **sizes):
    """The kernel `name` (its bench_info file) in npbench/benchmarks/<folder>/<name>, at preset
    S with `sizes` replacing some of its parameters. The name's prefix is not `npbench_`:
    numpy-benchmarks' kernels have it already."""
    module = module or name
    where = f"npbench/benchmarks/{folder}/{name}" if folder else f"npbench/benchmarks/{name}"
    return {
        "name": f"spcl_{name}",
        "source": "npbench",
        "path": f"{where}/{module}_numpy.py",
        "adapter": "npbench",
        "params": sizes,
        "rtol": rtol,
        "data": (f"{where}/{module}.py", f"bench_info/{name}.json"),
    }


def _poly(name, **sizes):
    return _kernel(name, "polybench", **sizes)


NPBENCH_PROGRAMS = [
    # PolyBench: dense linear algebra (matrix products, solvers, factorisations)
    _poly("atax", M=400, N=500),
    _poly("bicg", M=400, N=500),
    _poly("cholesky", N=60),
    _poly("cholesky2", N=200),
    _poly("correlation", M=100, N=120),
    _poly("covariance", M=100, N=120),
    _poly("covariance2", M=100, N=120),
    _poly("doitgen", NR=20, NQ=20, NP=32),
    _poly("durbin", N=200),
    _poly("gemm", NI=100, NJ=110, NK=120),
    _poly("gemver", N=200),
    _poly("gesummv", N=200),
    _poly("gramschmidt", M=40, N=30),
    _poly("k2mm", NI=80, NJ=85, NK=90, NL=95),
    _poly("k3mm", NI=80, NJ=85, NK=90, NL=95, NM=100),
    _poly("lu", N=40),
    _poly("ludcmp", N=40),
    _poly("mvt", N=300),
    _poly("symm", M=30, N=40),
    _poly("syr2k", M=30, N=40),
    _poly("syrk", M=30, N=40),
    _poly("trisolv", N=200),
    _poly("trmm", M=40, N=50),
    # PolyBench: stencils, dynamic programming and a recursive filter
    _poly("adi", TSTEPS=5, N=40),
    _poly("deriche", W=100, H=60),
    _poly("fdtd_2d", TMAX=10, NX=60, NY=70),
    _poly("floyd_warshall", N=60),
    _poly("heat_3d", TSTEPS=10, N=16),
    _poly("jacobi_1d", TSTEPS=100, N=400),
    _poly("jacobi_2d", TSTEPS=20, N=50),
    _poly("nussinov", N=30),
    _poly("seidel_2d", TSTEPS=4, N=30),
    # Weather stencils (COSMO's horizontal diffusion, vertical advection)
    _kernel("hdiff", "weather_stencils", I=32, J=32, K=20),
    _kernel("vadv", "weather_stencils", I=24, J=24, K=20),
    # Deep learning layers
    _kernel("conv2d_bias", "deep_learning", module="conv2d", N=4, H=16, W=16),
    _kernel("lenet", "deep_learning", N=2),
    _kernel("mlp", "deep_learning", S0=1000, S1=200, S2=200),
    # float32 convolutions and batch norms: NumPy's own result is 3e-5 from the float64 one
    _kernel("resnet", "deep_learning", N=2, W=8, H=8, rtol=1e-4),
    _kernel("softmax", "deep_learning", N=4, H=4, SM=64),
    # Physics, signal processing and other kernels
    _kernel("arc_distance", "pythran", N=10000),
    _kernel("azimint_hist", N=40000, npt=100),
    _kernel("azimint_naive", N=40000, npt=100),
    _kernel("cavity_flow", ny=21, nx=21, nt=10, nit=5),
    _kernel("channel_flow", ny=6, nx=6),
    _kernel("compute", M=300, N=300),
    _kernel("contour_integral", NR=20, NM=40),
    _kernel("crc16", N=400),
    _kernel("go_fast", N=300),
    _kernel("mandelbrot1", XN=40, YN=40, maxiter=30),
    _kernel("mandelbrot2", XN=60, YN=60, maxiter=30),
    _kernel("nbody", N=10, tEnd=1.0),
    _kernel("scattering_self_energies"),
    _kernel("spmv", M=1024, N=1024, nnz=2048),
    _kernel("stockham_fft", R=2, K=10),
]
