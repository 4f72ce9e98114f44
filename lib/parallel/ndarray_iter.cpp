#include <algorithm>
#include <cstddef>
#include <numeric>

#include "xp/creation.hpp"
#include "xp/io.hpp"
#include "xp/random.hpp"
#include "xp/shape_functions.hpp"

namespace xp::io {

namespace {

std::int64_t samples(const ndarray<>& a) { return a.shape()[0]; }

// `a` with its samples in the order `permutation` gives, on a's device (rearranged on the host).
ndarray<> permuted(const ndarray<>& a, const std::vector<std::int64_t>& permutation) {
  const std::size_t row = a.nbytes() / std::max<std::size_t>(permutation.size(), 1);
  std::vector<std::byte> before(a.nbytes()), after(a.nbytes());
  detail::copy_to_host(a, before.data(), "NDArrayIter shuffling");
  for (std::size_t i = 0; i < permutation.size(); ++i)
    std::copy_n(before.data() + static_cast<std::size_t>(permutation[i]) * row, row, after.data() + i * row);
  return ndarray<>(detail::from_host(after.data(), a.shape(), a.dtype(), a.device()));
}

}  // namespace

NDArrayIter::NDArrayIter(const ndarray<>& data, const ndarray<>& label, std::int64_t batch_size, bool shuffle,
                         const std::string& last_batch_handle, const std::string& data_name,
                         const std::string& label_name)
    : NDArrayIter(NamedArrays{{data_name, data}}, NamedArrays{{label_name, label}}, batch_size, shuffle,
                  last_batch_handle) {}

NDArrayIter::NDArrayIter(NamedArrays data, NamedArrays label, std::int64_t batch_size, bool shuffle,
                         const std::string& last_batch_handle)
    : data_(std::move(data)),
      label_(std::move(label)),
      batch_size_(batch_size),
      shuffle_(shuffle),
      cursor_(-batch_size) {
  XP_CHECK(last_batch_handle == "pad" || last_batch_handle == "discard" || last_batch_handle == "roll_over", ValueError,
           "NDArrayIter: last_batch_handle must be 'pad', 'discard' or 'roll_over', not '", last_batch_handle, "'");
  last_batch_ = last_batch_handle == "pad"       ? LastBatch::pad
                : last_batch_handle == "discard" ? LastBatch::discard
                                                 : LastBatch::roll_over;
  XP_CHECK(!data_.empty(), ValueError, "NDArrayIter: no data arrays");
  XP_CHECK(batch_size > 0, ValueError, "NDArrayIter: batch_size must be positive, not ", batch_size);
  for (const NamedArrays* arrays : {&data_, &label_})
    for (const auto& [name, array] : *arrays) {
      XP_CHECK(array.ndim() >= 1, ValueError, "NDArrayIter: '", name, "' is 0-d; arrays need a sample axis");
      XP_CHECK(samples(array) == samples(data_.front().second), ValueError, "NDArrayIter: '", name, "' has ",
               samples(array), " samples but '", data_.front().first, "' has ", samples(data_.front().second));
    }
  const std::int64_t n = samples(data_.front().second);
  num_data_ = last_batch_ == LastBatch::discard ? n - n % batch_size : n;
  XP_CHECK(num_data_ >= batch_size, ValueError, "NDArrayIter: batch_size needs to be smaller than data size (",
           batch_size, " > ", n, " samples)");
  if (shuffle_) this->shuffle();
}

std::vector<DataDesc> NDArrayIter::describe(const NamedArrays& arrays) const {
  std::vector<DataDesc> out;
  for (const auto& [name, array] : arrays) {
    Shape shape = array.shape();
    shape[0] = batch_size_;
    out.push_back({name, shape, array.dtype()});
  }
  return out;
}

void NDArrayIter::shuffle() {
  const std::int64_t n = samples(data_.front().second);
  const std::vector<double> keys = random::uniform<double>(0, 1, {n}, cpu(0)).to_vector();
  std::vector<std::int64_t> permutation(static_cast<std::size_t>(n));
  std::iota(permutation.begin(), permutation.end(), 0);
  std::stable_sort(permutation.begin(), permutation.end(), [&](std::int64_t a, std::int64_t b) {
    return keys[static_cast<std::size_t>(a)] < keys[static_cast<std::size_t>(b)];
  });
  for (NamedArrays* arrays : {&data_, &label_})
    for (auto& [name, array] : *arrays) array = permuted(array, permutation);
}

std::vector<ndarray<>> NDArrayIter::rows(const NamedArrays& arrays, std::int64_t begin, std::int64_t end) const {
  std::vector<ndarray<>> out;
  for (const auto& [name, array] : arrays) out.push_back(array(slice(begin, end)));
  return out;
}

void NDArrayIter::reset() {
  if (shuffle_) shuffle();
  // roll_over: the cursor of an incomplete last batch moves before the start, so that the first
  // batch of the next epoch is the carried samples followed by the first ones (MXNet 1.x's arithmetic).
  if (last_batch_ == LastBatch::roll_over && num_data_ - batch_size_ < cursor_ && cursor_ < num_data_) {
    cursor_ = cursor_ - num_data_ - batch_size_;
  } else {
    cursor_ = -batch_size_;
    carried_.reset();
  }
}

std::optional<DataBatch> NDArrayIter::next() {
  cursor_ += batch_size_;
  if (cursor_ >= num_data_) return std::nullopt;
  const auto joined = [](const std::vector<ndarray<>>& first, const std::vector<ndarray<>>& second) {
    std::vector<ndarray<>> out;
    for (std::size_t i = 0; i < first.size(); ++i) out.push_back(concatenate({first[i], second[i]}, 0));
    return out;
  };
  DataBatch batch;
  if (cursor_ < 0) {  // roll_over's first batch of an epoch
    XP_ASSERT(carried_.has_value());
    batch.data = joined(carried_->data, rows(data_, 0, cursor_ + batch_size_));
    batch.label = joined(carried_->label, rows(label_, 0, cursor_ + batch_size_));
    batch.pad = -cursor_;
    carried_.reset();
    return batch;
  }
  const std::int64_t end = std::min(cursor_ + batch_size_, num_data_);
  if (end - cursor_ == batch_size_) {
    batch.data = rows(data_, cursor_, end);
    batch.label = rows(label_, cursor_, end);
    return batch;
  }
  if (last_batch_ == LastBatch::pad) {
    batch.pad = cursor_ + batch_size_ - num_data_;
    batch.data = joined(rows(data_, cursor_, end), rows(data_, 0, batch.pad));
    batch.label = joined(rows(label_, cursor_, end), rows(label_, 0, batch.pad));
    return batch;
  }
  // roll_over: kept for the next epoch.
  carried_ = DataBatch{rows(data_, cursor_, end), rows(label_, cursor_, end), 0, std::nullopt, {}, {}};
  return std::nullopt;
}

}  // namespace xp::io
