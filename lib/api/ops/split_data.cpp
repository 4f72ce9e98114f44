// gluon.utils.split_data and split_and_load: slices as views, each copied straight to its device.
#include <algorithm>
#include <vector>

#include "core/layout.hpp"
#include "xp/utils/arrays.hpp"

namespace xp::utils::detail {

using xp::detail::ArrayCore;

std::vector<ArrayCore> split_data(const ArrayCore& data, int num_slice, int batch_axis, bool even_split) {
  XP_CHECK(num_slice > 0, ValueError, "split_data: num_slice must be positive, not ", num_slice);
  const int axis = xp::detail::normalize_axis(batch_axis, data.ndim(), "split_data");
  const std::int64_t size = data.shape()[axis];
  // MXNet 1.9's text, word for word.
  XP_CHECK(!even_split || size % num_slice == 0, ValueError, "data with shape ", data.shape(),
           " cannot be evenly split into ", num_slice, " slices along axis ", batch_axis,
           ". Use a batch size that's multiple of ", num_slice,
           " or set even_split=False to allow uneven partitioning of data.");
  // The first size % num_slice slices take one more row; slices past the end are empty.
  const std::int64_t each = size / num_slice, extras = size % num_slice;
  std::vector<Index> indices(static_cast<std::size_t>(axis) + 1, Index(slice()));
  std::vector<ArrayCore> out;
  out.reserve(static_cast<std::size_t>(num_slice));
  for (std::int64_t k = 0; k < num_slice; ++k) {
    const std::int64_t begin = k * each + std::min(k, extras);
    indices[axis] = Index(slice(begin, begin + each + (k < extras ? 1 : 0)));
    out.push_back(xp::detail::index(data, indices));
  }
  return out;
}

std::vector<ArrayCore> split_and_load(const ArrayCore& data, std::span<const Device> devices, int batch_axis,
                                      bool even_split) {
  XP_CHECK(!devices.empty(), ValueError, "split_and_load: the device list is empty");
  std::vector<ArrayCore> slices = split_data(data, static_cast<int>(devices.size()), batch_axis, even_split);
  for (std::size_t k = 0; k < slices.size(); ++k) slices[k] = xp::detail::as_in_context(slices[k], devices[k]);
  return slices;
}

}  // namespace xp::utils::detail
