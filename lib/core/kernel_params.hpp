#pragma once
// The parameter lists of run-time kernels, as CuPy writes them: "T x, raw float32 y". Pure parsing
// and type binding, shared by every backend and golden-tested.
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "xp/dtype.hpp"

namespace xp::detail {

// Parameters of one kernel, at most (inputs and outputs together).
inline constexpr int kMaxKernelParams = 32;

struct KernelParam {
  std::string name;
  std::string placeholder;  // a one-letter type placeholder ("T"), or empty
  std::optional<xp::dtype> type;  // the fixed type ("float32"), when not a placeholder
  bool raw = false;  // indexed by hand with i; not broadcast
};

// Parses "[raw] type name, ..."; types are placeholders (one letter) or NumPy names. ValueError on
// anything else ("Wrong type float", "Syntax error: x", "Invalid parameter name 2x").
std::vector<KernelParam> parse_kernel_params(std::string_view text);

struct KernelParams {
  std::vector<KernelParam> in, out;
};

// A kernel's name and parameter lists checked and parsed: the checks below, and at most
// kMaxKernelParams parameters.
KernelParams parse_kernel_signature(std::string_view name, std::string_view in, std::string_view out,
                                    std::span<const std::string_view> reserved);

// ValueError "Invalid kernel name" unless name is a C identifier.
void check_kernel_name(std::string_view name);

// ValueError when a parameter is named after one of `reserved` or two parameters share a name.
void check_param_names(std::span<const KernelParam> in, std::span<const KernelParam> out,
                       std::span<const std::string_view> reserved);

// The placeholder bindings of one call: letter -> dtype (inline: made on every call).
class TypeBindings {
 public:
  std::optional<xp::dtype> find(std::string_view placeholder) const noexcept;
  void bind(std::string_view placeholder, xp::dtype type);
  struct Binding {
    char letter;
    xp::dtype type;
  };
  std::span<const Binding> list() const noexcept { return {bindings_.data(), count_}; }

 private:
  std::array<Binding, kMaxKernelParams> bindings_;  // the first count_ are set
  std::size_t count_ = 0;
};

// CuPy's rule: outputs first, then inputs; an array binds its parameter's placeholder, a fixed
// type must match the array's, a second array for a bound placeholder must have its type
// (TypeError "Type is mismatched. x int32 float32 T"). Scalars (null entries) bind nothing.
// in_types/out_types hold the arrays' dtypes, nullopt for scalars; out_types may be empty.
TypeBindings bind_kernel_types(std::span<const KernelParam> in, std::span<const KernelParam> out,
                               std::span<const std::optional<xp::dtype>> in_types,
                               std::span<const std::optional<xp::dtype>> out_types);

// The dtype of a parameter under `bindings`; TypeError when its placeholder is unbound.
xp::dtype param_dtype(const KernelParam& param, const TypeBindings& bindings);

// The C type name of a dtype in generated sources ("float", "long long", ...).
std::string_view c_type_name(xp::dtype type) noexcept;

// A dtype from its NumPy name ("float32"), or nullopt.
std::optional<xp::dtype> dtype_from_name(std::string_view name) noexcept;

}  // namespace xp::detail
