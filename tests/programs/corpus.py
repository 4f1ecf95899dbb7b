"""The corpus of public programs run under NumPy and under accelpy (test_programs.py).

Each source is a repository at a pinned commit, with its licence; scripts/program-corpus brings
it into build/program-corpus. Only sources whose licence allows running and redistributing the
code are listed. A program's `compare` is "values" (its final variables: integers exactly,
floats within tolerance), "shapes" (it draws random numbers, and accelpy's generator is not
NumPy's: shapes and dtypes only) or "printed" (it keeps no variables, only prints); `xfail`
names the surface it needs that accelpy lacks today.

numpy-100: each program is the solution of one exercise, run after exercise 1's
`import numpy as np` (the order the collection is meant to be run in). Left out: exercises that
need SciPy or pandas (52, 68), IPython syntax (5, 92), names no exercise's solution defines
(27: a Z of no exercise; 79: `distance` from an alternative block of 78, not its solution), an
exception NumPy raises by design (43), NumPy's datetime and object dtypes and ndarray
subclasses, which accelpy does not have (33, 34, 63, 85), numpy.core (91: NumPy 2's private
module; `np.rec.fromarrays` is built), printed scalars that differ by design (20: 0-d arrays;
48: the Array API's finfo gives Python floats), and a shape that depends on random draws (93).
Exercises that use names an earlier exercise defined run after it (`after`: 76, 81, 84 use 75's
sliding_window_view and 76's stride_tricks). 73 and 96 (unique records of a view of bytes, D88)
draw with NumPy's generator in both runs (`draws`): how many are unique depends on the draws.

cupy-examples: the scripts of CuPy's examples/ folder, with only `import cupy` becoming accelpy
(their `import numpy` is their CPU reference). They drive a GPU (cupy.cuda.Device, streams,
CUDA C kernels), so they run on "cuda" only, and each checks itself: it compares its NumPy
and CuPy results (cupy.testing) or just runs (compare "self"). Sizes come from their own
command-line options, smaller than the defaults for a test run. Left out: cg (its NumPy
reference alone takes minutes: a 2000^3 integer matmul and thousands of iterations, three
times), gemm (an sgemm.cu file of CUDA templates through RawModule with name expressions),
cusparse and the cuFFT/cuSPARSELt/cuTENSOR/jit/custom_struct/interoperability/peer folders
(cupyx, CuPy's JIT and libraries accelpy does not wrap, MPI, several GPUs).

numpy-tutorials: NumPy's tutorials (MyST notebooks: their code cells in order). They draw with
matplotlib, so they skip where it is not installed. Left out: those that download data
(deep-learning-on-mnist, x-ray-image-processing, svd: scipy.datasets) or need SciPy and
datetime64 (air-quality-analysis) or masked arrays (tutorial-ma).
"""

from lessons import LESSON_PROGRAMS, LESSON_SOURCES
from loops import LOOP_PROGRAMS, LOOP_SOURCES
from npbench import NPBENCH_PROGRAMS, NPBENCH_SOURCES

SOURCES = {
    "numpy-100": {
        "url": "https://github.com/rougier/numpy-100",
        "commit": "6447594ad639908dc979446a4ec7f0f2e62fb23b",
        "licence": "MIT",
    },
    "cupy-examples": {
        "url": "https://github.com/cupy/cupy",
        "commit": "6b6d9563c4f7410cd1866a11b2f71a60dd45a68c",
        "licence": "MIT",
    },
    "numpy-tutorials": {
        "url": "https://github.com/numpy/numpy-tutorials",
        "commit": "d8a82a1b792f24a52eebcf0ae5ec73ccacfef685",
        "licence": "BSD-3-Clause",
    },
}



def _cupy(path, **how):
    return {"name": "cupy_" + path.removeprefix("examples/").removesuffix(".py").replace("/", "_"),
            "source": "cupy-examples", "path": path, "compare": "self", "devices": ("cuda",),
            "ported": ("cupy",), **how}


def _tutorial(name, **how):
    return {"name": "tutorial_" + name.replace("-", "_"), "source": "numpy-tutorials",
            "path": f"content/{name}.md", "requires": ("matplotlib",), **how}


def _numpy_100(exercise, **how):
    return {"name": f"numpy100_{exercise:03d}", "source": "numpy-100",
            "path": "100_Numpy_exercises_with_solutions.md", "exercise": exercise, **how}


PROGRAMS = [
    # Print the numpy version and the configuration
    _numpy_100(2),
    # Create a null vector of size 10
    _numpy_100(3),
    # How to find the memory size of any array
    _numpy_100(4),
    # Create a null vector of size 10 but the fifth value which is 1
    _numpy_100(6),
    # Create a vector with values ranging from 10 to 49
    _numpy_100(7),
    # Reverse a vector (first element becomes last)
    _numpy_100(8),
    # Create a 3x3 matrix with values ranging from 0 to 8
    _numpy_100(9),
    # Find indices of non-zero elements from [1,2,0,0,4,0]
    _numpy_100(10),
    # Create a 3x3 identity matrix
    _numpy_100(11),
    # Create a 3x3x3 array with random values
    _numpy_100(12, compare="shapes"),
    # Create a 10x10 array with random values and find the minimum and ma...
    _numpy_100(13, compare="shapes"),
    # Create a random vector of size 30 and find the mean value
    _numpy_100(14, compare="shapes"),
    # Create a 2d array with 1 on the border and 0 inside
    _numpy_100(15),
    # How to add a border (filled with 0's) around an existing array?
    _numpy_100(16),
    # What is the result of the following expression?
    _numpy_100(17, compare="printed"),
    # Create a 5x5 matrix with values 1,2,3,4 just below the diagonal
    _numpy_100(18),
    # Create a 8x8 matrix and fill it with a checkerboard pattern
    _numpy_100(19),
    # Create a checkerboard 8x8 matrix using the tile function
    _numpy_100(21),
    # Normalize a 5x5 random matrix
    _numpy_100(22, compare="shapes"),
    # Create a custom dtype that describes a color as four unsigned bytes...
    _numpy_100(23),
    # Multiply a 5x3 matrix by a 3x2 matrix (real matrix product)
    _numpy_100(24),
    # Given a 1D array, negate all elements which are between 3 and 8, in...
    _numpy_100(25),
    # What is the output of the following script?
    _numpy_100(26, compare="printed"),
    # What are the result of the following expressions?
    _numpy_100(28, compare="printed"),
    # How to round away from zero a float array ?
    _numpy_100(29, compare="shapes"),
    # How to find common values between two arrays?
    _numpy_100(30, compare="shapes"),
    # How to ignore all numpy warnings (not recommended)?
    _numpy_100(31),
    # Is the following expressions true?
    _numpy_100(32),
    # How to compute ((A+B)*(-A/2)) in place (without copy)?
    _numpy_100(35),
    # Extract the integer part of a random array of positive numbers usin...
    _numpy_100(36, compare="shapes"),
    # Create a 5x5 matrix with row values ranging from 0 to 4
    _numpy_100(37),
    # Consider a generator function that generates 10 integers and use it...
    _numpy_100(38),
    # Create a vector of size 10 with values ranging from 0 to 1, both ex...
    _numpy_100(39),
    # Create a random vector of size 10 and sort it
    _numpy_100(40, compare="shapes"),
    # How to sum a small array faster than np.sum?
    _numpy_100(41),
    # Consider two random arrays A and B, check if they are equal
    _numpy_100(42, compare="shapes"),
    # Consider a random 10x2 matrix representing cartesian coordinates, c...
    _numpy_100(44, compare="shapes"),
    # Create random vector of size 10 and replace the maximum value by 0
    _numpy_100(45, compare="shapes"),
    # Create a structured array with `x` and `y` coordinates covering the [0,1]x[0,1] area
    _numpy_100(46),
    # Given two arrays, X and Y, construct the Cauchy matrix C (Cij =1/(x...
    _numpy_100(47),
    # How to print all the values of an array?
    _numpy_100(49),
    # How to find the closest value (to a given scalar) in a vector?
    _numpy_100(50, compare="shapes"),
    # Create a structured array representing a position (x,y) and a color (r,g,b)
    _numpy_100(51),
    # How to convert a float (32 bits) array into an integer (32 bits) ar...
    _numpy_100(53, compare="shapes"),
    # How to read the following file? (genfromtxt of a StringIO with missing values)
    _numpy_100(54),
    # What is the equivalent of enumerate for numpy arrays?
    _numpy_100(55),
    # Generate a generic 2D Gaussian-like array
    _numpy_100(56),
    # How to randomly place p elements in a 2D array?
    _numpy_100(57, compare="shapes"),
    # Subtract the mean of each row of a matrix
    _numpy_100(58, compare="shapes"),
    # How to sort an array by the nth column?
    _numpy_100(59, compare="shapes"),
    # How to tell if a given 2D array has null columns?
    _numpy_100(60),
    # Find the nearest value from a given value in an array
    _numpy_100(61, compare="shapes"),
    # Considering two arrays with shape (1,3) and (3,1), how to compute t...
    _numpy_100(62),
    # Consider a given vector, how to add 1 to each element indexed by a...
    _numpy_100(64, compare="shapes"),
    # How to accumulate elements of a vector (X) to an array (F) based on...
    _numpy_100(65),
    # Considering a (w,h,3) image of (dtype=ubyte), compute the number of...
    _numpy_100(66, compare="shapes"),
    # Considering a four dimensions array, how to get sum over the last t...
    _numpy_100(67, compare="shapes"),
    # How to get the diagonal of a dot product?
    _numpy_100(69, compare="shapes"),
    # Consider the vector [1, 2, 3, 4, 5], how to build a new vector with...
    _numpy_100(70),
    # Consider an array of dimension (5,5,3), how to multiply it by an ar...
    _numpy_100(71),
    # How to swap two rows of an array?
    _numpy_100(72),
    # Consider a set of 10 triplets describing 10 triangles (with shared...
    _numpy_100(73, draws="numpy"),
    # Given a sorted array C that corresponds to a bincount, how to produ...
    _numpy_100(74),
    # How to compute averages using a sliding window over an array?
    _numpy_100(75),
    # A 2-D array of rolling windows (as_strided, then sliding_window_view from 75)
    _numpy_100(76, after=(75,)),
    # How to negate a boolean, or to change the sign of a float inplace?
    _numpy_100(77, compare="shapes"),
    # Consider 2 sets of points P0,P1 describing lines (2d) and a point p...
    _numpy_100(78, compare="shapes"),
    # Consider an arbitrary array, write a function that extracts a subpa...
    _numpy_100(80, compare="shapes"),
    # Z = [1..14] -> R = [[1,2,3,4], [2,3,4,5], ...] (stride_tricks from 76, as 75's view)
    _numpy_100(81, after=(75, 76)),
    # Compute a matrix rank
    _numpy_100(82, compare="shapes"),
    # How to find the most frequent value in an array?
    _numpy_100(83, compare="shapes"),
    # Extract all the contiguous 3x3 blocks from a random 10x10 matrix
    _numpy_100(84, after=(75, 76), compare="shapes"),
    # Consider a set of p matrices with shape (n,n) and a set of p vector...
    _numpy_100(86),
    # Consider a 16x16 array, how to get the block-sum (block size is 4x4)?
    _numpy_100(87),
    # How to implement the Game of Life using numpy arrays?
    _numpy_100(88, compare="shapes"),
    # How to get the n largest values of an array
    _numpy_100(89, compare="shapes"),
    # Given an arbitrary number of vectors, build the cartesian product (...
    _numpy_100(90, compare="printed"),
    # Considering a 10x3 matrix, extract rows with unequal values (e.g. [...
    _numpy_100(94, compare="shapes"),
    # Convert a vector of ints into a matrix binary representation
    _numpy_100(95),
    # Given a two dimensional array, how to extract unique rows?
    _numpy_100(96, draws="numpy"),
    # Considering 2 vectors A & B, write the einsum equivalent of inner,...
    _numpy_100(97, compare="shapes"),
    # Considering a path described by two vectors (X,Y), how to sample it...
    _numpy_100(98),
    # Given an integer n and a 2D array X, select from X the rows which c...
    _numpy_100(99),
    # Compute bootstrapped 95% confidence intervals for the mean of a 1D...
    _numpy_100(100, compare="shapes"),
    # CuPy's examples (GPU only; each checks itself against its NumPy run or just runs)
    _cupy("examples/finance/black_scholes.py", argv=("--n-options", "100000")),
    _cupy("examples/finance/monte_carlo.py",
          argv=("--n-options", "100", "--n-threads-per-option", "1000",
                "--n-samples-per-thread", "100")),
    _cupy("examples/kmeans/kmeans.py", argv=("--num", "20000"), requires=("matplotlib",)),
    _cupy("examples/kmeans/kmeans.py", name="cupy_kmeans_custom_kernel",
          argv=("--num", "20000", "--use-custom-kernel"), requires=("matplotlib",)),
    _cupy("examples/gmm/gmm.py", argv=("--num", "20000"), requires=("matplotlib", "scipy")),
    _cupy("examples/stream/cublas.py"),
    _cupy("examples/stream/cufft.py"),
    _cupy("examples/stream/cupy_event.py"),
    _cupy("examples/stream/cupy_kernel.py"),
    _cupy("examples/stream/cupy_memcpy.py"),
    _cupy("examples/stream/curand.py"),
    _cupy("examples/stream/cusolver.py"),
    _cupy("examples/stream/map_reduce.py"),
    _cupy("examples/stream/thrust.py"),
    # NumPy's tutorials
    _tutorial("mooreslaw-tutorial"),
    _tutorial("save-load-arrays", requires=()),
    _tutorial("tutorial-static_equilibrium"),
    _tutorial("tutorial-plotting-fractals"),
]

SOURCES.update(LOOP_SOURCES)
PROGRAMS += LOOP_PROGRAMS
SOURCES.update(NPBENCH_SOURCES)
PROGRAMS += NPBENCH_PROGRAMS
SOURCES.update(LESSON_SOURCES)
PROGRAMS += LESSON_PROGRAMS
