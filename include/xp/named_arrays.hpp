#pragma once
/// \file
/// Arrays with their names, in order: what xp::save, xp::savez and the data iterators take, and what
/// xp::load and xp::load_npz give.
#include <string>
#include <utility>
#include <vector>

#include "xp/ndarray.hpp"

namespace xp {

/// Arrays with their names, in the order they were given or stored.
using NamedArrays = std::vector<std::pair<std::string, ndarray<>>>;

}  // namespace xp
