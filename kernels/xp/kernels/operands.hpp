#pragma once
// The inputs of an elementwise loop. Every input has a slot in the loop's plan (slot I + 1 for input
// I; slot 0 is the output); a scalar's slot has zero strides. Drivers read an input with at(offset)
// at its slot's offset, or lanes(v) for the v-th group of kVectorWidth contiguous elements:
// - ArrayIn: an array;
// - ScalarIn: a scalar, known as one when the loop is compiled;
// - AnyIn: an array or, with null data, a scalar: one compiled loop serves both (the built-in
//   operations use it on GPUs, to keep the number of kernels down);
// - WidenedIn: an AnyIn of a 2-byte float (storage S) read as float, which the built-in operations
//   compute 2-byte floats in (the CPU driver converts its contiguous operands in blocks instead);
// - PositionIn: the element's C-order position (its slot has C-contiguous strides and no data).
#include "xp/host_device.hpp"

namespace xp::kernels {

inline constexpr int kVectorWidth = 4;

template <class T>
struct alignas(sizeof(T) * kVectorWidth) Vector {
  T lanes[kVectorWidth];
};

template <class T>
XP_HOST_DEVICE inline Vector<T> splat(T value) {
  Vector<T> v;
  for (int j = 0; j < kVectorWidth; ++j) v.lanes[j] = value;
  return v;
}

template <class T>
struct ArrayIn {
  using value_type = T;
  static constexpr bool may_be_array = true;
  const T* data;
  XP_HOST_DEVICE T at(long long offset) const { return data[offset]; }
  XP_HOST_DEVICE Vector<T> lanes(long long v) const { return reinterpret_cast<const Vector<T>*>(data)[v]; }
  XP_HOST_DEVICE ArrayIn moved(long long offset) const { return {data + offset}; }
};

template <class T>
struct ScalarIn {
  using value_type = T;
  static constexpr bool may_be_array = false;
  T value;
  XP_HOST_DEVICE T at(long long) const { return value; }
  XP_HOST_DEVICE Vector<T> lanes(long long) const { return splat(value); }
  XP_HOST_DEVICE ScalarIn moved(long long) const { return *this; }
};

template <class T>
struct AnyIn {
  using value_type = T;
  static constexpr bool may_be_array = true;
  const T* data;  // null: the scalar `value`
  T value;
  XP_HOST_DEVICE T at(long long offset) const { return data ? data[offset] : value; }
  XP_HOST_DEVICE Vector<T> lanes(long long v) const {
    return data ? reinterpret_cast<const Vector<T>*>(data)[v] : splat(value);
  }
  XP_HOST_DEVICE AnyIn moved(long long offset) const { return {data ? data + offset : data, value}; }
};

// A 2-byte float S read as float: an AnyIn<S> whose elements (and scalar) widen as they are read.
template <class S>
struct WidenedIn : AnyIn<S> {
  XP_HOST_DEVICE float at(long long offset) const { return static_cast<float>(AnyIn<S>::at(offset)); }
  XP_HOST_DEVICE Vector<float> lanes(long long v) const {
    const Vector<S> stored = AnyIn<S>::lanes(v);
    Vector<float> widened;
    for (int j = 0; j < kVectorWidth; ++j) widened.lanes[j] = static_cast<float>(stored.lanes[j]);
    return widened;
  }
  XP_HOST_DEVICE WidenedIn moved(long long offset) const { return {AnyIn<S>::moved(offset)}; }
};

struct PositionIn {
  using value_type = long long;
  static constexpr bool may_be_array = false;
  long long base = 0;
  XP_HOST_DEVICE long long at(long long offset) const { return base + offset; }
  XP_HOST_DEVICE Vector<long long> lanes(long long v) const {
    Vector<long long> positions;
    for (int j = 0; j < kVectorWidth; ++j) positions.lanes[j] = base + v * kVectorWidth + j;
    return positions;
  }
  XP_HOST_DEVICE PositionIn moved(long long offset) const { return {base + offset}; }
};

}  // namespace xp::kernels
