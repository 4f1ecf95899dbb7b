// Waiting for a device on behalf of the host (a host read, synchronize()) so that Ctrl-C still
// works while the GPU is busy: a driver's synchronizing call cannot be interrupted.
#pragma once

#include <atomic>

#include "src/cuda/driver/context.hpp"

namespace accel::cuda {

// Returns once the work queued so far on `s` (a stream of c's device) has completed, and reports
// a fault of that work as cuStreamSynchronize would. While it waits, a SIGINT throws
// accel::Interrupted (KeyboardInterrupt in Python) within a few milliseconds; the queued work
// goes on in the background, and every buffer it uses stays valid (device memory is freed in
// stream order). `in_flight`, when given, is set false once the work has completed, also after
// an interrupted wait (then from another thread, later): it guards a host buffer that the
// queued work writes.
void wait_stream(DeviceContext& c, api::CUstream s, std::atomic<bool>* in_flight = nullptr);

// Makes the completion words (pinned host memory) of c's device now. Called as the context is
// created, while the device is idle: cuMemHostAlloc can wait for the kernels that run, so a
// first wait that made them behind a long kernel was not interruptible.
void prepare_waits(DeviceContext& c);

// The same for the work before `event`'s last record (an event of c's device).
void wait_event(DeviceContext& c, api::CUevent event);

// wait_stats() (accel/cuda.hpp) counts how the waits went.

}  // namespace accel::cuda
