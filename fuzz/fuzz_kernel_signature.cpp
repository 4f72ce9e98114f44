// Run-time kernels' names and parameter lists ("T x, raw float32 y"): parsed, or a ValueError. What
// parses holds C identifiers, no reserved or repeated name, at most kMaxKernelParams parameters, and
// reads back the same from the text it is written as. Input: name, inputs and outputs as
// FuzzedDataProvider strings (each ends at a backslash and one more character), then the kernel kind.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <span>
#include <string>

#include "core/kernel_params.hpp"
#include "core/kernel_source.hpp"
#include "fuzz_check.hpp"
#include "xp/error.hpp"

namespace {

bool is_identifier(std::string_view s) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (s.empty() || !letter(s[0])) return false;
  for (char c : s)
    if (!letter(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

std::string text_of(std::span<const xp::detail::KernelParam> params) {
  std::string text;
  for (const auto& p : params) {
    if (!text.empty()) text += ", ";
    if (p.raw) text += "raw ";
    text += p.type ? std::string(xp::dtype_name(*p.type)) : p.placeholder;
    text += " " + p.name;
  }
  return text;
}

bool same(std::span<const xp::detail::KernelParam> a, std::span<const xp::detail::KernelParam> b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k].name != b[k].name || a[k].placeholder != b[k].placeholder || a[k].type != b[k].type ||
        a[k].raw != b[k].raw)
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  const std::string name = input.ConsumeRandomLengthString(64);
  const std::string in = input.ConsumeRandomLengthString(512);
  const std::string out = input.ConsumeRandomLengthString(512);
  const std::span<const std::string_view> reserved =
      input.ConsumeBool() ? std::span<const std::string_view>(xp::detail::kReductionReservedNames)
                          : xp::detail::kElementwiseReservedNames;
  xp::detail::KernelParams params;
  try {
    params = xp::detail::parse_kernel_signature(name, in, out, reserved);
  } catch (const xp::ValueError&) { return 0; }
  FUZZ_CHECK(is_identifier(name));
  FUZZ_CHECK(params.in.size() + params.out.size() <= xp::detail::kMaxKernelParams);
  std::set<std::string> names;
  for (const auto* list : {&params.in, &params.out}) {
    for (const auto& p : *list) {
      FUZZ_CHECK(is_identifier(p.name));
      FUZZ_CHECK(names.insert(p.name).second);
      for (std::string_view r : reserved) FUZZ_CHECK(p.name != r);
      FUZZ_CHECK(!p.name.starts_with("_xp"));
      FUZZ_CHECK(p.type.has_value() != (p.placeholder.size() == 1));
    }
  }
  const auto again = xp::detail::parse_kernel_signature(name, text_of(params.in), text_of(params.out), reserved);
  FUZZ_CHECK(same(again.in, params.in) && same(again.out, params.out));
  return 0;
}
