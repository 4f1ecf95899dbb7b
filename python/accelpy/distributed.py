"""accelpy on several GPUs and machines through Dask (``accelpy.distributed``).

    from dask.distributed import Client
    import dask, dask.array as da
    import accelpy.distributed as apd

    with apd.LocalCluster() as cluster, Client(cluster):     # one worker per GPU (or CPU workers)
        with dask.config.set({"array.backend": "accelpy"}):
            x = da.random.random((40_000, 40_000), chunks=10_000)
        print(float((x * x).sum().compute()))

* :func:`LocalCluster` starts one worker process per GPU, each seeing only its own GPU (as
  ``cuda:0``, through ``CUDA_VISIBLE_DEVICES``, set before accelpy initializes CUDA there) and
  running one task at a time; without GPUs, CPU workers that share the cores. A cluster across
  machines is ``dask scheduler`` on one host and, on each, one ``dask worker <address>
  --nthreads 1`` per GPU with ``CUDA_VISIBLE_DEVICES`` set (docs/guide/interoperability.md).
  dask-cuda's ``LocalCUDACluster`` starts the same layout, and accelpy chunks work there
  unchanged.
* Importing this module registers accelpy arrays with Dask's serialization (host frames over
  TCP, the CUDA array interface for UCX) and Dask's per-type lookups.
* :func:`default_rng` draws Dask arrays whose values do not depend on the chunking: each element
  is the one ``accelpy.random.default_rng(seed)`` gives at the same position of the whole array.
"""

import logging
import os

from distributed import Nanny, Scheduler, SpecCluster

from . import cuda
from ._dask_backend import register_dispatch
from ._dask_serialize import register_serializers
from ._distributed_random import ChunkedGenerator, default_rng

__all__ = ["LocalCluster", "ChunkedGenerator", "default_rng", "worker_specs"]

register_dispatch()
register_serializers()


def worker_specs(n_workers=None, *, device=None, threads=None):
    """The worker processes of :func:`LocalCluster`: {name: Dask worker spec}.

    device: "cuda" (one worker per visible GPU, or the first ``n_workers`` of them), "cpu"
    (``n_workers`` CPU workers, default 2, splitting the cores: ``threads`` each), or None
    (cuda when a GPU is present)."""
    if device is None:
        device = "cuda" if cuda.is_available() else "cpu"
    device = str(device)
    if device not in ("cuda", "cpu"):
        raise ValueError(f"LocalCluster: device must be 'cuda', 'cpu' or None, got {device!r}")
    env = {"ACCELPY_DEFAULT_DEVICE": device if device == "cpu" else "cuda:0"}
    if device == "cuda":
        visible = os.environ.get("CUDA_VISIBLE_DEVICES")
        gpus = ([g for g in visible.split(",") if g.strip()] if visible is not None
                else [str(i) for i in range(cuda.device_count())])
        if not gpus:
            raise RuntimeError("LocalCluster(device='cuda'): no GPU is visible "
                               f"({cuda.unavailable_reason() or 'CUDA_VISIBLE_DEVICES is empty'})")
        if n_workers is not None:
            if not 1 <= n_workers <= len(gpus):
                raise ValueError(f"LocalCluster: n_workers={n_workers}, but {len(gpus)} GPU(s) "
                                 "are visible (one worker per GPU)")
            gpus = gpus[:n_workers]
        per_worker = [{**env, "CUDA_VISIBLE_DEVICES": g} for g in gpus]
    else:
        n = 2 if n_workers is None else int(n_workers)
        if n < 1:
            raise ValueError(f"LocalCluster: n_workers must be at least 1, got {n}")
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        t = max(1, (cores or 1) // n) if threads is None else int(threads)
        per_worker = [{**env, "ACCELPY_NUM_THREADS": str(t)}] * n
    # One task at a time per worker: accelpy parallelizes inside a task (the GPU, or its own
    # thread pool), and two tasks would only compete for it.
    return {f"accelpy-{i}": {"cls": Nanny, "options": {"nthreads": 1, "env": e}}
            for i, e in enumerate(per_worker)}


def LocalCluster(n_workers=None, *, device=None, threads=None, dashboard_address=None,
                 asynchronous=False, silence_logs=logging.WARNING, **scheduler_options):
    """A Dask cluster on this machine with one accelpy worker per GPU (or CPU workers).

    Returns a ``distributed.SpecCluster``; use it with ``Client(cluster)``, and as a context
    manager to close it. Arguments as :func:`worker_specs`; the rest go to the scheduler."""
    workers = worker_specs(n_workers, device=device, threads=threads)
    scheduler = {"cls": Scheduler,
                 "options": {"dashboard_address": dashboard_address, **scheduler_options}}
    return SpecCluster(workers=workers, scheduler=scheduler, asynchronous=asynchronous,
                       silence_logs=silence_logs, name="accelpy")

