#include "src/cpu/copy_group.hpp"

#include <cstring>

namespace accel::cpu {

namespace {

struct Bytes16 {
  uint64_t lo, hi;
};

// Copies `count` elements of T from src (every `in_stride` elements) to dst (every
// `out_stride`).
template <class T>
void copy_run(const char* src, int64_t in_stride, char* dst, int64_t out_stride, int64_t count) {
  if (in_stride == 1 && out_stride == 1) {
    // memmove: the evaluator lets a copy write the very view it reads (`a[...] = a`).
    std::memmove(dst, src, size_t(count) * sizeof(T));
    return;
  }
  const T* s = reinterpret_cast<const T*>(src);
  T* d = reinterpret_cast<T*>(dst);
  for (int64_t j = 0; j < count; ++j) d[j * out_stride] = s[j * in_stride];
}

// Walks the layout's shape in C order, one run along its last dimension at a time.
template <class T>
void copy_all(const Shape& shape, const Strides& in, const Strides& out, const char* src,
              char* dst) {
  const size_t nd = shape.size();
  const int64_t inner = shape[nd - 1];
  const int64_t outer = shape_size(shape) / inner;
  SmallVector<int64_t, 6> idx(nd, 0);
  int64_t in_off = 0, out_off = 0;
  constexpr auto item = int64_t(sizeof(T));
  for (int64_t r = 0; r < outer; ++r) {
    copy_run<T>(src + in_off * item, in[nd - 1], dst + out_off * item, out[nd - 1], inner);
    // Carry into the outer dimensions.
    for (size_t d = nd - 1; d-- > 0;) {
      in_off += in[d];
      out_off += out[d];
      if (++idx[d] < shape[d]) break;
      in_off -= shape[d] * in[d];
      out_off -= shape[d] * out[d];
      idx[d] = 0;
    }
  }
}

}  // namespace

bool run_copy_group(const Group& group, const Layout& layout) {
  if (group.steps.size() != 1 || group.inputs.size() != 1 || group.outputs.size() != 1) {
    return false;
  }
  const Step& step = group.steps[0];
  const Array& in = group.inputs[0];
  const Array& dest = group.outputs[0].dest;
  if (step.node->op != OpKind::Cast || step.args.size() != 1 ||
      step.args[0].kind != StepArg::Input || in.dtype() != step.node->dtype ||
      dest.dtype() != step.node->dtype || dest.shape() != group.shape ||
      shape_size(group.shape) == 0) {
    return false;
  }
  const size_t item = itemsize(in.dtype());
  const char* src = static_cast<const char*>(in.storage()->data()) + in.offset() * int64_t(item);
  char* dst = static_cast<char*>(dest.storage()->data()) + dest.offset() * int64_t(item);
  const Shape& shape = layout.shape;
  const Strides& is = layout.inputs[0];
  const Strides& os = layout.outputs[0];
  switch (item) {
    case 1:
      copy_all<uint8_t>(shape, is, os, src, dst);
      return true;
    case 2:
      copy_all<uint16_t>(shape, is, os, src, dst);
      return true;
    case 4:
      copy_all<uint32_t>(shape, is, os, src, dst);
      return true;
    case 8:
      copy_all<uint64_t>(shape, is, os, src, dst);
      return true;
    case 16:
      copy_all<Bytes16>(shape, is, os, src, dst);
      return true;
    default:
      return false;
  }
}

}  // namespace accel::cpu
