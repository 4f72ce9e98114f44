#pragma once
/// \file
/// Where the library's warnings go: MXNet's UserWarnings (a stale gradient, a forced re-initialisation,
/// a download without certificate checks) pass through one handler, stderr by default:
/// \code{.cpp}
///   xp::utils::set_warning_handler([](std::string_view m) { log << m; });
/// \endcode
#include <functional>
#include <string_view>

#include "xp/export.hpp"

namespace xp::utils {

/// Where warnings go (default: stderr, "xparray warning: ..."); a null handler restores the default.
using WarningHandler = std::function<void(std::string_view message)>;
XP_API void set_warning_handler(WarningHandler handler);  ///< see WarningHandler
XP_API void warn(std::string_view message);  ///< passes `message` to the handler

}  // namespace xp::utils
