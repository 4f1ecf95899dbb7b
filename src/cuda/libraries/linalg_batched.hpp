// Many small systems at once: cuBLAS's batched LU (getrfBatched + getrsBatched), one launch
// sequence for the whole batch instead of one cuSOLVER call per matrix.
#pragma once

#include <cstdint>
#include <vector>

#include "src/core/backend_linalg.hpp"
#include "src/cuda/driver/context.hpp"

namespace accel::cuda {

// Whether a Solve job is small enough for the batched path (and cuBLAS has it).
bool use_batched_solve(const LinalgJob& job);
// How an inverse job uses its operands: getrfBatched + getriBatched factor a in place and
// write b; otherwise getrs against the identity in b.
LinalgBackend::InverseInputs inverse_inputs(const LinalgJob& job);
// Runs a Solve job (square n x n, nrhs columns) on the current stream; returns the info codes.
std::vector<int64_t> batched_solve(DeviceContext& c, const LinalgJob& job);

}  // namespace accel::cuda
