// The C++ API: the same operations as the Python package, deferred and fused the same way.
#include <accel/accel.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  using namespace accel;
  const int64_t n = 1 << 20;
  const Array x =
      arange(Scalar::weak_int(0), Scalar::weak_int(n), Scalar::weak_int(1), DType::Float32);
  // sqrt(x * x + 1) summed: built lazily, evaluated when the host reads it.
  const Array y = sum(sqrt(add(multiply(x, x), 1.0)));
  float total = 0;
  to_host(y, &total);

  double expect = 0;
  for (int64_t i = 0; i < n; ++i) expect += std::sqrt(double(i) * double(i) + 1.0);
  const double rel = std::fabs(total - expect) / expect;
  std::printf(
      "sum(sqrt(x*x + 1)) over %lld elements = %.6g (float64 reference %.6g, rel. error %.1e)\n",
      static_cast<long long>(n), double(total), expect, rel);
  return rel < 1e-5 ? 0 : 1;
}
