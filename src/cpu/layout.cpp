#include "src/cpu/layout.hpp"

namespace accel::cpu {

Layout make_layout(const Group& group, const std::vector<int>& perm) {
  Layout lay;
  auto permute = [&](const Strides& s) {
    Strides out;
    for (int p : perm) out.push_back(s[p]);
    return out;
  };
  for (int p : perm) lay.shape.push_back(group.shape[p]);
  for (const Array& in : group.inputs) lay.inputs.push_back(permute(in.strides()));
  for (const GroupOutput& out : group.outputs) {
    lay.outputs.push_back(out.dest.shape() == group.shape ? permute(out.dest.strides())
                                                          : Strides{});
  }
  lay.index = permute(contiguous_strides(group.shape));

  // Drop unit dimensions and merge neighbours that every operand walks as one.
  auto all_strides = [&](auto&& fn) {
    for (Strides& s : lay.inputs) fn(s);
    for (Strides& s : lay.outputs) {
      if (!s.empty()) fn(s);
    }
    fn(lay.index);
  };
  if (shape_size(lay.shape) == 0) {
    lay.shape = {0};
    all_strides([](Strides& s) { s = {0}; });
    return lay;
  }
  Shape shape;
  std::vector<int> keep;
  for (size_t d = 0; d < lay.shape.size(); ++d) {
    if (lay.shape[d] != 1) keep.push_back(int(d));
  }
  all_strides([&](Strides& s) {
    Strides t;
    for (int d : keep) t.push_back(s[d]);
    s = t;
  });
  for (int d : keep) shape.push_back(lay.shape[d]);
  for (size_t d = shape.size(); d-- > 1;) {
    bool mergeable = true;
    all_strides([&](Strides& s) { mergeable = mergeable && s[d - 1] == s[d] * shape[d]; });
    if (!mergeable) continue;
    shape[d - 1] *= shape[d];
    shape.erase(shape.begin() + d);
    all_strides([&](Strides& s) { s.erase(s.begin() + d - 1); });
  }
  if (shape.empty()) {
    shape = {1};
    all_strides([](Strides& s) { s = {0}; });
  }
  lay.shape = shape;
  return lay;
}

}  // namespace accel::cpu
