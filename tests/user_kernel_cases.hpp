#pragma once
// CuPy's user-kernel cases, ported, as functions of the device: run as tests on every device, and
// run again by the NVRTC test, which compiles the GPU source of every kernel they generate.
#include "xp/xp.hpp"

void run_elementwise_cases(xp::Device device);
void run_reduction_cases(xp::Device device);
// NumPy's functions of one element in kernel bodies (jit_ufunc_cases.cpp); run_elementwise_cases runs them.
void run_jit_ufunc_cases(xp::Device device);
