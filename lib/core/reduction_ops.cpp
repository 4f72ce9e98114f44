#include "xp/detail/reduction_ops.hpp"

namespace xp::detail {

std::string_view reduction_name(Reduction r) noexcept {
  static constexpr std::string_view names[] = {"sum", "prod", "max",  "min", "argmax", "argmin",
                                               "all", "any",  "mean", "var", "std",    "norm"};
  return names[static_cast<int>(r)];
}

}  // namespace xp::detail
