// xp::dist's life cycle: init, finalize, who we are, barrier, the timeout.
#include <cstdlib>
#include <string>

#include "dist/session.hpp"
#include "xp/dist.hpp"

namespace xp::dist {

namespace {

std::unique_ptr<detail::Session>& current() {
  static std::unique_ptr<detail::Session> session;
  return session;
}

constexpr double kDefaultTimeoutSeconds = 60;

// XP_DIST_TIMEOUT in seconds, else the default; ValueError for text that is not a positive number.
double timeout_from_environment() {
  const char* text = std::getenv("XP_DIST_TIMEOUT");
  if (!text || !*text) return kDefaultTimeoutSeconds;
  char* end = nullptr;
  const double seconds = std::strtod(text, &end);
  XP_CHECK(*end == '\0' && seconds > 0, ValueError, "XP_DIST_TIMEOUT must be a positive number of seconds, got '", text,
           "'");
  return seconds;
}

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

}  // namespace

MpiError::MpiError(std::string call, int code, const std::string& description)
    : Error(call, " failed: ", description, " (MPI error ", code, ")"), call_(std::move(call)), code_(code) {}

namespace detail {

void check_mpi(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) length = 0;
  throw MpiError(call, rc, length > 0 ? std::string(text, static_cast<std::size_t>(length)) : "unknown error");
}

Session& session(const char* caller) {
  XP_CHECK(current() != nullptr, RuntimeError, "xp::dist::", caller, ": call xp::dist::init first");
  return *current();
}

}  // namespace detail

void init(int& argc, char**& argv) {
  XP_CHECK(current() == nullptr, RuntimeError, "xp::dist::init: already initialized");
  const double limit = timeout_from_environment();
  auto s = std::make_unique<detail::Session>();
  int started = 0;
  detail::check_mpi(MPI_Initialized(&started), "MPI_Initialized");
  int provided = MPI_THREAD_SINGLE;
  if (started) {
    detail::check_mpi(MPI_Query_thread(&provided), "MPI_Query_thread");
  } else {
    detail::check_mpi(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
    s->owns_mpi = true;
  }
  if (provided < MPI_THREAD_SERIALIZED) {
    if (s->owns_mpi) MPI_Finalize();
    throw RuntimeError("xp::dist::init: MPI provides ", thread_level_name(provided),
                       "; xp::dist needs MPI_THREAD_SERIALIZED (its calls may come from any thread, one at a time)");
  }
  detail::check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &s->comm), "MPI_Comm_dup");
  detail::check_mpi(MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  detail::check_mpi(MPI_Comm_rank(s->comm, &s->rank), "MPI_Comm_rank");
  detail::check_mpi(MPI_Comm_size(s->comm, &s->size), "MPI_Comm_size");
  MPI_Comm node = MPI_COMM_NULL;
  detail::check_mpi(MPI_Comm_split_type(s->comm, MPI_COMM_TYPE_SHARED, s->rank, MPI_INFO_NULL, &node),
                    "MPI_Comm_split_type");
  detail::check_mpi(MPI_Comm_rank(node, &s->local_rank), "MPI_Comm_rank");
  detail::check_mpi(MPI_Comm_free(&node), "MPI_Comm_free");
  detail::create_two_byte_sums(*s);
  s->watchdog = std::make_unique<detail::Watchdog>(s->rank, s->size, std::chrono::duration<double>(limit));
  current() = std::move(s);
  xp::detail::set_process_group(&current()->group);
}

void finalize() {
  detail::Session& s = detail::session("finalize");
  barrier();
  xp::detail::set_process_group(nullptr);
  s.watchdog.reset();
  detail::free_two_byte_sums(s);
  detail::check_mpi(MPI_Comm_free(&s.comm), "MPI_Comm_free");
  const bool owns_mpi = s.owns_mpi;
  current().reset();
  if (owns_mpi) detail::check_mpi(MPI_Finalize(), "MPI_Finalize");
}

bool initialized() noexcept { return current() != nullptr; }

int rank() { return detail::session("rank").rank; }
int size() { return detail::session("size").size; }
int local_rank() { return detail::session("local_rank").local_rank; }

void barrier() {
  detail::Session& s = detail::session("barrier");
  const std::lock_guard lock(s.mutex);
  const detail::Watchdog::Guard guard(*s.watchdog, {"MPI_Barrier"});
  detail::check_mpi(MPI_Barrier(s.comm), "MPI_Barrier");
}

std::chrono::duration<double> timeout() noexcept {
  return current() ? current()->watchdog->limit() : std::chrono::duration<double>(kDefaultTimeoutSeconds);
}

void set_timeout(std::chrono::duration<double> limit) {
  XP_CHECK(limit.count() > 0, ValueError, "xp::dist::set_timeout: the limit must be positive, got ", limit.count(),
           " s");
  detail::session("set_timeout").watchdog->set_limit(limit);
}

}  // namespace xp::dist
