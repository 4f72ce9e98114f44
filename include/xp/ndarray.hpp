#pragma once
/// \file
/// The array, with two faces over one representation:
/// - `ndarray<T>` carries its element type in the C++ type: what templated code uses;
/// - `ndarray<>` (`ndarray<dynamic>`) carries it at run time as dtype(): what run-time kernels, loading
///   and DLPack use.
/// `ndarray<T>` converts implicitly to `ndarray<>` (same buffer); `ndarray<>::as<T>()` is the checked way
/// back. Both are handles: copying one shares the buffer, which is freed with its last array.
///
/// Everything that does not need T lives in detail::ArrayCore and its free functions, compiled once
/// in the library; the faces only add types to the results.
#include <array>
#include <concepts>
#include <cstddef>
#include <iosfwd>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "xp/axes.hpp"
#include "xp/detail/elementwise_ops.hpp"
#include "xp/detail/reduction_ops.hpp"
#include "xp/device.hpp"
#include "xp/dtype.hpp"
#include "xp/error.hpp"
#include "xp/export.hpp"
#include "xp/index.hpp"
#include "xp/shape.hpp"

namespace xp {

struct XP_API dynamic{};
/// The array: `ndarray<T>` knows its element type at compile time, `ndarray<>` at run time (see the file's notes).
template <class T = dynamic>
class ndarray;

/// How backward writes a variable's gradient (MXNet's grad_req): overwrite it, add to it, or not at all.
enum class GradReq : std::uint8_t { null, write, add };

namespace detail {
/// \cond DETAIL
struct Buffer;
struct AutogradMeta;  ///< lib/autograd: a variable's gradient, or the recorded operation that made the array
/// \endcond

/// What every array is, whatever its face: a view (shape, strides, dtype, device) of a buffer.
class XP_API ArrayCore {
 public:
  explicit ArrayCore(xp::dtype type = xp::dtype::float32) noexcept;  ///< empty, shape (0,), cpu(0)
  /// A view of `buffer` starting at `data` (what the library's routines make).
  ArrayCore(std::shared_ptr<Buffer> buffer, void* data, const Shape& shape, const Strides& strides, Device device,
            xp::dtype type) noexcept;

  const Shape& shape() const noexcept { return shape_; }  ///< the extents
  int ndim() const noexcept { return shape_.ndim(); }  ///< the number of axes
  std::size_t size() const noexcept { return size_; }  ///< the number of elements
  const Strides& strides() const noexcept { return strides_; }  ///< in elements
  Device device() const noexcept { return device_; }  ///< where the data lives
  Device context() const noexcept { return device_; }  ///< MXNet's name for device()
  xp::dtype dtype() const noexcept { return dtype_; }  ///< the element type
  std::size_t itemsize() const noexcept { return xp::itemsize(dtype_); }  ///< bytes per element
  std::size_t nbytes() const noexcept { return size_ * itemsize(); }  ///< size() * itemsize()
  bool is_contiguous() const noexcept { return contiguous_; }  ///< C order
  /// Whether both arrays view the same buffer (MXNet's `y.as_in_context(d) is y`).
  bool shares_buffer_with(const ArrayCore& other) const noexcept {
    return buffer_ != nullptr && buffer_ == other.buffer_;
  }
  void* raw_data() const noexcept { return data_; }  ///< the first element of the view, untyped

 private:
  friend struct ArrayInternals;
  std::shared_ptr<Buffer> buffer_;
  // Not the array's value: a recorded write through a.at(...) gives even a const array's copies their state.
  mutable std::shared_ptr<AutogradMeta> autograd_;
  void* data_ = nullptr;
  Shape shape_;
  Strides strides_;
  std::size_t size_ = 0;
  Device device_;
  xp::dtype dtype_;
  bool contiguous_ = true;
};

/// \cond DETAIL
/// What an array keeps besides its view, for the library's own use (not members of every user's array):
/// the memory the view keeps alive, and autograd's state (null unless attach_grad or a recorded
/// operation set it; shared by copies of the array, never by its views: each view is an operation of its
/// own).
struct ArrayInternals {
  static const std::shared_ptr<Buffer>& buffer(const ArrayCore& a) noexcept { return a.buffer_; }
  static const std::shared_ptr<AutogradMeta>& autograd_meta(const ArrayCore& a) noexcept { return a.autograd_; }
  /// Attaches or replaces the state that attach_grad and recorded operations keep.
  static void set_autograd_meta(const ArrayCore& a, std::shared_ptr<AutogradMeta> meta) noexcept {
    a.autograd_ = std::move(meta);
  }
};

/// The untyped operations behind both faces (lib/api).
XP_API ArrayCore copy_to(const ArrayCore& a, Device device);
XP_API ArrayCore as_in_context(const ArrayCore& a, Device device);
XP_API void copy_into(const ArrayCore& src, const ArrayCore& out);
XP_API ArrayCore astype(const ArrayCore& a, xp::dtype type);
XP_API ArrayCore reshape(const ArrayCore& a, const Shape& shape);
XP_API ArrayCore transpose(const ArrayCore& a, std::span<const int> axes);  ///< empty: reverse the axes
XP_API ArrayCore index(const ArrayCore& a, std::span<const Index> indices);
XP_API ArrayCore broadcast_to(const ArrayCore& a, const Shape& shape);
/// C order; returns when the data is there. `op` names the caller in errors.
XP_API void copy_to_host(const ArrayCore& a, void* out, std::string_view op = "to_vector");
/// The only element of `a`, converted to `target` as static_cast does, into `out` (waits for the device).
XP_API void item_as(const ArrayCore& a, xp::dtype target, void* out);

/// The device every array operand of `op` is on; DeviceMismatchError otherwise, naming the operation,
/// the argument positions and both devices: "add: argument 0 is on gpu(0) but argument 1 is on cpu(0)".
/// positions[i] is the argument position of arrays[i] (default: i).
XP_API Device common_device(std::string_view op, std::span<const ArrayCore* const> arrays,
                            std::span<const int> positions = {});

/// NumPy's str() of the elements, then MXNet's "<ndarray 2x3 @cpu(0)>".
XP_API std::ostream& operator<<(std::ostream& out, const ArrayCore& a);

/// A built-in elementwise operation over arrays and scalars (lib/api/ops/math.cpp): checks, promotes,
/// converts, plans and runs it on the operands' device, into a new array (returned) or into `out`.
struct XP_API Operand {
  const ArrayCore* array = nullptr;  ///< null: the scalar
  ScalarValue scalar;
};
XP_API ArrayCore elementwise(ElementwiseOp op, std::span<const Operand> operands);
XP_API void elementwise(ElementwiseOp op, std::span<const Operand> operands, const ArrayCore& out);

/// The same with the result's face: `ndarray<R>` (R from the promotion rules) for typed operands,
/// `ndarray<>` when one is run-time typed. Defined at the end of this file.
template <ElementwiseOp op, class... A>
auto apply_elementwise(const A&... operands);

/// A built-in reduction (lib/api/ops/reductions.cpp); ddof is var's and std's.
XP_API ArrayCore reduce(Reduction r, const ArrayCore& x, const Axes& axes, bool keepdims, std::int64_t ddof);

/// The same with the result's face. Defined at the end of this file.
template <Reduction r, class A>
auto apply_reduction(const A& a, const Axes& axes, bool keepdims, std::int64_t ddof);

/// The operations as the public faces call them (lib/autograd). While autograd records and an operand
/// needs a gradient, each records itself for backward; otherwise each is the function of the same name
/// above, after one branch. An operation into `out` is refused while it would have to record.
namespace recorded {
XP_API ArrayCore copy_to(const ArrayCore& a, Device device);
XP_API ArrayCore as_in_context(const ArrayCore& a, Device device);
XP_API ArrayCore astype(const ArrayCore& a, xp::dtype type);
XP_API ArrayCore reshape(const ArrayCore& a, const Shape& shape);
XP_API ArrayCore transpose(const ArrayCore& a, std::span<const int> axes);
XP_API ArrayCore index(const ArrayCore& a, std::span<const Index> indices);
XP_API ArrayCore broadcast_to(const ArrayCore& a, const Shape& shape);
XP_API ArrayCore elementwise(ElementwiseOp op, std::span<const Operand> operands);
XP_API void elementwise(ElementwiseOp op, std::span<const Operand> operands, const ArrayCore& out);
XP_API ArrayCore reduce(Reduction r, const ArrayCore& x, const Axes& axes, bool keepdims, std::int64_t ddof);
/// a[indices] = value: the value converted to a's dtype as NumPy's setitem converts (unsafe casting)
/// and copied to a's device, broadcast to the selection; of repeated positions the last wins. While
/// autograd records and a or the value needs a gradient, the write is recorded: a's later values get
/// the gradient, a's earlier ones the gradient outside the selection, the value what reached its place.
XP_API void assign_selection(const ArrayCore& a, std::span<const Index> indices, const Operand& value);
/// a[indices] op= value: the selection read, combined with NumPy's same_kind rule into a's dtype, written
/// back (recorded as a read, an operation and a write when it must be).
XP_API void update_selection(const ArrayCore& a, std::span<const Index> indices, ElementwiseOp op,
                             const Operand& value);
/// While autograd records, gives `a` the autograd state its copies share (if it has none), so that a
/// recorded write through a selection of it reaches them all.
XP_API void prepare_selection(const ArrayCore& a);
}  // namespace recorded

/// Autograd on one array (lib/autograd), behind the members below.
XP_API void attach_grad(ArrayCore& a, GradReq req);
XP_API ArrayCore grad_of(const ArrayCore& a);
XP_API void backward_from(const ArrayCore& head, const ArrayCore* head_grad, bool retain_graph);
XP_API ArrayCore detached(const ArrayCore& a);

/// \endcond

template <class Face>
class Selection;

/// The operations both faces (`ndarray<T>` and `ndarray<>`) have; they return the face they were called on.
template <class Face>
class ArrayOps : public ArrayCore {
 public:
  /// The only element of a one-element array, converted to U as static_cast does (waits for the device):
  /// `norm.item<double>()` whatever the array's dtype.
  template <element_type U>
  U item() const {
    U value{};
    item_as(*this, dtype_of<U>, &value);
    return value;
  }
  /// A new copy on `device`, even when it is the array's own device.
  Face copyto(Device device) const { return Face(recorded::copy_to(*this, device)); }
  /// Copies into `out` (any device); the shapes must match.
  void copyto(const Face& out) const { copy_into(*this, out); }
  /// The array itself (same buffer) when already on `device`, else copyto(device).
  Face as_in_context(Device device) const { return Face(recorded::as_in_context(*this, device)); }
  /// A view when the strides allow it, else a copy (as NumPy); one extent may be -1.
  Face reshape(const Shape& shape) const { return Face(recorded::reshape(*this, shape)); }
  /// No axes: reverse them. Negative axes count from the end.
  template <std::integral... Axes>
  Face transpose(Axes... axes) const {
    const std::array<int, sizeof...(Axes)> list{static_cast<int>(axes)...};
    return Face(recorded::transpose(*this, list));
  }
  /// NumPy indexing (xp/index.hpp): integers, xp::slice, xp::newaxis and xp::ellipsis give a view;
  /// integer and bool index arrays a copy.
  template <class... Indices>
    requires(std::is_constructible_v<Index, const Indices&> && ...)
  Face operator()(const Indices&... indices) const {
    const std::array<Index, sizeof...(Indices)> list{Index(indices)...};
    return Face(recorded::index(*this, list));
  }
  /// The same with the indices listed at run time (NumPy's a[tuple]).
  Face operator()(std::span<const Index> indices) const { return Face(recorded::index(*this, indices)); }
  /// The selection to assign to: a.at(mask) = 0.f, a.at(idx, xp::slice()) = b, a.at(1) += 2 (NumPy's
  /// a[...] = v and a[...] += v).
  template <class... Indices>
    requires(std::is_constructible_v<Index, const Indices&> && ...)
  Selection<Face> at(const Indices&... indices) const {
    recorded::prepare_selection(*this);
    return Selection<Face>(*this, {Index(indices)...});
  }
  /// The same with the indices listed at run time.
  Selection<Face> at(std::span<const Index> indices) const {
    recorded::prepare_selection(*this);
    return Selection<Face>(*this, std::vector<Index>(indices.begin(), indices.end()));
  }
  /// A view with `shape`, broadcasting (stride 0) the axes of extent 1 and adding leading ones.
  Face broadcast_to(const Shape& shape) const { return Face(recorded::broadcast_to(*this, shape)); }
  /// A converted copy with element type U.
  template <element_type U>
  ndarray<U> astype() const {
    return ndarray<U>(recorded::astype(*this, dtype_of<U>));
  }

  /// Autograd (MXNet's): a gradient buffer of zeros on the array's device, written by backward as
  /// `req` says; seen through every copy made afterwards. Calling it again starts a new variable.
  void attach_grad(GradReq req = GradReq::write) { detail::attach_grad(*this, req); }
  /// The gradient buffer (the same buffer each time); ValueError when attach_grad was never called.
  Face grad() const { return Face(grad_of(*this)); }
  /// Gradients of this recorded array (head gradient: ones, or head_grad) for every variable it used.
  void backward(bool retain_graph = false) const { backward_from(*this, nullptr, retain_graph); }
  /// Gradients with `head_grad` as the head's gradient.
  void backward(const Face& head_grad, bool retain_graph = false) const {
    backward_from(*this, &head_grad, retain_graph);
  }
  /// The same buffer and view, outside any recorded graph (MXNet's detach).
  Face detach() const { return Face(detached(*this)); }

  // MXNet-style members for the common math; x.exp() is xp::exp(x).
  auto abs() const { return apply_elementwise<ElementwiseOp::abs>(face()); }  ///< xp::abs(x)
  auto exp() const { return apply_elementwise<ElementwiseOp::exp>(face()); }  ///< xp::exp(x)
  auto log() const { return apply_elementwise<ElementwiseOp::log>(face()); }  ///< xp::log(x)
  auto log1p() const { return apply_elementwise<ElementwiseOp::log1p>(face()); }  ///< xp::log1p(x)
  auto expm1() const { return apply_elementwise<ElementwiseOp::expm1>(face()); }  ///< xp::expm1(x)
  auto sqrt() const { return apply_elementwise<ElementwiseOp::sqrt>(face()); }  ///< xp::sqrt(x)
  auto sin() const { return apply_elementwise<ElementwiseOp::sin>(face()); }  ///< xp::sin(x)
  auto cos() const { return apply_elementwise<ElementwiseOp::cos>(face()); }  ///< xp::cos(x)
  auto tan() const { return apply_elementwise<ElementwiseOp::tan>(face()); }  ///< xp::tan(x)
  auto tanh() const { return apply_elementwise<ElementwiseOp::tanh>(face()); }  ///< xp::tanh(x)
  auto sigmoid() const { return apply_elementwise<ElementwiseOp::sigmoid>(face()); }  ///< xp::sigmoid(x)
  auto conj() const { return apply_elementwise<ElementwiseOp::conj>(face()); }  ///< xp::conj(x)
  auto floor() const { return apply_elementwise<ElementwiseOp::floor>(face()); }  ///< xp::floor(x)
  auto ceil() const { return apply_elementwise<ElementwiseOp::ceil>(face()); }  ///< xp::ceil(x)
  auto trunc() const { return apply_elementwise<ElementwiseOp::trunc>(face()); }  ///< xp::trunc(x)
  auto rint() const { return apply_elementwise<ElementwiseOp::rint>(face()); }  ///< xp::rint(x)
  auto square() const { return apply_elementwise<ElementwiseOp::square>(face()); }  ///< xp::square(x)
  auto reciprocal() const { return apply_elementwise<ElementwiseOp::reciprocal>(face()); }  ///< xp::reciprocal(x)
  auto sign() const { return apply_elementwise<ElementwiseOp::sign>(face()); }  ///< xp::sign(x)
  auto log2() const { return apply_elementwise<ElementwiseOp::log2>(face()); }  ///< xp::log2(x)
  auto log10() const { return apply_elementwise<ElementwiseOp::log10>(face()); }  ///< xp::log10(x)
  auto cbrt() const { return apply_elementwise<ElementwiseOp::cbrt>(face()); }  ///< xp::cbrt(x)
  auto arcsin() const { return apply_elementwise<ElementwiseOp::arcsin>(face()); }  ///< xp::arcsin(x)
  auto arccos() const { return apply_elementwise<ElementwiseOp::arccos>(face()); }  ///< xp::arccos(x)
  auto arctan() const { return apply_elementwise<ElementwiseOp::arctan>(face()); }  ///< xp::arctan(x)
  auto sinh() const { return apply_elementwise<ElementwiseOp::sinh>(face()); }  ///< xp::sinh(x)
  auto cosh() const { return apply_elementwise<ElementwiseOp::cosh>(face()); }  ///< xp::cosh(x)
  auto arcsinh() const { return apply_elementwise<ElementwiseOp::arcsinh>(face()); }  ///< xp::arcsinh(x)
  auto arccosh() const { return apply_elementwise<ElementwiseOp::arccosh>(face()); }  ///< xp::arccosh(x)
  auto arctanh() const { return apply_elementwise<ElementwiseOp::arctanh>(face()); }  ///< xp::arctanh(x)

  /// Stamps out a reduction member: x.name(axes, keepdims) is xp::name(x, axes, keepdims).
#define XP_REDUCTION_MEMBER(name)                                           \
  auto name(const Axes& axes = std::nullopt, bool keepdims = false) const { \
    return apply_reduction<Reduction::name>(face(), axes, keepdims, 0);     \
  }
  // Reductions over `axes` (all of them by default), as xp::sum(x, axes, keepdims) and the others.
  /// xp::sum(x, axes, keepdims)
  XP_REDUCTION_MEMBER(sum)
  /// xp::prod(x, axes, keepdims)
  XP_REDUCTION_MEMBER(prod)
  /// xp::mean(x, axes, keepdims)
  XP_REDUCTION_MEMBER(mean)
  /// xp::max(x, axes, keepdims)
  XP_REDUCTION_MEMBER(max)
  /// xp::min(x, axes, keepdims)
  XP_REDUCTION_MEMBER(min)
  /// xp::argmax(x, axes, keepdims)
  XP_REDUCTION_MEMBER(argmax)
  /// xp::argmin(x, axes, keepdims)
  XP_REDUCTION_MEMBER(argmin)
  /// xp::all(x, axes, keepdims)
  XP_REDUCTION_MEMBER(all)
  /// xp::any(x, axes, keepdims)
  XP_REDUCTION_MEMBER(any)
  /// xp::norm(x, axes, keepdims)
  XP_REDUCTION_MEMBER(norm)
#undef XP_REDUCTION_MEMBER
  /// xp::var(x, axes, keepdims, ddof): divided by N - ddof.
  auto var(const Axes& axes = std::nullopt, bool keepdims = false, std::int64_t ddof = 0) const {
    return apply_reduction<Reduction::var>(face(), axes, keepdims, ddof);
  }
  /// xp::std(x, axes, keepdims, ddof): divided by N - ddof.
  auto std(const Axes& axes = std::nullopt, bool keepdims = false, std::int64_t ddof = 0) const {
    return apply_reduction<Reduction::std>(face(), axes, keepdims, ddof);
  }

 protected:
  /// Constructors of ArrayCore.
  using ArrayCore::ArrayCore;
  /// The face of `core`.
  explicit ArrayOps(const ArrayCore& core) : ArrayCore(core) {}

 private:
  const Face& face() const { return static_cast<const Face&>(*this); }
};

}  // namespace detail

/// `ndarray<T>`: an array whose element type T is known at compile time (data() is a T*).
template <class T>
class ndarray : public detail::ArrayOps<ndarray<T>> {
  static_assert(element_type<T>, "ndarray<T>: T must be bool, a fixed-width integer, float or double");
  using Ops = detail::ArrayOps<ndarray<T>>;

 public:
  using value_type = T;  ///< the element type

  ndarray() noexcept : Ops(dtype_of<T>) {}
  /// The typed face of `core`; TypeError when its dtype is not T's.
  explicit ndarray(const detail::ArrayCore& core) : Ops(core) {
    XP_CHECK(core.dtype() == dtype_of<T>, TypeError, "array is ", core.dtype(), ", not ", dtype_of<T>);
  }

  /// The first element of the view. Host code may dereference it only for cpu and cpu_pinned arrays.
  T* data() const noexcept { return static_cast<T*>(this->raw_data()); }

  /// The elements in C order, copied to the host (waits for the device).
  std::vector<T> to_vector() const {
    if constexpr (std::is_same_v<T, bool>) {
      const std::unique_ptr<bool[]> host(new bool[this->size()]);
      detail::copy_to_host(*this, host.get());
      return std::vector<bool>(host.get(), host.get() + this->size());
    } else {
      std::vector<T> host(this->size());
      detail::copy_to_host(*this, host.data());
      return host;
    }
  }

  using Ops::item;
  /// The only element of a one-element array (waits for the device).
  T item() const {
    XP_CHECK(this->size() == 1, ValueError, "item: can only convert an array of size 1 to a scalar, this one has size ",
             this->size());
    T value{};
    detail::copy_to_host(*this, &value, "item");
    return value;
  }
};

/// `ndarray<>`: an array whose element type is known at run time, as dtype().
template <>
class ndarray<dynamic> : public detail::ArrayOps<ndarray<dynamic>> {
  using Ops = detail::ArrayOps<ndarray<dynamic>>;

 public:
  ndarray() noexcept = default;
  /// The run-time typed face of `core`.
  explicit ndarray(const detail::ArrayCore& core) : Ops(core) {}
  template <element_type T>
  ndarray(const ndarray<T>& typed) : Ops(typed) {}  ///< the same buffer, run-time typed (implicit)

  void* data() const noexcept {
    return raw_data();
  }  ///< the first element of the view, untyped (host arrays only may be dereferenced)

  /// The typed face of the same buffer; TypeError ("array is float64, not float32") otherwise.
  template <element_type U>
  ndarray<U> as() const {
    return ndarray<U>(static_cast<const detail::ArrayCore&>(*this));
  }

  using Ops::astype;
  /// A converted copy with element type `type`.
  ndarray astype(xp::dtype type) const { return ndarray(detail::recorded::astype(*this, type)); }
};

/// The device of the first array among the arguments; cpu(0) when there is none (Chainer's
/// get_device_from_array).
template <class... Args>
Device get_device_from_array(const Args&... args) {
  Device found;
  bool seen = false;
  [[maybe_unused]] const auto visit = [&](const auto& arg) {
    if constexpr (std::is_base_of_v<detail::ArrayCore, std::decay_t<decltype(arg)>>) {
      if (!seen) found = arg.device();
      seen = true;
    }
  };
  (visit(args), ...);
  return found;
}

/// \cond DETAIL
namespace detail {

template <class A>
concept array_face = std::is_base_of_v<ArrayCore, A>;
template <class A>
concept math_operand = array_face<A> || scalar_operand<A>;
template <class... A>
concept has_array = (... || array_face<A>);

template <class A>
Operand to_operand(const A& a) {
  if constexpr (array_face<A>) return {&a, {}};
  else return {nullptr, scalar_value(a)};
}

template <ElementwiseOp op, class... A>
auto result_face_tag() {
  if constexpr ((... || std::is_same_v<A, ndarray<>>)) {
    return std::type_identity<ndarray<>>{};
  } else {
    constexpr std::array<OperandType, sizeof...(A)> types{operand_type<A>()...};
    return std::type_identity<ndarray<type_of<result_dtype(op, compute_dtype(op, types))>>>{};
  }
}

/// `ndarray<R>` of op's result over operands of types A..., or `ndarray<>` if one is run-time typed.
template <ElementwiseOp op, class... A>
using result_face = typename decltype(result_face_tag<op, A...>())::type;

template <ElementwiseOp op, class... A>
auto apply_elementwise(const A&... operands) {
  const std::array<Operand, sizeof...(A)> list{to_operand(operands)...};
  return result_face<op, A...>(recorded::elementwise(op, list));
}

template <Reduction r, class A>
auto apply_reduction(const A& a, const Axes& axes, bool keepdims, std::int64_t ddof) {
  if constexpr (std::is_same_v<A, ndarray<>>) {
    return ndarray<>(recorded::reduce(r, a, axes, keepdims, ddof));
  } else {
    using R = type_of<reduction_dtype(r, dtype_of<typename A::value_type>)>;
    return ndarray<R>(recorded::reduce(r, a, axes, keepdims, ddof));
  }
}

/// What a.at(indices...) is: the elements an index selects, to assign to.
template <class Face>
class Selection {
 public:
  /// The selection of `array` by `indices`.
  Selection(const ArrayCore& array, std::vector<Index> indices) : array_(array), indices_(std::move(indices)) {}

  /// Writes an array (any dtype and device) or a scalar, broadcast to the selection.
  template <math_operand V>
  Selection& operator=(const V& value) {
    recorded::assign_selection(array_, indices_, to_operand(value));
    return *this;
  }
  /// Writes what another selection selects (b.at(j) read, then written here).
  Selection& operator=(const Selection& other) { return *this = other.get(); }
  Selection(const Selection&) = default;  ///< the same array and indices

  /// NumPy's a[indices] += v: the selection read, combined in place with NumPy's same_kind rule,
  /// written back. Repeated positions do not accumulate (xp::scatter_add does).
  template <math_operand V>
  Selection& operator+=(const V& value) {
    return update(ElementwiseOp::add, value);
  }
  /// a[indices] -= v, as +=.
  template <math_operand V>
  Selection& operator-=(const V& value) {
    return update(ElementwiseOp::subtract, value);
  }
  /// a[indices] *= v, as +=.
  template <math_operand V>
  Selection& operator*=(const V& value) {
    return update(ElementwiseOp::multiply, value);
  }
  /// a[indices] /= v, as +=.
  template <math_operand V>
  Selection& operator/=(const V& value) {
    return update(ElementwiseOp::divide, value);
  }
  /// a[indices] %= v, as +=.
  template <math_operand V>
  Selection& operator%=(const V& value) {
    return update(ElementwiseOp::mod, value);
  }
  /// a[indices] &= v, as +=.
  template <math_operand V>
  Selection& operator&=(const V& value) {
    return update(ElementwiseOp::bitwise_and, value);
  }
  /// a[indices] |= v, as +=.
  template <math_operand V>
  Selection& operator|=(const V& value) {
    return update(ElementwiseOp::bitwise_or, value);
  }
  /// a[indices] ^= v, as +=.
  template <math_operand V>
  Selection& operator^=(const V& value) {
    return update(ElementwiseOp::bitwise_xor, value);
  }
  /// a[indices] <<= v, as +=.
  template <math_operand V>
  Selection& operator<<=(const V& value) {
    return update(ElementwiseOp::left_shift, value);
  }
  /// a[indices] >>= v, as +=.
  template <math_operand V>
  Selection& operator>>=(const V& value) {
    return update(ElementwiseOp::right_shift, value);
  }

  /// The selected elements: a(indices...).
  Face get() const { return Face(recorded::index(array_, indices_)); }

 private:
  template <class V>
  Selection& update(ElementwiseOp op, const V& value) {
    recorded::update_selection(array_, indices_, op, to_operand(value));
    return *this;
  }

  ArrayCore array_;
  std::vector<Index> indices_;
};

}  // namespace detail
/// \endcond

template <class A>
  requires std::is_base_of_v<detail::ArrayCore, A>
Index::Index(const A& array) : array_(std::make_shared<const detail::ArrayCore>(array)), kind_(Kind::array) {}

}  // namespace xp
