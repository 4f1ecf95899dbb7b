// einsum: the subscripts are parsed into integer labels (a letter's character code; ellipsis
// dimensions get 256 + position), then the operands are reduced one step at a time:
//   - a label repeated within one operand is its diagonal: a strided view, nothing copied;
//   - a label no other operand and not the output uses is summed away (a reduction);
//   - operands are contracted left to right, each pair with one (batched) matmul: shared labels
//     the rest still needs are batch dimensions, shared labels nobody else needs are summed by
//     the product, the others are the matrices' rows and columns;
//   - the last operand is transposed into the output's order.
// Everything computes in the operands' common dtype, as NumPy's einsum does.
#include <algorithm>
#include <string>

#include "accel/errors.hpp"
#include "src/core/ops/common.hpp"

namespace accel {

namespace {

constexpr int kEllipsisLabel = 256;

struct Term {
  std::vector<int> labels;  // one per dimension, once the ellipsis is expanded
  bool ellipsis = false;
  int ellipsis_at = 0;  // index in `labels` where the ellipsis stood (before expansion)
};

std::string label_name(int l) {
  return l >= kEllipsisLabel ? "..." + std::to_string(l - kEllipsisLabel) : std::string(1, char(l));
}

Term parse_term(const std::string& s, bool output) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if (ch == ' ') continue;
    if (ch == '.') {
      if (s.compare(i, 3, "...") != 0 || t.ellipsis) {
        throw ValueError(std::string("einstein sum subscripts string contains a '.' that is not "
                                     "part of an ellipsis ('...') in the ") +
                         (output ? "output" : "operand") + " subscripts '" + s + "'");
      }
      t.ellipsis = true;
      t.ellipsis_at = int(t.labels.size());
      i += 2;
      continue;
    }
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))) {
      throw ValueError(std::string("invalid subscript '") + ch +
                       "' in einstein sum subscripts string, subscripts must be letters");
    }
    t.labels.push_back(int(ch));
  }
  return t;
}

// A labelled operand.
struct Labelled {
  Array a;
  std::vector<int> labels;
};

bool contains(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// Takes the diagonal of repeated labels (a strided view).
Labelled diagonals(Labelled t) {
  std::vector<int> labels;
  Shape shape;
  Strides strides;
  for (int d = 0; d < t.a.ndim(); ++d) {
    const int l = t.labels[size_t(d)];
    auto it = std::find(labels.begin(), labels.end(), l);
    if (it == labels.end()) {
      labels.push_back(l);
      shape.push_back(t.a.shape()[d]);
      strides.push_back(t.a.strides()[d]);
      continue;
    }
    const size_t j = size_t(it - labels.begin());
    if (shape[j] != t.a.shape()[d]) {
      throw ValueError("einsum: dimensions in operand for collapsing index '" + label_name(l) +
                       "' don't match (" + std::to_string(shape[j]) +
                       " != " + std::to_string(t.a.shape()[d]) + ")");
    }
    strides[j] += t.a.strides()[d];
  }
  if (labels.size() == t.labels.size()) return t;
  return {t.a.view(shape, strides, t.a.offset()), labels};
}

// Sums away the labels not in `keep`, in the operand's own dtype.
Labelled sum_unless(Labelled t, const std::vector<int>& keep) {
  std::vector<int64_t> axes;
  std::vector<int> labels;
  for (int d = 0; d < t.a.ndim(); ++d) {
    if (contains(keep, t.labels[size_t(d)])) {
      labels.push_back(t.labels[size_t(d)]);
    } else {
      axes.push_back(d);
    }
  }
  if (axes.empty()) return t;
  return {sum(t.a, axes, false, t.a.dtype()), labels};
}

// Permutes t's dimensions into `order` (a permutation of its labels) and merges consecutive runs
// into the dimensions `groups` gives (counts of labels), as a reshape.
Array arrange(const Labelled& t, const std::vector<int>& order, const std::vector<int>& groups) {
  std::vector<int64_t> perm;
  for (int l : order) {
    perm.push_back(int64_t(std::find(t.labels.begin(), t.labels.end(), l) - t.labels.begin()));
  }
  const Array p = transpose(t.a, perm);
  Shape shape;
  int at = 0;
  for (int g : groups) {
    int64_t size = 1;
    for (int i = 0; i < g; ++i) size *= p.shape()[at + i];
    at += g;
    shape.push_back(size);
  }
  return reshape(p, shape);
}

// Contracts two operands, keeping the labels in `keep` (output and later operands).
Labelled contract(const Labelled& x, const Labelled& y, const std::vector<int>& keep) {
  std::vector<int> batch, summed, xfree, yfree;
  for (int l : x.labels) {
    if (contains(y.labels, l)) {
      (contains(keep, l) ? batch : summed).push_back(l);
    } else {
      xfree.push_back(l);
    }
  }
  for (int l : y.labels)
    if (!contains(x.labels, l)) yfree.push_back(l);
  // x -> (batch..., M, K), y -> (batch..., K, N): batch dimensions stay separate so that
  // matmul broadcasts them; rows, columns and the summed labels are merged.
  std::vector<int> xorder = batch, yorder = batch;
  xorder.insert(xorder.end(), xfree.begin(), xfree.end());
  xorder.insert(xorder.end(), summed.begin(), summed.end());
  yorder.insert(yorder.end(), summed.begin(), summed.end());
  yorder.insert(yorder.end(), yfree.begin(), yfree.end());
  std::vector<int> xgroups(batch.size(), 1), ygroups(batch.size(), 1);
  xgroups.push_back(int(xfree.size()));
  xgroups.push_back(int(summed.size()));
  ygroups.push_back(int(summed.size()));
  ygroups.push_back(int(yfree.size()));
  const Array product = matmul(arrange(x, xorder, xgroups), arrange(y, yorder, ygroups));
  Shape shape(product.shape().begin(), product.shape().begin() + int64_t(batch.size()));
  for (int l : xfree)
    shape.push_back(x.a.shape()[std::find(x.labels.begin(), x.labels.end(), l) - x.labels.begin()]);
  for (int l : yfree)
    shape.push_back(y.a.shape()[std::find(y.labels.begin(), y.labels.end(), l) - y.labels.begin()]);
  std::vector<int> labels = batch;
  labels.insert(labels.end(), xfree.begin(), xfree.end());
  labels.insert(labels.end(), yfree.begin(), yfree.end());
  return {reshape(product, shape), labels};
}

}  // namespace

Array einsum(const std::string& subscripts, const std::vector<Array>& operands) {
  if (operands.empty()) throw ValueError("einsum: at least one operand is needed");
  common_device(operands);
  const size_t arrow = subscripts.find("->");
  const bool explicit_out = arrow != std::string::npos;
  const std::string ins = subscripts.substr(0, arrow);
  std::vector<Term> terms;
  for (size_t start = 0;;) {
    const size_t comma = ins.find(',', start);
    terms.push_back(parse_term(ins.substr(start, comma - start), false));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != operands.size()) {
    throw ValueError("einsum: the subscripts name " + std::to_string(terms.size()) +
                     " operands but " + std::to_string(operands.size()) + " were given");
  }
  // Expand ellipses: right-aligned, broadcast like NumPy's.
  int ell_ndim = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    const int nd = operands[i].ndim(), named = int(terms[i].labels.size());
    if (named > nd || (!terms[i].ellipsis && named != nd)) {
      throw ValueError("einsum: operand " + std::to_string(i) + " has " + std::to_string(nd) +
                       " dimensions but its subscripts name " + std::to_string(named) +
                       (terms[i].ellipsis ? " (plus an ellipsis)" : "") +
                       "; use '...' to broadcast extra dimensions");
    }
    if (terms[i].ellipsis) ell_ndim = std::max(ell_ndim, nd - named);
  }
  for (size_t i = 0; i < terms.size(); ++i) {
    if (!terms[i].ellipsis) continue;
    const int e = operands[i].ndim() - int(terms[i].labels.size());
    std::vector<int> ell;
    for (int j = 0; j < e; ++j) ell.push_back(kEllipsisLabel + ell_ndim - e + j);
    terms[i].labels.insert(terms[i].labels.begin() + terms[i].ellipsis_at, ell.begin(), ell.end());
  }
  std::vector<int> out;
  if (explicit_out) {
    const Term t = parse_term(subscripts.substr(arrow + 2), true);
    out = t.labels;
    if (t.ellipsis) {
      std::vector<int> ell;
      for (int j = 0; j < ell_ndim; ++j) ell.push_back(kEllipsisLabel + j);
      out.insert(out.begin() + t.ellipsis_at, ell.begin(), ell.end());
    }
    for (size_t i = 0; i < out.size(); ++i) {
      if (std::count(out.begin(), out.end(), out[i]) > 1) {
        throw ValueError("einstein sum subscripts string includes output subscript '" +
                         label_name(out[i]) + "' multiple times");
      }
      bool found = false;
      for (const Term& term : terms) found = found || contains(term.labels, out[i]);
      if (!found) {
        throw ValueError("einstein sum subscripts string included output subscript '" +
                         label_name(out[i]) + "' which never appeared in an input");
      }
    }
  } else {
    // Implicit: the ellipsis dimensions, then the labels used exactly once, in alphabetical
    // (character code) order.
    for (int j = 0; j < ell_ndim; ++j) out.push_back(kEllipsisLabel + j);
    std::vector<int> once;
    for (const Term& term : terms) {
      for (int l : term.labels) {
        if (l >= kEllipsisLabel) continue;
        int count = 0;
        for (const Term& u : terms) count += int(std::count(u.labels.begin(), u.labels.end(), l));
        if (count == 1) once.push_back(l);
      }
    }
    std::sort(once.begin(), once.end());
    out.insert(out.end(), once.begin(), once.end());
  }

  // Sizes per label (1 broadcasts), and the operands in the common dtype, broadcast to them.
  std::vector<int64_t> size(kEllipsisLabel + size_t(ell_ndim) + 1, -1);
  for (size_t i = 0; i < terms.size(); ++i) {
    for (size_t d = 0; d < terms[i].labels.size(); ++d) {
      const int l = terms[i].labels[d];
      const int64_t s = operands[i].shape()[int64_t(d)];
      if (size[size_t(l)] == -1 || size[size_t(l)] == 1) {
        size[size_t(l)] = s;
      } else if (s != 1 && s != size[size_t(l)]) {
        throw ValueError("einsum: operands could not be broadcast together: subscript '" +
                         label_name(l) + "' has sizes " + std::to_string(size[size_t(l)]) +
                         " and " + std::to_string(s));
      }
    }
  }
  std::vector<ArrayOrScalar> all(operands.begin(), operands.end());
  const DType dtype = result_type(all);
  std::vector<Labelled> ts;
  for (size_t i = 0; i < terms.size(); ++i) {
    Array a = cast_to(operands[i], dtype);
    Shape full = a.shape();
    for (size_t d = 0; d < terms[i].labels.size(); ++d)
      full[int64_t(d)] = size[size_t(terms[i].labels[d])];
    if (full != a.shape()) a = broadcast_view(a, full);
    ts.push_back(diagonals({a, terms[i].labels}));
  }

  // Labels needed after operand i: the output's and those of operands after i.
  auto needed_after = [&](size_t i) {
    std::vector<int> keep = out;
    for (size_t j = i + 1; j < ts.size(); ++j)
      keep.insert(keep.end(), ts[j].labels.begin(), ts[j].labels.end());
    return keep;
  };
  Labelled acc = ts[0];
  for (size_t i = 1; i < ts.size(); ++i) {
    const std::vector<int> keep = needed_after(i);
    std::vector<int> keep_acc = keep, keep_next = keep;
    keep_acc.insert(keep_acc.end(), ts[i].labels.begin(), ts[i].labels.end());
    keep_next.insert(keep_next.end(), acc.labels.begin(), acc.labels.end());
    acc = contract(sum_unless(acc, keep_acc), sum_unless(ts[i], keep_next), keep);
  }
  acc = sum_unless(acc, out);
  std::vector<int64_t> perm;
  for (int l : out)
    perm.push_back(
        int64_t(std::find(acc.labels.begin(), acc.labels.end(), l) - acc.labels.begin()));
  return transpose(acc.a, perm);
}

}  // namespace accel
