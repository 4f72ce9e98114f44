#include "core/kernel_params.hpp"

#include <algorithm>
#include <cctype>

#include "xp/error.hpp"

namespace xp::detail {

namespace {

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!letter(s[0])) return false;
  return std::all_of(s.begin() + 1, s.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t k = 0; k <= text.size(); ++k) {
    if (k == text.size() || text[k] == separator) {
      parts.push_back(text.substr(start, k - start));
      start = k + 1;
    }
  }
  return parts;
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t k = 0;
  while (k < text.size()) {
    while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k]))) ++k;
    const std::size_t start = k;
    while (k < text.size() && !std::isspace(static_cast<unsigned char>(text[k]))) ++k;
    if (k > start) out.push_back(text.substr(start, k - start));
  }
  return out;
}

KernelParam parse_param(std::string_view text) {
  const std::vector<std::string_view> tokens = words(text);
  XP_CHECK(tokens.size() >= 2, ValueError, "Syntax error: ", text);
  KernelParam param;
  const std::string_view type = tokens[tokens.size() - 2];
  param.name = std::string(tokens.back());
  XP_CHECK(is_identifier(param.name), ValueError, "Invalid parameter name ", param.name);
  if (type.size() == 1) {
    XP_CHECK(is_identifier(type), ValueError, "Wrong type ", type);
    param.placeholder = std::string(type);
  } else {
    param.type = dtype_from_name(type);
    XP_CHECK(param.type.has_value(), ValueError, "Wrong type ", type);
  }
  for (std::size_t k = 0; k + 2 < tokens.size(); ++k) {
    XP_CHECK(tokens[k] == "raw", ValueError, "Unknown keyword \"", tokens[k], "\"");
    param.raw = true;
  }
  return param;
}

void bind_one(TypeBindings& bindings, const KernelParam& param, std::optional<xp::dtype> type) {
  if (!type) return;
  if (param.type) {
    XP_CHECK(*param.type == *type, TypeError, "Type is mismatched. ", param.name, " ", *type, " ", *param.type);
  } else if (const auto bound = bindings.find(param.placeholder)) {
    XP_CHECK(*bound == *type, TypeError, "Type is mismatched. ", param.name, " ", *type, " ", *bound, " ",
             param.placeholder);
  } else {
    bindings.bind(param.placeholder, *type);
  }
}

}  // namespace

std::vector<KernelParam> parse_kernel_params(std::string_view text) {
  std::vector<KernelParam> params;
  if (words(text).empty()) return params;
  for (std::string_view part : split(text, ',')) params.push_back(parse_param(part));
  return params;
}

KernelParams parse_kernel_signature(std::string_view name, std::string_view in, std::string_view out,
                                    std::span<const std::string_view> reserved) {
  check_kernel_name(name);
  KernelParams params{parse_kernel_params(in), parse_kernel_params(out)};
  check_param_names(params.in, params.out, reserved);
  XP_CHECK(params.in.size() + params.out.size() <= kMaxKernelParams, ValueError, "kernel ", name, ": at most ",
           kMaxKernelParams, " parameters are supported");
  return params;
}

void check_kernel_name(std::string_view name) {
  XP_CHECK(is_identifier(name), ValueError, "Invalid kernel name: \"", name, "\"");
}

void check_param_names(std::span<const KernelParam> in, std::span<const KernelParam> out,
                       std::span<const std::string_view> reserved) {
  std::vector<std::string_view> seen;
  for (auto list : {in, out}) {
    for (const KernelParam& p : list) {
      XP_CHECK(std::find(reserved.begin(), reserved.end(), p.name) == reserved.end(), ValueError, "Can not use '",
               p.name, "' as a parameter name");
      XP_CHECK(p.name.rfind("_xp", 0) != 0, ValueError, "Can not use '", p.name,
               "' as a parameter name: names starting with _xp are reserved");
      XP_CHECK(std::find(seen.begin(), seen.end(), p.name) == seen.end(), ValueError, "Duplicated parameter name ",
               p.name);
      seen.push_back(p.name);
    }
  }
}

std::optional<xp::dtype> TypeBindings::find(std::string_view placeholder) const noexcept {
  for (const Binding& b : list())
    if (placeholder.size() == 1 && placeholder[0] == b.letter) return b.type;
  return std::nullopt;
}

void TypeBindings::bind(std::string_view placeholder, xp::dtype type) {
  XP_ASSERT(count_ < bindings_.size());
  bindings_[count_++] = {placeholder[0], type};
}

TypeBindings bind_kernel_types(std::span<const KernelParam> in, std::span<const KernelParam> out,
                               std::span<const std::optional<xp::dtype>> in_types,
                               std::span<const std::optional<xp::dtype>> out_types) {
  TypeBindings bindings;
  for (std::size_t k = 0; k < out_types.size(); ++k) bind_one(bindings, out[k], out_types[k]);
  for (std::size_t k = 0; k < in_types.size(); ++k) bind_one(bindings, in[k], in_types[k]);
  return bindings;
}

xp::dtype param_dtype(const KernelParam& param, const TypeBindings& bindings) {
  if (param.type) return *param.type;
  const auto bound = bindings.find(param.placeholder);
  XP_CHECK(bound.has_value(), TypeError, "Cannot determine the type of ", param.placeholder, " (parameter ", param.name,
           "): no array argument binds it");
  return *bound;
}

std::string_view c_type_name(xp::dtype type) noexcept {
  switch (type) {
    case xp::dtype::bool_: return "bool";
    case xp::dtype::int8: return "signed char";
    case xp::dtype::int16: return "short";
    case xp::dtype::int32: return "int";
    case xp::dtype::int64: return "long long";
    case xp::dtype::uint8: return "unsigned char";
    case xp::dtype::uint16: return "unsigned short";
    case xp::dtype::uint32: return "unsigned int";
    case xp::dtype::uint64: return "unsigned long long";
    case xp::dtype::float32: return "float";
    case xp::dtype::float16: return "xp::float16";
    case xp::dtype::bfloat16: return "xp::bfloat16";
    case xp::dtype::complex64: return "xp::complex64";
    case xp::dtype::complex128: return "xp::complex128";
    case xp::dtype::float64: break;
  }
  return "double";
}

std::optional<xp::dtype> dtype_from_name(std::string_view name) noexcept {
  for (int k = 0; k < kNumDtypes; ++k) {
    const auto type = static_cast<xp::dtype>(k);
    if (dtype_name(type) == name) return type;
  }
  return std::nullopt;
}

}  // namespace xp::detail
