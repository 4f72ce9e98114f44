#pragma once
// Gradients from backward against central finite differences, in float64. The head gradient is a
// fixed array of distinct weights w (not ones), so what is checked is the gradient of sum(f(x) * w):
// a backward that mixed up output positions would fail it.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "xp/xp.hpp"

namespace xp_test {

using Inputs = std::vector<xp::ndarray<double>>;
using Function = std::function<xp::ndarray<double>(const Inputs&)>;

// Distinct values in [-1, 1] for position k.
inline double weight_at(std::size_t k) { return std::sin(0.7 * static_cast<double>(k) + 0.3); }

inline xp::ndarray<double> weights_like(const xp::ndarray<double>& y) {
  std::vector<double> w(y.size());
  for (std::size_t k = 0; k < w.size(); ++k) w[k] = weight_at(k);
  return xp::array<double>(w, y.shape(), y.device());
}

inline double weighted_sum(const xp::ndarray<double>& y) {
  const std::vector<double> values = y.to_vector();
  double total = 0;
  for (std::size_t k = 0; k < values.size(); ++k) total += values[k] * weight_at(k);
  return total;
}

// Where the finite differences are evaluated: on the inputs' device, or on cpu(0) for functions of
// their inputs alone (a GPU runs two forward passes per input element as tiny launches otherwise:
// thousands of them in the reductions case, minutes under compute-sanitizer; the backward under test
// still runs on the inputs' device, against a reference from another one).
enum class Differences { on_inputs_device, on_cpu };

// Checks every input's gradient; returns the analytic gradients (for further checks).
inline std::vector<std::vector<double>> check_gradients(const Function& f, const Inputs& inputs,
                                                        double tolerance = 1e-6,
                                                        Differences where = Differences::on_inputs_device) {
  constexpr double step = 1e-6;
  Inputs variables;
  for (const auto& x : inputs) {
    variables.push_back(x.copyto(x.device()));
    variables.back().attach_grad();
  }
  {
    xp::autograd::record recording;
    const xp::ndarray<double> y = f(variables);
    y.backward(weights_like(y));
  }
  Inputs reference;
  for (const auto& x : inputs) reference.push_back(where == Differences::on_cpu ? x.copyto(xp::cpu(0)) : x);
  std::vector<std::vector<double>> analytic;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    analytic.push_back(variables[i].grad().to_vector());
    const std::vector<double> base = inputs[i].to_vector();
    for (std::size_t j = 0; j < base.size(); ++j) {
      const auto evaluate = [&](double delta) {
        Inputs moved = reference;
        std::vector<double> values = base;
        values[j] += delta;
        moved[i] = xp::array<double>(values, inputs[i].shape(), reference[i].device());
        return weighted_sum(f(moved));
      };
      const double numeric = (evaluate(step) - evaluate(-step)) / (2 * step);
      INFO("input ", i, ", element ", j, ": backward ", analytic[i][j], ", finite differences ", numeric);
      CHECK(std::abs(analytic[i][j] - numeric) <= tolerance * std::max(1.0, std::abs(numeric)));
    }
  }
  return analytic;
}

// Values in [-1.5, 1.5] away from 0 and from each other (so that max, abs, relu and clip are smooth
// at each of them).
inline xp::ndarray<double> smooth_values(const xp::Shape& shape, xp::Device device, double shift = 0.0) {
  std::vector<double> values(static_cast<std::size_t>(xp::numel(shape)));
  for (std::size_t k = 0; k < values.size(); ++k)
    values[k] = std::fmod(0.37 * static_cast<double>(k) * 1.618 + 0.11 + shift, 3.0) - 1.5;
  for (double& v : values)
    if (std::abs(v) < 0.05) v += 0.1;
  return xp::array<double>(values, shape, device);
}

}  // namespace xp_test
