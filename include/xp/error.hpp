#pragma once
/// \file
/// The error hierarchy. Every error derives from xp::Error (a std::runtime_error); constructors take
/// any streamable pieces and join them, so call sites read as the message:
/// \code{.cpp}
///   throw xp::ValueError("reshape: cannot reshape array of size ", n, " into shape ", shape);
/// \endcode
#include <sstream>
#include <stdexcept>
#include <string>

#include "xp/export.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {
template <class... Parts>
std::string join_message(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}
}  // namespace detail
/// \endcond

/// The base of every error the library throws; what() is the message.
class XP_API Error : public std::runtime_error {
 public:
  /// The message: every part streamed in turn, so call sites read as the text.
  template <class... Parts>
  explicit Error(const Parts&... parts) : std::runtime_error(detail::join_message(parts...)) {}
};

/// Declares an error type of its own, thrown and caught like xp::Error.
#define XP_DEFINE_ERROR(Name)        \
  class XP_API Name : public Error { \
   public:                           \
    using Error::Error;              \
  }

/// A bad argument value: a shape, an axis, a size, a string that does not parse.
XP_DEFINE_ERROR(ValueError);
/// A dtype that the operation does not accept, or a conversion the casting rule forbids.
XP_DEFINE_ERROR(TypeError);
/// An index or axis out of range.
XP_DEFINE_ERROR(IndexError);
/// Operands on different devices: names the devices.
XP_DEFINE_ERROR(DeviceMismatchError);
/// An allocation that failed even after the pool freed its cached blocks and retried.
XP_DEFINE_ERROR(OutOfMemoryError);
/// A run-time kernel that NVRTC or the host compiler refused: carries the compiler log.
XP_DEFINE_ERROR(CompileError);
/// A combination the library does not provide (MXNet's NotImplementedError).
XP_DEFINE_ERROR(NotImplementedError);
/// A file could not be read, written or renamed: names the path(s).
XP_DEFINE_ERROR(IOError);
/// A state that does not allow the call (MXNet's RuntimeError).
XP_DEFINE_ERROR(RuntimeError);
/// What MXNet raises as a UserWarning (the Trainer's stale gradient).
XP_DEFINE_ERROR(UserWarning);
/// A broken invariant inside xparray (XP_ASSERT): a bug to report, never the caller's misuse, so that
/// code and tests can tell the two apart.
XP_DEFINE_ERROR(InternalError);
#undef XP_DEFINE_ERROR

/// A factorization that cannot be made: "Singular matrix", "Matrix is not positive definite", an SVD or
/// eigen solver that did not converge (NumPy's LinAlgError, a ValueError there as here).
class XP_API LinAlgError : public ValueError {
 public:
  using ValueError::ValueError;
};

/// A failed CUDA call: names the call, the device and the CUDA error.
class XP_API CudaError : public Error {
 public:
  /// The message names the call, its CUDA error name and description, and `where` (the device).
  CudaError(std::string call, int code, std::string error_name, const std::string& description,
            const std::string& where);
  const std::string& call() const noexcept { return call_; }  ///< the CUDA call that failed, e.g. "cudaMalloc"
  int code() const noexcept { return code_; }  ///< the cudaError_t value
  const std::string& error_name() const noexcept {
    return error_name_;
  }  ///< its name, e.g. "cudaErrorMemoryAllocation"

 private:
  std::string call_;
  int code_;
  std::string error_name_;
};

}  // namespace xp

/// A user error: throws ErrorType built from the message parts when cond is false.
#define XP_CHECK(cond, ErrorType, ...) \
  do {                                 \
    if (!(cond)) [[unlikely]]          \
      throw ErrorType(__VA_ARGS__);    \
  } while (false)

/// An internal invariant: failing it is a bug in xparray, not in the caller (an xp::InternalError).
#define XP_ASSERT(cond)                                                                                     \
  do {                                                                                                      \
    if (!(cond)) [[unlikely]]                                                                               \
      throw ::xp::InternalError("xparray internal error: ", #cond, " failed at ", __FILE__, ":", __LINE__); \
  } while (false)
