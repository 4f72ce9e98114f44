#include "einsum_subscripts.hpp"

#include <algorithm>
#include <string>

#include "xp/error.hpp"

namespace xp::detail {

namespace {

// One term's letters (character codes) with the place of its ellipsis (-1: none).
struct TermText {
  std::vector<int> letters;
  int ellipsis_at = -1;
};

TermText read_term(std::string_view text, std::string_view where) {
  TermText term;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      XP_CHECK(text.substr(i, 3) == "..." && term.ellipsis_at < 0, ValueError,
               "einsum: the subscripts contain a '.' that is not part of one ellipsis ('...') in ", where);
      term.ellipsis_at = static_cast<int>(term.letters.size());
      i += 2;
      continue;
    }
    XP_CHECK((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'), ValueError, "einsum: invalid subscript '", c, "' in ",
             where, "; subscripts must be letters");
    term.letters.push_back(c);
  }
  return term;
}

std::vector<std::string_view> split_terms(std::string_view text) {
  std::vector<std::string_view> terms;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    terms.push_back(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return terms;
    start = comma + 1;
  }
}

// The term's labels for an operand of `ndim` axes; `covered` is how many axes its ellipsis takes.
std::vector<int> input_labels(const TermText& term, int ndim, int operand, int* covered) {
  const int letters = static_cast<int>(term.letters.size());
  XP_CHECK(term.ellipsis_at >= 0 ? ndim >= letters : ndim == letters, ValueError, "einsum: operand ", operand, " has ",
           ndim, " dimensions but its subscripts name ", letters,
           term.ellipsis_at >= 0 ? " besides an ellipsis" : " and no ellipsis ('...') takes the others");
  *covered = ndim - letters;
  std::vector<int> labels(term.letters.begin(), term.letters.end());
  if (term.ellipsis_at >= 0)
    for (int k = 0; k < *covered; ++k) labels.insert(labels.begin() + term.ellipsis_at + k, k - *covered);
  return labels;
}

std::vector<int> ellipsis_labels(int count) {
  std::vector<int> labels;
  for (int k = -count; k < 0; ++k) labels.push_back(k);
  return labels;
}

// Labels appearing once over all inputs, the ellipsis first, then by character code.
std::vector<int> implicit_output(const std::vector<std::vector<int>>& inputs, int ellipsis_axes) {
  std::vector<int> output = ellipsis_labels(ellipsis_axes);
  for (int c = 0; c < 128; ++c) {
    std::size_t uses = 0;
    for (const auto& labels : inputs) uses += static_cast<std::size_t>(std::count(labels.begin(), labels.end(), c));
    if (uses == 1) output.push_back(c);
  }
  return output;
}

std::vector<int> explicit_output(const TermText& term, const std::vector<std::vector<int>>& inputs, int ellipsis_axes) {
  std::vector<int> output;
  for (const int c : term.letters) {
    XP_CHECK(std::count(output.begin(), output.end(), c) == 0, ValueError, "einsum: the output subscript '",
             static_cast<char>(c), "' appears more than once");
    const bool in_input = std::any_of(inputs.begin(), inputs.end(), [c](const std::vector<int>& labels) {
      return std::find(labels.begin(), labels.end(), c) != labels.end();
    });
    XP_CHECK(in_input, ValueError, "einsum: the output subscript '", static_cast<char>(c), "' appears in no input");
    output.push_back(c);
  }
  XP_CHECK(term.ellipsis_at >= 0 || ellipsis_axes == 0, ValueError, "einsum: the inputs' ellipsis covers ",
           ellipsis_axes, " dimensions but the output has no ellipsis ('...') to take them");
  const std::vector<int> broadcast = ellipsis_labels(ellipsis_axes);
  if (term.ellipsis_at >= 0) output.insert(output.begin() + term.ellipsis_at, broadcast.begin(), broadcast.end());
  return output;
}

}  // namespace

EinsumSubscripts parse_einsum_subscripts(std::string_view subscripts, std::span<const int> ndims) {
  std::string text;
  for (const char c : subscripts)
    if (c != ' ') text.push_back(c);
  const std::size_t arrow = text.find("->");
  const std::string_view inputs_text = std::string_view(text).substr(0, arrow);
  const std::vector<std::string_view> terms = split_terms(inputs_text);
  XP_CHECK(terms.size() == ndims.size(), ValueError, "einsum: the subscripts '", subscripts, "' name ", terms.size(),
           " operands but ", ndims.size(), " were given");
  EinsumSubscripts result;
  int ellipsis_axes = 0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    int covered = 0;
    const TermText term = read_term(terms[i], "operand " + std::to_string(i));
    result.inputs.push_back(input_labels(term, ndims[i], static_cast<int>(i), &covered));
    ellipsis_axes = std::max(ellipsis_axes, covered);
  }
  if (arrow == std::string::npos) {
    result.output = implicit_output(result.inputs, ellipsis_axes);
  } else {
    const std::string_view output_text = std::string_view(text).substr(arrow + 2);
    result.output = explicit_output(read_term(output_text, "the output"), result.inputs, ellipsis_axes);
  }
  return result;
}

}  // namespace xp::detail
