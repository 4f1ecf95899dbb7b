// accelpy's C++ API: NumPy-compatible arrays with lazy, fused evaluation.
//
//   #include <accel/accel.hpp>
//   accel::Array x = accel::arange(0, 10, 1, accel::DType::Float32);
//   accel::Array y = accel::sum(accel::sqrt(x) * 2.0);   // deferred
//   float v; accel::to_host(y, &v);                       // evaluated here
#pragma once

#include "accel/array.hpp"
#include "accel/device.hpp"
#include "accel/dtype.hpp"
#include "accel/errors.hpp"
#include "accel/eval_stats.hpp"
#include "accel/ops.hpp"
#include "accel/random.hpp"
#include "accel/scalar.hpp"
#include "accel/shape.hpp"
#include "accel/storage.hpp"
