#pragma once
// NumPy's einsum subscripts read into labels: a letter is its character code, the axes an ellipsis
// covers are labelled -E .. -1 (E the most any operand's ellipsis covers), aligned at the right as
// broadcasting aligns them, so that sorting the labels puts the ellipsis first, as NumPy's implicit output.
#include <span>
#include <string_view>
#include <vector>

namespace xp::detail {

struct EinsumSubscripts {
  std::vector<std::vector<int>> inputs;  // one label per axis of each operand
  std::vector<int> output;  // the result's axes
};

// ValueError for what NumPy refuses: a character that is not a letter, a '.' outside "...", a term count
// other than ndims.size(), a term naming more or fewer axes than its operand has, an output label that
// repeats or appears in no input, ellipsis axes an explicit output leaves out.
EinsumSubscripts parse_einsum_subscripts(std::string_view subscripts, std::span<const int> ndims);

}  // namespace xp::detail
