// Zero-copy exchange with other libraries: ndarray.__dlpack__ / __dlpack_device__ (DLPack 1.x
// and legacy capsules), ndarray.__cuda_array_interface__ (version 3), and the import halves
// that accelpy.from_dlpack and asarray use (python/accelpy/_dlpack.py). Bindings only: the
// tensors are built by src/core/dlpack.cpp, streams ordered by src/cuda/interop.cpp.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>

#include "accel/interop.hpp"
#include "src/core/result_layout.hpp"
#include "src/python/bindings.hpp"
#include "src/python/convert.hpp"

namespace accel::python {

using namespace nb::literals;

namespace {

constexpr const char* kVersionedName = "dltensor_versioned";
constexpr const char* kUsedVersionedName = "used_dltensor_versioned";
constexpr const char* kLegacyName = "dltensor";
constexpr const char* kUsedLegacyName = "used_dltensor";

[[noreturn]] void buffer_error(const std::string& msg) { throw BufferError(msg); }

// Capsule destructors: a capsule that no consumer renamed still owns its tensor. They may run
// while an exception is being raised, so the error state is kept aside.
template <class Managed>
void release_unconsumed(PyObject* capsule, const char* name) {
  if (!PyCapsule_IsValid(capsule, name)) return;  // consumed: the consumer calls the deleter
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
  if (m && m->deleter) m->deleter(m);
  PyErr_Restore(type, value, traceback);
}
void versioned_capsule_destructor(PyObject* capsule) {
  release_unconsumed<DLManagedTensorVersioned>(capsule, kVersionedName);
}
void legacy_capsule_destructor(PyObject* capsule) {
  release_unconsumed<DLManagedTensor>(capsule, kLegacyName);
}

// The device a `dl_device=(type, id)` argument asks for.
Device requested_device(nb::handle dl_device) {
  if (!PyTuple_Check(dl_device.ptr()) || PyTuple_GET_SIZE(dl_device.ptr()) != 2) {
    throw TypeError("dl_device must be a (device type, device id) tuple, got " +
                    nb::cast<std::string>(nb::repr(dl_device)));
  }
  const int type = nb::cast<int>(dl_device[0]);
  const int id = nb::cast<int>(dl_device[1]);
  if (type != kDLCPU && type != kDLCUDA) {
    buffer_error("accelpy cannot export to DLPack device type " + std::to_string(type) +
                 "; it exports to kDLCPU (1) and kDLCUDA (2)");
  }
  return from_dlpack_device({static_cast<DLDeviceType>(type), id});
}

// The consumer's `stream` argument, for an export on `device`: orders the consumer's stream
// after the work that computes the array, as the protocol asks.
void synchronize_consumer(const Device& device, nb::handle stream) {
  if (device.is_cpu()) {
    if (!stream.is_none()) {
      buffer_error("stream must be None for an array on the CPU (got " +
                   nb::cast<std::string>(nb::repr(stream)) + ")");
    }
    return;
  }
  // None: the consumer uses the legacy default stream. -1: it asks for no synchronization.
  const long long handle = stream.is_none() ? 1 : nb::cast<long long>(stream);
  if (handle == -1) return;
  if (handle < -1) throw ValueError("stream must be None, -1 or a stream handle >= 1");
  cuda::stream_wait_for_current(device.index, static_cast<uintptr_t>(handle));
}

nb::object dlpack(const Array& self, nb::handle stream, nb::handle max_version,
                  nb::handle dl_device, std::optional<bool> copy) {
  const Device target = dl_device.is_none() ? self.device() : requested_device(dl_device);
  const bool moves = target != self.device();
  if (moves && copy == false) {
    buffer_error("exporting an array on " + self.device().str() + " to " + target.str() +
                 " needs a copy, and copy=False forbids it");
  }
  bool versioned = false;
  if (!max_version.is_none()) {
    if (!PyTuple_Check(max_version.ptr()) || PyTuple_GET_SIZE(max_version.ptr()) != 2) {
      throw TypeError("max_version must be a (major, minor) tuple");
    }
    versioned = nb::cast<int>(max_version[0]) >= 1;
  }
  const bool copied = moves || copy == true;
  Array src = self;
  if (moves) {
    src = to_device(self, target);  // downloads return once the data is on the host
  } else if (copied) {
    src = accel::copy(self);
  }
  const bool read_only = !src.writeable();
  if (read_only && !versioned) {
    buffer_error(
        "cannot export a read-only array through a legacy (unversioned) DLPack capsule, which "
        "cannot mark it read-only; ask for max_version=(1, 0) or later, or pass copy=True");
  }
  src = prepare_export(src, read_only);
  synchronize_consumer(target, stream);
  if (versioned) {
    uint64_t flags = 0;
    if (read_only) flags |= ACCEL_DLPACK_FLAG_READ_ONLY;
    if (copied) flags |= ACCEL_DLPACK_FLAG_IS_COPIED;
    DLManagedTensorVersioned* t = to_dlpack_versioned(src, flags);
    PyObject* cap = PyCapsule_New(t, kVersionedName, versioned_capsule_destructor);
    if (!cap) {
      t->deleter(t);
      throw nb::python_error();
    }
    return nb::steal(cap);
  }
  DLManagedTensor* t = to_dlpack_legacy(src);
  PyObject* cap = PyCapsule_New(t, kLegacyName, legacy_capsule_destructor);
  if (!cap) {
    t->deleter(t);
    throw nb::python_error();
  }
  return nb::steal(cap);
}

// Calls a producer's deleter when the last view of the imported memory is gone: with the GIL,
// since Python producers' deleters release Python objects.
template <class Managed>
std::shared_ptr<void> deleter_owner(Managed* m) {
  return std::shared_ptr<void>(m, [](void* p) {
    auto* t = static_cast<Managed*>(p);
    if (!t->deleter || !Py_IsInitialized()) return;  // after exit the producer is gone too
    nb::gil_scoped_acquire gil;
    t->deleter(t);
  });
}

// Takes the tensor out of a DLPack capsule (renaming it "used_...", as the protocol requires)
// and wraps its memory. Returns (array, whether the producer made a copy for this export).
nb::tuple from_capsule(nb::handle capsule) {
  PyObject* cap = capsule.ptr();
  if (PyCapsule_IsValid(cap, kVersionedName)) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(cap, kVersionedName));
    if (m->version.major > ACCEL_DLPACK_MAJOR_VERSION) {
      buffer_error("the producer exported DLPack " + std::to_string(m->version.major) + "." +
                   std::to_string(m->version.minor) + "; accelpy reads major version " +
                   std::to_string(ACCEL_DLPACK_MAJOR_VERSION));
    }
    // Checked before the capsule is consumed, so that a refused tensor stays the capsule's.
    from_dlpack_dtype(m->dl_tensor.dtype);
    from_dlpack_device(m->dl_tensor.device);
    if (PyCapsule_SetName(cap, kUsedVersionedName) != 0) throw nb::python_error();
    const bool writeable = !(m->flags & ACCEL_DLPACK_FLAG_READ_ONLY);
    const bool copied = (m->flags & ACCEL_DLPACK_FLAG_IS_COPIED) != 0;
    return nb::make_tuple(from_dltensor(m->dl_tensor, deleter_owner(m), writeable), copied);
  }
  if (PyCapsule_IsValid(cap, kLegacyName)) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, kLegacyName));
    from_dlpack_dtype(m->dl_tensor.dtype);
    from_dlpack_device(m->dl_tensor.device);
    if (PyCapsule_SetName(cap, kUsedLegacyName) != 0) throw nb::python_error();
    return nb::make_tuple(from_dltensor(m->dl_tensor, deleter_owner(m), true), false);
  }
  if (PyCapsule_CheckExact(cap)) {
    const char* name = PyCapsule_GetName(cap);
    PyErr_Clear();
    const std::string n = name ? name : "";
    if (n == kUsedVersionedName || n == kUsedLegacyName) {
      throw ValueError("this DLPack capsule was already consumed (a capsule is used once)");
    }
    throw TypeError("not a DLPack capsule (its name is '" + n + "')");
  }
  throw TypeError(std::string("expected a DLPack capsule, got '") + Py_TYPE(cap)->tp_name + "'");
}

nb::dict cuda_array_interface(const Array& self) {
  if (!self.device().is_cuda()) {
    throw nb::attribute_error(("__cuda_array_interface__: the array is on " + self.device().str() +
                               " (only CUDA arrays export it; use __dlpack__ or numpy.asarray)")
                                  .c_str());
  }
  if (self.dtype() == DType::BFloat16) {
    // The interface's type strings have no bfloat16: consumers would misread it.
    throw nb::attribute_error(
        "__cuda_array_interface__: bfloat16 has no type string in the interface; use DLPack "
        "(__dlpack__), which carries bfloat16");
  }
  const Array a = prepare_export(self, !self.writeable());
  const size_t isz = itemsize(a.dtype());
  nb::dict d;
  d["shape"] = shape_tuple(a.shape());
  nb::object typestr = dtype_object(a.dtype()).attr("str");
  d["typestr"] = typestr;
  nb::list descr;
  descr.append(nb::make_tuple("", typestr));
  d["descr"] = descr;
  const uintptr_t ptr = a.size() ? reinterpret_cast<uintptr_t>(a.data()) : 0;
  d["data"] = nb::make_tuple(ptr, !a.writeable());
  if (a.is_contiguous() || a.size() == 0) {
    d["strides"] = nb::none();
  } else {
    Shape bytes;
    for (int64_t s : a.strides()) bytes.push_back(s * int64_t(isz));
    d["strides"] = shape_tuple(bytes);
  }
  d["mask"] = nb::none();
  d["version"] = 3;
  // The consumer orders its work after ours by synchronizing with this stream.
  d["stream"] = cuda::current_stream_handle(a.device().index);
  return d;
}

// An array over CUDA memory described by a __cuda_array_interface__ (parsed in _interop.py):
// `strides` in elements (None: C order, with NumPy's zero strides where there are no elements);
// `owner` is kept alive as long as the memory is used; `stream` (the producer's, or None) is waited
// for on accelpy's current stream.
Array wrap_cuda_memory(uintptr_t ptr, nb::handle dtype, nb::handle shape, nb::handle strides,
                       nb::handle owner, bool readonly, nb::handle stream) {
  const Shape sh = to_shape(shape);
  Strides st = strides.is_none() ? new_array_strides(sh) : to_shape(strides);
  const bool empty = shape_size(sh) == 0;
  Device dev = default_device();
  if (!empty || ptr != 0) {
    dev = Device::cuda(cuda::pointer_device(ptr));
  } else if (!dev.is_cuda()) {
    dev = Device::cuda(0);
  }
  if (!stream.is_none()) cuda::current_wait_for_stream(dev.index, nb::cast<uintptr_t>(stream));
  return Array::wrap(reinterpret_cast<void*>(ptr), to_dtype(dtype), sh, std::move(st), dev,
                     hold(owner), !readonly);
}

void translate_buffer_error(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const BufferError& e) {
    PyErr_SetString(PyExc_BufferError, e.what());
  }
}

}  // namespace

void bind_interop(nb::module_& m) {
  nb::register_exception_translator(&translate_buffer_error);
  nb::object cls = m.attr("ndarray");
  auto method = [&](const char* name, auto&& fn, auto&&... extra) {
    nb::setattr(cls, name,
                nb::cpp_function(std::forward<decltype(fn)>(fn), nb::name(name), nb::is_method(),
                                 nb::scope(cls), std::forward<decltype(extra)>(extra)...));
  };
  method("__dlpack__", &dlpack, nb::kw_only(), "stream"_a = nb::none(),
         "max_version"_a = nb::none(), "dl_device"_a = nb::none(), "copy"_a = nb::none(),
         "Exports the array as a DLPack capsule (the Array API's __dlpack__): versioned when the "
         "consumer's max_version is 1.0 or later, else legacy; computes the array and orders "
         "the consumer's CUDA `stream` after it (None: the legacy default stream, -1: no "
         "synchronization). dl_device and copy ask for a copy, here or on another device.",
         nb::sig("def __dlpack__(self, *, stream: int | Any | None = None, "
                 "max_version: tuple[int, int] | None = None, "
                 "dl_device: tuple[int, int] | None = None, copy: bool | None = None) -> Any"));
  method(
      "__dlpack_device__",
      [](const Array& a) {
        const DLDevice d = to_dlpack_device(a.device());
        return nb::make_tuple(int(d.device_type), d.device_id);
      },
      "(DLPack device type, device index): (1, 0) on the CPU, (2, N) on cuda:N.",
      nb::sig("def __dlpack_device__(self) -> tuple[int, int]"));
  nb::setattr(
      cls, "__cuda_array_interface__",
      nb::module_::import_("builtins")
          .attr("property")(nb::cpp_function(&cuda_array_interface, nb::is_method(), nb::scope(cls),
                                             nb::name("__cuda_array_interface__"),
                                             nb::sig("def __cuda_array_interface__(self) -> "
                                                     "dict[str, Any]"))));

  m.def("_from_dlpack_capsule", &from_capsule, "capsule"_a,
        "Wraps the memory of a DLPack capsule (versioned or legacy), consuming it: "
        "(array, copied).");
  m.def("_wrap_cuda_memory", &wrap_cuda_memory, "ptr"_a, "dtype"_a, "shape"_a, "strides"_a.none(),
        "owner"_a.none(), "readonly"_a, "stream"_a.none());
  m.def(
      "_data_ptr",
      [](const Array& a) {
        return reinterpret_cast<uintptr_t>(a.size() ? a.data() : a.storage()->data());
      },
      "a"_a, "The address of element 0 (evaluates the array).");
}

}  // namespace accel::python
