"""``python -m accelpy bench``: accelpy beside the array libraries installed here, on every
device present, with a progress bar; prints a ratio table and writes JSON and a PNG chart.

Peers: NumPy and numexpr on the CPU, PyTorch on the CPU and the GPU, CuPy on the GPU (each
when installed). Every case is the same expression in each library, checked against NumPy
before it is timed; a figure is the median of repeated runs after warm-up, each run ending
when the result exists (accelpy evaluates its deferred result; GPU libraries synchronize).
The repository's bench/cpu.py and bench/gpu.py are the detailed benchmarks with targets.

    python -m accelpy bench [--quick] [--devices cpu,cuda] [--out DIR]
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

import numpy as np


class Library:
    """One array library on one device: how to make its arrays, evaluate and synchronize."""

    def __init__(self, name, xp, device, asarray, finish, sync=lambda: None):
        self.name, self.xp, self.device = name, xp, device
        self.asarray, self.finish, self.sync = asarray, finish, sync


def _libraries(device):
    """accelpy and the peers present for `device` ("cpu" or "cuda")."""
    import accelpy as ap

    libs = []
    if device == "cpu":
        libs.append(Library("accelpy", ap, "cpu", lambda a: ap.asarray(a, device="cpu"), ap.eval))
        libs.append(Library("numpy", np, "cpu", np.asarray, lambda r: r))
    else:
        libs.append(Library("accelpy", ap, "cuda", lambda a: ap.asarray(a, device="cuda"),
                            ap.eval, ap.cuda.synchronize))
    try:
        import torch

        if device == "cpu" or torch.cuda.is_available():
            dev = "cuda" if device == "cuda" else "cpu"
            to_torch = lambda a, dev=dev: torch.from_numpy(np.ascontiguousarray(a)).to(dev)  # noqa: E731
            libs.append(Library("torch", torch, dev, to_torch, lambda r: r,
                                torch.cuda.synchronize if dev == "cuda" else lambda: None))
    except ImportError:
        pass
    if device == "cuda":
        try:
            import cupy

            libs.append(Library("cupy", cupy, "cuda", cupy.asarray, lambda r: r,
                                cupy.cuda.runtime.deviceSynchronize))
        except ImportError:
            pass
    return libs


def _cases(n):
    """(name, bytes moved, fn(xp, arrays) -> result, numexpr expression or None)."""
    side = int(np.sqrt(n))
    return [
        ("add", 3 * 4 * n, lambda xp, v: v["a"] + v["b"], "a + b"),
        ("a*b + c*d - e", 6 * 4 * n, lambda xp, v: v["a"] * v["b"] + v["c"] * v["d"] - v["e"],
         "a*b + c*d - e"),
        ("sqrt(a*a+b*b)*sin(a)+exp(-b)", 3 * 4 * n,
         lambda xp, v: xp.sqrt(v["a"] * v["a"] + v["b"] * v["b"]) * xp.sin(v["a"])
         + xp.exp(-v["b"]), "sqrt(a*a + b*b)*sin(a) + exp(-b)"),
        ("sum", 4 * n, lambda xp, v: v["a"].sum(), "sum(a)"),
        ("((a-b)**2).sum()", 2 * 4 * n, lambda xp, v: ((v["a"] - v["b"]) ** 2).sum(),
         "sum((a - b)**2)"),
        (f"sum(axis=0) {side}x{side}", 4 * side * side, lambda xp, v: v["m"].sum(axis=0), None),
        ("1-element add (dispatch)", 0, lambda xp, v: v["one"] + v["one"], None),
    ]


def _median_seconds(run, sync, repeat, inner):
    import accelpy as ap

    for _ in range(3):
        run()
    sync()
    ap.cuda.wait_for_optimized_kernels()  # new kernels first run from a quick build
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(inner):
            run()
        sync()
        samples.append((time.perf_counter() - t0) / inner)
    return statistics.median(samples)


class Progress:
    """A one-line progress bar on stderr (plain lines when stderr is not a terminal)."""

    def __init__(self, total, stream=sys.stderr, width=30):
        self.total, self.done, self.stream, self.width = total, 0, stream, width
        self.tty = hasattr(stream, "isatty") and stream.isatty()

    def step(self, label):
        self.done += 1
        filled = self.width * self.done // max(self.total, 1)
        line = (f"[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} "
                f"{label}")
        if self.tty:
            self.stream.write("\r" + line[:100].ljust(100))
            if self.done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def _to_numpy(lib, r):
    if lib.name == "accelpy":
        import accelpy as ap

        return ap.asnumpy(r)
    if lib.name == "torch":
        return r.cpu().numpy()
    if lib.name == "cupy":
        return lib.xp.asnumpy(r)
    return np.asarray(r)


def run_suite(devices, n, repeat, progress_stream=sys.stderr):
    """Measures every case on every device; returns the result rows."""
    try:
        import numexpr
    except ImportError:
        numexpr = None
    rng = np.random.default_rng(0)
    side = int(np.sqrt(n))
    host = {k: rng.standard_normal(n, dtype=np.float32) for k in "abcde"}
    host["m"] = rng.standard_normal((side, side), dtype=np.float32)
    host["one"] = rng.standard_normal(1, dtype=np.float32)
    plan = [(d, _libraries(d)) for d in devices]
    cases = _cases(n)
    extra = len(cases) if numexpr is not None and "cpu" in devices else 0
    progress = Progress(sum(len(libs) for _, libs in plan) * len(cases) + extra,
                        progress_stream)
    rows = []
    for device, libs in plan:
        arrays = {lib.name: {k: lib.asarray(v) for k, v in host.items()} for lib in libs}
        for name, nbytes, fn, expr in cases:
            expected = fn(np, host)
            row = {"case": name, "device": device, "bytes": nbytes, "seconds": {}}
            inner = 2000 if nbytes == 0 else 1
            for lib in libs:
                v = arrays[lib.name]
                result = lib.finish(fn(lib.xp, v)) if lib.name != "accelpy" else fn(lib.xp, v)
                np.testing.assert_allclose(_to_numpy(lib, result), expected, rtol=2e-3,
                                           atol=2e-3 * np.sqrt(n))
                run = (lambda fn=fn, lib=lib, v=v: lib.finish(fn(lib.xp, v)))
                row["seconds"][lib.name] = _median_seconds(run, lib.sync, repeat, inner)
                progress.step(f"{device} {name}: {lib.name}")
            if device == "cpu" and numexpr is not None:
                if expr is not None:
                    env = dict(host)
                    row["seconds"]["numexpr"] = _median_seconds(
                        lambda expr=expr, env=env: numexpr.evaluate(expr, local_dict=env),
                        lambda: None, repeat, inner)
                progress.step(f"{device} {name}: numexpr")
            rows.append(row)
    return rows


def ratio_table(rows):
    """The table printed at the end: times, and each peer's time over accelpy's (> 1: accelpy
    is faster)."""
    peers = sorted({p for r in rows for p in r["seconds"] if p != "accelpy"})
    head = f"{'device':6} {'case':32} {'accelpy':>11}" + "".join(f" {p:>11}" for p in peers)
    head += "".join(f" {p + '/ap':>11}" for p in peers)
    lines = [head, "-" * len(head)]
    for r in rows:
        s = r["seconds"]
        unit, scale = ("us", 1e6) if r["bytes"] == 0 else ("ms", 1e3)

        def cell(t, unit=unit, scale=scale):
            return f"{t * scale:9.3f}{unit}" if t is not None else f"{'-':>11}"

        line = f"{r['device']:6} {r['case']:32} {cell(s['accelpy'])}"
        line += "".join(f" {cell(s.get(p))}" for p in peers)
        line += "".join(f" {s[p] / s['accelpy']:10.2f}x" if p in s else f" {'-':>11}"
                        for p in peers)
        lines.append(line)
    return "\n".join(lines)


def write_chart(rows, path):
    """A PNG with, per device, each case's time for accelpy beside each peer (log scale).
    Returns None, or why no chart was written."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install matplotlib) - no chart written"
    devices = list(dict.fromkeys(r["device"] for r in rows))
    fig, axes = plt.subplots(len(devices), 1, figsize=(11, 4.2 * len(devices)), squeeze=False)
    for ax, device in zip(axes[:, 0], devices, strict=True):
        sub = [r for r in rows if r["device"] == device]
        libs = list(dict.fromkeys(lib for r in sub for lib in r["seconds"]))
        width = 0.8 / len(libs)
        for i, lib in enumerate(libs):
            xs = [k + i * width for k, r in enumerate(sub) if lib in r["seconds"]]
            ys = [r["seconds"][lib] * 1e3 for r in sub if lib in r["seconds"]]
            bars = ax.bar(xs, ys, width, label=lib)
            for bar, r in zip(bars, [r for r in sub if lib in r["seconds"]], strict=True):
                if lib != "accelpy":
                    ratio = r["seconds"][lib] / r["seconds"]["accelpy"]
                    ax.annotate(f"{ratio:.2g}x", (bar.get_x() + bar.get_width() / 2,
                                                  bar.get_height()),
                                ha="center", va="bottom", fontsize=7)
        ax.set_yscale("log")
        ax.set_ylabel("milliseconds (lower is better)")
        ax.set_xticks([k + 0.4 - width / 2 for k in range(len(sub))])
        ax.set_xticklabels([r["case"] for r in sub], rotation=15, ha="right", fontsize=8)
        ax.set_title(f"{device}: accelpy beside each peer (labels: peer time / accelpy time)")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return None


def _versions(rows):
    import accelpy as ap

    out = {"accelpy": ap.__version__, "numpy": np.__version__,
           "python": platform.python_version()}
    for name in sorted({p for r in rows for p in r["seconds"]} - {"accelpy", "numpy"}):
        mod = sys.modules.get(name)
        out[name] = getattr(mod, "__version__", None)
    return out


def run(argv):
    import accelpy as ap

    parser = argparse.ArgumentParser(prog="python -m accelpy bench",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="small arrays and few repetitions (a smoke test)")
    parser.add_argument("--devices", help="comma-separated: cpu,cuda (default: all present)")
    parser.add_argument("--out", default=".",
                        help="directory for accelpy-bench.json and accelpy-bench.png")
    args = parser.parse_args(argv)
    present = ["cpu"] + (["cuda"] if ap.cuda.is_available() else [])
    devices = args.devices.split(",") if args.devices else present
    for d in devices:
        if d not in present:
            parser.error(f"device {d!r} is not available here (present: {', '.join(present)})")
    n = (1 << 16) if args.quick else (1 << 24)
    repeat = 3 if args.quick else 15
    rows = run_suite(devices, n, repeat)
    os.makedirs(args.out, exist_ok=True)
    result = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
              "host": platform.node(), "elements": n, "dtype": "float32",
              "devices": {d: _device_name(d) for d in devices},
              "versions": _versions(rows), "rows": rows}
    json_path = os.path.join(args.out, "accelpy-bench.json")
    with open(json_path, "w") as f:
        json.dump(result, f, indent=2)
    print()
    print(", ".join(f"{d}: {name}" for d, name in result["devices"].items())
          + f"; {n:,} float32 elements")
    print(ratio_table(rows))
    print(f"\nresults: {json_path}")
    png = os.path.join(args.out, "accelpy-bench.png")
    why = write_chart(rows, png)
    print(f"chart:   {png}" if why is None else f"chart:   {why}")
    return 0


def _device_name(device):
    if device == "cuda":
        from . import cuda

        return cuda.get_device_name(0)
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip() + f" ({os.cpu_count()} cores)"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()} ({os.cpu_count()} cores)"
