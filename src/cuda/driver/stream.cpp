// Streams and events. Each device has one non-blocking default stream (context.cpp); a thread
// can make another stream current per device, and all of that thread's work for the device
// (kernels, copies, allocations) goes there.
#include <array>

#include "accel/errors.hpp"
#include "src/cuda/driver/allocator.hpp"
#include "src/cuda/driver/context.hpp"
#include "src/cuda/driver/wait.hpp"

namespace accel::cuda {

struct Stream::Impl {
  int device = 0;
  api::CUstream handle = nullptr;
  bool owned = false;
  ~Impl() {
    if (!owned) return;
    const Driver* d = driver();
    DeviceContext& c = context(device);
    if (d && c.try_make_current()) {
      release_stream_counters(c, handle);
      d->cuStreamDestroy(handle);  // the driver finishes queued work before releasing it
    }
  }
};

struct Event::Impl {
  int device = 0;
  api::CUevent handle = nullptr;
  bool recorded = false;
  ~Impl() {
    if (const Driver* d = driver()) d->cuEventDestroy(handle);
  }
};

namespace {

thread_local std::array<std::shared_ptr<Stream::Impl>, kMaxDevices> t_current;

std::shared_ptr<Stream::Impl> default_impl(int device) {
  static std::array<std::shared_ptr<Stream::Impl>, kMaxDevices>* defaults =
      new std::array<std::shared_ptr<Stream::Impl>, kMaxDevices>();
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = (*defaults)[size_t(device)];
  if (!slot) {
    slot = std::make_shared<Stream::Impl>();
    slot->device = device;
    slot->handle = context(device).default_stream;
  }
  return slot;
}

}  // namespace

api::CUstream DeviceContext::stream() const {
  const auto& cur = t_current[size_t(index)];
  return cur ? cur->handle : default_stream;
}

Stream Stream::create(int device, bool non_blocking) {
  DeviceContext& c = context(device);
  c.make_current();
  auto impl = std::make_shared<Impl>();
  impl->device = device;
  check(drv().cuStreamCreate(&impl->handle, non_blocking ? api::CU_STREAM_NON_BLOCKING : 0),
        "cuStreamCreate", device);
  impl->owned = true;
  return Stream(std::move(impl));
}

Stream Stream::default_stream(int device) {
  context(device);
  return Stream(default_impl(device));
}

Stream Stream::current(int device) {
  context(device);
  const auto& cur = t_current[size_t(device)];
  return cur ? Stream(cur) : Stream(default_impl(device));
}

int Stream::device() const { return impl_->device; }
void* Stream::handle() const { return impl_->handle; }

void Stream::synchronize() const { wait_stream(context(impl_->device), impl_->handle); }

bool Stream::query() const {
  context(impl_->device).make_current();
  const api::CUresult r = drv().cuStreamQuery(impl_->handle);
  if (r == api::CUDA_ERROR_NOT_READY) return false;
  check_sync(r, "cuStreamQuery", impl_->device);
  return true;
}

void Stream::wait(const Event& event) const {
  context(impl_->device).make_current();
  check(drv().cuStreamWaitEvent(impl_->handle, static_cast<api::CUevent>(event.handle()), 0),
        "cuStreamWaitEvent", impl_->device);
}

Stream set_current_stream(const Stream& stream) {
  const int dev = stream.device();
  Stream previous = Stream::current(dev);
  t_current[size_t(dev)] = stream.impl_;
  return previous;
}

Event Event::create(int device, bool enable_timing, bool blocking) {
  DeviceContext& c = context(device);
  c.make_current();
  auto impl = std::make_shared<Impl>();
  impl->device = device;
  unsigned flags = api::CU_EVENT_DEFAULT;
  if (!enable_timing) flags |= api::CU_EVENT_DISABLE_TIMING;
  if (blocking) flags |= api::CU_EVENT_BLOCKING_SYNC;
  check(drv().cuEventCreate(&impl->handle, flags), "cuEventCreate", device);
  return Event(std::move(impl));
}

void Event::record(const Stream& stream) {
  if (stream.device() != impl_->device) {
    throw ValueError("event of cuda:" + std::to_string(impl_->device) +
                     " cannot be recorded on a stream of cuda:" + std::to_string(stream.device()));
  }
  context(impl_->device).make_current();
  check(drv().cuEventRecord(impl_->handle, static_cast<api::CUstream>(stream.handle())),
        "cuEventRecord", impl_->device);
  impl_->recorded = true;
}

void Event::synchronize() const { wait_event(context(impl_->device), impl_->handle); }

bool Event::query() const {
  context(impl_->device).make_current();
  const api::CUresult r = drv().cuEventQuery(impl_->handle);
  if (r == api::CUDA_ERROR_NOT_READY) return false;
  check_sync(r, "cuEventQuery", impl_->device);
  return true;
}

float Event::elapsed_ms(const Event& end) const {
  if (!impl_->recorded || !end.impl_->recorded) {
    throw ValueError("elapsed_time needs both events recorded first");
  }
  // CUDA answers NOT_READY while the work before either event is still running; CuPy and
  // PyTorch pass that on, so a program that times an event it recorded an instant before fails
  // at random. The time is defined once both events complete: wait for them first (asking
  // before would be a failed call in the user's API-error checks whenever they are not done).
  synchronize();
  end.synchronize();
  context(impl_->device).make_current();
  float ms = 0;
  check(drv().cuEventElapsedTime(&ms, impl_->handle, end.impl_->handle), "cuEventElapsedTime",
        impl_->device);
  return ms;
}

int Event::device() const { return impl_->device; }
void* Event::handle() const { return impl_->handle; }

}  // namespace accel::cuda
