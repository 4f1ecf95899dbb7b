"""The disk cache of compiled kernels under stress: processes compiling the same new kernels at
once, corrupted and truncated entries, a cache directory that cannot be written or fills up,
and entries written by another accelpy version. Nothing crashes, nothing wrong is loaded: a
bad entry is a miss (and is rewritten), a cache that cannot be written only costs recompiles.

Users' kernels on the CPU go through the same cache code as NVRTC's (src/util/disk_cache.cpp;
tests/cpp/util/disk_cache_test.cpp drives that class directly), so these run without a GPU; each
probe is a subprocess with a timeout."""

import os
import shutil
import struct
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(
    not any(shutil.which(c) for c in ("c++", "g++", "clang++")), reason="no C++ compiler")

# Compiles kernels named by argv[2] (distinct names are distinct cache entries), runs them on
# fresh data, checks the results and prints how many came from the disk.
PROBE = textwrap.dedent(r"""
    import resource, signal, sys
    import numpy as np, accelpy as ap
    cache, tag = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3:  # a "full disk": writes past this many bytes fail (EFBIG)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[3]), resource.RLIM_INFINITY))
    rng = np.random.default_rng()
    for i in range(2):
        name = f"scale_{tag}_{i}"
        code = ('extern "C" __global__ void ' + name + '(const float* a, float* c, int n) {'
                ' int j = blockIdx.x * blockDim.x + threadIdx.x;'
                f' if (j < n) c[j] = a[j] * {i + 2}.0f + 1.0f; }}')
        k = ap.RawKernel(code, name, cache_dir=cache)
        a = rng.standard_normal(1000).astype(np.float32)
        c = ap.zeros(1000, dtype=np.float32, device="cpu")
        k((4,), (256,), (ap.asarray(a, device="cpu"), c, np.int32(1000)))
        # (the compiler may contract a * k + 1 into one fma: rounding differs by an ulp)
        assert np.allclose(ap.asnumpy(c), a * np.float32(i + 2) + 1, rtol=1e-6, atol=1e-6), name
    print("ok", ap.cuda.kernel_cache_stats()["disk_hits"])
""")


def probe(cache, tag="k", fsize=None, check=True, cxx=None):
    args = [sys.executable, "-c", PROBE, str(cache), tag] + ([str(fsize)] if fsize else [])
    env = dict(os.environ, ACCELPY_DEFAULT_DEVICE="cpu", **({"CXX": cxx} if cxx else {}))
    r = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if not check:
        return r
    out, err = r.communicate(timeout=300)
    assert r.returncode == 0, (r.returncode, out, err[-3000:])
    words = out.split()
    assert words[0] == "ok", out
    return int(words[1])


def entries(cache):
    d = os.path.join(cache, "kernels")
    return sorted(os.path.join(d, f) for f in os.listdir(d)) if os.path.isdir(d) else []


def test_concurrent_processes_compile_the_same_new_kernels(tmp_path):
    procs = [probe(tmp_path, "race", check=False) for _ in range(4)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0 and out.split()[0] == "ok", (out, err[-3000:])
    files = entries(tmp_path)
    assert len(files) == 2 and all(f.endswith(".bin") for f in files)  # no temporaries left
    assert probe(tmp_path, "race") == 2  # the survivors are whole


@pytest.mark.parametrize("damage", ["flip_image", "flip_key", "truncate", "empty", "garbage",
                                    "huge_lengths"])
def test_a_damaged_entry_is_a_miss_and_is_rewritten(tmp_path, damage):
    assert probe(tmp_path, "dmg") == 0
    files = entries(tmp_path)
    assert len(files) == 2
    for f in files:
        data = bytearray(open(f, "rb").read())
        if damage == "flip_image":
            data[-10] ^= 0xFF
        elif damage == "flip_key":
            data[40] ^= 0x01
        elif damage == "truncate":
            data = data[:len(data) // 2]
        elif damage == "empty":
            data = bytearray()
        elif damage == "garbage":
            data = bytearray(os.urandom(len(data)))
        else:  # lengths that overflow when added: must not be read past the file
            data[16:32] = struct.pack("<QQ", struct.unpack_from("<Q", data, 16)[0], 2**64 - 40)
        open(f, "wb").write(bytes(data))
    assert probe(tmp_path, "dmg") == 0  # recompiled, not loaded
    assert probe(tmp_path, "dmg") == 2  # and rewritten whole


def test_a_cache_directory_that_cannot_be_created_costs_only_recompiles(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    cache = blocker / "cache"  # mkdir fails (ENOTDIR) even for root
    assert probe(cache, "ro") == 0
    assert probe(cache, "ro") == 0


def test_a_read_only_cache_directory_serves_what_it_has(tmp_path):
    assert probe(tmp_path, "rd") == 0
    kernels = tmp_path / "kernels"
    os.chmod(kernels, 0o500)
    try:
        assert probe(tmp_path, "rd") == 2
        assert probe(tmp_path, "rd_other") == 0  # new kernels compile; storing them may fail
    finally:
        os.chmod(kernels, 0o700)


def test_a_full_disk_leaves_no_partial_entry(tmp_path):
    # Writes past a size limit fail as on a full disk (RLIMIT_FSIZE): the limit lets the probe
    # write the kernel's source file (the key text holds it) but not a cache entry (key and
    # shared object). The compiler, its child, lifts the limit (the hard limit is unlimited).
    cxx = tmp_path / "cxx"
    compiler = next(shutil.which(c) for c in ("c++", "g++", "clang++") if shutil.which(c))
    cxx.write_text(f'#!/bin/sh\nulimit -f unlimited\nexec "{compiler}" "$@"\n')
    cxx.chmod(0o755)
    sizing = tmp_path / "sizing"
    assert probe(sizing, "full", cxx=str(cxx)) == 0
    key_len = max(struct.unpack_from("<Q", open(f, "rb").read(), 16)[0] for f in entries(sizing))
    cache = tmp_path / "cache"
    assert probe(cache, "full", fsize=key_len + 512, cxx=str(cxx)) == 0
    assert not [f for f in entries(cache) if ".tmp." in f]  # partial files removed
    assert probe(cache, "full", cxx=str(cxx)) == 0  # nothing half-written was loaded
    assert probe(cache, "full", cxx=str(cxx)) == 2


def test_entries_of_another_cache_format_are_never_loaded(tmp_path):
    assert probe(tmp_path, "ver") == 0
    for f in entries(tmp_path):
        data = bytearray(open(f, "rb").read())
        data[8:12] = struct.pack("<I", 99)  # a future format at the same name
        open(f, "wb").write(bytes(data))
    assert probe(tmp_path, "ver") == 0
    assert probe(tmp_path, "ver") == 2


def fnv1a(data, seed=0xcbf29ce484222325):
    h = seed
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def test_a_directory_shared_with_another_accelpy_version(tmp_path):
    """Entries whose key names another library version (whole and checksummed, as that version
    writes them) are not loaded, whether at their own names or at this version's, and stay."""
    assert probe(tmp_path, "shared") == 0
    others = []
    for f in entries(tmp_path):
        data = open(f, "rb").read()
        key_len, image_len = struct.unpack_from("<QQ", data, 16)
        key, image = data[40:40 + key_len], data[40 + key_len:]
        version, _, rest = key.partition(b"\n")
        assert version.startswith(b"accelpy ") and len(image) == image_len
        other_key = b"accelpy 0.0.0-other\n" + rest
        header = data[:16] + struct.pack("<QQQ", len(other_key), image_len,
                                         fnv1a(image, fnv1a(other_key)))
        entry = header + other_key + image
        a = fnv1a(other_key)
        b = fnv1a(other_key, a ^ 0x9e3779b97f4a7c15)
        own_name = os.path.join(os.path.dirname(f), f"{a:016x}{b:016x}.bin")
        open(own_name, "wb").write(entry)
        others.append(own_name)
        open(f, "wb").write(entry)  # and at this version's name
    assert probe(tmp_path, "shared") == 0  # the other version's images are never loaded
    assert probe(tmp_path, "shared") == 2  # this version's were rewritten beside them
    assert all(os.path.exists(f) for f in others) and len(entries(tmp_path)) == 4
