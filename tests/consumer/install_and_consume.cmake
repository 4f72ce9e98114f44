# Installs the xparray build into a fresh prefix, then configures, builds and runs the consumer
# project against that prefix alone: one program per target, and every C++ block of the README (the
# quick start run). A program of arrays alone must not
# load libcurl or OpenSSL (they belong to xp::utils).
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  message("${output}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
    -DCMAKE_CXX_FLAGS=${FLAGS} -DCMAKE_EXE_LINKER_FLAGS=${FLAGS} -DREADME_FILE=${README_FILE} ${CUDA_OPTION})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
run(${WORK_DIR}/build/consumer_utils)
run(${WORK_DIR}/build/readme_quick_start)
if(EXISTS ${WORK_DIR}/build/readme_quick_start_nvcc)
  run(${WORK_DIR}/build/readme_quick_start_nvcc)
endif()
if(EXISTS ${WORK_DIR}/build/consumer_fft)
  run(${WORK_DIR}/build/consumer_fft)
endif()
if(EXISTS ${WORK_DIR}/build/consumer_thrust)
  run(${WORK_DIR}/build/consumer_thrust)
endif()
execute_process(COMMAND ldd ${WORK_DIR}/build/consumer OUTPUT_VARIABLE libraries RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR NOT libraries MATCHES "libxparray")
  message(FATAL_ERROR "ldd failed on the consumer (${status}): ${libraries}")
endif()
if(libraries MATCHES "libcurl|libcrypto|libssl")
  message(FATAL_ERROR "a program of arrays alone loads libcurl or OpenSSL:\n${libraries}")
endif()

# The binary boundary: the installed libraries are built with hidden visibility and export what the
# public headers mark XP_API (lib/exports.map keeps the standard templates inside). Every exported name
# is the project's (namespace xp, with its typeinfo and vtables), and the functions and data it defines
# in xp::detail (what the headers' inline code calls) may not grow unnoticed: raising the limit is a
# decision of its own. Strong symbols are counted: which weak ones (inline code, vtables) a build emits
# follows its optimisation level.
set(detail_limit 172)  # 2026-11-26: 125 in libxparray (all of xp::detail exported was 2,120); +2 for the CUDA launch headers;
# +12 for the public headers of sorting, scans and statistics (one entry per family where one serves);
# 2026-11-27: +13 for indexing's (take, take_along_axis, put, put_along_axis, putmask, place, compress,
# choose, select, nonzero, scatter, recorded assign_selection; compress serves extract, nonzero argwhere);
# 2026-11-27: -2 for the temporary-file helpers (unexported), +2 for xp::broadcast_shapes and xp::indices (public
# functions, counted because a Shape is an xp::detail::Dims); +1 for recorded diagonal (xp::diagonal's inline
# code), +1 for xp::wrap (a public function taking a Shape); 2026-11-28: +7 for xp::random::Generator (its
# entries behind the headers' templates take a Shape or an ArrayCore; the old random::detail::draw is gone);
# 2026-11-28: +1 for record_linear (lib/support/linear_operation.hpp), xp::fft's way to autograd, as
# xp::dist's collectives reach the library (collective_exec is now ordered_exec, shared by both); +1 for
# launch_raw (xp::RawKernel's call operator, a template); 2026-11-28: +6 for xp::fuse (trace_elementwise and
# trace_reduction, behind the array functions' templates on traced values; FusedKernels' two constructor
# symbols, run and traced_bindings, behind xp::Fused's template); 2026-11-29: +1 for trace_cast (TracedValue::astype)
set(detail_total 0)
foreach(library xparray xparray_utils xparray_dist xparray_fft)
  file(GLOB path ${WORK_DIR}/prefix/lib*/lib${library}.so)
  if(NOT path)
    continue()
  endif()
  execute_process(COMMAND nm -DC --defined-only ${path} OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "nm failed on ${path}")
  endif()
  string(REGEX MATCHALL "[^\n]+" lines "${symbols}")
  set(detail 0)
  set(foreign "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^[0-9a-f]+ [TDBR] .*xp::detail::")
      math(EXPR detail "${detail} + 1")
    endif()
    if(NOT line MATCHES "xp::")
      string(APPEND foreign "\n  ${line}")
    endif()
  endforeach()
  list(LENGTH lines total)
  message(STATUS "lib${library}.so exports ${total} symbols; ${detail} strong ones in xp::detail")
  if(foreign)
    message(FATAL_ERROR "lib${library}.so exports names that are not the project's:${foreign}")
  endif()
  math(EXPR detail_total "${detail_total} + ${detail}")
endforeach()
if(detail_total GREATER detail_limit)
  message(FATAL_ERROR "the libraries define ${detail_total} exported xp::detail symbols, more than the ${detail_limit} "
          "agreed on: a new one must be called from a public header's inline code (then raise the limit), "
          "else it should not carry XP_API")
endif()
