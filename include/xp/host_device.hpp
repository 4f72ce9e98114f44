#pragma once
/// \file
/// XP_HOST_DEVICE marks a function compiled for the host and, under nvcc or NVRTC, for the device too.
/// It is how one per-element functor serves the CPU loop drivers and the CUDA kernels.
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define XP_HOST_DEVICE __host__ __device__
#else
/// `__host__ __device__` under nvcc and NVRTC, nothing elsewhere.
#define XP_HOST_DEVICE
#endif

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define XP_NOINLINE __noinline__
#else
/// Keeps a function out of line (a rare path's code out of its caller's loop), on the host and the device.
#define XP_NOINLINE __attribute__((noinline))
#endif

// Templates that launch kernels only when nvcc compiles them live in this inline namespace, so that
// a .cu and a .cpp file of one program never share (and the linker never merges) an instantiation.
#if defined(__CUDACC__)
#define XP_COMPILER_NAMESPACE nvcc_compiled
#else
/// The inline namespace of templates that launch kernels: one name under nvcc, another elsewhere.
#define XP_COMPILER_NAMESPACE host_compiled
#endif
