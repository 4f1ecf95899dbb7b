"""The corpus's lessons: the NumPy chapters of public books and lecture notes, run as their
readers run them (notebooks cell by cell, notebooks.py; scripts as scripts). corpus.py adds
these sources and programs to its own.

Python Data Science Handbook (J. VanderPlas, code MIT: LICENSE-CODE): chapter 2's notebooks.
Left out: 02.04 (reads a CSV with pandas) and 02.06 (downloads rainfall data with
vega_datasets).

Scientific Python Lectures (scipy-lectures, CC-BY-4.0): the NumPy chapter's pages (MyST
notebooks), its exercise solutions and its gallery examples. Left out: array_object.md (an
array of strings), elaborate_arrays.md (structured and masked arrays), advanced_operations.md
and exercises.md (IPython's `cd`, scipy.datasets, imageio), solutions/2_2 and
examples/plot_populations.py (they read `../data`, outside the directory a script runs in),
solutions/2_a (a Fortran module).

From Python to NumPy (N. P. Rougier, code BSD-3-Clause; loops.py has its loop programs):
anatomy.py (what its tools.info prints of a C and a Fortran copy). Left out: maze_build.py
(the .gpu/program-corpus export in use predates it: add it after a re-export), the timing
scripts (allocations, vectorization, addition: they keep no results), find_index.py
(np.byte_bounds, gone in NumPy 2), the samplers (DART, Bridson: how many points they keep
depends on the random draws) and the interactive and image programs.

Hands-On Machine Learning, 2nd edition (A. Géron, Apache-2.0): its NumPy tutorial notebook.

NumPy's user guide (numpy/numpy's doc/source/user, BSD-3-Clause): the `>>>` examples of its
pages, in order, as NumPy's doctest run executes them (with `np` defined first: its conftest's
namespace, here the `preamble`). Left out: pages of C, subclassing and dispatch, string
and datetime dtypes (basics.strings, basics.types, how-to-print's datetime64), byte order, and
pages with fewer than five examples.

Most of them draw random numbers: compare "shapes" (accelpy's generator is not NumPy's).
Two call `linalg.eig`, whose results accelpy makes complex whatever the values, as NumPy 2.5
does (D35); NumPy 2.4 returns real arrays when no eigenvalue has an imaginary part, so with it
they are strict xfails (`numpy_at_least`).
Notebooks compare what each cell displays and which cells raise (notebooks.py).
"""

LESSON_SOURCES = {
    "python-data-science-handbook": {
        "url": "https://github.com/jakevdp/PythonDataScienceHandbook",
        "commit": "d66231454ef753818dc9213c9b5942e067266966",
        "licence": "MIT (code, LICENSE-CODE)",
    },
    "scientific-python-lectures": {
        "url": "https://github.com/scipy-lectures/scientific-python-lectures",
        "commit": "817a97d8d9a26eeb4e735a402420cd34dd7e89fc",
        "licence": "CC-BY-4.0",
    },
    "numpy-user-guide": {
        "url": "https://github.com/numpy/numpy",
        "commit": "1f90bbb55e65e7de68921bc3f1a2d94492fdf689",
        "licence": "BSD-3-Clause",
    },
    "handson-ml2": {
        "url": "https://github.com/ageron/handson-ml2",
        "commit": "1e2115277b50f6c584cd668fa30e3af309a5b136",
        "licence": "Apache-2.0",
    },
}


def _pdsh(number, title, **how):
    return {"name": f"pdsh_{number.replace('.', '_')}", "source": "python-data-science-handbook",
            "path": f"notebooks/{number}-{title}.ipynb", **how}


def _lecture(path, **how):
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return {"name": f"spl_numpy_{stem}", "source": "scientific-python-lectures",
            "path": f"intro/numpy/{path}", **how}


def _guide(page, **how):
    return {"name": "numpy_guide_" + page.replace(".", "_").replace("-", "_"),
            "source": "numpy-user-guide", "path": f"doc/source/user/{page}.rst",
            "preamble": "import numpy as np", **how}


LESSON_PROGRAMS = [
    # Python's types against NumPy's: creating arrays (zeros, full, arange, linspace, random)
    _pdsh("02.01", "Understanding-Data-Types", compare="shapes"),
    # Attributes, indexing, slicing, views and copies, reshape, concatenate and split
    _pdsh("02.02", "The-Basics-Of-NumPy-Arrays", compare="shapes"),
    # Ufuncs: arithmetic, absolute, trigonometry, exponents and logs, out=, reduce, accumulate,
    # outer (and scipy.special)
    _pdsh("02.03", "Computation-on-arrays-ufuncs", requires=("scipy",), draws="numpy"),
    # Broadcasting: its rules, centring an array, plotting a 2-D function
    _pdsh("02.05", "Computation-on-arrays-broadcasting", compare="shapes",
          requires=("matplotlib",)),
    # Fancy indexing: combined indexing, random points, modifying values with at, binning
    _pdsh("02.07", "Fancy-Indexing", compare="shapes", requires=("matplotlib",)),
    # Sorting: sort, argsort, partition, k nearest neighbours
    _pdsh("02.08", "Sorting", compare="shapes", requires=("matplotlib",)),
    # Structured arrays: compound dtypes (dicts, lists of tuples, comma strings, subarray
    # fields), fields by name, records, masks on a field, record arrays (decisions.md D82)
    _pdsh("02.09", "Structured-Data-NumPy"),
    # Numerical operations: elementwise, reductions, broadcasting, array manipulation, sorting
    _lecture("operations.md", compare="shapes", requires=("matplotlib",),
             data=("intro/numpy/data/an_array.txt",)),
    # The sieve of Eratosthenes on a boolean mask
    _lecture("solutions/1_0_prime_sieve.py"),
    # Reshape, transpose, slicing and fancy indexing of a matrix
    _lecture("solutions/2_1_matrix_manipulations.py"),
    # A crude integral over a broadcast 3-D grid
    _lecture("solutions/2_3_crude_integration.py"),
    # A Markov chain's stationary state: matrix powers against eig
    _lecture("solutions/2_5_markov_chain.py", compare="shapes", numpy_at_least="2.5"),
    # The gallery: plotting 1-D and 2-D arrays, distances on a grid, Mandelbrot, polyfit,
    # a random walk
    _lecture("examples/plot_basic1dplot.py", requires=("matplotlib",)),
    _lecture("examples/plot_basic2dplot.py", compare="shapes", requires=("matplotlib",)),
    _lecture("examples/plot_distances.py", requires=("matplotlib",)),
    _lecture("examples/plot_mandelbrot.py", requires=("matplotlib",)),
    _lecture("examples/plot_polyfit.py", compare="shapes", requires=("matplotlib",)),
    _lecture("examples/plot_randomwalk.py", compare="shapes", requires=("matplotlib",)),
    # NumPy's user guide: the quickstart (creation, operations, indexing, shape manipulation,
    # copies and views, broadcasting, fancy indexing tricks)
    _guide("quickstart", compare="shapes"),
    # NumPy: the absolute basics for beginners
    _guide("absolute_beginners", compare="shapes", requires=("matplotlib",)),
    _guide("basics.creation"),
    _guide("basics.indexing"),
    # Structured arrays: dtype specs, offsets and itemsize, field access, multi-field views,
    # assignment by position, record arrays (numpy.rec)
    # and views of their bytes as another dtype, numpy.lib.recfunctions (D88)
    _guide("basics.rec"),
    _guide("basics.broadcasting"),
    _guide("basics.copies"),
    _guide("basics.ufuncs"),
    _guide("basics.io.genfromtxt"),
    _guide("how-to-index"),
    _guide("how-to-partition"),
    _guide("how-to-io"),
    # From Python to NumPy's anatomy of an array: shape, item size, strides and flags (owned
    # data, contiguity) of a C and a Fortran copy, as its tools.info prints them
    {"name": "fp2n_anatomy", "source": "from-python-to-numpy", "path": "code/anatomy.py",
     "compare": "printed", "data": ("code/tools.py",)},
    # Hands-On ML's NumPy tutorial: creation, dtypes, reshaping, arithmetic, broadcasting,
    # upcasting, conditionals, statistics, ufuncs, indexing, iterating, stacking, splitting,
    # transposing, linear algebra, vectorization, saving and loading
    {"name": "handson_ml2_tools_numpy", "source": "handson-ml2", "path": "tools_numpy.ipynb",
     "compare": "shapes", "requires": ("matplotlib",), "numpy_at_least": "2.5"},
]
