#include "xp/error.hpp"

namespace xp {

namespace {
std::string cuda_message(const std::string& call, const std::string& error_name, const std::string& description,
                         const std::string& where) {
  std::string message = call + " failed";
  if (!where.empty()) message += " on " + where;
  return message + ": " + error_name + " (" + description + ")";
}
}  // namespace

CudaError::CudaError(std::string call, int code, std::string error_name, const std::string& description,
                     const std::string& where)
    : Error(cuda_message(call, error_name, description, where)),
      call_(std::move(call)),
      code_(code),
      error_name_(std::move(error_name)) {}

}  // namespace xp
