#pragma once
/// \file
/// Data iterators (MXNet 1.x's mx.io): batches of arrays with their descriptions.
///
/// \code{.cpp}
///   xp::io::NDArrayIter it(images, labels, /*batch_size=*/12, /*shuffle=*/true, "pad");
///   it.provide_data();   // {DataDesc{"data", (12, 64), float32}}; provide_label: {"softmax_label", (12,)}
///   while (auto batch = it.next()) { ... batch->data[0], batch->label[0], batch->pad ... }
///   it.reset();          // the next epoch (reshuffled)
/// \endcode
///
/// NDArrayIter walks the arrays along their first axis. The last, incomplete batch is
///   "pad":       filled up with samples from the start; DataBatch::pad counts them;
///   "discard":   dropped;
///   "roll_over": not returned in this epoch: its samples start the first batch after reset(), which
///                then reports them as pad (as MXNet 1.x does).
/// Shuffling permutes the samples at construction and at every reset(), from xp::random's generator:
/// xp::random::seed(s) makes the order reproducible. Batches are views of the arrays where no samples
/// wrap around (no copy), else new arrays on the arrays' device.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "xp/export.hpp"
#include "xp/named_arrays.hpp"
#include "xp/ndarray.hpp"

namespace xp::io {

/// A named input's name, shape and dtype (MXNet's DataDesc).
struct XP_API DataDesc {
  std::string name;  ///< "data", "softmax_label", ...
  Shape shape;  ///< the whole batch's shape
  xp::dtype type = xp::dtype::float32;  ///< the arrays' dtype
  /// Same name, shape and dtype.
  friend bool operator==(const DataDesc&, const DataDesc&) = default;
};

/// One batch: data and label arrays, in the order of provide_data and provide_label.
struct XP_API DataBatch {
  std::vector<ndarray<>> data;  ///< one array per data input
  std::vector<ndarray<>> label;  ///< one array per label input
  std::int64_t pad = 0;  ///< samples at the end (or carried over) that repeat others
  std::optional<std::int64_t> bucket_key;  ///< which bucket's symbol fits the batch (bucketing iterators)
  std::vector<DataDesc> provide_data;  ///< this batch's shapes when they differ from the iterator's
  std::vector<DataDesc> provide_label;  ///< this batch's label shapes when they differ from the iterator's
};

/// What the executor manager asks of a data source.
class XP_API DataIter {
 public:
  virtual ~DataIter() = default;
  /// The data inputs' descriptions (the whole batch's shapes).
  virtual std::vector<DataDesc> provide_data() const = 0;
  /// The label inputs' descriptions.
  virtual std::vector<DataDesc> provide_label() const = 0;
  /// Samples per batch.
  virtual std::int64_t batch_size() const = 0;
  /// Starts the next epoch.
  virtual void reset() = 0;
  /// The next batch, or nothing at the end of the epoch.
  virtual std::optional<DataBatch> next() = 0;
  /// The bucket whose shapes provide_data describes (bucketing iterators).
  virtual std::optional<std::int64_t> default_bucket_key() const { return std::nullopt; }
};

/// Batches of in-memory arrays along their first axis (MXNet's NDArrayIter).
class XP_API NDArrayIter : public DataIter {
 public:
  /// One data array named data_name and one label array named label_name.
  NDArrayIter(const ndarray<>& data, const ndarray<>& label, std::int64_t batch_size = 1, bool shuffle = false,
              const std::string& last_batch_handle = "pad", const std::string& data_name = "data",
              const std::string& label_name = "softmax_label");
  /// Named arrays (label may be empty), all with the same number of samples.
  NDArrayIter(NamedArrays data, NamedArrays label, std::int64_t batch_size = 1, bool shuffle = false,
              const std::string& last_batch_handle = "pad");

  std::vector<DataDesc> provide_data() const override { return describe(data_); }
  std::vector<DataDesc> provide_label() const override { return describe(label_); }
  std::int64_t batch_size() const override { return batch_size_; }
  void reset() override;
  std::optional<DataBatch> next() override;
  /// The number of samples an epoch walks ("discard" leaves out the incomplete tail).
  std::int64_t num_data() const noexcept { return num_data_; }

 private:
  enum class LastBatch : std::uint8_t { pad, discard, roll_over };
  std::vector<DataDesc> describe(const NamedArrays& arrays) const;
  void shuffle();
  /// Samples [begin, end) of every array (end <= num_data).
  std::vector<ndarray<>> rows(const NamedArrays& arrays, std::int64_t begin, std::int64_t end) const;

  NamedArrays data_, label_;
  std::int64_t batch_size_;
  bool shuffle_;
  LastBatch last_batch_;
  std::int64_t num_data_ = 0;
  std::int64_t cursor_;
  std::optional<DataBatch> carried_;  ///< roll_over: the incomplete batch that starts the next epoch
};

}  // namespace xp::io
