#pragma once
/// \file
/// MXNet's gluon.utils (namespace xp::utils), all of it: the array helpers (`<xp/utils/arrays.hpp>`),
/// the files (`<xp/utils/files.hpp>`: download and check_sha1 link the xp::utils library) and the
/// warning handler (`<xp/warnings.hpp>`).
#include "xp/utils/arrays.hpp"
#include "xp/utils/files.hpp"
#include "xp/warnings.hpp"
