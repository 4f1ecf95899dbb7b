// ProcessRef: a Python object kept by a C++ global.
#pragma once

#include <nanobind/nanobind.h>

#include <utility>

namespace accel::python {

namespace nb = nanobind;

// A Python object held by a C++ global for the life of the process. Its reference is never
// given back: a global's destructor runs at exit, after the interpreter has finalized, and
// decrementing then touches freed memory (seen as a segfault at exit once ml_dtypes' bfloat16
// dtype was held).
class ProcessRef : public nb::object {
 public:
  ProcessRef() = default;
  explicit ProcessRef(nb::object o) : nb::object(std::move(o)) {}
  // A template, so that accessors (m.attr("x"), list[i]) convert once, to nb::object.
  template <class T>
  ProcessRef& operator=(T&& o) {
    nb::object::operator=(nb::object(std::forward<T>(o)));
    return *this;
  }
  ~ProcessRef() { release(); }
};

}  // namespace accel::python
