// MPI has no 2-byte floats: xp::dist sends float16 and bfloat16 as MPI_UINT16_T and sums them with
// these operations, which add in float32 and round each result once (as NCCL's 2-byte sums do).
#include "dist/session.hpp"
#include "xp/dtype.hpp"

namespace xp::dist::detail {

namespace {

template <class T>
void sum_in_float(void* in, void* inout, int* length, MPI_Datatype*) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (int i = 0; i < *length; ++i) b[i] = T(static_cast<float>(a[i]) + static_cast<float>(b[i]));
}

}  // namespace

void create_two_byte_sums(Session& s) {
  check_mpi(MPI_Op_create(&sum_in_float<float16>, /*commute=*/1, &s.float16_sum), "MPI_Op_create");
  check_mpi(MPI_Op_create(&sum_in_float<bfloat16>, /*commute=*/1, &s.bfloat16_sum), "MPI_Op_create");
}

void free_two_byte_sums(Session& s) {
  check_mpi(MPI_Op_free(&s.float16_sum), "MPI_Op_free");
  check_mpi(MPI_Op_free(&s.bfloat16_sum), "MPI_Op_free");
}

}  // namespace xp::dist::detail
