#pragma once
// The error hierarchy. Every error derives from xp::Error (a std::runtime_error); constructors take
// any streamable pieces and join them, so call sites read as the message:
//   throw xp::ValueError("reshape: cannot reshape array of size ", n, " into shape ", shape);
#include <sstream>
#include <stdexcept>
#include <string>

namespace xp {

namespace detail {
template <class... Parts>
std::string join_message(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}
}  // namespace detail

class Error : public std::runtime_error {
 public:
  template <class... Parts>
  explicit Error(const Parts&... parts) : std::runtime_error(detail::join_message(parts...)) {}
};

#define XP_DEFINE_ERROR(Name)   \
  class Name : public Error {   \
   public:                      \
    using Error::Error;         \
  }

XP_DEFINE_ERROR(ValueError);
XP_DEFINE_ERROR(TypeError);
XP_DEFINE_ERROR(IndexError);
XP_DEFINE_ERROR(DeviceMismatchError);
XP_DEFINE_ERROR(OutOfMemoryError);
XP_DEFINE_ERROR(CompileError);
XP_DEFINE_ERROR(NotImplementedError);
XP_DEFINE_ERROR(IOError);  // a file could not be read, written or renamed: names the path(s)
XP_DEFINE_ERROR(RuntimeError);  // a state that does not allow the call (MXNet's RuntimeError)
XP_DEFINE_ERROR(UserWarning);   // what MXNet raises as a UserWarning (the Trainer's stale gradient)
#undef XP_DEFINE_ERROR

// A failed CUDA call: names the call, the device and the CUDA error.
class CudaError : public Error {
 public:
  CudaError(std::string call, int code, std::string error_name, const std::string& description,
            const std::string& where);
  const std::string& call() const noexcept { return call_; }
  int code() const noexcept { return code_; }
  const std::string& error_name() const noexcept { return error_name_; }

 private:
  std::string call_;
  int code_;
  std::string error_name_;
};

}  // namespace xp

// A user error: throws ErrorType built from the message parts when cond is false.
#define XP_CHECK(cond, ErrorType, ...)      \
  do {                                      \
    if (!(cond)) [[unlikely]]               \
      throw ErrorType(__VA_ARGS__);         \
  } while (false)

// An internal invariant: failing it is a bug in xparray, not in the caller.
#define XP_ASSERT(cond)                                                                      \
  do {                                                                                       \
    if (!(cond)) [[unlikely]]                                                                \
      throw ::xp::Error("xparray internal error: ", #cond, " failed at ", __FILE__, ":",     \
                        __LINE__);                                                           \
  } while (false)
