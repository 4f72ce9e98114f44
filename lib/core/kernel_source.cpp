#include "core/kernel_source.hpp"

#include <cctype>
#include <set>
#include <sstream>

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
std::set<std::string_view, std::less<>> identifiers(std::initializer_list<std::string_view> code) {
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

void write_header(std::ostringstream& s, const TypeBindings& bindings, const KernelOptions& options,
                  KernelTarget target, bool uses_cub, std::initializer_list<std::string_view> code) {
  if (uses_cub && target == KernelTarget::cuda) s << "#include <cub/block/block_reduce.cuh>\n";
  if (target == KernelTarget::cuda) s << jit_prelude() << "\n";
  else s << host_prelude(code) << "\n";
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

// Unrolled: `rest` split into coordinates over `extents` (innermost last), each coordinate times each
// operand's stride (stride index + first_stride) added to its offset variable.
void write_unravel(std::ostringstream& s, std::string_view indent, std::string_view index, std::string_view extents,
                   int ndim, int first_stride, const std::vector<std::pair<std::string, std::string>>& targets) {
  if (ndim == 0) return;
  s << indent << "{\n" << indent << "  xpj::index_t _xp_rest = " << index << ";\n";
  for (int d = ndim - 1; d >= 0; --d) {
    if (d > 0) {
      s << indent << "  const xpj::index_t _xp_c" << d << " = _xp_rest % " << extents << ".extent[" << d << "];\n";
      s << indent << "  _xp_rest /= " << extents << ".extent[" << d << "];\n";
    } else {
      s << indent << "  const xpj::index_t _xp_c0 = _xp_rest;\n";
    }
    for (const auto& [offset, operand] : targets)
      s << indent << "  " << offset << " += _xp_c" << d << " * " << operand << ".stride[" << d + first_stride << "];\n";
  }
  s << indent << "}\n";
}

}  // namespace

std::string host_prelude(std::initializer_list<std::string_view> code) {
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
  const std::string size = sig.contiguous ? "_xp_size" : "_xp_shape.size";

  std::ostringstream s;
  write_header(s, sig.bindings, spec.options, target, false,
               {spec.operation, spec.options.preamble, spec.options.loop_prep, spec.options.after_loop});
  write_entry(s, target, spec.name, ops, extras, ", xpj::index_t _xp_begin, xpj::index_t _xp_end");
  if (!spec.options.loop_prep.empty()) s << "  " << spec.options.loop_prep << "\n";

  // The element at loop index i: offsets, then the parameters bound, then the operation.
  const auto write_body = [&](std::string_view indent, bool row_walk) {
    s << indent << "const xpj::position _ind = {i, " << size << "};\n";
    if (!sig.contiguous && !row_walk) {
      std::vector<std::pair<std::string, std::string>> targets;
      for (const SourceOperand& o : ops) {
        if (o.arg->kind != ArgKind::array) continue;
        s << indent << "xpj::index_t _xp_off_" << o.param->name << " = 0;\n";
        targets.emplace_back("_xp_off_" + o.param->name, o.name);
      }
      write_unravel(s, indent, "i", "_xp_shape", n, 0, targets);
    }
    for (const SourceOperand& o : ops) {
      if (o.arg->kind != ArgKind::array) continue;
      const std::string offset = sig.contiguous ? "[i]"
                                 : row_walk ? ".data[_xp_row_" + o.param->name + " + _xp_col * " + o.name + ".stride[" +
                                                  std::to_string(n - 1) + "]]"
                                            : ".data[_xp_off_" + o.param->name + "]";
      s << indent << element_type(o) << (o.input ? " " : "& ") << o.param->name << " = " << o.name << offset << ";\n";
    }
    s << indent << spec.operation << ";\n";
  };

  if (target == KernelTarget::cuda) {
    s << "  for (xpj::index_t i = (xpj::index_t)blockIdx.x * blockDim.x + threadIdx.x; i < " << size
      << "; i += (xpj::index_t)blockDim.x * gridDim.x) {\n";
    write_body("    ", false);
    s << "  }\n";
  } else if (sig.contiguous) {
    s << "  for (xpj::index_t i = _xp_begin; i < _xp_end; ++i) {\n";
    write_body("    ", false);
    s << "  }\n";
  } else {
    // Whole rows at a time: the coordinates of the chunk's first element, then an odometer.
    s << "  xpj::index_t _xp_c[" << n << "];\n";
    s << "  {\n    xpj::index_t _xp_rest = _xp_begin;\n";
    s << "    for (int _xp_d = " << n - 1 << "; _xp_d >= 0; --_xp_d) {\n";
    s << "      _xp_c[_xp_d] = _xp_rest % _xp_shape.extent[_xp_d];\n      _xp_rest /= _xp_shape.extent[_xp_d];\n    "
         "}\n  }\n";
    s << "  const xpj::index_t _xp_last = _xp_shape.extent[" << n - 1 << "];\n";
    s << "  for (xpj::index_t _xp_i = _xp_begin; _xp_i < _xp_end;) {\n";
    for (const SourceOperand& o : ops) {
      if (o.arg->kind != ArgKind::array) continue;
      s << "    xpj::index_t _xp_row_" << o.param->name << " = 0;\n";
    }
    s << "    for (int _xp_d = 0; _xp_d < " << n - 1 << "; ++_xp_d) {\n";
    for (const SourceOperand& o : ops) {
      if (o.arg->kind != ArgKind::array) continue;
      s << "      _xp_row_" << o.param->name << " += _xp_c[_xp_d] * " << o.name << ".stride[_xp_d];\n";
    }
    s << "    }\n";
    s << "    const xpj::index_t _xp_first = _xp_c[" << n - 1 << "];\n";
    s << "    const xpj::index_t _xp_count = _xp_last - _xp_first < _xp_end - _xp_i ? _xp_last - _xp_first : _xp_end - "
         "_xp_i;\n";
    s << "    for (xpj::index_t _xp_k = 0; _xp_k < _xp_count; ++_xp_k) {\n";
    s << "      const xpj::index_t i = _xp_i + _xp_k;\n      const xpj::index_t _xp_col = _xp_first + _xp_k;\n";
    write_body("      ", true);
    s << "    }\n";
    s << "    _xp_i += _xp_count;\n    _xp_c[" << n - 1 << "] += _xp_count;\n";
    s << "    if (_xp_c[" << n - 1 << "] == _xp_last) {\n      _xp_c[" << n - 1 << "] = 0;\n";
    s << "      for (int _xp_d = " << n - 2 << "; _xp_d >= 0; --_xp_d) {\n";
    s << "        if (++_xp_c[_xp_d] < _xp_shape.extent[_xp_d]) break;\n        _xp_c[_xp_d] = 0;\n      }\n    }\n";
    s << "  }\n";
  }
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
  const std::string identity = "_type_reduce(" + spec.identity + ")";

  std::ostringstream s;
  write_header(s, sig.bindings, spec.options, target, true,
               {spec.map_expr, spec.reduce_expr, spec.post_map_expr, spec.identity, spec.options.preamble,
                spec.options.loop_prep, spec.options.after_loop});
  s << "typedef " << reduce_type_name(spec, sig.bindings) << " _type_reduce;\n";
  s << "#define REDUCE(a, b) (" << spec.reduce_expr << ")\n";
  s << "#define POST_MAP(a) (" << spec.post_map_expr << ")\n";

  const auto array_ops = [&](bool inputs) {
    std::vector<std::pair<std::string, std::string>> list;
    for (const SourceOperand& o : ops)
      if (o.arg->kind == ArgKind::array && o.input == inputs) list.emplace_back("_xp_k_" + o.param->name, o.name);
    return list;
  };
  // Offsets of output _i in every non-raw operand.
  const auto write_kept_offsets = [&](std::string_view indent) {
    std::vector<std::pair<std::string, std::string>> targets = array_ops(true);
    for (const auto& t : array_ops(false)) targets.push_back(t);
    for (const auto& [offset, operand] : targets) s << indent << "xpj::index_t " << offset << " = 0;\n";
    write_unravel(s, indent, "_i", "_xp_kept", kept, 0, targets);
  };
  // The mapped value of reduced position _r of output _i, into `into`.
  const auto write_element = [&](std::string_view indent, std::string_view into) {
    std::vector<std::pair<std::string, std::string>> targets;
    for (const auto& [offset, operand] : array_ops(true)) {
      const std::string name = "_xp_o" + offset.substr(5);
      s << indent << "xpj::index_t " << name << " = " << offset << ";\n";
      targets.emplace_back(name, operand);
    }
    write_unravel(s, indent, "_r", "_xp_red", reduced, kept, targets);
    s << indent << "const xpj::index_t _j = _r * _xp_kept.size + _i;\n";
    s << indent << "const xpj::position _in_ind = {_j, _xp_kept.size * _xp_red.size};\n";
    s << indent << "const xpj::position _out_ind = {_i, _xp_kept.size};\n";
    for (const SourceOperand& o : ops)
      if (o.arg->kind == ArgKind::array && o.input)
        s << indent << element_type(o) << " " << o.param->name << " = " << o.name << ".data[_xp_o_" << o.param->name
          << "];\n";
    s << indent << into << "static_cast<_type_reduce>(" << spec.map_expr << ");\n";
  };
  const auto write_store = [&](std::string_view indent) {
    for (const SourceOperand& o : ops)
      if (o.arg->kind == ArgKind::array && !o.input)
        s << indent << element_type(o) << "& " << o.param->name << " = " << o.name << ".data[_xp_k_" << o.param->name
          << "];\n";
    s << indent << "POST_MAP(a);\n";
  };

  if (target == KernelTarget::cuda) {
    s << "struct _xp_partial {\n  _type_reduce value;\n  bool valid;\n};\n";
    s << "struct _xp_combine {\n  __device__ _xp_partial operator()(const _xp_partial& l, const _xp_partial& r) const "
         "{\n"
      << "    if (!l.valid) return r;\n    if (!r.valid) return l;\n"
      << "    const _type_reduce a = l.value, b = r.value;\n    _xp_partial s;\n    s.value = REDUCE(a, b);\n"
      << "    s.valid = true;\n    return s;\n  }\n};\n";
    const std::string block = std::to_string(sig.block_size);
    write_entry(s, target, spec.name, ops, extras, "", "__launch_bounds__(" + block + ") ");
    s << "  typedef cub::BlockReduce<_xp_partial, " << block << "> _xp_block_reduce;\n";
    s << "  __shared__ typename _xp_block_reduce::TempStorage _xp_temp;\n";
    s << "  const int _J = threadIdx.x;\n";
    s << "  for (xpj::index_t _i = blockIdx.x; _i < _xp_kept.size; _i += gridDim.x) {\n";
    write_kept_offsets("    ");
    s << "    _xp_partial _xp_s;\n    _xp_s.valid = false;\n";
    s << "    for (xpj::index_t _r = threadIdx.x; _r < _xp_red.size; _r += " << block << ") {\n";
    s << "      _xp_partial _xp_e;\n";
    write_element("      ", "_xp_e.value = ");
    s << "      _xp_e.valid = true;\n      _xp_s = _xp_combine()(_xp_s, _xp_e);\n    }\n";
    s << "    const _xp_partial _xp_total = _xp_block_reduce(_xp_temp).Reduce(_xp_s, _xp_combine());\n";
    s << "    if (threadIdx.x == 0) {\n      _type_reduce a = _xp_total.valid ? _xp_total.value : " << identity
      << ";\n";
    write_store("      ");
    s << "    }\n    __syncthreads();\n  }\n}\n";
    return s.str();
  }

  s << "extern \"C\" const unsigned long long " << spec.name << "_partial_size = sizeof(_type_reduce);\n";
  write_entry(s, target, spec.name, ops, extras,
              ", xpj::index_t _xp_out_begin, xpj::index_t _xp_out_end, xpj::index_t _xp_r_begin, "
              "xpj::index_t _xp_r_end, _type_reduce* _xp_partial");
  s << "  const int _J = 0;\n";
  s << "  for (xpj::index_t _i = _xp_out_begin; _i < _xp_out_end; ++_i) {\n";
  write_kept_offsets("    ");
  s << "    auto _xp_element = [&](xpj::index_t _r) -> _type_reduce {\n";
  write_element("      ", "return ");
  s << "    };\n";
  s << "    auto _xp_combine = [&](const _type_reduce& a, const _type_reduce& b) -> _type_reduce { return REDUCE(a, "
       "b); };\n";
  s << "    const xpj::index_t _xp_rb = _xp_partial ? _xp_r_begin : 0, _xp_re = _xp_partial ? _xp_r_end : "
       "_xp_red.size;\n";
  s << "    _type_reduce a = _xp_rb < _xp_re ? xpj::reduce_range<_type_reduce>(_xp_element, _xp_combine, _xp_rb, "
       "_xp_re) : "
    << identity << ";\n";
  s << "    if (_xp_partial) {\n      *_xp_partial = a;\n      return;\n    }\n";
  write_store("    ");
  s << "  }\n}\n";
  s << "extern \"C\" void " << spec.name
    << "_finish(void* const* _xp_args, xpj::index_t _i, const _type_reduce* _xp_partials, int _xp_count) {\n";
  std::size_t k = 0;
  for (const SourceOperand& o : ops)
    s << "  " << o.type << " const " << o.name << " = *static_cast<" << o.type << " const*>(_xp_args[" << k++
      << "]);\n";
  s << "  xpj::shape<" << kept << "> const& _xp_kept = *static_cast<xpj::shape<" << kept << "> const*>(_xp_args[" << k
    << "]);\n";
  write_kept_offsets("  ");
  s << "  _type_reduce a = _xp_partials[0];\n";
  s << "  for (int _xp_k = 1; _xp_k < _xp_count; ++_xp_k) {\n    const _type_reduce b = _xp_partials[_xp_k];\n    a = "
       "REDUCE(a, b);\n  }\n";
  write_store("  ");
  s << "}\n";
  return s.str();
}

}  // namespace xp::detail
