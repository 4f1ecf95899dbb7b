// Compile-time checks that accelpy's vendored CUDA function-pointer types match the toolkit's
// declarations (argument and result sizes), for the tests built with the toolkit's headers.
#pragma once

#include <array>
#include <cstddef>

namespace accel::cuda {

template <class R, class... A>
constexpr auto sig(R (*)(A...)) {
  return std::array<size_t, sizeof...(A) + 1>{sizeof(R), sizeof(A)...};
}

}  // namespace accel::cuda

// Inside namespace accel::cuda: api::mine is the vendored pointer type, real the toolkit's.
#define ACCEL_SAME_SIG(mine, real) static_assert(sig(api::mine{}) == sig(&real), #real)
