#include "core/kernel_source.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <set>
#include <span>
#include <sstream>
#include <vector>

#include "xp/error.hpp"

namespace xp::detail {

namespace {

// A parameter as the generated code declares and reaches it.
struct SourceOperand {
  const KernelParam* param;
  const ArgSignature* arg;
  bool input;
  std::string type;  // what the kernel receives
  std::string name;  // its name in the kernel: _raw_x for non-raw arrays, x otherwise
};

std::string element_type(const SourceOperand& o) {
  return std::string(o.input ? "const " : "") + std::string(c_type_name(o.arg->type));
}

// Decides each operand's declaration; `array_type(o)` names what a non-raw array becomes.
template <class ArrayType>
std::vector<SourceOperand> operands(std::span<const KernelParam> in, std::span<const KernelParam> out,
                                    std::span<const ArgSignature> args, ArrayType array_type) {
  std::vector<SourceOperand> list;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const bool input = k < in.size();
    SourceOperand o{input ? &in[k] : &out[k - in.size()], &args[k], input, {}, {}};
    switch (o.arg->kind) {
      case ArgKind::scalar:
        o.type = c_type_name(o.arg->type);
        o.name = o.param->name;
        break;
      case ArgKind::raw:
        o.type = "xpj::raw_array<" + element_type(o) + ", " + std::to_string(o.arg->ndim) + ", " +
                 (o.arg->contiguous ? "true" : "false") + ">";
        o.name = o.param->name;
        break;
      case ArgKind::array:
        o.type = array_type(o);
        o.name = "_raw_" + o.param->name;
        break;
    }
    list.push_back(std::move(o));
  }
  return list;
}

struct Extra {
  std::string type, name;
};

bool continues_name(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The identifiers of a kernel's code.
std::set<std::string_view, std::less<>> identifiers(std::span<const std::string_view> code) {
  std::set<std::string_view, std::less<>> names;
  const auto starts = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::string_view text : code) {
    for (std::size_t k = 0; k < text.size();) {
      if (!starts(text[k])) {
        // A number's letters (1e5f, 0x1f) are not names.
        const bool number = std::isdigit(static_cast<unsigned char>(text[k]));
        for (++k; number && k < text.size() && continues_name(text[k]);) ++k;
        continue;
      }
      const std::size_t begin = k;
      while (k < text.size() && continues_name(text[k])) ++k;
      names.insert(text.substr(begin, k - begin));
    }
  }
  return names;
}

// The prelude split around its per-function math lines (jit_prelude.cuh's xpj-math-lines).
struct PreludeParts {
  std::string_view head, tail;
  struct MathLine {
    std::string_view name, text;
    bool float_form;  // an XPJ_MATH line, which also defines name##f
  };
  std::vector<MathLine> math;
};

const PreludeParts& prelude_parts() {
  static const PreludeParts parts = [] {
    const std::string_view prelude = jit_prelude();
    const std::size_t marker = prelude.find("// xpj-math-lines-begin");
    const std::size_t end = prelude.find("// xpj-math-lines-end");
    XP_ASSERT(marker != std::string_view::npos && end != std::string_view::npos);
    std::size_t at = marker;
    while (prelude.compare(at, 2, "//") == 0) at = prelude.find('\n', at) + 1;
    PreludeParts p{prelude.substr(0, at), prelude.substr(end), {}};
    for (; at < end; at = prelude.find('\n', at) + 1) {
      const std::string_view line = prelude.substr(at, prelude.find('\n', at) + 1 - at);
      const std::size_t open = line.find('(');
      const bool macro = line.starts_with("XPJ_");
      std::size_t begin = macro ? open + 1 : open;
      if (!macro)
        while (begin > 0 && continues_name(line[begin - 1])) --begin;
      const std::size_t length = macro ? line.find(')') - begin : open - begin;
      p.math.push_back({line.substr(begin, length), line, line.starts_with("XPJ_MATH")});
    }
    return p;
  }();
  return parts;
}

// Whether a kernel's arguments, placeholders or code (a reduce_type of "float16", a cast in the body)
// name one of `types`: then its source carries their definitions.
bool uses_types(std::span<const ArgSignature> args, const TypeBindings& bindings,
                const std::set<std::string_view, std::less<>>& names, bool (*is_one)(xp::dtype) noexcept,
                std::initializer_list<std::string_view> type_names) {
  for (const ArgSignature& a : args)
    if (is_one(a.type)) return true;
  for (const auto& b : bindings.list())
    if (is_one(b.type)) return true;
  for (std::string_view name : type_names)
    if (names.contains(name)) return true;
  return false;
}

// Whether a kernel's code calls NumPy's functions of one element (jit_ufuncs.cuh): it names xp:: other
// than the element types.
bool names_functions(std::span<const std::string_view> code) {
  constexpr std::string_view element_types[] = {"float16", "bfloat16", "complex64", "complex128"};
  constexpr std::string_view scope = "xp::";
  for (std::string_view text : code) {
    for (std::size_t at = text.find(scope); at != std::string_view::npos; at = text.find(scope, at + 1)) {
      if (at > 0 && continues_name(text[at - 1])) continue;  // myxp::
      if (at >= 3 && text.substr(at - 2, 2) == "::" && continues_name(text[at - 3])) continue;  // ns::xp::
      std::size_t end = at + scope.size();
      while (end < text.size() && continues_name(text[end])) ++end;
      const std::string_view name = text.substr(at + scope.size(), end - at - scope.size());
      if (std::find(std::begin(element_types), std::end(element_types), name) == std::end(element_types)) return true;
    }
  }
  return false;
}

// Whether complex code may call the inverse or hyperbolic functions, which NVRTC takes from libcu++
// (jit_complex.cuh): its header costs every compile that includes it.
bool names_library_complex_functions(const std::set<std::string_view, std::less<>>& names) {
  constexpr std::string_view functions[] = {"arcsin", "arccos",  "arctan",  "sinh",
                                            "cosh",   "arcsinh", "arccosh", "arctanh"};
  return std::any_of(std::begin(functions), std::end(functions), [&](std::string_view f) { return names.contains(f); });
}

// The source's opening: CUB where it reduces on GPUs, libcu++'s complex numbers where complex code names
// functions that come from it, the 2-byte floats, the prelude, the complex types (which use the prelude's
// math functions), NumPy's functions of one element (which use all three), the placeholders' typedefs
// and the preamble.
void write_header(std::ostringstream& s, std::span<const ArgSignature> args, const TypeBindings& bindings,
                  const KernelOptions& options, KernelTarget target, bool uses_cub,
                  std::initializer_list<std::string_view> code) {
  std::vector<std::string_view> texts(code);
  const auto names = identifiers(texts);
  const bool functions = names_functions(texts);
  const bool two_byte = functions || uses_types(args, bindings, names, is_two_byte_float, {"float16", "bfloat16"});
  const bool complex_values = uses_types(args, bindings, names, is_complex, {"complex64", "complex128"});
  const bool complex = functions || complex_values;
  if (uses_cub && target == KernelTarget::cuda) s << "#include <cub/block/block_reduce.cuh>\n";
  if (complex_values && target == KernelTarget::cuda && names_library_complex_functions(names))
    s << "#include <cuda/std/complex>\n#define XPJ_CUDA_STD_COMPLEX\n";
  if (two_byte) s << jit_element_types() << "\n";
  // Their math functions stay in a host prelude.
  if (complex) texts.push_back(jit_complex());
  if (functions) texts.push_back(jit_functions());
  if (target == KernelTarget::cuda) s << jit_prelude() << "\n";
  else s << host_prelude(texts) << "\n";
  if (complex) s << jit_complex() << "\n";
  if (functions) s << jit_functions() << "\n";
  for (const auto& b : bindings.list()) s << "typedef " << c_type_name(b.type) << " " << b.letter << ";\n";
  if (!options.preamble.empty()) s << options.preamble << "\n";
}

// The entry point's opening: a __global__ function of the arguments, or a host function that takes
// them through an array of pointers (plus `host_params`).
void write_entry(std::ostringstream& s, KernelTarget target, std::string_view name,
                 const std::vector<SourceOperand>& ops, const std::vector<Extra>& extras, std::string_view host_params,
                 std::string_view launch_bounds = "") {
  if (target == KernelTarget::cuda) {
    s << "extern \"C\" __global__ void " << launch_bounds << name << "(";
    bool first = true;
    for (const SourceOperand& o : ops) {
      s << (first ? "" : ", ") << o.type << " " << o.name;
      first = false;
    }
    for (const Extra& e : extras) {
      s << (first ? "" : ", ") << e.type << " " << e.name;
      first = false;
    }
    s << ") {\n";
    return;
  }
  s << "extern \"C\" void " << name << "(void* const* _xp_args" << host_params << ") {\n";
  std::size_t k = 0;
  for (const SourceOperand& o : ops) {
    s << "  " << o.type << " const " << o.name << " = *static_cast<" << o.type << " const*>(_xp_args[" << k++
      << "]);\n";
  }
  for (const Extra& e : extras)
    s << "  " << e.type << " const& " << e.name << " = *static_cast<" << e.type << " const*>(_xp_args[" << k++
      << "]);\n";
}

// The body's names for the array operands (`inputs` or outputs) at its position _xp_at: a const
// value for an input, a reference for an output.
void write_bindings(std::ostringstream& s, std::string_view indent, const std::vector<SourceOperand>& ops,
                    bool inputs) {
  for (const SourceOperand& o : ops) {
    if (o.arg->kind != ArgKind::array || o.input != inputs) continue;
    s << indent << element_type(o) << (o.input ? " " : "& ") << o.param->name << " = _xp_at(" << o.name << ");\n";
  }
}

// The loop of an elementwise kernel: a skeleton of the prelude (grid_loop, flat_loop, row_loop)
// over the body, which binds the operands at loop index i and runs the operation.
void write_elementwise_loop(std::ostringstream& s, const ElementwiseSpec& spec, const ElementwiseSignature& sig,
                            KernelTarget target, const std::vector<SourceOperand>& ops) {
  const std::string size = sig.contiguous ? "_xp_size" : "_xp_shape.size";
  if (target == KernelTarget::cuda) s << "  xpj::grid_loop(" << (sig.contiguous ? "_xp_size" : "_xp_shape");
  else if (sig.contiguous) s << "  xpj::flat_loop(_xp_begin, _xp_end";
  else s << "  xpj::row_loop(_xp_shape, _xp_begin, _xp_end";
  s << ", [&](const xpj::index_t i, const auto& _xp_at) {\n";
  s << "    const xpj::position _ind = {i, " << size << "};\n";
  write_bindings(s, "    ", ops, true);
  write_bindings(s, "    ", ops, false);
  s << "    " << spec.operation << ";\n  });\n";
}

// A reduction's three parts as lambdas for the prelude's skeletons: the mapped value of reduced
// position _r of output _i, REDUCE, and the store of output _i.
void write_map(std::ostringstream& s, const ReductionSpec& spec, const std::vector<SourceOperand>& ops) {
  s << "      [&](const xpj::index_t _i, const xpj::index_t _r, const auto& _xp_at) -> _type_reduce {\n";
  s << "        const xpj::index_t _j = _r * _xp_kept.size + _i;\n";
  s << "        const xpj::position _in_ind = {_j, _xp_kept.size * _xp_red.size};\n";
  s << "        const xpj::position _out_ind = {_i, _xp_kept.size};\n";
  write_bindings(s, "        ", ops, true);
  s << "        return static_cast<_type_reduce>(" << spec.map_expr << ");\n      },\n";
}

void write_combine_and_store(std::ostringstream& s, const std::vector<SourceOperand>& ops) {
  s << "      [&](const _type_reduce& a, const _type_reduce& b) -> _type_reduce { return REDUCE(a, b); },\n";
  s << "      [&](const xpj::index_t _i, _type_reduce a, const auto& _xp_at) {\n";
  write_bindings(s, "        ", ops, false);
  s << "        POST_MAP(a);\n      });\n";
}

// The host reduction's second entry point: output _xp_i from the partials of its parts.
void write_finish(std::ostringstream& s, const ReductionSpec& spec, const ReductionSignature& sig,
                  const std::vector<SourceOperand>& ops) {
  s << "extern \"C\" void " << spec.name
    << "_finish(void* const* _xp_args, xpj::index_t _xp_i, const _type_reduce* _xp_partials, int _xp_count) {\n";
  std::size_t k = 0;
  for (const SourceOperand& o : ops)
    s << "  " << o.type << " const " << o.name << " = *static_cast<" << o.type << " const*>(_xp_args[" << k++
      << "]);\n";
  const std::string kept = "xpj::shape<" + std::to_string(sig.kept_ndim) + ">";
  s << "  " << kept << " const& _xp_kept = *static_cast<" << kept << " const*>(_xp_args[" << k << "]);\n";
  s << "  const int _J = 0;\n";
  s << "  xpj::finish_partials(_xp_kept, _xp_i, _xp_partials, _xp_count,\n";
  write_combine_and_store(s, ops);
  s << "}\n";
}

}  // namespace

std::string host_prelude(std::initializer_list<std::string_view> code) {
  return host_prelude(std::span(code.begin(), code.size()));
}

std::string host_prelude(std::span<const std::string_view> code) {
  const PreludeParts& parts = prelude_parts();
  const auto names = identifiers(code);
  std::string prelude(parts.head);
  for (const PreludeParts::MathLine& m : parts.math) {
    const bool named = names.contains(m.name) || (m.float_form && names.contains(std::string(m.name) + "f"));
    if (named) prelude += m.text;
  }
  prelude += parts.tail;
  return prelude;
}

std::string reduce_type_name(const ReductionSpec& spec, const TypeBindings& bindings) {
  const std::string& text = spec.options.reduce_type;
  if (text.empty()) {
    XP_CHECK(!spec.out.empty(), ValueError, spec.name, ": a reduction needs an output parameter");
    return std::string(c_type_name(param_dtype(spec.out.front(), bindings)));
  }
  if (text.size() == 1) {
    const auto bound = bindings.find(text);
    XP_CHECK(bound.has_value(), TypeError, spec.name, ": reduce_type ", text, " is not bound by the arguments");
    return std::string(c_type_name(*bound));
  }
  if (const auto type = dtype_from_name(text)) return std::string(c_type_name(*type));
  return text;
}

std::string elementwise_source(const ElementwiseSpec& spec, const ElementwiseSignature& sig, KernelTarget target) {
  const int n = sig.loop_ndim;
  const auto ops = operands(spec.in, spec.out, sig.args, [&](const SourceOperand& o) {
    return sig.contiguous ? element_type(o) + "*" : "xpj::strided<" + element_type(o) + ", " + std::to_string(n) + ">";
  });
  const std::vector<Extra> extras{sig.contiguous ? Extra{"xpj::index_t", "_xp_size"}
                                                 : Extra{"xpj::shape<" + std::to_string(n) + ">", "_xp_shape"}};
  std::ostringstream s;
  write_header(s, sig.args, sig.bindings, spec.options, target, false,
               {spec.operation, spec.options.preamble, spec.options.loop_prep, spec.options.after_loop});
  write_entry(s, target, spec.name, ops, extras, ", xpj::index_t _xp_begin, xpj::index_t _xp_end");
  if (!spec.options.loop_prep.empty()) s << "  " << spec.options.loop_prep << "\n";
  write_elementwise_loop(s, spec, sig, target, ops);
  if (!spec.options.after_loop.empty()) s << "  " << spec.options.after_loop << "\n";
  s << "}\n";
  return s.str();
}

std::string reduction_source(const ReductionSpec& spec, const ReductionSignature& sig, KernelTarget target) {
  const int kept = sig.kept_ndim, reduced = sig.reduced_ndim;
  const auto ops = operands(spec.in, spec.out, sig.args, [&](const SourceOperand& o) {
    return "xpj::strided<" + element_type(o) + ", " + std::to_string(o.input ? kept + reduced : kept) + ">";
  });
  const std::vector<Extra> extras{{"xpj::shape<" + std::to_string(kept) + ">", "_xp_kept"},
                                  {"xpj::shape<" + std::to_string(reduced) + ">", "_xp_red"}};
  const bool cuda = target == KernelTarget::cuda;
  std::ostringstream s;
  write_header(s, sig.args, sig.bindings, spec.options, target, true,
               {spec.map_expr, spec.reduce_expr, spec.post_map_expr, spec.identity, spec.options.preamble,
                spec.options.reduce_type});
  s << "typedef " << reduce_type_name(spec, sig.bindings) << " _type_reduce;\n";
  s << "#define REDUCE(a, b) (" << spec.reduce_expr << ")\n";
  s << "#define POST_MAP(a) (" << spec.post_map_expr << ")\n";
  if (!cuda) s << "extern \"C\" const unsigned long long " << spec.name << "_partial_size = sizeof(_type_reduce);\n";
  const std::string block = std::to_string(sig.block_size);
  write_entry(s, target, spec.name, ops, extras,
              cuda ? ""
                   : ", xpj::index_t _xp_out_begin, xpj::index_t _xp_out_end, xpj::index_t _xp_r_begin, "
                     "xpj::index_t _xp_r_end, _type_reduce* _xp_partial",
              cuda ? "__launch_bounds__(" + block + ") " : "");
  s << "  const int _J = " << (cuda ? "threadIdx.x" : "0") << ";\n";
  const std::string identity = "_type_reduce(" + spec.identity + ")";
  if (cuda) s << "  xpj::block_reduce<_type_reduce, " << block << ">(_xp_kept, _xp_red, " << identity << ",\n";
  else
    s << "  xpj::reduce_rows(_xp_kept, _xp_red, " << identity
      << ", _xp_out_begin, _xp_out_end, _xp_r_begin, _xp_r_end, _xp_partial,\n";
  write_map(s, spec, ops);
  write_combine_and_store(s, ops);
  s << "}\n";
  if (!cuda) write_finish(s, spec, sig, ops);
  return s.str();
}

}  // namespace xp::detail
