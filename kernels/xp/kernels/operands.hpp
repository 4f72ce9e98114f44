#pragma once
// The inputs of an elementwise loop: arrays, read at the loop's offsets, and scalars, the same value
// everywhere. Drivers see them as one parameter pack; slot_of<I, Ops...> is the operand slot
// (0: output, 1..: arrays in order) whose offsets array input I reads.
#include "xp/host_device.hpp"

namespace xp::kernels {

template <class T>
struct ArrayIn {
  using value_type = T;
  static constexpr bool is_array = true;
  const T* data;
  XP_HOST_DEVICE T at(long long offset) const { return data[offset]; }
};

template <class T>
struct ScalarIn {
  using value_type = T;
  static constexpr bool is_array = false;
  T value;
  XP_HOST_DEVICE T at(long long) const { return value; }
};

template <class... Ops>
inline constexpr int array_count = (0 + ... + (Ops::is_array ? 1 : 0));

template <int I, class... Ops>
constexpr int slot_of() {
  constexpr bool is_array[] = {Ops::is_array...};
  int slot = 1;
  for (int k = 0; k < I; ++k) slot += is_array[k] ? 1 : 0;
  return slot;
}

}  // namespace xp::kernels
