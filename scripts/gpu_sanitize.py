"""compute-sanitizer over the seed programs and a slice of the pytest suite on cuda: the
`sanitize` phase of scripts/gpu-check (run there as `scripts/gpu-check build sanitize`).

Each tool (memcheck, racecheck, initcheck, synccheck) runs over each seed program and each test
file of its slice, one compute-sanitizer process per pair, several at once. API errors count
(`--report-api-errors`, explicit by default: what a user sees who runs the tool with its
defaults). Tests marked `faults_device` make a driver call fail or the device fault on purpose:
they are left out here and run apart, without the sanitizer. Prints one line per tool: its
error count, the kinds of report and the API calls that failed, the runs that timed out or
whose tests failed; the logs of every run go to --out. Not counted, and listed apart: reports
of other libraries in the process (no accelpy frame), and initcheck's reads of unwritten memory
inside cuSOLVER, cuBLAS or cuFFT (their workspace). Exit status 0 only when every tool
reported 0 errors, every run finished, and every test passed. `--files` (ACCELPY_SANITIZE_FILES)
also takes test ids: test_linalg.py::test_eig, or `all`: every test file of tests/python, for
every tool. The whole suite under four tools outlasts one 10-minute GPU call, so `--shard K/N`
(ACCELPY_SANITIZE_SHARD) takes the K-th of N slices of the runs (by file name, the same slices on
every machine): N calls cover the suite.

racecheck and synccheck check shared memory and barriers, so they run over the files whose
kernels have them (users' kernels, row reductions and softmax, reductions, sorting) and the
seeds; memcheck and initcheck run over the whole slice.
"""

import argparse
import collections
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "tests", "python")
SEEDS = os.path.join(ROOT, "examples", "seed")

# Shared memory and barriers: users' kernels, row groups (softmax, layer norm), reductions, CUB.
SHARED = [
    "test_raw_kernels.py",
    "test_kernel_gen.py",
    "test_kernel_half.py",
    "test_kernel_plain.py",
    "test_kernel_regions.py",
    "test_kernel_corpus.py",
    "test_driver.py",
    "test_fusion_rows.py",
    "test_reduction_paths.py",
    "test_reductions.py",
    "test_sorting.py",
]
# The rest of the slice: fusion, linear algebra, FFT, random, transfers and interop.
REST = [
    "test_fusion.py",
    "test_fusion_dags.py",
    "test_cumulative.py",
    "test_matmul.py",
    "test_linalg.py",
    "test_fft.py",
    "test_random.py",
    "test_cuda_runtime.py",
    "test_interop_dlpack.py",
    "test_interop_cuda.py",
    "test_advanced_indexing.py",
]
TOOLS = {
    "memcheck": SHARED + REST,
    "initcheck": SHARED + REST,
    "racecheck": SHARED,
    "synccheck": SHARED,
}
# The seed programs (examples/seed) and their arguments: fusion.py at a size memcheck runs
# in seconds.
SEED_ARGS = {"fusion.py": ["--n", "65536"]}

PREFIX = "========= "
SUMMARY = re.compile(r"ERROR SUMMARY: (\d+) error")
RACE_SUMMARY = re.compile(r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?, (\d+) warn")
API = re.compile(r"Program hit (\S+) .* on CUDA API call to (\w+)")
# pytest's last line: "== 3 passed, 1 failed, 2 skipped in 5.43s ==".
PYTEST = re.compile(r"^=* ?((?:\d+ \w+(?:, )?)+) in [\d.]+s", re.M)
PYTEST_COUNT = re.compile(r"(\d+) (passed|failed|skipped|error|errors)\b")


def run_one(sanitizer, tool, target, out_dir, deadline, api_errors, print_limit):
    """One compute-sanitizer process: `target` is a seed program or a test file."""
    # A test id ("test_linalg.py::test_eig") names its log without the colons.
    name = f"{tool}-{os.path.basename(target).removesuffix('.py')}".replace(".py::", "-")
    log = os.path.join(out_dir, name + ".txt")
    # --require-cuda-init no: a test file whose tests all ran on the cpu is not an error.
    cmd = [
        sanitizer,
        "--tool",
        tool,
        "--error-exitcode",
        "86",
        "--report-api-errors",
        api_errors,
        "--print-limit",
        str(print_limit),
        "--require-cuda-init",
        "no",
        sys.executable,
    ]
    if target.startswith(SEEDS):
        cmd += [target] + SEED_ARGS.get(os.path.basename(target), [])
    else:
        cmd += [
            "-m",
            "pytest",
            "-q",
            "--tb=short",
            "-p",
            "no:cacheprovider",
            "-m",
            "not faults_device and not serial and not slow",
            target,
        ]
    env = dict(os.environ, ACCELPY_TEST_DEVICES="cuda")
    left = deadline - time.monotonic()
    t0 = time.monotonic()
    if left < 5:
        return dict(name=name, tool=tool, skipped=True)
    # A session of its own, so that a run out of time ends with its children (pytest's, the
    # compile worker) rather than leaving them on the GPU.
    p = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        text, _ = p.communicate(timeout=left)
        code, timed_out = p.returncode, False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        text, _ = p.communicate()
        code, timed_out = None, True
    with open(log, "w") as f:
        f.write(" ".join(cmd) + "\n" + text)
    return dict(
        name=name,
        tool=tool,
        text=text,
        code=code,
        timed_out=timed_out,
        seconds=time.monotonic() - t0,
        skipped=False,
    )


# Host frames of accelpy's own code: a report whose backtrace has none of these, and has a
# frame of another library loaded in the same process (the interop tests load PyTorch, CuPy,
# JAX, Numba), is that library's (its own probes of the driver, its own kernels), not accelpy's.
OURS = ("_core.", "libaccel_cub", "accel_compile_worker", "examples/seed")
# The vendor libraries accelpy calls (cuSOLVER, cuBLAS and cuBLASLt, cuFFT), and the driver and
# runtime frames that may sit below them in a backtrace.
VENDOR = ("libcusolver", "libcublas", "libcufft")
DRIVER = ("libcuda.so", "libcudart")
FRAME_LIB = re.compile(r"Host Frame:.* in (\S+)\s*$")
# An accelpy kernel's name ends with the hash of its structure: one kind per kernel family.
OWN_KERNEL_HASH = re.compile(r"^(accel_\w+?)_[0-9a-f]{16}$")


def reports(text):
    """Each report of the tool's output: its lines, the first one naming it."""
    block = None
    for line in text.splitlines():
        start = line.find(PREFIX.rstrip())
        if start < 0:
            continue
        line = line[start:]  # pytest's progress dots may precede the tool's prefix on a line
        body = line[len(PREFIX) :] if line.startswith(PREFIX) else ""
        if body and not body.startswith(" "):
            if block:
                yield block
            block = [body.strip()]
        elif block is not None and body.strip():
            block.append(body)
    if block:
        yield block


def kernel_name(line):
    """The device function a report's "at ..." line names, without its return type, parameters
    and offset; template arguments kept ("at void f<(long)512, float2>(T1 *)+0xa0" names
    "f<(long)512, float2>"). None when the line is not an "at" line."""
    m = re.match(r"\s+at (?:0x[0-9a-f]+ in )?(.*)", line)
    if not m:
        return None
    text = re.sub(r"^(?:(?:static|void|__global__|__device__)\s+)+", "", m.group(1))
    name, depth = "", 0
    for ch in text:
        if depth == 0 and ch in "(+ ":
            break
        depth += (ch == "<") - (ch == ">")
        name += ch
    own = OWN_KERNEL_HASH.match(name)
    return own.group(1) if own else name or None


def attribution(block):
    """'ours'; 'peer' when only another library's frames are in the report's backtrace;
    'vendor' for initcheck's report of uninitialized memory read by a kernel that a vendor
    library launched, or copied by a copy it made (the innermost frame below the driver's is
    the library's). accelpy hands those libraries only arrays it has written in full (the
    column-major copies, evaluated operands; docs/decisions D96), so what they read unwritten
    is their own workspace or their outputs, not an accelpy input."""
    frames = [line for line in block[1:] if "Host Frame" in line or " in /" in line]
    if not frames:
        return "ours"
    libs = [m.group(1) for m in map(FRAME_LIB.search, frames) if m]
    inner = next((lib for lib in libs if not any(d in lib for d in DRIVER)), "")
    uninitialized = block[0].startswith("Uninitialized") or any(
        line.lstrip().startswith("Uninitialized access") for line in block[1:3]
    )
    if uninitialized and any(v in inner for v in VENDOR):
        return "vendor"
    if any(o in line for line in frames for o in OURS):
        return "ours"
    return "peer"


Tally = collections.namedtuple("Tally", "errors warnings kinds calls tests peers vendor unprinted")


def tally(result):
    """Errors, report kinds, failed API calls, pytest counts, other libraries' reports and the
    vendor libraries' own of one run's output. A kind names the kernel (device reports) or the
    call (API reports). `unprinted`: errors the tool counted past its print limit, which stay
    counted as accelpy's (nothing says whose they are)."""
    text = result.get("text", "")
    errors = sum(int(m) for m in SUMMARY.findall(text))
    race = RACE_SUMMARY.findall(text)
    if race:  # racecheck's own summary; its hazards are also errors or warnings
        errors = max(errors, sum(int(e) for e, _ in race))
    warnings = sum(int(w) for _, w in race)
    kinds, calls, peers = collections.Counter(), collections.Counter(), collections.Counter()
    vendor = collections.Counter()
    printed = 0
    for block in reports(text):
        body = block[0]
        if (
            SUMMARY.search(body)
            or RACE_SUMMARY.search(body)
            or body.startswith(("COMPUTE-SANITIZER", "Target application returned"))
        ):
            continue
        printed += 1
        api = API.search(body)
        kernel = next((k for k in map(kernel_name, block[1:3]) if k), "")
        if not kernel and body.startswith("Host API"):
            # A host access: named by what made it ("cudaMemcpy source").
            by = [m for m in (re.search(r"on access by (.+)$", x) for x in block[1:3]) if m]
            kernel = by[0].group(1).strip() if by else ""
        what = (
            f"{api.group(2)}:{api.group(1)}" if api else re.sub(r"0x[0-9a-f]+|\d+", "N", body)[:70]
        )
        who = attribution(block)
        if who == "peer":
            peers[what + (f" in {kernel[:50]}" if kernel else "")] += 1
            errors -= 1
        elif who == "vendor":
            vendor[what + (f" in {kernel[:70]}" if kernel else "")] += 1
            errors -= 1
        elif api:
            calls[what] += 1
        else:
            kinds[what + (f" in {kernel[:70]}" if kernel else "")] += 1
    unprinted = max(sum(int(m) for m in SUMMARY.findall(text)) - printed, 0) if not race else 0
    tests = collections.Counter()
    for counts in PYTEST.findall(text):
        for n, what in PYTEST_COUNT.findall(counts):
            tests["failed" if what.startswith(("failed", "error")) else what] += int(n)
    return Tally(max(errors, 0), warnings, kinds, calls, tests, peers, vendor, unprinted)


def plan(tools, files, seeds, shard="1/1"):
    """The (tool, target) runs: each tool over the seeds and its files (`files`: "" for the
    tool's slice, "all" for every test file, else comma-separated names), then the K-th of N
    slices ("K/N") of them, round robin over a fixed order so that each slice gets a like share
    of every tool and file."""
    k, n = (int(v) for v in shard.split("/"))
    if not 1 <= k <= n:
        raise ValueError(f"--shard {shard}: want K/N with 1 <= K <= N")
    every_file = sorted(f for f in os.listdir(TESTS) if f.startswith("test_") and f.endswith(".py"))
    jobs = []
    for tool in tools:
        chosen = every_file if files == "all" else files.split(",") if files else TOOLS[tool]
        jobs += [(tool, s) for s in seeds]
        jobs += [(tool, os.path.join(TESTS, f)) for f in chosen]
    return sorted(jobs)[k - 1 :: n]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sanitizer", required=True, help="the compute-sanitizer executable")
    ap.add_argument("--out", required=True, help="directory for each run's log")
    ap.add_argument("--seconds", type=float, default=480, help="wall time for the whole phase")
    ap.add_argument(
        "--jobs",
        type=int,
        default=int(os.environ.get("ACCELPY_SANITIZE_JOBS", min(os.cpu_count() or 8, 16))),
    )
    ap.add_argument("--tools", default=os.environ.get("ACCELPY_SANITIZE_TOOLS", ",".join(TOOLS)))
    ap.add_argument(
        "--files",
        default=os.environ.get("ACCELPY_SANITIZE_FILES", ""),
        help="comma-separated test files instead of each tool's slice, or 'all'",
    )
    ap.add_argument(
        "--shard",
        default=os.environ.get("ACCELPY_SANITIZE_SHARD", "1/1"),
        help="K/N: only the K-th of N slices of the runs (1-based)",
    )
    ap.add_argument(
        "--api-errors",
        default=os.environ.get("ACCELPY_SANITIZE_API_ERRORS", "explicit"),
        choices=["explicit", "all", "no"],
    )
    # Reports printed per run; the tool counts the rest without saying whose they are. cuSOLVER's
    # eig reads unwritten workspace, one report per thread: up to 11,514 in a run of test_eig
    # (docs/decisions D96), whose remainder past the limit would count as accelpy's.
    ap.add_argument(
        "--print-limit",
        type=int,
        default=int(os.environ.get("ACCELPY_SANITIZE_PRINT_LIMIT", 30000)),
    )
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    deadline = time.monotonic() + args.seconds
    seeds = sorted(os.path.join(SEEDS, f) for f in os.listdir(SEEDS) if f.endswith(".py"))
    try:
        jobs = plan(args.tools.split(","), args.files, seeds, args.shard)
    except ValueError as e:
        ap.error(str(e))
    # Test files before the short seed runs, which fill the end; racecheck's first, since it
    # follows every shared-memory access (the slowest tool where kernels use shared memory).
    jobs.sort(key=lambda j: (j[1].startswith(SEEDS), j[0] != "racecheck"))
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(
            pool.map(
                lambda j: run_one(
                    args.sanitizer,
                    j[0],
                    j[1],
                    args.out,
                    deadline,
                    args.api_errors,
                    args.print_limit,
                ),
                jobs,
            )
        )
    ok = True
    for tool in args.tools.split(","):
        runs = [r for r in results if r["tool"] == tool]
        done = [r for r in runs if not r["skipped"]]
        errors = warnings = unprinted = 0
        kinds, calls, tests = collections.Counter(), collections.Counter(), collections.Counter()
        peers, vendor = collections.Counter(), collections.Counter()
        bad_runs = []
        for r in done:
            e, w, k, c, t, o, v, u = tally(r)
            errors, warnings, unprinted = errors + e, warnings + w, unprinted + u
            kinds.update(k)
            calls.update(c)
            tests.update(t)
            peers.update(o)
            vendor.update(v)
            # pytest's 5: nothing collected (a file whose tests are all faults_device or cpu).
            if r["timed_out"] or e or t["failed"] or r["code"] not in (0, 5, 86):
                bad_runs.append(r["name"] + (" (timed out)" if r["timed_out"] else ""))
        timed_out = sum(r["timed_out"] for r in done)
        skipped = len(runs) - len(done)
        line = (
            f"sanitize {tool}: {errors} errors"
            + (f", {warnings} warnings" if warnings else "")
            + f" ({len(done)} runs, {sum(r['seconds'] for r in done):.0f} s; "
            + f"tests {tests['passed']} passed, {tests['failed']} failed, "
            + f"{tests['skipped']} skipped"
            + (f"; {timed_out} timed out" if timed_out else "")
            + (f"; {skipped} not started (out of time)" if skipped else "")
            + ")"
        )
        print(line)
        if calls:
            print("  failed API calls: " + ", ".join(f"{c} x{n}" for c, n in calls.most_common()))
        for kind, n in kinds.most_common(8):
            print(f"  {n} x {kind}")
        if peers:
            print(
                "  not counted, other libraries' own (no accelpy frame in the backtrace): "
                + ", ".join(f"{k} x{n}" for k, n in peers.most_common(4))
            )
        if vendor:
            print(
                "  not counted, the vendor libraries' own (uninitialized memory read inside "
                "cuSOLVER, cuBLAS or cuFFT, not an accelpy input): "
                + ", ".join(f"{k} x{n}" for k, n in vendor.most_common(4))
            )
        if unprinted:
            print(
                f"  {unprinted} errors past the print limit, counted: see whose with a larger "
                "--print-limit"
            )
        if bad_runs:
            print("  see " + ", ".join(bad_runs[:12]) + (" ..." if len(bad_runs) > 12 else ""))
        ok = ok and errors == 0 and not bad_runs and not skipped
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
