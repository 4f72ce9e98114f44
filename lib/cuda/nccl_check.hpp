#pragma once
// NCCL's results as errors naming the call, and xparray's dtypes as NCCL's.
#include <nccl.h>

#include <optional>

#include "xp/dtype.hpp"

namespace xp::detail {

// CudaError naming the call (the text before its '(') and NCCL's result, unless it succeeded.
void check_nccl(ncclResult_t status, const char* call_text);
#define XP_NCCL_CHECK(call) ::xp::detail::check_nccl((call), #call)

// NCCL's type for `type`; none for bool, int16 and uint16.
std::optional<ncclDataType_t> nccl_type_of(xp::dtype type) noexcept;
// The same, or TypeError naming the operation and the dtype.
ncclDataType_t nccl_type(xp::dtype type, const char* operation);

}  // namespace xp::detail
