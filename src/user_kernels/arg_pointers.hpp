// The array of argument pointers a launch hands to a kernel (cuLaunchKernel's kernelParams,
// the CPU launcher's argument list): on the stack for the usual few arguments, so that a
// launch allocates nothing, and on the heap beyond.
#pragma once

#include <cstddef>
#include <vector>

#include "accel/user_kernels.hpp"

namespace accel {

class ArgPointers {
 public:
  ArgPointers(const KernelArg* args, size_t nargs) {
    if (nargs > kInline) {
      heap_.resize(nargs);
      ptrs_ = heap_.data();
    }
    for (size_t i = 0; i < nargs; ++i) ptrs_[i] = const_cast<void*>(args[i].data);
  }
  ArgPointers(const ArgPointers&) = delete;
  ArgPointers& operator=(const ArgPointers&) = delete;
  void** data() { return ptrs_; }

 private:
  static constexpr size_t kInline = 32;
  void* inline_[kInline];
  std::vector<void*> heap_;
  void** ptrs_ = inline_;
};

}  // namespace accel
