// The pure half of run-time kernels: parsing parameter lists, binding placeholders, and the
// generated sources, compared with reviewed golden files (tests/golden; XP_UPDATE_GOLDEN=1 rewrites
// them after an intended change).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/kernel_params.hpp"
#include "core/kernel_source.hpp"
#include "source_dir.hpp"
#include "xp/error.hpp"

namespace {

using xp::detail::ArgKind;
using xp::detail::ArgSignature;
using xp::detail::KernelTarget;

// The source without the shared prelude, which is the prelude file itself; of a host source's
// prelude, the math lines it kept stay.
std::string body_of(const std::string& source) {
  const std::string_view prelude = xp::detail::jit_prelude();
  if (const auto at = source.find(prelude); at != std::string::npos) {
    std::string body = source.substr(0, at);
    body.append("// <jit_prelude.cuh>\n").append(source, at + prelude.size());
    return body;
  }
  const std::string bare = xp::detail::host_prelude({});
  const std::string head = bare.substr(0, bare.find("// xpj-math-lines-end")), tail = bare.substr(head.size());
  const auto at = source.find(head);
  REQUIRE(at == 0);
  const auto after = source.find(tail, head.size());
  REQUIRE(after != std::string::npos);
  std::string body("// <jit_prelude.cuh up to its math lines>\n");
  body.append(source, head.size(), after - head.size()).append("// <the rest of jit_prelude.cuh>\n");
  return body.append(source, after + tail.size());
}

void check_golden(const std::string& name, const std::string& source) {
  const std::filesystem::path path = test_source_dir() / "golden" / name;
  const std::string body = body_of(source);
  if (const char* update = std::getenv("XP_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << body;
    return;
  }
  std::ifstream file(path, std::ios::binary);
  REQUIRE_MESSAGE(file.good(), "missing golden file ", path);
  const std::string golden((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  CHECK_MESSAGE(body == golden, "generated source differs from ", path, ":\n", body);
}

xp::detail::ElementwiseSpec squared_diff_spec() {
  xp::detail::ElementwiseSpec spec;
  spec.in = xp::detail::parse_kernel_params("T x, T y");
  spec.out = xp::detail::parse_kernel_params("T z");
  spec.operation = "z = (x - y) * (x - y)";
  spec.name = "squared_diff";
  return spec;
}

}  // namespace

TEST_CASE("kernel parameters: parsed as CuPy's") {
  const auto params = xp::detail::parse_kernel_params(" T x,raw   float32 y , int64  count ");
  REQUIRE(params.size() == 3);
  CHECK(params[0].name == "x");
  CHECK(params[0].placeholder == "T");
  CHECK(!params[0].type);
  CHECK(!params[0].raw);
  CHECK(params[1].name == "y");
  CHECK(params[1].type == xp::dtype::float32);
  CHECK(params[1].raw);
  CHECK(params[2].type == xp::dtype::int64);
  CHECK(xp::detail::parse_kernel_params("  ").empty());
  CHECK(xp::detail::c_type_name(xp::dtype::int8) == "signed char");
  CHECK(xp::detail::c_type_name(xp::dtype::uint64) == "unsigned long long");
}

TEST_CASE("kernel parameters: placeholders bound outputs first, then inputs") {
  const auto in = xp::detail::parse_kernel_params("T x, U y, float64 w");
  const auto out = xp::detail::parse_kernel_params("T z");
  using O = std::optional<xp::dtype>;
  const O in_types[] = {xp::dtype::float32, xp::dtype::int16, std::nullopt};
  const O out_types[] = {xp::dtype::float32};
  const auto bound = xp::detail::bind_kernel_types(in, out, in_types, out_types);
  CHECK(bound.find("T") == xp::dtype::float32);
  CHECK(bound.find("U") == xp::dtype::int16);
  CHECK(xp::detail::param_dtype(in[2], bound) == xp::dtype::float64);
  // The output binds T first: the input then mismatches it.
  const O wide_out[] = {xp::dtype::float64};
  CHECK_THROWS_WITH_AS(xp::detail::bind_kernel_types(in, out, in_types, wide_out),
                       "Type is mismatched. x float32 float64 T", xp::TypeError);
  const O fixed_mismatch[] = {xp::dtype::float32, xp::dtype::int16, xp::dtype::float32};
  CHECK_THROWS_WITH_AS(xp::detail::bind_kernel_types(in, out, fixed_mismatch, out_types),
                       "Type is mismatched. w float32 float64", xp::TypeError);
}

TEST_CASE("generated sources: elementwise, contiguous, for the host compiler") {
  const auto spec = squared_diff_spec();
  xp::detail::ElementwiseSignature sig;
  sig.args = {ArgSignature{ArgKind::array, xp::dtype::float32, 0, false},
              ArgSignature{ArgKind::scalar, xp::dtype::float32, 0, false},
              ArgSignature{ArgKind::array, xp::dtype::float32, 0, false}};
  sig.bindings.bind("T", xp::dtype::float32);
  check_golden("elementwise_contiguous_cpu.cpp", xp::detail::elementwise_source(spec, sig, KernelTarget::cpu));
}

TEST_CASE("generated sources: a host kernel's prelude keeps the math functions its code names") {
  const auto prelude = xp::detail::host_prelude(
      {"z = sqrtf(x) + pow(x, 1e5f) + abs(y) * 0x1f + isnan(x)", "inline float twice(float v) { return rsqrt(v); }"});
  for (const char* kept :
       {"XPJ_MATH1(sqrt)\n", "XPJ_MATH2(pow)\n", "XPJ_CLASSIFY(isnan)\n", "inline float abs(float x)",
        "inline int abs(int x)", "inline float rsqrt(float x)", "inline double rsqrt(double x)"})
    CHECK_MESSAGE(prelude.find(kept) != std::string::npos, kept);
  // Not named: exp (nor through the literal 1e5f), rsqrtf, fabs.
  for (const char* dropped :
       {"XPJ_MATH1(exp)", "XPJ_MATH1(exp10)", "rsqrtf", "XPJ_MATH1(fabs)", "XPJ_MATH2(fmod)", "XPJ_CLASSIFY(isinf)"})
    CHECK_MESSAGE(prelude.find(dropped) == std::string::npos, dropped);
  // Code that names every function (the prelude does) keeps every line: none is misread.
  CHECK(xp::detail::host_prelude({xp::detail::jit_prelude()}) == xp::detail::jit_prelude());
  // min, max and the macros stay whatever the code names.
  CHECK(prelude.find("inline T min(T a, T b)") != std::string::npos);
  CHECK(xp::detail::host_prelude({}).find("XPJ_MATH") != std::string::npos);
  CHECK(xp::detail::host_prelude({}).find("\nXPJ_MATH1(") == std::string::npos);
}

TEST_CASE("generated sources: NumPy's functions of one element come with code that names xp:: functions") {
  const auto source_of = [](const std::string& operation, KernelTarget target) {
    auto spec = squared_diff_spec();
    spec.operation = operation;
    xp::detail::ElementwiseSignature sig;
    sig.args = {ArgSignature{ArgKind::array, xp::dtype::float64, 0, false},
                ArgSignature{ArgKind::array, xp::dtype::float64, 0, false},
                ArgSignature{ArgKind::array, xp::dtype::float64, 0, false}};
    sig.bindings.bind("T", xp::dtype::float64);
    return xp::detail::elementwise_source(spec, sig, target);
  };
  const std::string_view functions = xp::detail::jit_functions();
  for (const KernelTarget target : {KernelTarget::cpu, KernelTarget::cuda}) {
    const std::string with = source_of("z = xp::floor_divide(x, y)", target);
    CHECK(with.find(functions) != std::string::npos);
    for (const char* operation : {"z = ::xp::floor(x)", "z = x < y ? x :xp::floor(y)"}) {
      CAPTURE(operation);
      CHECK(source_of(operation, target).find(functions) != std::string::npos);
    }
    // After the types they use: the 2-byte floats' and the complex types' definitions.
    CHECK(with.find(xp::detail::jit_element_types()) < with.find(functions));
    CHECK(with.find(xp::detail::jit_complex()) < with.find(functions));
    // The element types alone, a name that ends in xp, and a qualified xp inside another namespace do not.
    for (const char* operation :
         {"z = xp::float16(x) + xp::complex128(y).real()", "z = myxp::f(x)", "z = a::xp::f(x)"}) {
      CAPTURE(operation);
      CHECK(source_of(operation, target).find(functions) == std::string::npos);
    }
  }
  // The functor headers' text, without the #include lines a generated source could not follow.
  CHECK(functions.find("struct FloorDivide") != std::string_view::npos);
  CHECK(functions.find("#include") == std::string_view::npos);
  CHECK(functions.find("XPJ_UFUNC2(floor_divide, kernels::FloorDivide())") != std::string_view::npos);
}

TEST_CASE(
    "generated sources: complex code naming an inverse or hyperbolic function includes libcu++'s complex for NVRTC") {
  const auto source_of = [](const std::string& operation, xp::dtype type, KernelTarget target) {
    auto spec = squared_diff_spec();
    spec.operation = operation;
    xp::detail::ElementwiseSignature sig;
    sig.args = {ArgSignature{ArgKind::array, type, 0, false}, ArgSignature{ArgKind::array, type, 0, false},
                ArgSignature{ArgKind::array, type, 0, false}};
    sig.bindings.bind("T", type);
    return xp::detail::elementwise_source(spec, sig, target);
  };
  const std::string include = "#include <cuda/std/complex>\n#define XPJ_CUDA_STD_COMPLEX\n";
  for (const char* operation : {"z = xp::arcsin(x)", "z = xp::cosh(x) + y", "z = xp::arctanh(x - y)"}) {
    CAPTURE(operation);
    CHECK(source_of(operation, xp::dtype::complex64, KernelTarget::cuda).find(include) == 0);
    // The host's come from C's functions; real operands and other functions need none of it.
    CHECK(source_of(operation, xp::dtype::complex64, KernelTarget::cpu).find(include) == std::string::npos);
    CHECK(source_of(operation, xp::dtype::float32, KernelTarget::cuda).find(include) == std::string::npos);
  }
  CHECK(source_of("z = xp::sin(x) * xp::tanh(y)", xp::dtype::complex128, KernelTarget::cuda).find(include) ==
        std::string::npos);
}

TEST_CASE("generated sources: elementwise, strided, with a raw array, for both targets") {
  auto spec = squared_diff_spec();
  spec.in = xp::detail::parse_kernel_params("T x, raw T y");
  spec.operation = "z = (x - y[i]) * (x - y[i])";
  spec.options.loop_prep = "// before";
  spec.options.after_loop = "// after";
  xp::detail::ElementwiseSignature sig;
  sig.args = {ArgSignature{ArgKind::array, xp::dtype::int32, 0, false},
              ArgSignature{ArgKind::raw, xp::dtype::int32, 2, false},
              ArgSignature{ArgKind::array, xp::dtype::int32, 0, false}};
  sig.bindings.bind("T", xp::dtype::int32);
  sig.loop_ndim = 2;
  sig.contiguous = false;
  check_golden("elementwise_strided_cpu.cpp", xp::detail::elementwise_source(spec, sig, KernelTarget::cpu));
  check_golden("elementwise_strided_cuda.cu", xp::detail::elementwise_source(spec, sig, KernelTarget::cuda));
}

TEST_CASE("generated sources: reduction, for both targets") {
  // Built whole: assigning short literals into these strings trips GCC 12's -Wrestrict at -O3.
  xp::detail::ReductionSpec spec{xp::detail::parse_kernel_params("T x"),
                                 xp::detail::parse_kernel_params("T y"),
                                 "x * x",
                                 "a + b",
                                 "y = sqrt(a)",
                                 "0",
                                 "l2norm",
                                 {}};
  xp::detail::ReductionSignature sig;
  sig.args = {ArgSignature{ArgKind::array, xp::dtype::float64, 0, false},
              ArgSignature{ArgKind::array, xp::dtype::float64, 0, false}};
  sig.bindings.bind("T", xp::dtype::float64);
  sig.kept_ndim = 1;
  sig.reduced_ndim = 2;
  sig.block_size = 128;
  check_golden("reduction_cpu.cpp", xp::detail::reduction_source(spec, sig, KernelTarget::cpu));
  check_golden("reduction_cuda.cu", xp::detail::reduction_source(spec, sig, KernelTarget::cuda));
  spec.options.reduce_type = std::string("int64");
  CHECK(xp::detail::reduce_type_name(spec, sig.bindings) == "long long");
  spec.options.reduce_type = std::string("T");
  CHECK(xp::detail::reduce_type_name(spec, sig.bindings) == "double");
}
