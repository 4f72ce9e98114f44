// Shapes and the backend-independent layout planning.
#include <doctest/doctest.h>

#include <sstream>
#include <vector>

#include "core/index_plan.hpp"
#include "core/layout.hpp"
#include "core/segment_plan.hpp"
#include "xp/shape.hpp"

using xp::Shape;
using xp::Strides;

namespace {
std::string text(const Shape& s) {
  std::ostringstream out;
  out << s;
  return out.str();
}
}  // namespace

TEST_CASE("shapes hold any integral extents and print as NumPy tuples") {
  const std::size_t n = 4;
  const Shape s{2, n, 3L};
  CHECK(s.ndim() == 3);
  CHECK(s[1] == 4);
  CHECK(text(s) == "(2, 4, 3)");
  CHECK(text(Shape(5)) == "(5,)");
  CHECK(text(Shape()) == "()");
  CHECK(xp::numel(s) == 24);
  CHECK(xp::numel(Shape()) == 1);
  CHECK(xp::numel(Shape(3, 0)) == 0);
  CHECK(Shape(2, 3) == Shape{2, 3});
  CHECK(!(Shape(2, 3) == Shape(3, 2)));
  CHECK(Shape(std::vector<std::int64_t>{1, 2}) == Shape(1, 2));
  // 17 extents given one by one do not compile (a static_assert); at run time they are a ValueError.
  CHECK_THROWS_WITH_AS(
      Shape(std::vector<int>(17, 1)),
      "17 extents (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1): arrays have at most 16 dimensions",
      xp::ValueError);
  CHECK_THROWS_WITH_AS(Shape(std::span<const std::int64_t>(std::vector<std::int64_t>(18, 2))),
                       doctest::Contains("18 extents (2, 2,"), xp::ValueError);
  CHECK_THROWS_AS(Shape(std::uint64_t(1) << 63), xp::ValueError);
}

TEST_CASE("contiguous strides are C order") {
  CHECK(xp::contiguous_strides(Shape(2, 3, 4)) == Strides(12, 4, 1));
  CHECK(xp::contiguous_strides(Shape(5)) == Strides(1));
  CHECK(xp::contiguous_strides(Shape()) == Strides());
  using xp::detail::is_c_contiguous;
  CHECK(is_c_contiguous(Shape(2, 3), Strides(3, 1)));
  CHECK(!is_c_contiguous(Shape(2, 3), Strides(1, 2)));
  CHECK(is_c_contiguous(Shape(2, 1, 3), Strides(3, 99, 1)));  // extent-1 axes do not matter
  CHECK(is_c_contiguous(Shape(0, 3), Strides(7, 9)));
  CHECK(!is_c_contiguous(Shape(3), Strides(0)));
}

TEST_CASE("squashing merges axes that every operand walks as one") {
  Shape shape(2, 3, 4);
  Strides a(12, 4, 1), b(12, 4, 1);
  Strides* both[] = {&a, &b};
  xp::detail::squash_axes(shape, both);
  CHECK(shape == Shape(24));
  CHECK(a == Strides(1));

  Shape transposed(4, 3, 2);  // the (2, 3, 4) array transposed
  Strides t(1, 4, 12), c(6, 2, 1);
  Strides* pair[] = {&t, &c};
  xp::detail::squash_axes(transposed, pair);
  CHECK(transposed == Shape(4, 3, 2));

  Shape sliced(2, 1, 3, 4);  // planes 30 apart, rows 8 apart: only the extent-1 axis goes
  Strides s(30, 5, 8, 1);
  Strides* one[] = {&s};
  xp::detail::squash_axes(sliced, one);
  CHECK(sliced == Shape(2, 3, 4));
  CHECK(s == Strides(30, 8, 1));

  Shape rows(2, 3, 4);  // every other row of a (2, 6, 4) array: planes and rows merge
  Strides r(24, 8, 1);
  Strides* just_rows[] = {&r};
  xp::detail::squash_axes(rows, just_rows);
  CHECK(rows == Shape(6, 4));
  CHECK(r == Strides(8, 1));

  Shape ones(1, 1);
  Strides o(5, 5);
  Strides* single[] = {&o};
  xp::detail::squash_axes(ones, single);
  CHECK(ones.ndim() == 0);
  CHECK(o.ndim() == 0);
}

TEST_CASE("reshape resolves one unknown extent") {
  using xp::detail::resolve_reshape;
  CHECK(resolve_reshape(Shape(-1, 3), 12) == Shape(4, 3));
  CHECK(resolve_reshape(Shape(2, -1, 2), 12) == Shape(2, 3, 2));
  CHECK(resolve_reshape(Shape(3, 0), 0) == Shape(3, 0));
  CHECK_THROWS_AS(resolve_reshape(Shape(0, -1), 0), xp::ValueError);  // NumPy cannot tell either
  CHECK_THROWS_WITH_AS(resolve_reshape(Shape(4, 2), 6), "reshape: cannot reshape array of size 6 into shape (4, 2)",
                       xp::ValueError);
  CHECK_THROWS_AS(resolve_reshape(Shape(-1, 5), 12), xp::ValueError);
  CHECK_THROWS_AS(resolve_reshape(Shape(-1, -1), 12), xp::ValueError);
  CHECK_THROWS_AS(resolve_reshape(Shape(-2, -6), 12), xp::ValueError);
}

TEST_CASE("reshape keeps a view whenever NumPy can") {
  using xp::detail::reshape_strides;
  CHECK(reshape_strides(Shape(2, 3), Strides(3, 1), Shape(3, 2)) == Strides(2, 1));
  CHECK(reshape_strides(Shape(2, 3), Strides(3, 1), Shape(6, 1)) == Strides(1, 1));
  // a (4, 6) array sliced to every other column: (4, 3) strides (6, 2) -> (2, 2, 3)
  CHECK(reshape_strides(Shape(4, 3), Strides(6, 2), Shape(2, 2, 3)) == Strides(12, 6, 2));
  // splitting one axis of a transposed array is fine, merging two is not
  CHECK(reshape_strides(Shape(4, 2), Strides(1, 4), Shape(2, 2, 2)) == Strides(2, 1, 4));
  CHECK(!reshape_strides(Shape(4, 2), Strides(1, 4), Shape(8)));
  CHECK(!reshape_strides(Shape(3, 2), Strides(1, 3), Shape(6)));
  CHECK(reshape_strides(Shape(3), Strides(0), Shape(1, 3)) == Strides(0, 0));
}

TEST_CASE("broadcasting strides follows NumPy") {
  using xp::detail::broadcast_strides;
  CHECK(broadcast_strides(Shape(3), Strides(1), Shape(2, 3)) == Strides(0, 1));
  CHECK(broadcast_strides(Shape(2, 1), Strides(1, 1), Shape(2, 4)) == Strides(1, 0));
  CHECK(broadcast_strides(Shape(), Strides(), Shape(2, 2)) == Strides(0, 0));
  CHECK_THROWS_WITH_AS(broadcast_strides(Shape(3), Strides(1), Shape(2, 4)),
                       "broadcast_to: cannot broadcast an array of shape (3,) to shape (2, 4)", xp::ValueError);
  CHECK_THROWS_AS(broadcast_strides(Shape(2, 3), Strides(3, 1), Shape(3)), xp::ValueError);
}

TEST_CASE("axes normalise into range") {
  using xp::detail::normalize_axis;
  CHECK(normalize_axis(-1, 3, "op") == 2);
  CHECK(normalize_axis(0, 3, "op") == 0);
  CHECK_THROWS_WITH_AS(normalize_axis(3, 3, "sum"), "sum: axis 3 is out of bounds for an array of dimension 3",
                       xp::ValueError);
  CHECK_THROWS_AS(normalize_axis(-4, 3, "sum"), xp::ValueError);
}

TEST_CASE("offset ranges cover negative strides") {
  using xp::detail::offset_range;
  CHECK(offset_range(Shape(2, 3), Strides(3, 1)) == std::pair<std::int64_t, std::int64_t>{0, 5});
  CHECK(offset_range(Shape(3), Strides(-2)) == std::pair<std::int64_t, std::int64_t>{-4, 0});
}

TEST_CASE("segment plans: which elements an operation along an axis sees as rows") {
  const Shape shape(2, 3, 4);
  const auto middle = xp::detail::axis_segments("op", shape, 1);
  CHECK(middle.axis == 1);
  CHECK((middle.outer == 2 && middle.length == 3 && middle.inner == 4));
  CHECK(middle.segments() == 8);
  const auto last = xp::detail::axis_segments("op", shape, -1);
  CHECK((last.axis == 2 && last.outer == 6 && last.length == 4 && last.inner == 1));
  const auto flat = xp::detail::axis_segments("op", shape, std::nullopt);
  CHECK((flat.outer == 1 && flat.length == 24 && flat.inner == 1));
  CHECK_THROWS_WITH_AS(xp::detail::axis_segments("sort", shape, 3),
                       "sort: axis 3 is out of bounds for an array of dimension 3", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::detail::axis_segments("sort", Shape(), -1),
                       "sort: axis -1 is out of bounds for array of dimension 0", xp::ValueError);
  CHECK(xp::detail::axis_segments("op", Shape(), std::nullopt).length == 1);

  const auto order = xp::detail::axis_last_order(3, 0);
  CHECK((order[0] == 1 && order[1] == 2 && order[2] == 0));
  // A row-major buffer of shape (3, 4, 2) (axis 0 moved last) seen as (2, 3, 4): element (a, b, c) is at
  // b * 8 + c * 2 + a.
  CHECK(xp::detail::axis_last_strides(shape, 0) == Strides(1, 8, 2));
  CHECK(xp::detail::axis_last_strides(shape, 2) == Strides(12, 4, 1));
  CHECK(xp::detail::axis_last_strides(shape, 1) == Strides(12, 1, 3));
}

namespace {

using xp::detail::IndexTerm;
using xp::detail::IndexTermKind;

IndexTerm at(std::int64_t position) { return {IndexTermKind::position, position, {}, {}, 0}; }
IndexTerm all() { return {IndexTermKind::slice, 0, xp::slice(), {}, 0}; }
IndexTerm integers(Shape shape) { return {IndexTermKind::integers, 0, {}, shape, 0}; }
IndexTerm mask(Shape shape, std::int64_t count) { return {IndexTermKind::mask, 0, {}, shape, count}; }
IndexTerm term(IndexTermKind kind) { return {kind, 0, {}, {}, 0}; }

}  // namespace

TEST_CASE("index plans: NumPy's placement of advanced indices, golden shapes from NumPy") {
  using xp::detail::plan_index;
  const Shape shape(2, 3, 4, 5);
  const Strides strides(60, 20, 5, 1);
  const auto result = [&](std::vector<IndexTerm> terms) { return plan_index(shape, strides, terms).result_shape(); };
  // basic: a view, no index arrays
  const auto basic = plan_index(shape, strides, std::vector{at(1), term(IndexTermKind::newaxis), all()});
  CHECK(!basic.advanced());
  CHECK(basic.offset == 60);
  CHECK(basic.outer_shape == Shape(1, 3, 4, 5));
  CHECK(basic.outer_strides == Strides(0, 20, 5, 1));
  // a[0, :, [1, 3]] -> (2, 3, 5): separated by a slice, the index shape comes first
  CHECK(result({at(0), all(), integers(Shape(2))}) == Shape(2, 3, 5));
  // a[:, 0, [0, 1]] -> (2, 2, 5): adjacent (a position counts as an index array among them)
  CHECK(result({all(), at(0), integers(Shape(2))}) == Shape(2, 2, 5));
  // a[[0], ..., [0]] -> (1, 3, 4): the ellipsis separates them; so does newaxis: (1, 1, 4, 5)
  CHECK(result({integers(Shape(1)), term(IndexTermKind::ellipsis), integers(Shape(1))}) == Shape(1, 3, 4));
  CHECK(result({integers(Shape(1)), term(IndexTermKind::newaxis), integers(Shape(1))}) == Shape(1, 1, 4, 5));
  // a[:, [[0], [1]], 1:3, [0, 1, 2]] -> (2, 3, 2, 2)
  const IndexTerm middle{IndexTermKind::slice, 0, xp::slice(1, 3), {}, 0};
  CHECK(result({all(), integers(Shape(2, 1)), middle, integers(Shape(3))}) == Shape(2, 3, 2, 2));
  // a[..., [0, 1]] -> (2, 3, 4, 2); a mask over axes 1 and 2 with 7 true -> (2, 7, 5)
  CHECK(result({term(IndexTermKind::ellipsis), integers(Shape(2))}) == Shape(2, 3, 4, 2));
  const auto masked = plan_index(shape, strides, std::vector{all(), mask(Shape(3, 4), 7)});
  CHECK(masked.result_shape() == Shape(2, 7, 5));
  REQUIRE(masked.indexed.size() == 1);
  CHECK(masked.indexed[0].extents == Shape(12));  // one block of axes 1 and 2: merged
  CHECK(masked.indexed[0].strides == Strides(5));
  const auto transposed = plan_index(Shape(4, 3), Strides(1, 4), std::vector{mask(Shape(4, 3), 2)});
  CHECK(transposed.indexed[0].extents == Shape(4, 3));  // not one block: positions unravel
  CHECK_THROWS_WITH_AS(result({at(0), at(0), at(0), at(0), at(0)}),
                       "too many indices for array: array is 4-dimensional, but 5 were indexed", xp::IndexError);
  CHECK_THROWS_WITH_AS(result({at(2)}), "index 2 is out of bounds for axis 0 with size 2", xp::IndexError);
  CHECK_THROWS_AS(result({integers(Shape(2)), integers(Shape(3))}), xp::IndexError);
}
