"""The ndarray object itself: weakly referenceable, its weak references cleared and their
callbacks run when it dies, in any order of creation and release (nanobind keeps freed
instances for reuse); and the work counters of ap.fusion.stats() summed over the threads that
run groups."""

import threading
import weakref

import numpy as np

import accelpy as ap


def test_weak_references_are_cleared_when_an_array_dies():
    died = []
    refs = []
    for i in range(300):  # more than the instance pool keeps
        a = ap.asarray(np.full(3, float(i)))
        refs.append(weakref.ref(a, lambda r, i=i: died.append(i)))
        assert refs[-1]() is a
        del a
    assert sorted(died) == list(range(300))
    assert all(r() is None for r in refs)


def test_reused_instances_hold_their_own_values_and_references():
    x = ap.asarray(np.arange(4.0))
    kept = []
    for i in range(200):
        y = x + float(i)
        if i % 3 == 0:
            kept.append((i, y, weakref.ref(y)))
        del y
    for i, a, ref in kept:
        assert ref() is a
        np.testing.assert_array_equal(ap.asnumpy(a), np.arange(4.0) + i)
    del a
    proxy = weakref.WeakValueDictionary({i: a for i, a, _ in kept})
    assert len(proxy) == len(kept)
    kept.clear()
    assert len(proxy) == 0


def test_work_counters_sum_over_threads():
    x = ap.asarray(np.arange(10.0))
    ap.eval(x)

    def work():
        for _ in range(50):
            ap.eval(x * 2.0)

    with ap.fusion.eager(2048):
        ap.fusion.reset_stats()
        threads = [threading.Thread(target=work) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        work()
        stats = ap.fusion.stats()
        assert stats["groups_run"] == 200
        assert stats["nodes_run"] == 200
        ap.fusion.reset_stats()
        assert ap.fusion.stats()["groups_run"] == 0
        ap.eval(x + 1.0)
        assert ap.fusion.stats()["groups_run"] == 1
