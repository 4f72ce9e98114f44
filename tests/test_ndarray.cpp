#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "device_cases.hpp"
#include "element_types.hpp"

namespace {
// A host device other than `device`, for copies between devices.
xp::Device other_host(xp::Device device) { return device == xp::cpu(0) ? xp::cpu(1) : xp::cpu(0); }

xp::ndarray<int> iota(xp::Shape shape, xp::Device device) {
  return xp::arange<int>(0, static_cast<double>(xp::numel(shape)), 1, device).reshape(shape);
}

// What an array keeps besides its view (its buffer, autograd's state) is the library's business, not a
// member of every user's array (detail::ArrayInternals reaches it).
template <class A>
concept exposes_internals = requires(A a) { a.buffer(); } || requires(A a) { a.autograd_meta(); } ||
                            requires(A a) { a.set_autograd_meta(nullptr); };
static_assert(!exposes_internals<xp::ndarray<float>> && !exposes_internals<xp::ndarray<>> &&
              !exposes_internals<xp::detail::ArrayCore>);
}  // namespace

XP_TEST_ON_DEVICES("reshape is a view when the layout allows, else a copy") {
  const auto a = iota({2, 3}, device);
  const auto b = a.reshape({3, 2});
  CHECK(b.shares_buffer_with(a));
  CHECK(b.data() == a.data());
  CHECK(b.shape() == xp::Shape(3, 2));
  CHECK(b.to_vector() == std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(a.reshape({-1}).shape() == xp::Shape(6));
  CHECK(a.reshape(6).shape() == xp::Shape(6));
  const auto t = a.transpose();  // (3, 2), not contiguous: flattening it copies
  const auto flat = t.reshape({6});
  CHECK(!flat.shares_buffer_with(a));
  CHECK(flat.to_vector() == std::vector<int>{0, 3, 1, 4, 2, 5});
  CHECK_THROWS_WITH_AS(a.reshape({4, 2}), "reshape: cannot reshape array of size 6 into shape (4, 2)", xp::ValueError);
}

XP_TEST_ON_DEVICES("transpose permutes axes over the same buffer") {
  const auto a = iota({2, 3, 4}, device);
  const auto t = a.transpose();
  CHECK(t.shape() == xp::Shape(4, 3, 2));
  CHECK(t.strides() == xp::Strides(1, 4, 12));
  CHECK(t.shares_buffer_with(a));
  CHECK(!t.is_contiguous());
  const auto p = a.transpose(1, 0, 2);
  CHECK(p.shape() == xp::Shape(3, 2, 4));
  const std::vector<int> values = p.to_vector();
  CHECK(values[4] == 12);  // p[0][1][0] = a[1][0][0]
  CHECK(values[8] == 4);  // p[1][0][0] = a[0][1][0]
  CHECK(a.transpose(-1, 0, 1).shape() == xp::Shape(4, 2, 3));
  CHECK(iota({2, 3}, device).transpose().to_vector() == std::vector<int>{0, 3, 1, 4, 2, 5});
  CHECK_THROWS_AS(a.transpose(0, 1), xp::ValueError);
  CHECK_THROWS_WITH_AS(a.transpose(0, 1, 1), "transpose: repeated axis 1", xp::ValueError);
  CHECK_THROWS_AS(a.transpose(0, 1, 3), xp::ValueError);
}

XP_TEST_ON_DEVICES("indexing and slicing as NumPy") {
  const auto a = iota({3, 4}, device);
  const auto row = a(1);
  CHECK(row.shape() == xp::Shape(4));
  CHECK(row.shares_buffer_with(a));
  CHECK(row.to_vector() == std::vector<int>{4, 5, 6, 7});
  CHECK(a(-1, -1).item() == 11);
  CHECK(a(xp::slice(), 2).to_vector() == std::vector<int>{2, 6, 10});
  CHECK(a(xp::slice(0, 2), xp::slice(1, 3)).to_vector() == std::vector<int>{1, 2, 5, 6});
  CHECK(a(xp::slice(xp::none, xp::none, -1), 0).to_vector() == std::vector<int>{8, 4, 0});
  CHECK(a(0, xp::slice(xp::none, xp::none, 2)).to_vector() == std::vector<int>{0, 2});
  CHECK(a(0, xp::slice(-2, xp::none)).to_vector() == std::vector<int>{2, 3});
  CHECK(a(0, xp::slice(3, 0, -2)).to_vector() == std::vector<int>{3, 1});
  CHECK(a(0, xp::slice(10, 20)).size() == 0);
  CHECK(a(0, xp::slice(-100, 100)).size() == 4);
  CHECK(a().shape() == a.shape());
  CHECK_THROWS_WITH_AS(a(3), "index 3 is out of bounds for axis 0 with size 3", xp::IndexError);
  CHECK_THROWS_WITH_AS(a(0, -5), "index -5 is out of bounds for axis 1 with size 4", xp::IndexError);
  CHECK_THROWS_WITH_AS(a(0, 0, 0), "too many indices for array: array is 2-dimensional, but 3 were indexed",
                       xp::IndexError);
  CHECK_THROWS_WITH_AS(a(xp::slice(0, 2, 0)), "slice step cannot be zero", xp::ValueError);
}

XP_TEST_ON_DEVICES("broadcast_to views one element many times") {
  const auto a = xp::array<float>({1, 2, 3}, device);
  const auto b = a.broadcast_to({2, 3});
  CHECK(b.shares_buffer_with(a));
  CHECK(b.strides() == xp::Strides(0, 1));
  CHECK(b.to_vector() == std::vector<float>{1, 2, 3, 1, 2, 3});
  CHECK_THROWS_AS(a.broadcast_to({2, 4}), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::ones<float>({2, 3}, device).copyto(b), doctest::Contains("the output is a broadcast view"),
                       xp::ValueError);
}

XP_TEST_ON_DEVICES("copyto always copies; as_in_context shares on the same device") {
  const auto y = xp::array<float>({1, 2, 3}, device);
  const auto same = y.as_in_context(device);
  CHECK(same.shares_buffer_with(y));  // MXNet: y.as_in_context(ctx) is y
  const auto copied = y.copyto(device);
  CHECK(!copied.shares_buffer_with(y));  // y.copyto(ctx) is not y
  CHECK(copied.device() == device);
  CHECK(copied.to_vector() == std::vector<float>{1, 2, 3});

  const xp::Device other = other_host(device);
  const auto moved = y.as_in_context(other);
  CHECK(moved.device() == other);
  CHECK(!moved.shares_buffer_with(y));
  CHECK(moved.to_vector() == std::vector<float>{1, 2, 3});
  CHECK(y.copyto(other).to_vector() == std::vector<float>{1, 2, 3});
  CHECK(iota({2, 3}, device).transpose().copyto(other).to_vector() == std::vector<int>{0, 3, 1, 4, 2, 5});
}

XP_TEST_ON_DEVICES("copyto into an existing array, a view or another device") {
  const auto a = xp::zeros<int>({3, 4}, device);
  xp::full<int>({4}, 7, device).copyto(a(1));  // through a view: the base array sees it
  CHECK(a.to_vector() == std::vector<int>{0, 0, 0, 0, 7, 7, 7, 7, 0, 0, 0, 0});
  xp::arange<int>(0, 3, 1, device).copyto(a(xp::slice(), 3));  // a strided column
  CHECK(a(xp::slice(), 3).to_vector() == std::vector<int>{0, 1, 2});

  const xp::Device other = other_host(device);
  const auto there = xp::zeros<int>({4, 3}, other);
  a.transpose().copyto(there);
  CHECK(there.to_vector() == a.transpose().to_vector());
  const auto column = xp::zeros<int>({3, 2}, other);
  xp::full<int>({3}, 5, device).copyto(column(xp::slice(), 1));  // strided, on another device
  CHECK(column.to_vector() == std::vector<int>{0, 5, 0, 5, 0, 5});

  CHECK_THROWS_WITH_AS(a.copyto(xp::zeros<int>({4, 3}, device)),
                       "copyto: cannot copy an array of shape (3, 4) into one of shape (4, 3)", xp::ValueError);
  const xp::ndarray<> as_float = xp::zeros<float>({3, 4}, device);
  CHECK_THROWS_WITH_AS(xp::ndarray<>(a).copyto(as_float),
                       "copyto: cannot copy int32 into float32 (convert with astype first)", xp::TypeError);
}

XP_TEST_ON_DEVICES("copies between overlapping views of one buffer") {
  const auto a = xp::arange<int>(0, 6, 1, device);
  a(xp::slice(xp::none, xp::none, -1)).copyto(a);  // reverse in place
  CHECK(a.to_vector() == std::vector<int>{5, 4, 3, 2, 1, 0});
  a(xp::slice(0, 4)).copyto(a(xp::slice(2, 6)));  // shift right by two
  CHECK(a.to_vector() == std::vector<int>{5, 4, 5, 4, 3, 2});
}

XP_TEST_ON_DEVICES("astype converts as NumPy") {
  const auto f = xp::array<float>({-1.7f, 0.0f, 2.5f, 3.0f}, device);
  CHECK(f.astype<int>().to_vector() == std::vector<int>{-1, 0, 2, 3});
  CHECK(f.astype<bool>().to_vector() == std::vector<bool>{true, false, true, true});
  CHECK(f.astype<double>().to_vector() == std::vector<double>{-1.7f, 0.0f, 2.5f, 3.0f});
  CHECK(xp::array<bool>({true, false}, device).astype<float>().to_vector() == std::vector<float>{1, 0});
  CHECK(xp::array<int>({-1}, device).astype<std::uint8_t>().item() == 255);
  CHECK(xp::array<std::int64_t>({(std::int64_t(1) << 53) + 1}, device).astype<double>().item() == 9007199254740992.0);
  const auto strided = iota({2, 3}, device).transpose().astype<double>();
  CHECK(strided.is_contiguous());
  CHECK(strided.to_vector() == std::vector<double>{0, 3, 1, 4, 2, 5});
  const auto same = f.astype<float>();
  CHECK(!same.shares_buffer_with(f));  // astype copies, as NumPy's default
  const xp::ndarray<> dynamic = f;
  CHECK(dynamic.astype(xp::dtype::int8).dtype() == xp::dtype::int8);
  for_each_element_type([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    const auto converted = xp::array<double>({0, 1, 1}, device).astype<T>();
    CHECK(converted.dtype() == xp::dtype_of<T>);
    CHECK(converted.to_vector() == std::vector<T>{T(0), T(1), T(1)});
    CHECK(converted.template astype<float>().to_vector() == std::vector<float>{0, 1, 1});
  });
}

XP_TEST_ON_DEVICES("copies with and without a cast over strided, misaligned views") {
  // Every pair of dtypes through the elementwise drivers' strided path, from a view that starts one
  // element in (no vector alignment) and walks its rows backwards.
  const auto base = xp::array<double>(
      [] {
        std::vector<double> v(5 * 9);
        for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<double>(k % 3);
        return v;
      }(),
      {5, 9}, device);
  const auto view = base(xp::slice(xp::none, xp::none, -2), xp::slice(1, 8));  // rows 4, 2, 0; columns 1..7
  std::vector<double> expected;
  for (int row : {4, 2, 0})
    for (int column = 1; column < 8; ++column) expected.push_back(static_cast<double>((row * 9 + column) % 3));
  for_each_element_type([&]<class S>() {
    const auto source = view.astype<S>();
    const auto strided_source = source.transpose();  // walks the copy with strides (1, 7)
    for_each_element_type([&]<class D>() {
      CAPTURE(xp::dtype_of<S>);
      CAPTURE(xp::dtype_of<D>);
      std::vector<D> wanted;
      for (int column = 0; column < 7; ++column)
        for (int row = 0; row < 3; ++row) wanted.push_back(static_cast<D>(static_cast<S>(expected[row * 7 + column])));
      CHECK(strided_source.template astype<D>().to_vector() == wanted);
    });
  });
  // Same dtype into a strided destination: the bit-copy path.
  const auto destination = xp::zeros<std::int16_t>({4, 6}, device);
  const auto columns = destination(xp::slice(), xp::slice(1, xp::none, 2));  // columns 1, 3, 5
  iota({4, 3}, device).astype<std::int16_t>().copyto(columns);
  CHECK(destination.to_vector() ==
        std::vector<std::int16_t>{0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 11});
}

XP_TEST_ON_DEVICES("to_vector and item copy to the host") {
  const auto a = iota({2, 2}, device);
  CHECK(a.to_vector() == std::vector<int>{0, 1, 2, 3});
  CHECK(a(1, 0).item() == 2);
  CHECK(a.transpose().to_vector() == std::vector<int>{0, 2, 1, 3});
  CHECK_THROWS_WITH_AS((void)a.item(), "item: can only convert an array of size 1 to a scalar, this one has size 4",
                       xp::ValueError);
}

XP_TEST_ON_DEVICES("item<U> converts the only element as static_cast does, on both faces") {
  const std::int64_t big = (std::int64_t{1} << 53) + 1;  // rounds to 2^53 in double
  CHECK(xp::array<std::int64_t>({big}, device).item<double>() == 9007199254740992.0);
  CHECK(xp::array<float>({-2.75f}, device).item<int>() == -2);  // truncated toward zero
  CHECK(xp::array<bool>({true}, device).item<std::int16_t>() == 1);
  CHECK(xp::array<int>({-1}, device).item<std::uint8_t>() == 255);
  CHECK(xp::array<double>({0.0}, device).item<bool>() == false);
  const xp::ndarray<> dynamic = xp::array<std::int32_t>({7, 8}, device);
  CHECK(dynamic(1).item<double>() == 8.0);
  CHECK(dynamic(0).item<float>() == 7.0f);
  CHECK(xp::array<float>({1.5f}, device).item() == 1.5f);  // the typed face's own item() stays T
  CHECK_THROWS_WITH_AS((void)dynamic.item<double>(),
                       "item: can only convert an array of size 1 to a scalar, this one has size 2", xp::ValueError);
}

XP_TEST_ON_DEVICES("typed and run-time typed faces share one buffer") {
  const auto typed = xp::array<double>({1, 2}, device);
  const xp::ndarray<> dynamic = typed;
  CHECK(dynamic.dtype() == xp::dtype::float64);
  CHECK(dynamic.shares_buffer_with(typed));
  CHECK(dynamic.data() == typed.data());
  CHECK(dynamic.device() == device);
  const auto back = dynamic.as<double>();
  CHECK(back.shares_buffer_with(typed));
  CHECK(back.to_vector() == std::vector<double>{1, 2});
  CHECK_THROWS_WITH_AS((void)dynamic.as<float>(), "array is float64, not float32", xp::TypeError);
  CHECK(dynamic.reshape({2, 1}).shape() == xp::Shape(2, 1));
  CHECK(dynamic.transpose().dtype() == xp::dtype::float64);
  CHECK(dynamic(1).as<double>().item() == 2);
  CHECK(dynamic.copyto(device).dtype() == xp::dtype::float64);
  CHECK_THROWS_AS((void)xp::ndarray<float>(dynamic), xp::TypeError);
}

TEST_CASE("default-constructed arrays are empty") {
  const xp::ndarray<float> a;
  CHECK(a.size() == 0);
  CHECK(a.shape() == xp::Shape(0));
  CHECK(a.device() == xp::cpu(0));
  CHECK(a.to_vector().empty());
  const xp::ndarray<> b;
  CHECK(b.dtype() == xp::dtype::float32);
}

TEST_CASE("operands on different devices are a mismatch naming the operation and the positions") {
  const auto a = xp::zeros<float>({2}, xp::cpu(0));
  const auto b = xp::zeros<float>({2}, xp::cpu(0));
  const auto c = xp::zeros<float>({2}, xp::cpu(1));
  const xp::detail::ArrayCore* same[] = {&a, &b};
  CHECK(xp::detail::common_device("add", same) == xp::cpu(0));
  const xp::detail::ArrayCore* mixed[] = {&a, &b, &c};
  CHECK_THROWS_WITH_AS(xp::detail::common_device("add", mixed),
                       "add: argument 0 is on cpu(0) but argument 2 is on cpu(1)", xp::DeviceMismatchError);
  const auto pinned = xp::zeros<float>({2}, xp::cpu_pinned(0));
  const xp::detail::ArrayCore* pinned_first[] = {&pinned, &a};
  CHECK_THROWS_WITH_AS(xp::detail::common_device("multiply", pinned_first),
                       "multiply: argument 0 is on cpu_pinned(0) but argument 1 is on cpu(0)", xp::DeviceMismatchError);
}

TEST_CASE("arrays free their buffer with their last view") {
  const xp::Device device = xp::cpu(7);
  xp::MemoryPool& pool = xp::get_default_memory_pool(device);
  xp::ndarray<float> view;
  {
    const auto a = xp::zeros<float>({128}, device);
    view = a(xp::slice(0, 10));
    CHECK(pool.used_bytes() == 512);
  }
  CHECK(pool.used_bytes() == 512);  // the view keeps it
  view = xp::ndarray<float>();
  CHECK(pool.used_bytes() == 0);
}
