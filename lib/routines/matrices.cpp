// tril and triu as NumPy's: where() over the mask of tri(rows, columns, k), so that autograd sees them.
#include "xp/matrices.hpp"

#include "xp/creation.hpp"
#include "xp/math.hpp"

namespace xp {

namespace {

// Which elements of the last two axes lie on or below diagonal k (NumPy's tri): j - i <= k.
ndarray<bool> on_or_below(const ndarray<>& a, std::int64_t k) {
  const std::int64_t columns = a.ndim() == 0 ? 1 : a.shape()[a.ndim() - 1];
  const std::int64_t rows = a.ndim() >= 2 ? a.shape()[a.ndim() - 2] : columns;
  const auto row = arange<std::int64_t>(0, static_cast<double>(rows), 1, a.device()).reshape({rows, 1});
  const auto column = arange<std::int64_t>(0, static_cast<double>(columns), 1, a.device());
  return less_equal(subtract(column, row), k);
}

}  // namespace

ndarray<> tril(const ndarray<>& a, std::int64_t k) {
  XP_CHECK(a.ndim() >= 1, TypeError, "tril: a 0-d array has no rows or columns (a TypeError, as NumPy's)");
  return where(on_or_below(a, k), a, xp::zeros(Shape{1}, a.dtype(), a.device()));
}

ndarray<> triu(const ndarray<>& a, std::int64_t k) {
  XP_CHECK(a.ndim() >= 1, TypeError, "triu: a 0-d array has no rows or columns (a TypeError, as NumPy's)");
  return where(on_or_below(a, k - 1), xp::zeros(Shape{1}, a.dtype(), a.device()), a);
}

}  // namespace xp
