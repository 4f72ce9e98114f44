#include "core/compile_error.hpp"

#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>

#include "xp/error.hpp"

namespace xp::detail {

std::string numbered_source(std::string_view source) {
  std::ostringstream out;
  int line = 1;
  std::size_t start = 0;
  while (start < source.size()) {
    std::size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    out << std::setw(4) << line++ << "  " << source.substr(start, end - start) << "\n";
    start = end + 1;
  }
  return out.str();
}

void throw_compile_error(std::string_view kernel, std::string_view compiler, std::string_view log,
                         std::string_view source) {
  throw CompileError("kernel ", kernel, " does not compile (", compiler, "):\n", log, "\nsource:\n",
                     numbered_source(source));
}

void dump_source_if_asked(std::string_view kernel, std::string_view source) {
  const char* dump = std::getenv("XP_DUMP_SOURCE");
  if (!dump || std::string_view(dump) != "1") return;
  const std::string text =
      "xparray: generated source of kernel " + std::string(kernel) + ":\n" + numbered_source(source);
  std::fwrite(text.data(), 1, text.size(), stderr);
}

}  // namespace xp::detail
