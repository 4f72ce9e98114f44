#include "core/scalar_cast.hpp"

#include <cstring>

namespace xp::detail {

std::uint64_t cast_scalar(const ScalarValue& scalar, xp::dtype target) {
  std::uint64_t bits = 0;
  visit_dtype(scalar.type, [&](auto source) {
    using S = typename decltype(source)::type;
    S value;
    std::memcpy(&value, &scalar.bits, sizeof(S));
    visit_dtype(target, [&](auto destination) {
      using D = typename decltype(destination)::type;
      const D converted = static_cast<D>(value);
      std::memcpy(&bits, &converted, sizeof(D));  // little-endian: the element sits at the start
    });
  });
  return bits;
}

}  // namespace xp::detail
