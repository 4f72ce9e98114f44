#include "core/scalar_cast.hpp"

#include <cstring>

#include "xp/kernels/cast.hpp"

namespace xp::detail {

ElementBits cast_scalar(const ScalarValue& scalar, xp::dtype target) {
  ElementBits bits{};
  visit_dtype(scalar.type, [&](auto source) {
    using S = typename decltype(source)::type;
    S value;
    std::memcpy(static_cast<void*>(&value), &scalar.bits, sizeof(S));
    visit_dtype(target, [&](auto destination) {
      using D = typename decltype(destination)::type;
      const D converted = kernels::cast<D>(value);
      std::memcpy(&bits, static_cast<const void*>(&converted), sizeof(D));
    });
  });
  return bits;
}

}  // namespace xp::detail
