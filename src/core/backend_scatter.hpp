// The scatter-add family of backend operations (bincount, histogram): values added into bins
// chosen per element, which no elementwise or reduction group expresses.
#pragma once

#include "accel/array.hpp"

namespace accel {

class ScatterBackend {
 public:
  virtual ~ScatterBackend() = default;

  // out[index[i]] += 1 (out int64) or out[index[i]] += weights[i] (out and weights float64) for
  // every i < index.size(). index (int64), weights and out are computed and contiguous, every
  // index lies in [0, out.size()), and out holds zeros. Queued in order on CUDA.
  virtual void scatter_add(const Array& index, const Array* weights, const Array& out) = 0;
};

}  // namespace accel
