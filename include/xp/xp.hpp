#pragma once
// xparray: one n-dimensional array for CPUs and NVIDIA GPUs.
#include "xp/creation.hpp"
#include "xp/device.hpp"
#include "xp/dtype.hpp"
#include "xp/error.hpp"
#include "xp/host_device.hpp"
#include "xp/index.hpp"
#include "xp/memory_pool.hpp"
#include "xp/ndarray.hpp"
#include "xp/ndim.hpp"
#include "xp/shape.hpp"
#include "xp/stream.hpp"
#include "xp/transfer.hpp"
