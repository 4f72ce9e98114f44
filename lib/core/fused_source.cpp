// xp::fuse's trace printed as an ElementwiseKernel (core/fusion_graph.hpp).
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>

#include "core/elementwise_checks.hpp"
#include "core/fusion_graph.hpp"
#include "core/kernel_params.hpp"

namespace xp::detail {

namespace {

// Exact constants from their bits, and each operation's rounded result kept as it is: nvcc would
// otherwise contract a product and a later sum into one fused multiply-add, which the unfused
// operations (a product stored, then read by the sum) never do.
constexpr std::string_view kPreamble =
    R"(XPJ_DEVICE float xp_fused_float(unsigned int bits) { return xp::element_bits::to_float(bits); }
XPJ_DEVICE double xp_fused_double(unsigned long long bits) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(bits));
#else
  return __builtin_bit_cast(double, bits);
#endif
}
XPJ_DEVICE float xp_fused_keep(float v) {
#if defined(__CUDA_ARCH__)
  asm("" : "+f"(v));
#endif
  return v;
}
XPJ_DEVICE double xp_fused_keep(double v) {
#if defined(__CUDA_ARCH__)
  asm("" : "+d"(v));
#endif
  return v;
}
template <class T> XPJ_DEVICE T xp_fused_keep(T v) { return v; })";

template <class T>
T bits_as(const ElementBits& bits) {
  T value;
  std::memcpy(static_cast<void*>(&value), &bits, sizeof(T));
  return value;
}

// A float or double from its bits, through the preamble's helper.
template <class Bits, class F>
std::string bits_literal(F value, std::string_view helper, std::string_view suffix) {
  Bits bits = 0;
  std::memcpy(&bits, &value, sizeof(bits));
  std::ostringstream s;
  s << helper << "(0x" << std::hex << bits << suffix << ")";
  return s.str();
}
std::string float_literal(float value) { return bits_literal<std::uint32_t>(value, "xp_fused_float", "u"); }
std::string double_literal(double value) { return bits_literal<std::uint64_t>(value, "xp_fused_double", "ull"); }

// One element of `type`, exactly.
std::string literal(const ElementBits& bits, xp::dtype type) {
  const std::string c_type(c_type_name(type));
  return visit_dtype(type, [&](auto tag) -> std::string {
    using T = typename decltype(tag)::type;
    const T value = bits_as<T>(bits);
    if constexpr (std::is_same_v<T, bool>) return value ? "true" : "false";
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)  // the least int64 has no literal
      return "static_cast<" + c_type + ">(" +
             (value == std::numeric_limits<long long>::min() ? std::string("-9223372036854775807LL - 1")
                                                             : std::to_string(static_cast<long long>(value)) + "LL") +
             ")";
    else if constexpr (std::is_integral_v<T>)
      return "static_cast<" + c_type + ">(" + std::to_string(static_cast<unsigned long long>(value)) + "ULL)";
    else if constexpr (std::is_same_v<T, float>) return float_literal(value);
    else if constexpr (std::is_same_v<T, double>) return double_literal(value);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      return c_type + "(" + float_literal(value.real()) + ", " + float_literal(value.imag()) + ")";
    else if constexpr (std::is_same_v<T, std::complex<double>>)
      return c_type + "(" + double_literal(value.real()) + ", " + double_literal(value.imag()) + ")";
    else return c_type + "(" + float_literal(static_cast<float>(value)) + ")";  // 2-byte floats: exact in float
  });
}

std::string value_name(const FusionNode& node, int number) {
  return node.parameter >= 0 ? "in" + std::to_string(node.parameter) : "t" + std::to_string(number);
}

// Input k of `node` as the operation reads it.
std::string operand(const FusionGraph& graph, const FusionNode& node, int k) {
  const xp::dtype slot = input_dtype(node.op, static_cast<std::size_t>(k), node.compute);
  const int source = node.inputs[static_cast<std::size_t>(k)];
  if (source < 0) return literal(node.scalars[static_cast<std::size_t>(k)], slot);
  const FusionNode& from = graph.nodes()[static_cast<std::size_t>(source)];
  const std::string name = value_name(from, source);
  if (from.type == slot) return name;
  return "xp::kernels::cast<" + std::string(c_type_name(slot)) + ">(" + name + ")";
}

void write_operation(std::ostringstream& s, const FusionGraph& graph, int number) {
  const FusionNode& node = graph.nodes()[static_cast<std::size_t>(number)];
  const std::string name = value_name(node, number), type(c_type_name(node.type));
  if (node.cast) {
    const int source = node.inputs[0];
    s << "const " << type << " " << name << " = xp::kernels::cast<" << type << ">("
      << value_name(graph.nodes()[static_cast<std::size_t>(source)], source) << ");\n";
    return;
  }
  std::string arguments;
  for (int k = 0; k < node.arity; ++k) arguments += (k ? ", " : "") + operand(graph, node, k);
  switch (node.op) {
    case ElementwiseOp::frexp_mantissa:
      s << "int " << name << "_exponent; const " << type << " " << name << " = static_cast<" << type << ">(xp::frexp("
        << arguments << ", &" << name << "_exponent));\n";
      return;
    case ElementwiseOp::frexp_exponent:
      s << "int " << name << "; xp::frexp(" << arguments << ", &" << name << ");\n";
      return;
    case ElementwiseOp::modf_fraction:
      s << type << " " << name << "_whole; const " << type << " " << name << " = static_cast<" << type << ">(xp::modf("
        << arguments << ", &" << name << "_whole));\n";
      return;
    default:
      s << "const " << type << " " << name << " = xp_fused_keep(static_cast<" << type << ">(xp::" << op_name(node.op)
        << "(" << arguments << ")));\n";
  }
}

}  // namespace

FusedSource fused_elementwise_source(const FusionGraph& graph) {
  FusedSource source;
  for (const FusionNode& node : graph.nodes())
    if (node.parameter >= 0)
      source.in_params += std::string(source.in_params.empty() ? "" : ", ") + std::string(dtype_name(node.type)) +
                          " in" + std::to_string(node.parameter);
  const FusionNode& output = graph.nodes()[static_cast<std::size_t>(graph.output())];
  source.out_params = std::string(dtype_name(output.type)) + " out0";
  std::ostringstream s;
  for (const int number : graph.evaluation_order()) write_operation(s, graph, number);
  s << "out0 = " << value_name(output, graph.output()) << ";";
  source.operation = s.str();
  source.preamble = kPreamble;
  return source;
}

}  // namespace xp::detail
