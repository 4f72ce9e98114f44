// FFTW3's plans for CPUs: one per (kind, precision, length, batch, threads, alignments), made with
// FFTW_ESTIMATE (no trial runs, so a first call costs microseconds, not the seconds FFTW_MEASURE takes at
// 2^22) on the call's own arrays, and run again on any arrays of the same alignment (FFTW's new-array
// execute functions). FFTW's planner is made thread-safe once; the cache has a lock of its own.
#include <fftw3.h>
#include <omp.h>

#include <compare>
#include <mutex>
#include <utility>

#include "fft/plan_cache.hpp"
#include "fft/transform.hpp"
#include "xp/error.hpp"

namespace xp::fft::detail {

namespace {

// Calls of fewer elements run on the calling thread: FFTW's threads would cost more than they save.
constexpr std::int64_t kThreadedElements = std::int64_t{1} << 15;

struct FftwKey {
  Kind kind;
  bool double_precision;
  std::int64_t n, batch;
  int threads, input_alignment, output_alignment;
  auto operator<=>(const FftwKey&) const = default;
};

// FFTW's functions of one precision, under one set of names.
template <bool Double>
struct Fftw {
  using Plan = fftw_plan;
  using Real = double;
  using Complex = fftw_complex;
  static constexpr auto plan_c2c = fftw_plan_guru64_dft;
  static constexpr auto plan_r2c = fftw_plan_guru64_dft_r2c;
  static constexpr auto plan_c2r = fftw_plan_guru64_dft_c2r;
  static constexpr auto execute_c2c = fftw_execute_dft;
  static constexpr auto execute_r2c = fftw_execute_dft_r2c;
  static constexpr auto execute_c2r = fftw_execute_dft_c2r;
  static constexpr auto destroy = fftw_destroy_plan;
  static constexpr auto with_threads = fftw_plan_with_nthreads;
};
template <>
struct Fftw<false> {
  using Plan = fftwf_plan;
  using Real = float;
  using Complex = fftwf_complex;
  static constexpr auto plan_c2c = fftwf_plan_guru64_dft;
  static constexpr auto plan_r2c = fftwf_plan_guru64_dft_r2c;
  static constexpr auto plan_c2r = fftwf_plan_guru64_dft_c2r;
  static constexpr auto execute_c2c = fftwf_execute_dft;
  static constexpr auto execute_r2c = fftwf_execute_dft_r2c;
  static constexpr auto execute_c2r = fftwf_execute_dft_c2r;
  static constexpr auto destroy = fftwf_destroy_plan;
  static constexpr auto with_threads = fftwf_plan_with_nthreads;
};

// A plan of either precision, destroyed with its last holder.
class FftwPlan {
 public:
  FftwPlan(void* plan, bool double_precision) noexcept : plan_(plan), double_precision_(double_precision) {}
  FftwPlan(FftwPlan&& other) noexcept
      : plan_(std::exchange(other.plan_, nullptr)), double_precision_(other.double_precision_) {}
  FftwPlan(const FftwPlan&) = delete;
  FftwPlan& operator=(const FftwPlan&) = delete;
  FftwPlan& operator=(FftwPlan&&) = delete;
  ~FftwPlan() {
    if (!plan_) return;
    if (double_precision_) Fftw<true>::destroy(static_cast<Fftw<true>::Plan>(plan_));
    else Fftw<false>::destroy(static_cast<Fftw<false>::Plan>(plan_));
  }
  void* get() const noexcept { return plan_; }

 private:
  void* plan_;
  bool double_precision_;
};

template <bool Double>
void* make_plan(const Call& call, int threads) {
  using F = Fftw<Double>;
  const std::int64_t n = call.n, half = n / 2 + 1;
  const std::int64_t in_row = call.kind == Kind::real_backward ? half : n;
  const std::int64_t out_row = call.kind == Kind::real_forward ? half : n;
  const fftw_iodim64 length{n, 1, 1};
  const fftw_iodim64 rows{call.batch, in_row, out_row};
  auto* in = static_cast<typename F::Complex*>(const_cast<void*>(call.input));
  auto* out = static_cast<typename F::Complex*>(call.output);
  F::with_threads(threads);
  switch (call.kind) {
    case Kind::forward:
    case Kind::backward:
      return F::plan_c2c(1, &length, 1, &rows, in, out, call.kind == Kind::forward ? FFTW_FORWARD : FFTW_BACKWARD,
                         FFTW_ESTIMATE);
    case Kind::real_forward:
      return F::plan_r2c(1, &length, 1, &rows, reinterpret_cast<typename F::Real*>(in), out, FFTW_ESTIMATE);
    case Kind::real_backward:
      return F::plan_c2r(1, &length, 1, &rows, in, reinterpret_cast<typename F::Real*>(out), FFTW_ESTIMATE);
  }
  return nullptr;
}

template <bool Double>
void execute(void* plan, const Call& call) {
  using F = Fftw<Double>;
  const auto p = static_cast<typename F::Plan>(plan);
  auto* in = static_cast<typename F::Complex*>(const_cast<void*>(call.input));
  auto* out = static_cast<typename F::Complex*>(call.output);
  if (call.kind == Kind::real_forward) F::execute_r2c(p, reinterpret_cast<typename F::Real*>(in), out);
  else if (call.kind == Kind::real_backward) F::execute_c2r(p, in, reinterpret_cast<typename F::Real*>(out));
  else F::execute_c2c(p, in, out);
}

struct Plans {
  std::mutex mutex;
  PlanCache<FftwKey, FftwPlan> cache;
  Plans() {
    fftw_init_threads();
    fftwf_init_threads();
    fftw_make_planner_thread_safe();
    fftwf_make_planner_thread_safe();
  }
};

Plans& plans() {
  static Plans instance;
  return instance;
}

// Where `data` lies against the SIMD alignment of the precision's library (each library has its own).
int alignment_of(const void* data, bool double_precision) {
  void* p = const_cast<void*>(data);
  return double_precision ? fftw_alignment_of(static_cast<double*>(p)) : fftwf_alignment_of(static_cast<float*>(p));
}

int threads_for(const Call& call) {
  const bool large = call.n * call.batch >= kThreadedElements;
  return large && !omp_in_parallel() ? omp_get_max_threads() : 1;
}

}  // namespace

void run_on_cpu(const Call& call) {
  const int threads = threads_for(call);
  const FftwKey key{call.kind,
                    call.double_precision,
                    call.n,
                    call.batch,
                    threads,
                    alignment_of(call.input, call.double_precision),
                    alignment_of(call.output, call.double_precision)};
  Plans& all = plans();
  std::shared_ptr<FftwPlan> plan;
  {
    const std::lock_guard lock(all.mutex);
    plan = all.cache.get(key, [&] {
      void* made = call.double_precision ? make_plan<true>(call, threads) : make_plan<false>(call, threads);
      XP_CHECK(made, RuntimeError, "FFTW could not plan a ", name_of(call.kind), " transform of length ", call.n, " x ",
               call.batch);
      return FftwPlan(made, call.double_precision);
    });
  }
  if (call.double_precision) execute<true>(plan->get(), call);
  else execute<false>(plan->get(), call);
}

std::size_t cpu_plans() {
  const std::lock_guard lock(plans().mutex);
  return plans().cache.size();
}

void clear_cpu_plans() {
  const std::lock_guard lock(plans().mutex);
  plans().cache.clear();
}

}  // namespace xp::fft::detail
