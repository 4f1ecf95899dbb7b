"""Ctrl-C during a host wait for the GPU, without a GPU.

A host read (float(x), asnumpy), synchronize() and an event's or stream's synchronize wait for
queued GPU work; a SIGINT must raise KeyboardInterrupt within half a second while the work goes
on, and the next wait covers what remained (src/cuda/driver/wait.cpp). The fake driver
(bench/fake_cuda_driver.c) with FAKE_CUDA_BUSY_MS keeps "the GPU" busy that long after each
kernel launch: its synchronizing calls sleep, and its stream writes land when the work is done.
Values are garbage there (no kernel runs); test_cuda_interrupt.py checks them on a GPU. No
driver call may fail (test_driver_api_errors.py): the fake driver is given a parameter list
(RAW_SIZES), without which it lacks cuFuncGetParamInfo, which accelpy asks for.
"""

import pytest
from test_cuda_host_path import RAW_SIZES, fake_driver, pytestmark, run_fake  # noqa: F401

COUNTERS = """
    import ctypes, os, signal, subprocess, sys, threading, time
    import numpy as np, accelpy as ap
    fake = ctypes.CDLL(os.environ["ACCELPY_CUDA_DRIVER"])

    def counter(name):
        return ctypes.c_ulonglong.in_dll(fake, name).value

    def failed_calls():
        return counter("fake_cuda_failed_calls"), ctypes.c_char_p(ctypes.addressof(
            ctypes.c_char.in_dll(fake, "fake_cuda_failed_log"))).value.decode()

    def stats():
        return ap.cuda._c._wait_stats()

    # Ctrl-C from another process, as a terminal's: a thread of ours would need the GIL, which
    # a host read keeps while it waits. Started here, before any work is queued (a loaded
    # machine takes seconds to start an interpreter): sigint_in(s) tells it to send SIGINT s
    # seconds later, and it prints when it sent it.
    _killer = subprocess.Popen([sys.executable, "-c", "import os, signal, sys, time; "
        "print('ready', flush=True); s = float(sys.stdin.readline()); time.sleep(s); "
        f"t = time.perf_counter(); os.kill({os.getpid()}, signal.SIGINT); print(t, flush=True)"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert _killer.stdout.readline() == "ready\\n"

    def sigint_in(seconds):
        _killer.stdin.write(f"{seconds}\\n")
        _killer.stdin.flush()
        return _killer

    signal.signal(signal.SIGINT, signal.default_int_handler)
    x = ap.asarray(np.ones(1000, dtype=np.float32))  # an upload: no kernel, nothing busy
"""

# Each waits for queued kernels (3 s of "work" each): a small read (through the pinned bounce
# buffer), a staged read (2 MiB), and waits that release the GIL.
WAITS = {
    "float": ("y = (x * 2.0 + 1.0).sum()", "float(y)"),
    "asnumpy_staged": ("y = ap.asarray(np.zeros(1 << 19, np.float32)) + x[0]", "ap.asnumpy(y)"),
    "synchronize": ("y = x * 2.0", "ap.cuda.synchronize()"),
    "stream": ("y = x * 2.0", "ap.cuda.get_current_stream().synchronize()"),
    "event": ("y = x * 2.0", "e = ap.cuda.Event(); e.record(); e.synchronize()"),
}


@pytest.mark.parametrize("kind", sorted(WAITS))
def test_sigint_interrupts_a_long_wait_and_the_next_wait_covers_the_rest(fake_driver, kind):  # noqa: F811
    queue, wait = WAITS[kind]
    out = run_fake(
        fake_driver,
        COUNTERS
        + f"""
    allocated = ap.cuda.memory_stats()["allocated_bytes"]
    {queue}
    ap.eval(y)  # queued: the fake GPU is busy from here
    queued = time.perf_counter()
    killer = sigint_in(0.3)
    try:
        {wait}
        print("finished", time.perf_counter() - queued)
    except KeyboardInterrupt:
        sent = float(killer.stdout.readline())
        print("interrupted", time.perf_counter() - sent, sent - queued)
    killer.wait()
    s = stats()
    assert s["interrupted"] == 1, s
    # The next wait is for what remained.
    start = time.perf_counter()
    {wait}
    print("rest", time.perf_counter() - start, time.perf_counter() - queued)
    del y
    ap.cuda.synchronize()
    print("allocated", ap.cuda.memory_stats()["allocated_bytes"] - allocated)
    print("failed", *failed_calls())
    """,
        RAW_SIZES,
        env={"FAKE_CUDA_BUSY_MS": "3000"},
    )
    lines = [line.split() for line in out.splitlines()]
    assert lines[0][0] == "interrupted", out
    assert float(lines[0][1]) < 0.5, out
    # The rest is what the 3 s of work had left when the signal came (on a loaded machine the
    # sender may wake late from its 0.3 s sleep).
    left = 3.0 - float(lines[0][2])
    assert lines[1][0] == "rest" and float(lines[1][1]) > left - 0.5, out
    assert float(lines[1][2]) > 2.9, out
    assert lines[2] == ["allocated", "0"], out
    assert lines[3] == ["failed", "0"], out


def test_the_library_works_after_an_interrupted_wait(fake_driver):  # noqa: F811 - the fixture
    out = run_fake(
        fake_driver,
        COUNTERS
        + """
    y = (x * 2.0).sum()
    ap.eval(y)
    killer = sigint_in(0.3)
    try:
        float(y)
    except KeyboardInterrupt:
        print("interrupted")
    killer.wait()
    z = ap.asarray(np.arange(10, dtype=np.float32))
    print(ap.asnumpy(z).tolist() == list(range(10)), ap.asnumpy(z + 1).shape)  # waits for y
    print("failed", *failed_calls())
    """,
        RAW_SIZES,
        env={"FAKE_CUDA_BUSY_MS": "2000"},
    )
    assert [line.strip() for line in out.splitlines()] == [
        "interrupted",
        "True (10,)",
        "failed 0",
    ], out


def test_a_wait_for_finished_work_is_one_stream_write(fake_driver):  # noqa: F811 - the fixture
    out = run_fake(
        fake_driver,
        COUNTERS
        + """
    y = (x * 2.0).sum()
    z = ap.ones(1 << 19, dtype=np.float32) + 1.0
    ap.eval(y, z)
    ap.cuda.synchronize()
    for read in (lambda: float(y), lambda: ap.asnumpy(x), lambda: ap.asnumpy(z),
                 ap.cuda.synchronize):
        writes, syncs = counter("fake_cuda_stream_writes"), counter("fake_cuda_sync_calls")
        s = stats()
        read()
        after = stats()
        print(counter("fake_cuda_stream_writes") - writes, counter("fake_cuda_sync_calls") - syncs,
              after["fast"] - s["fast"], after["slow"] - s["slow"])
    print("failed", *failed_calls())
    """,
        RAW_SIZES,
    )
    lines = [line.strip() for line in out.splitlines()]
    # One stream write each and nothing asleep; the staged read's chunk waits on its event, and
    # synchronize() also asks the driver for other libraries' streams.
    assert lines[:4] == ["1 0 1 0", "1 0 1 0", "1 1 1 0", "1 1 1 0"], out
    assert lines[4] == "failed 0", out


def test_a_long_wait_sleeps_and_wakes_at_the_end(fake_driver):  # noqa: F811 - the fixture
    out = run_fake(
        fake_driver,
        COUNTERS
        + """
    y = (x * 2.0).sum()
    ap.eval(y)
    queued = time.perf_counter()
    cpu = time.process_time()
    float(y)
    print(time.perf_counter() - queued, time.process_time() - cpu, stats()["slow"])
    """,
        env={"FAKE_CUDA_BUSY_MS": "1500"},
    )
    wall, cpu, slow = out.split()
    # Woken at the end: within milliseconds on an idle machine; a loaded one (CI's two cores
    # under a parallel suite) was seen to schedule the woken thread 106 ms late.
    assert 1.49 <= float(wall) < 1.9, out
    assert float(cpu) < 0.1, out  # asleep, not spinning
    assert slow == "1", out


def test_a_wait_on_another_thread_runs_to_its_end(fake_driver):  # noqa: F811 - the fixture
    # Python hands signals to the main thread only: another thread's wait (here one that
    # releases the GIL) goes on while the main thread's is interrupted.
    out = run_fake(
        fake_driver,
        COUNTERS
        + """
    y = (x * 2.0).sum()
    ap.eval(y)
    queued = time.perf_counter()
    done = []
    t = threading.Thread(target=lambda: (ap.cuda.synchronize(),
                                         done.append(time.perf_counter() - queued)))
    t.start()
    killer = sigint_in(0.3)
    try:
        float(y)
        print("finished")
    except KeyboardInterrupt:
        print("interrupted", time.perf_counter() - float(killer.stdout.readline()))
    t.join()
    print("thread", done[0])
    print("failed", *failed_calls())
    """,
        RAW_SIZES,
        env={"FAKE_CUDA_BUSY_MS": "2000"},
    )
    lines = [line.split() for line in out.splitlines()]
    assert lines[0][0] == "interrupted" and float(lines[0][1]) < 0.5, out
    assert lines[1][0] == "thread" and float(lines[1][1]) >= 1.9, out
    assert lines[2] == ["failed", "0"], out
