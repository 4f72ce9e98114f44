#pragma once
/// \file
/// The training half (MXNet's gluon, metric, symbol, executors, io and kvstore): its own umbrella, so that
/// `<xp/xp.hpp>` costs what it cost.
#include "xp/block.hpp"
#include "xp/executor.hpp"
#include "xp/executor_manager.hpp"
#include "xp/initializer.hpp"
#include "xp/io.hpp"
#include "xp/kvstore.hpp"
#include "xp/loss.hpp"
#include "xp/metric.hpp"
#include "xp/monitor.hpp"
#include "xp/nn.hpp"
#include "xp/optimizer.hpp"
#include "xp/parameter.hpp"
#include "xp/serialization.hpp"
#include "xp/symbol.hpp"
#include "xp/trainer.hpp"
#include "xp/utils/arrays.hpp"
#include "xp/xp.hpp"
