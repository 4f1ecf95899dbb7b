// Exceptions. The Python bindings translate each to the exception NumPy raises in the same
// situation, so the message is the only place that names what was wrong: say what was given
// and what was expected.
#pragma once

#include <stdexcept>
#include <string>

namespace accel {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Wrong shapes or values (Python ValueError).
struct ValueError : Error {
  using Error::Error;
};
// Wrong dtypes or argument types (Python TypeError).
struct TypeError : Error {
  using Error::Error;
};
// Index out of range (Python IndexError).
struct IndexError : Error {
  using Error::Error;
};
// An axis out of range: numpy.exceptions.AxisError, a ValueError and an IndexError.
struct AxisError : Error {
  using Error::Error;
};
// A value that does not fit the dtype (Python OverflowError).
struct OverflowError : Error {
  using Error::Error;
};
// Division by zero outside array arithmetic, e.g. arange with step 0 (Python ZeroDivisionError).
struct ZeroDivisionError : Error {
  using Error::Error;
};
// Valid input that this build or device cannot handle (Python NotImplementedError).
struct NotImplementedError : Error {
  using Error::Error;
};
// Device or host memory exhausted (accelpy.OutOfMemoryError, a MemoryError).
struct OutOfMemoryError : Error {
  using Error::Error;
};

}  // namespace accel
