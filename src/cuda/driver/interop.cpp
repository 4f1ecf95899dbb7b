// Stream ordering between accelpy and other CUDA libraries (DLPack's `stream` argument, the
// CUDA array interface's `stream` field), and the device of a foreign pointer.
#include <cstdio>
#include <string>

#include "accel/interop.hpp"
#include "src/cuda/driver/context.hpp"

namespace accel::cuda {

namespace {

api::CUstream foreign_stream(uintptr_t handle) {
  if (handle == 0) {
    throw ValueError(
        "stream 0 is ambiguous in the exchange protocols; use 1 for the legacy default stream, "
        "2 for the per-thread default stream, or a stream handle");
  }
  // 1 and 2 are CU_STREAM_LEGACY and CU_STREAM_PER_THREAD, which the driver accepts as handles.
  return reinterpret_cast<api::CUstream>(handle);
}

// Makes `waiter` wait for the work queued so far on `signaller`, through an event. The event is
// destroyed at once: the driver keeps it until the wait is satisfied.
void order(int device, api::CUstream signaller, api::CUstream waiter) {
  if (signaller == waiter) return;  // one stream is already ordered
  const Driver& d = drv();
  DeviceContext& c = context(device);
  c.make_current();
  api::CUevent ev = nullptr;
  check(d.cuEventCreate(&ev, api::CU_EVENT_DISABLE_TIMING), "cuEventCreate", device);
  api::CUresult r = d.cuEventRecord(ev, signaller);
  const char* call = "cuEventRecord";
  if (r == api::CUDA_SUCCESS) {
    r = d.cuStreamWaitEvent(waiter, ev, 0);
    call = "cuStreamWaitEvent";
  }
  d.cuEventDestroy(ev);
  check(r, call, device);
}

}  // namespace

void stream_wait_for_current(int device, uintptr_t stream) {
  const api::CUstream consumer = foreign_stream(stream);
  order(device, context(device).stream(), consumer);
}

void current_wait_for_stream(int device, uintptr_t stream) {
  const api::CUstream producer = foreign_stream(stream);
  order(device, producer, context(device).stream());
}

uintptr_t current_stream_handle(int device) {
  return reinterpret_cast<uintptr_t>(context(device).stream());
}

int pointer_device(uintptr_t ptr) {
  // The plural query succeeds for memory CUDA does not know (its type reads 0), where the
  // singular one fails: a foreign host pointer is then refused without a failed driver call.
  int attrs[] = {api::CU_POINTER_ATTRIBUTE_MEMORY_TYPE, api::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
  unsigned type = 0;
  int ordinal = -1;
  void* data[] = {&type, &ordinal};
  if (drv().cuPointerGetAttributes(2, attrs, data, static_cast<api::CUdeviceptr>(ptr)) !=
          api::CUDA_SUCCESS ||
      type == 0 || ordinal < 0) {
    throw ValueError("pointer 0x" + [&] {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(ptr));
      return std::string(buf);
    }() + " is not CUDA memory of any device");
  }
  return ordinal;
}

}  // namespace accel::cuda
