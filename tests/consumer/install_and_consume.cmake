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
    -DCMAKE_CXX_FLAGS=${FLAGS} -DCMAKE_EXE_LINKER_FLAGS=${FLAGS} -DREADME_FILE=${README_FILE})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
run(${WORK_DIR}/build/consumer_utils)
run(${WORK_DIR}/build/readme_quick_start)
if(EXISTS ${WORK_DIR}/build/readme_quick_start_nvcc)
  run(${WORK_DIR}/build/readme_quick_start_nvcc)
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
