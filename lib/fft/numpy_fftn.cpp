// numpy.fft's n-dimensional transforms: NumPy's reading of `s` and `axes` (_cook_nd_args), then its
// one-dimensional transforms axis after axis in NumPy's order.
#include <vector>

#include "xp/fft.hpp"

namespace xp::fft {

namespace {

// The axes to transform (as given, negative ones kept) and each one's length.
struct Lengthed {
  std::vector<int> axes;
  std::vector<std::int64_t> lengths;
};

Lengthed lengthed(std::string_view op, const ndarray<>& a, const Lengths& s, const Axes& axes, bool real_inverse) {
  const int ndim = a.ndim();
  Lengthed plan;
  if (!axes.all()) {
    plan.axes.assign(axes.list().begin(), axes.list().end());
  } else {
    // NumPy: the last len(s) axes, else every one.
    const int count = s ? static_cast<int>(s->size()) : ndim;
    for (int i = 0; i < count; ++i) plan.axes.push_back(s ? i - count : i);
  }
  XP_CHECK(!s || s->size() == plan.axes.size(), ValueError, op, ": Shape and axes have different lengths.");
  for (std::size_t i = 0; i < plan.axes.size(); ++i) {
    const int axis = plan.axes[i];
    XP_CHECK(axis >= -ndim && axis < ndim, ValueError, op, ": axis ", axis, " is out of bounds for array of dimension ",
             ndim);
    const std::int64_t extent = a.shape()[axis < 0 ? axis + ndim : axis];
    plan.lengths.push_back(s && (*s)[i] != -1 ? (*s)[i] : extent);
  }
  if (real_inverse && !s && !plan.axes.empty()) plan.lengths.back() = 2 * (plan.lengths.back() - 1);
  return plan;
}

using OneAxis = ndarray<> (*)(const ndarray<>&, std::optional<std::int64_t>, int, std::string_view);

// NumPy's _raw_fftnd: the last axis first.
ndarray<> each_axis(std::string_view op, OneAxis transform, const ndarray<>& a, const Lengths& s, const Axes& axes,
                    std::string_view norm) {
  const Lengthed plan = lengthed(op, a, s, axes, false);
  ndarray<> x = a;
  for (std::size_t i = plan.axes.size(); i-- > 0;) x = transform(x, plan.lengths[i], plan.axes[i], norm);
  return x;
}

void check_some_axis(std::string_view op, const Lengthed& plan) {
  XP_CHECK(!plan.axes.empty(), ValueError, op, ": at least one axis must be transformed");
}

}  // namespace

ndarray<> fftn(const ndarray<>& a, const Lengths& s, const Axes& axes, std::string_view norm) {
  return each_axis("fftn", fft, a, s, axes, norm);
}

ndarray<> ifftn(const ndarray<>& a, const Lengths& s, const Axes& axes, std::string_view norm) {
  return each_axis("ifftn", ifft, a, s, axes, norm);
}

ndarray<> rfftn(const ndarray<>& a, const Lengths& s, const Axes& axes, std::string_view norm) {
  const Lengthed plan = lengthed("rfftn", a, s, axes, false);
  check_some_axis("rfftn", plan);
  ndarray<> x = rfft(a, plan.lengths.back(), plan.axes.back(), norm);
  for (std::size_t i = plan.axes.size() - 1; i-- > 0;) x = fft(x, plan.lengths[i], plan.axes[i], norm);
  return x;
}

ndarray<> irfftn(const ndarray<>& a, const Lengths& s, const Axes& axes, std::string_view norm) {
  const Lengthed plan = lengthed("irfftn", a, s, axes, true);
  check_some_axis("irfftn", plan);
  ndarray<> x = a;
  for (std::size_t i = 0; i + 1 < plan.axes.size(); ++i) x = ifft(x, plan.lengths[i], plan.axes[i], norm);
  return irfft(x, plan.lengths.back(), plan.axes.back(), norm);
}

ndarray<> fft2(const ndarray<>& a, const Lengths& s, const Axes& axes, std::string_view norm) {
  return fftn(a, s, axes, norm);
}

ndarray<> ifft2(const ndarray<>& a, const Lengths& s, const Axes& axes, std::string_view norm) {
  return ifftn(a, s, axes, norm);
}

ndarray<> rfft2(const ndarray<>& a, const Lengths& s, const Axes& axes, std::string_view norm) {
  return rfftn(a, s, axes, norm);
}

ndarray<> irfft2(const ndarray<>& a, const Lengths& s, const Axes& axes, std::string_view norm) {
  return irfftn(a, s, axes, norm);
}

}  // namespace xp::fft
