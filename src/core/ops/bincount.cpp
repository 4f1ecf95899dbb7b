// bincount: validates as NumPy does, finds the length (the largest value: one reduction, read on
// the host, as NumPy and CuPy must), then scatter-adds through the device's backend.
#include <algorithm>
#include <string>

#include "accel/errors.hpp"
#include "src/core/backend.hpp"
#include "src/core/backend_scatter.hpp"
#include "src/core/ops/common.hpp"

namespace accel {

namespace {

int64_t host_int(const Array& a) {
  int64_t v = 0;
  to_host(a, &v);
  return v;
}

}  // namespace

Array bincount(const Array& x, const std::optional<Array>& weights, int64_t minlength) {
  if (x.ndim() != 1) {
    throw ValueError(x.ndim() == 0 ? "object of too small depth for desired array"
                                   : "object too deep for desired array");
  }
  // uint64 is accepted as NumPy does (values past INT64_MAX read as negative and are refused).
  if (!can_cast_safely(x.dtype(), DType::Int64) && x.dtype() != DType::UInt64) {
    throw TypeError("Cannot cast array data from dtype('" + std::string(dtype_name(x.dtype())) +
                    "') to dtype('int64') according to the rule 'safe'");
  }
  if (minlength < 0) throw ValueError("'minlength' must not be negative");
  const Device device = x.device();
  if (weights) {
    if (weights->shape() != x.shape()) {
      throw ValueError("The weights and list don't have the same length.");
    }
    if (weights->device() != device) {
      throw ValueError("bincount: the weights are on " + weights->device().str() +
                       ", the values on " + device.str());
    }
    if (!can_cast_safely(weights->dtype(), DType::Float64)) {
      throw TypeError("Cannot cast array data from dtype('" +
                      std::string(dtype_name(weights->dtype())) +
                      "') to dtype('float64') according to the rule 'safe'");
    }
  }
  const Array index = astype(x, DType::Int64, true);  // a contiguous copy
  int64_t length = minlength;
  if (x.size() > 0) {
    if (host_int(min(index)) < 0) {
      throw ValueError("'list' argument must have no negative elements");
    }
    length = std::max(length, host_int(max(index)) + 1);
  }
  // NumPy returns int64 zeros for an empty input, weights or not.
  const DType out_dtype = weights && x.size() > 0 ? DType::Float64 : DType::Int64;
  Array out = zeros({length}, out_dtype, device);
  out.eval();
  if (x.size() == 0) return out;
  index.eval();
  std::optional<Array> w;
  if (weights) {
    w = astype(*weights, DType::Float64, true);
    w->eval();
  }
  ScatterBackend* s = backend_for(device).scatter();
  if (!s) throw NotImplementedError("bincount is not available on " + device.str());
  s->scatter_add(index, w ? &*w : nullptr, out);
  return out;
}

}  // namespace accel
