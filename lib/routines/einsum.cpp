// NumPy's einsum made of the library's recorded operations (so every dtype, device and autograd): an
// operand's repeated labels become diagonals, labels no other operand or the output names are summed
// away at once, then pairs of operands are contracted, the pair with the smallest result first (NumPy's
// greedy order), each by one batched matmul of (batch, free, summed) by (batch, summed, free) or, with
// nothing summed, a broadcast multiply. Sums keep the operands' dtype, as NumPy's einsum does.
#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

#include "einsum_subscripts.hpp"
#include "xp/diagonal.hpp"
#include "xp/linalg.hpp"
#include "xp/math.hpp"
#include "xp/promotion.hpp"
#include "xp/reductions.hpp"
#include "xp/shape_functions.hpp"
#include "xp/tensor_products.hpp"

namespace xp {

namespace {

struct Term {
  ndarray<> array;
  std::vector<int> labels;  // one an axis
};

bool contains(const std::vector<int>& labels, int label) {
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

std::string label_name(int label) {
  return label < 0 ? "an ellipsis dimension" : std::string("'") + static_cast<char>(label) + "'";
}

// Where one extent is 1 the other's, as broadcasting takes them (the two are equal otherwise).
std::int64_t joint_extent(std::int64_t x, std::int64_t y) { return x == 1 ? y : x; }

std::int64_t extent_of(const Term& term, int label) {
  const auto at = std::find(term.labels.begin(), term.labels.end(), label);
  return at == term.labels.end() ? 1 : term.array.shape()[at - term.labels.begin()];
}

// The positions of the first label that appears twice, if any.
std::optional<std::pair<int, int>> first_repeat(const std::vector<int>& labels) {
  for (std::size_t i = 0; i < labels.size(); ++i)
    for (std::size_t j = i + 1; j < labels.size(); ++j)
      if (labels[i] == labels[j]) return std::pair{static_cast<int>(i), static_cast<int>(j)};
  return std::nullopt;
}

// A label repeated in one operand takes that operand's diagonal over the two axes.
Term collapsed(Term term) {
  while (const auto repeat = first_repeat(term.labels)) {
    const auto [i, j] = *repeat;
    const int label = term.labels[static_cast<std::size_t>(i)];
    XP_CHECK(term.array.shape()[i] == term.array.shape()[j], ValueError, "einsum: the dimensions of one operand for ",
             label_name(label), " differ (", term.array.shape()[i], " != ", term.array.shape()[j], ")");
    term.array = diagonal(term.array, 0, i, j);
    term.labels.erase(term.labels.begin() + j);
    term.labels.erase(term.labels.begin() + i);
    term.labels.push_back(label);
  }
  return term;
}

// Each label's extent over all operands: equal, or 1 where it broadcasts.
std::map<int, std::int64_t> label_extents(const std::vector<Term>& terms) {
  std::map<int, std::int64_t> extents;
  for (const Term& term : terms)
    for (std::size_t axis = 0; axis < term.labels.size(); ++axis) {
      const std::int64_t n = term.array.shape()[axis];
      auto [at, fresh] = extents.emplace(term.labels[axis], n);
      if (fresh || at->second == n || n == 1) continue;
      std::ostringstream shapes;
      for (const Term& each : terms) shapes << " " << each.array.shape();
      XP_CHECK(at->second == 1, ValueError,
               "einsum: operands could not be broadcast together: ", label_name(term.labels[axis]), " has extents ",
               at->second, " and ", n, " (shapes", shapes.str(), ")");
      at->second = n;
    }
  return extents;
}

// The sum over `labels` (of the term), in the term's dtype: bool sums are ORs, as NumPy's einsum's.
Term summed_over(Term term, const std::vector<int>& labels) {
  std::vector<int> axes, kept;
  for (std::size_t axis = 0; axis < term.labels.size(); ++axis)
    (contains(labels, term.labels[axis]) ? axes : kept).push_back(static_cast<int>(axis));
  if (axes.empty()) return term;
  const xp::dtype type = term.array.dtype();
  term.array = type == xp::dtype::bool_ ? ndarray<>(any(term.array, axes)) : sum(term.array, axes, false, type);
  std::vector<int> labels_left;
  for (const int axis : kept) labels_left.push_back(term.labels[static_cast<std::size_t>(axis)]);
  term.labels = labels_left;
  return term;
}

// The term's axes transposed to `labels` (those it lacks inserted with extent 1), then broadcast to `shape`.
ndarray<> aligned(const Term& term, const std::vector<int>& labels, const Shape& shape) {
  std::vector<int> order;
  Shape own;
  for (const int label : labels) {
    const auto at = std::find(term.labels.begin(), term.labels.end(), label);
    if (at != term.labels.end()) order.push_back(static_cast<int>(at - term.labels.begin()));
    own.push_back(extent_of(term, label));
  }
  ndarray<> array = transpose(term.array, order).reshape(own);
  return own == shape ? array : array.broadcast_to(shape);
}

// Who needs a label after two terms are contracted: the output or any other term.
struct Uses {
  const std::vector<Term>& terms;
  const std::vector<int>& output;
  bool kept(int label, std::size_t first, std::size_t second) const {
    if (contains(output, label)) return true;
    for (std::size_t t = 0; t < terms.size(); ++t)
      if (t != first && t != second && contains(terms[t].labels, label)) return true;
    return false;
  }
};

struct PairPlan {
  std::vector<int> batch, left, summed, right;
  std::int64_t result_size = 1;
};

PairPlan plan_pair(const Uses& uses, std::size_t first, std::size_t second) {
  const Term &a = uses.terms[first], &b = uses.terms[second];
  PairPlan plan;
  for (const int label : a.labels) {
    const bool shared = contains(b.labels, label), kept = uses.kept(label, first, second);
    (shared ? (kept ? plan.batch : plan.summed) : plan.left).push_back(label);
    if (kept || !shared) plan.result_size *= joint_extent(extent_of(a, label), extent_of(b, label));
  }
  for (const int label : b.labels)
    if (!contains(a.labels, label)) {
      plan.right.push_back(label);
      plan.result_size *= extent_of(b, label);
    }
  return plan;
}

std::vector<int> concatenated(std::initializer_list<const std::vector<int>*> parts) {
  std::vector<int> out;
  for (const auto* part : parts) out.insert(out.end(), part->begin(), part->end());
  return out;
}

Shape extents_in(const Term& a, const Term& b, const std::vector<int>& labels, std::int64_t* product) {
  Shape shape;
  *product = 1;
  for (const int label : labels) {
    const std::int64_t n = joint_extent(extent_of(a, label), extent_of(b, label));
    shape.push_back(n);
    *product *= n;
  }
  return shape;
}

Term contracted(const Term& a, const Term& b, const PairPlan& plan) {
  Term result{ndarray<>(), concatenated({&plan.batch, &plan.left, &plan.right})};
  if (plan.summed.empty()) {
    Shape shape_a, shape_b;
    for (const int label : result.labels) {
      shape_a.push_back(extent_of(a, label));
      shape_b.push_back(extent_of(b, label));
    }
    result.array = multiply(aligned(a, result.labels, shape_a), aligned(b, result.labels, shape_b));
    return result;
  }
  std::int64_t batch = 1, rows = 1, inner = 1, columns = 1;
  const Shape batch_shape = extents_in(a, b, plan.batch, &batch), summed_shape = extents_in(a, b, plan.summed, &inner);
  const Shape left_shape = extents_in(a, a, plan.left, &rows), right_shape = extents_in(b, b, plan.right, &columns);
  const auto concat = [](Shape x, const Shape& y) {
    for (const std::int64_t n : y) x.push_back(n);
    return x;
  };
  const ndarray<> left = aligned(a, concatenated({&plan.batch, &plan.left, &plan.summed}),
                                 concat(concat(batch_shape, left_shape), summed_shape));
  const ndarray<> right = aligned(b, concatenated({&plan.batch, &plan.summed, &plan.right}),
                                  concat(concat(batch_shape, summed_shape), right_shape));
  result.array = matmul(left.reshape({batch, rows, inner}), right.reshape({batch, inner, columns}))
                     .reshape(concat(concat(batch_shape, left_shape), right_shape));
  return result;
}

// Contracts the pair whose result is smallest (the first such pair on ties) into the first's place.
void contract_smallest_pair(std::vector<Term>& terms, const std::vector<int>& output) {
  const Uses uses{terms, output};
  std::size_t best_first = 0, best_second = 1;
  PairPlan best = plan_pair(uses, 0, 1);
  for (std::size_t i = 0; i < terms.size(); ++i)
    for (std::size_t j = i + 1; j < terms.size(); ++j) {
      PairPlan plan = plan_pair(uses, i, j);
      if (plan.result_size < best.result_size) best = std::move(plan), best_first = i, best_second = j;
    }
  terms[best_first] = contracted(terms[best_first], terms[best_second], best);
  terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(best_second));
}

// The labels of terms[index] that neither the output nor another term names.
std::vector<int> private_labels(const std::vector<Term>& terms, std::size_t index, const std::vector<int>& output) {
  const Uses uses{terms, output};
  std::vector<int> labels;
  for (const int label : terms[index].labels)
    if (!uses.kept(label, index, index)) labels.push_back(label);
  return labels;
}

}  // namespace

ndarray<> einsum(std::string_view subscripts, const std::vector<ndarray<>>& operands) {
  XP_CHECK(!operands.empty(), ValueError, "einsum: no operands given for the subscripts '", subscripts, "'");
  std::vector<int> ndims;
  for (const ndarray<>& operand : operands) ndims.push_back(operand.ndim());
  const detail::EinsumSubscripts parsed = detail::parse_einsum_subscripts(subscripts, ndims);
  // Everything is computed in the result's dtype, as NumPy's einsum casts its operands first.
  xp::dtype type = operands.front().dtype();
  for (const ndarray<>& operand : operands) type = promote_types(type, operand.dtype());
  std::vector<Term> terms;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const ndarray<>& operand = operands[i];
    terms.push_back(collapsed({operand.dtype() == type ? operand : operand.astype(type), parsed.inputs[i]}));
  }
  const std::map<int, std::int64_t> extents = label_extents(terms);
  for (std::size_t i = 0; i < terms.size(); ++i)
    terms[i] = summed_over(terms[i], private_labels(terms, i, parsed.output));
  while (terms.size() > 1) contract_smallest_pair(terms, parsed.output);
  Shape shape;
  for (const int label : parsed.output) shape.push_back(extents.at(label));
  return aligned(terms.front(), parsed.output, shape);
}

}  // namespace xp
