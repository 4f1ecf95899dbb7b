"""accelpy arrays in Dask's distributed protocol: serializers that send the elements as frames.

* "dask" (TCP and every other transport): the header names dtype, shape and device kind; the one
  frame is the elements in C order, a view of a CPU array's own memory (no copy, no pickle of
  the contents) or one host copy of a GPU array's. The receiver puts the chunk on its own
  default device, whatever the sender's was: a GPU worker's GPU, a CPU worker's memory (CPU
  workers on a machine with GPUs included: their chunks and what the client sends them, such as
  a creation function's prototype made on the client's GPU, must meet on one device).
* "cuda" (UCX, with ucxx/distributed-ucxx): the frame is the device buffer itself, described
  by the CUDA array interface, and the chunk is rebuilt on the receiving GPU without the host.

Registered by ``accelpy.distributed`` and, in a process where ``distributed`` is loaded, by
``import accelpy`` (a worker imports accelpy when it meets the first accelpy chunk).
"""

import numpy as np
from distributed.protocol import cuda_deserialize, cuda_serialize, dask_deserialize, dask_serialize

from ._core import asnumpy, get_default_device, ndarray
from ._creation import asarray, ascontiguousarray

_registered = False


def _header(x):
    return {"dtype": x.dtype.str, "shape": tuple(x.shape), "device": x.device.type}


def serialize_host(x):
    """The "dask" family: header and one host frame of the elements (C order)."""
    host = np.ascontiguousarray(np.asarray(x) if x.device.type == "cpu" else asnumpy(x))
    return _header(x), [memoryview(host.reshape(-1).view(np.uint8))]


def deserialize_host(header, frames):
    (frame,) = frames
    dtype = np.dtype(header["dtype"])
    host = np.frombuffer(frame, dtype=dtype, count=int(np.prod(header["shape"], dtype=np.int64)))
    host = host.reshape(header["shape"])
    return asarray(host, device=get_default_device())


def serialize_device(x):
    """The "cuda" family: a GPU array's buffer as the frame (UCX moves it device to device)."""
    if x.device.type != "cuda":
        raise TypeError("the cuda serializer takes CUDA arrays; a CPU array goes as host frames")
    x = ascontiguousarray(x)
    return _header(x), [x.reshape(-1).view(np.uint8)]


def deserialize_device(header, frames):
    (frame,) = frames
    buf = asarray(frame)  # a device buffer with the CUDA array interface: no copy
    return buf.view(np.dtype(header["dtype"])).reshape(header["shape"])


def register_serializers():
    """Registers both families for accelpy arrays. Idempotent."""
    global _registered
    if _registered:
        return
    dask_serialize.register(ndarray)(serialize_host)
    dask_deserialize.register(ndarray)(deserialize_host)
    cuda_serialize.register(ndarray)(serialize_device)
    cuda_deserialize.register(ndarray)(deserialize_device)
    _registered = True
