// The views' and copies' backwards: reshape, transpose, indexing, diagonal, broadcast_to, squeeze, expand_dims,
// split, concatenate, stack, astype and copies to another device.
#include <algorithm>
#include <numeric>
#include <vector>

#include "api/array/diagonal_view.hpp"
#include "api/ops/indexing.hpp"
#include "autograd/gather.hpp"
#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"
#include "core/layout.hpp"
#include "xp/creation.hpp"
#include "xp/diagonal.hpp"
#include "xp/shape_functions.hpp"

namespace xp::detail {

namespace {

class ReshapeBackward final : public Backward {
 public:
  explicit ReshapeBackward(const Shape& input_shape) : input_shape_(input_shape) {}
  std::string_view name() const noexcept override { return "reshape"; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    grads[0] = reshape(g, input_shape_);
  }

 private:
  Shape input_shape_;
};

class TransposeBackward final : public Backward {
 public:
  explicit TransposeBackward(std::vector<int> inverse) : inverse_(std::move(inverse)) {}
  std::string_view name() const noexcept override { return "transpose"; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    grads[0] = transpose(g, inverse_);
  }

 private:
  std::vector<int> inverse_;  // empty: the axes were reversed
};

// The gradient of a part (a basic index) is zeros with the part's gradient written where it was.
class IndexBackward final : public Backward {
 public:
  IndexBackward(const ArrayCore& input, std::vector<Index> indices)
      : shape_(input.shape()), type_(input.dtype()), indices_(std::move(indices)) {}
  std::string_view name() const noexcept override { return "index"; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    grads[0] = detail::zeros(shape_, type_, g.device());
    copy_into(g, index(grads[0], indices_));
  }

 private:
  Shape shape_;
  xp::dtype type_;
  std::vector<Index> indices_;
};

// The gradient of a diagonal is zeros with the diagonal's gradient written along it.
class DiagonalBackward final : public Backward {
 public:
  DiagonalBackward(const ArrayCore& input, std::int64_t offset, int axis1, int axis2)
      : shape_(input.shape()), type_(input.dtype()), offset_(offset), axis1_(axis1), axis2_(axis2) {}
  std::string_view name() const noexcept override { return "diagonal"; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    grads[0] = detail::zeros(shape_, type_, g.device());
    copy_into(g, detail::diagonal(grads[0], offset_, axis1_, axis2_));
  }

 private:
  Shape shape_;
  xp::dtype type_;
  std::int64_t offset_;
  int axis1_, axis2_;
};

class BroadcastBackward final : public Backward {
 public:
  explicit BroadcastBackward(const Shape& input_shape) : input_shape_(input_shape) {}
  std::string_view name() const noexcept override { return "broadcast_to"; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    grads[0] = sum_to(g, input_shape_);
  }

 private:
  Shape input_shape_;
};

class CastBackward final : public Backward {
 public:
  explicit CastBackward(xp::dtype input_type) : input_type_(input_type) {}
  std::string_view name() const noexcept override { return "astype"; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    grads[0] = astype(g, input_type_);
  }

 private:
  xp::dtype input_type_;
};

// The forward moved the data on purpose, so its backward moves the gradient back.
class CopyBackward final : public Backward {
 public:
  explicit CopyBackward(Device source) : source_(source) {}
  std::string_view name() const noexcept override { return "copyto"; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    grads[0] = copy_to(g, source_);
  }

 private:
  Device source_;
};

// Positions along `axis` as indices for every axis up to it.
std::vector<Index> along(int axis, std::int64_t start, std::int64_t stop) {
  std::vector<Index> indices(static_cast<std::size_t>(axis + 1), Index(slice()));
  indices[axis] = slice(start, stop);
  return indices;
}

// concatenate's and stack's: each input's part of the gradient along the axis, in the input's shape.
class ConcatenateBackward final : public Backward {
 public:
  // stacked: each input is one position along `axis` of the output (stack), not a run of them.
  ConcatenateBackward(std::span<const ArrayCore* const> inputs, int axis, bool stacked)
      : axis_(axis), stacked_(stacked) {
    for (const ArrayCore* a : inputs) {
      shapes_.push_back(a->shape());
      extents_.push_back(stacked ? 1 : a->shape()[axis]);
      types_.push_back(a->dtype());
    }
  }
  std::string_view name() const noexcept override { return stacked_ ? "stack" : "concatenate"; }
  void run(const ArrayCore& g, std::span<const bool> needed, std::span<ArrayCore> grads) const override {
    std::int64_t start = 0;
    for (std::size_t k = 0; k < extents_.size(); ++k) {
      if (needed[k]) {
        const ArrayCore part = reshape(index(g, along(axis_, start, start + extents_[k])), shapes_[k]);
        grads[k] = part.dtype() == types_[k] ? part : astype(part, types_[k]);
      }
      start += extents_[k];
    }
  }

 private:
  int axis_;
  bool stacked_;
  std::vector<Shape> shapes_;
  std::vector<std::int64_t> extents_;
  std::vector<xp::dtype> types_;
};

template <class MakeBackward>
ArrayCore recorded_view(const ArrayCore& a, ArrayCore view, MakeBackward make_backward) {
  if (!must_record({&a})) return view;
  return connect(make_backward(), {&a}, view);
}

// The parts of a split, each recorded as the index it is.
std::vector<ArrayCore> recorded_parts(const ArrayCore& a, std::vector<ArrayCore> parts, int axis) {
  if (!must_record({&a})) return parts;
  const int normalized = normalize_axis(axis, a.ndim(), "split");
  std::int64_t start = 0;
  for (ArrayCore& part : parts) {
    const std::int64_t extent = part.shape()[normalized];
    part = connect(std::make_shared<IndexBackward>(a, along(normalized, start, start + extent)), {&a}, part);
    start += extent;
  }
  return parts;
}

}  // namespace

namespace recorded {

ArrayCore reshape(const ArrayCore& a, const Shape& shape) {
  return recorded_view(a, detail::reshape(a, shape), [&] { return std::make_shared<ReshapeBackward>(a.shape()); });
}

ArrayCore squeeze(const ArrayCore& a, const Axes& axes) {
  return recorded_view(a, detail::squeeze(a, axes), [&] { return std::make_shared<ReshapeBackward>(a.shape()); });
}

ArrayCore expand_dims(const ArrayCore& a, const Axes& axes) {
  return recorded_view(a, detail::expand_dims(a, axes), [&] { return std::make_shared<ReshapeBackward>(a.shape()); });
}

ArrayCore transpose(const ArrayCore& a, std::span<const int> axes) {
  return recorded_view(a, detail::transpose(a, axes), [&] {
    std::vector<int> inverse(axes.size());
    for (std::size_t i = 0; i < axes.size(); ++i)
      inverse[static_cast<std::size_t>(normalize_axis(axes[i], a.ndim(), "transpose"))] = static_cast<int>(i);
    return std::make_shared<TransposeBackward>(std::move(inverse));
  });
}

ArrayCore index(const ArrayCore& a, std::span<const Index> indices) {
  if (std::ranges::any_of(indices, [](const Index& i) { return i.kind() == Index::Kind::array; }))
    return recorded_gather(a, std::vector<Index>(indices.begin(), indices.end()), kernels::IndexMode::raise, "index");
  return recorded_view(a, detail::index(a, indices), [&] {
    return std::make_shared<IndexBackward>(a, std::vector<Index>(indices.begin(), indices.end()));
  });
}

ArrayCore diagonal(const ArrayCore& a, std::int64_t offset, int axis1, int axis2) {
  return recorded_view(a, detail::diagonal(a, offset, axis1, axis2),
                       [&] { return std::make_shared<DiagonalBackward>(a, offset, axis1, axis2); });
}

ArrayCore broadcast_to(const ArrayCore& a, const Shape& shape) {
  return recorded_view(a, detail::broadcast_to(a, shape),
                       [&] { return std::make_shared<BroadcastBackward>(a.shape()); });
}

ArrayCore astype(const ArrayCore& a, xp::dtype type) {
  ArrayCore result = detail::astype(a, type);
  if (!is_inexact_dtype(type)) return result;
  return recorded_view(a, std::move(result), [&] { return std::make_shared<CastBackward>(a.dtype()); });
}

ArrayCore copy_to(const ArrayCore& a, Device device) {
  return recorded_view(a, detail::copy_to(a, device), [&] { return std::make_shared<CopyBackward>(a.device()); });
}

ArrayCore as_in_context(const ArrayCore& a, Device device) {
  if (a.device() == device) return a;  // the array itself, as MXNet's
  return recorded::copy_to(a, device);
}

ArrayCore concatenate(std::span<const ArrayCore* const> arrays, int axis) {
  ArrayCore result = detail::concatenate(arrays, axis);
  if (!must_record(arrays)) return result;
  const int normalized = normalize_axis(axis, result.ndim(), "concatenate");
  return connect(std::make_shared<ConcatenateBackward>(arrays, normalized, /*stacked=*/false), arrays, result);
}

ArrayCore stack(std::span<const ArrayCore* const> arrays, int axis) {
  ArrayCore result = detail::stack(arrays, axis);
  if (!must_record(arrays)) return result;
  const int normalized = normalize_axis(axis, result.ndim(), "stack");
  return connect(std::make_shared<ConcatenateBackward>(arrays, normalized, /*stacked=*/true), arrays, result);
}

std::vector<ArrayCore> split(const ArrayCore& a, std::int64_t sections, int axis) {
  return recorded_parts(a, detail::split(a, sections, axis), axis);
}

std::vector<ArrayCore> split_at(const ArrayCore& a, std::span<const std::int64_t> points, int axis) {
  return recorded_parts(a, detail::split_at(a, points, axis), axis);
}

}  // namespace recorded

}  // namespace xp::detail
