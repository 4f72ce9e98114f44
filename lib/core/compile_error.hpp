#pragma once
// The error of a kernel that does not compile: the compiler's log, then the generated source with
// line numbers, so the log's line references can be followed.
#include <string>
#include <string_view>

namespace xp::detail {

std::string numbered_source(std::string_view source);
[[noreturn]] void throw_compile_error(std::string_view kernel, std::string_view compiler, std::string_view log,
                                      std::string_view source);

// XP_DUMP_SOURCE=1: generated sources are printed to stderr before they are compiled.
void dump_source_if_asked(std::string_view kernel, std::string_view source);

}  // namespace xp::detail
