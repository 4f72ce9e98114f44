// Autograd's rules: variables and grad_req, heads, scopes, what does not record, devices.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <thread>

#include "device_cases.hpp"
#include "xp/xp.hpp"

using F = xp::ndarray<float>;

XP_TEST_ON_DEVICES("autograd: grad_req write overwrites, add accumulates, null leaves the variable out") {
  F x = xp::array<float>({1, 2, 3}, device);
  x.attach_grad();
  CHECK(x.grad().to_vector() == std::vector<float>{0, 0, 0});
  CHECK(x.grad().device() == device);
  const F buffer = x.grad();
  for (int pass = 0; pass < 2; ++pass) {
    xp::autograd::record recording;
    xp::sum(x * x).backward();
  }
  CHECK(buffer.to_vector() == std::vector<float>{2, 4, 6});  // the same buffer, overwritten
  x.attach_grad(xp::GradReq::add);
  for (int pass = 0; pass < 2; ++pass) {
    xp::autograd::record recording;
    (x * 3.0f).backward();
  }
  CHECK(x.grad().to_vector() == std::vector<float>{6, 6, 6});
  F y = xp::array<float>({1, 1, 1}, device);
  y.attach_grad(xp::GradReq::null);
  {
    xp::autograd::record recording;
    (x * y).backward();
  }
  CHECK(y.grad().to_vector() == std::vector<float>{0, 0, 0});
  CHECK(x.grad().to_vector() == std::vector<float>{7, 7, 7});
}

XP_TEST_ON_DEVICES(
    "autograd: ties and zeros: max/min split evenly, maximum/minimum favour the first operand, abs and relu give 0 at "
    "0") {
  const auto gradient_of = [](F x, const auto& f) {
    x.attach_grad();
    {
      xp::autograd::record recording;
      f(x).backward();
    }
    return x.grad().to_vector();
  };
  CHECK(gradient_of(xp::array<float>({1, 3, 3, 2}, device), [](const F& x) { return xp::max(x); }) ==
        std::vector<float>{0, 0.5f, 0.5f, 0});
  const std::vector<float> thirds =
      gradient_of(xp::array<float>({2, 1, 5, 1, 1}, device), [](const F& x) { return xp::min(x); });
  CHECK(thirds == std::vector<float>{0, 1.0f / 3, 0, 1.0f / 3, 1.0f / 3});
  CHECK(gradient_of(xp::array<float>({1, 4, 4, 2, 2, 0}, device).reshape({2, 3}), [](const F& x) {
          return xp::sum(xp::max(x, 1));
        }) == std::vector<float>{0, 0.5f, 0.5f, 0.5f, 0.5f, 0});
  for (const bool larger : {true, false}) {
    CAPTURE(larger);
    F a = xp::array<float>({1, 2, 3}, device), b = xp::array<float>({1, larger ? 5.0f : 0.0f, 3}, device);
    a.attach_grad();
    b.attach_grad();
    {
      xp::autograd::record recording;
      xp::sum(larger ? xp::maximum(a, b) : xp::minimum(a, b)).backward();
    }
    CHECK(a.grad().to_vector() == std::vector<float>{1, 0, 1});  // ties at 0 and 2 go to the first operand
    CHECK(b.grad().to_vector() == std::vector<float>{0, 1, 0});
  }
  CHECK(gradient_of(xp::array<float>({-2, 0, 3}, device), [](const F& x) { return xp::sum(xp::abs(x)); }) ==
        std::vector<float>{-1, 0, 1});
  CHECK(gradient_of(xp::array<float>({-1, 0, 2}, device), [](const F& x) { return xp::sum(xp::relu(x)); }) ==
        std::vector<float>{0, 0, 1});
}

XP_TEST_ON_DEVICES("autograd: copies share the variable, views and detach do not") {
  F x = xp::array<float>({1, 2}, device);
  x.attach_grad();
  const F copy = x;
  const F view = x.reshape({2, 1});
  CHECK(copy.grad().shares_buffer_with(x.grad()));
  const std::string no_buffer =
      "grad: the array (shape (2, 1) on " + device.str() + ") has no gradient buffer; call attach_grad() on it first";
  CHECK_THROWS_WITH_AS(view.grad(), no_buffer.c_str(), xp::ValueError);
  {
    xp::autograd::record recording;
    const F y = copy * copy + x.detach() * 100.0f;  // detach: no gradient through it
    y.backward();
  }
  CHECK(x.grad().to_vector() == std::vector<float>{2, 4});
}

XP_TEST_ON_DEVICES("autograd: several heads, head gradients, retain_graph") {
  F x = xp::array<float>({1, 2}, device);
  x.attach_grad();
  xp::autograd::record recording;
  const F a = x * 2.0f, b = x * x;
  xp::autograd::backward({a, b}, {}, /*retain_graph=*/true);  // 2 + 2x
  CHECK(x.grad().to_vector() == std::vector<float>{4, 6});
  xp::autograd::backward({a, b}, {xp::array<float>({1, 0}, device), xp::array<float>({0, 1}, device)}, true);
  CHECK(x.grad().to_vector() == std::vector<float>{2, 4});
  const F c = xp::exp(x);
  c.backward(/*retain_graph=*/true);
  c.backward();
  CHECK(x.grad().to_vector()[1] == doctest::Approx(std::exp(2.0f)));
  CHECK_THROWS_WITH_AS(c.backward(),
                       "backward: the graph was freed by an earlier backward; pass retain_graph = true to the first "
                       "backward to run another through the same graph",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(a.backward(xp::array<float>({1, 2, 3}, device)),
                       "backward: head gradient 0 has shape (3,) but its head has shape (2,)", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::autograd::backward({a, b}, {a}), "backward: 2 heads but 1 head gradients", xp::ValueError);
}

XP_TEST_ON_DEVICES("autograd: a head that was not recorded is an error naming it") {
  F x = xp::array<float>({1, 2}, device);
  x.attach_grad();
  const F outside = x * 2.0f;  // not recording
  const std::string text =
      " is not in a recorded graph: record the operations that made it inside an xp::autograd::record scope, "
      "from a variable (attach_grad)";
  CHECK_THROWS_WITH_AS(outside.backward(), ("backward: head 0 (shape (2,))" + text).c_str(), xp::ValueError);
  xp::autograd::record recording;
  const F recorded = x * 2.0f;
  const F constant = xp::array<float>({1, 2}, device) * 2.0f;  // no variable behind it
  CHECK_THROWS_WITH_AS(xp::autograd::backward({recorded, constant}), ("backward: head 1 (shape (2,))" + text).c_str(),
                       xp::ValueError);
}

XP_TEST_ON_DEVICES("autograd: comparisons, argmax and integer arithmetic do not record") {
  F x = xp::array<float>({1, 2}, device);
  x.attach_grad();
  xp::autograd::record recording;
  CHECK_THROWS_AS(xp::ndarray<>(x > 1.0f).backward(), xp::ValueError);
  CHECK_THROWS_AS(xp::ndarray<>(xp::argmax(x)).backward(), xp::ValueError);
  auto counts = xp::array<std::int32_t>({1, 2}, device);
  counts.attach_grad();
  CHECK_THROWS_AS(xp::ndarray<>(counts * 2).backward(), xp::ValueError);
  // A float result of an integer variable records nothing either: integers get no gradients.
  CHECK_THROWS_AS((counts * 0.5).backward(), xp::ValueError);
}

XP_TEST_ON_DEVICES("autograd: operations into `out` are refused while they would record") {
  F x = xp::array<float>({1, 2}, device);
  x.attach_grad();
  F out = xp::zeros<float>({2}, device);
  xp::add(x, 1.0f, out);  // not recording: fine
  CHECK(out.to_vector() == std::vector<float>{2, 3});
  xp::autograd::record recording;
  CHECK_THROWS_WITH_AS(xp::add(x, 1.0f, out),
                       "add: an operation into `out` cannot be recorded for backward; while recording, call it "
                       "without `out` on arrays that need gradients",
                       xp::ValueError);
  CHECK_THROWS_AS(xp::matmul(x.reshape({1, 2}), x.reshape({2, 1}), out.reshape({1, 1})), xp::ValueError);
  xp::multiply(out, 2.0f, out);  // no operand needs a gradient: fine while recording
  CHECK(out.to_vector() == std::vector<float>{4, 6});
}

TEST_CASE("autograd: scopes nest and restore recording and training") {
  CHECK_FALSE(xp::autograd::is_recording());
  CHECK_FALSE(xp::autograd::is_training());
  {
    xp::autograd::record recording;
    CHECK(xp::autograd::is_recording());
    CHECK(xp::autograd::is_training());
    {
      xp::autograd::pause paused;
      CHECK_FALSE(xp::autograd::is_recording());
      CHECK_FALSE(xp::autograd::is_training());
      xp::autograd::train_mode training;
      CHECK(xp::autograd::is_training());
    }
    CHECK(xp::autograd::is_recording());
    xp::autograd::record inference(/*train_mode=*/false);
    CHECK_FALSE(xp::autograd::is_training());
  }
  CHECK_FALSE(xp::autograd::is_recording());
  CHECK_FALSE(xp::autograd::is_training());
  CHECK_FALSE(xp::autograd::set_recording(true));
  CHECK(xp::autograd::set_recording(false));
  // Per thread: another thread starts with recording off.
  xp::autograd::record recording;
  bool other = true;
  std::thread([&] { other = xp::autograd::is_recording(); }).join();
  CHECK_FALSE(other);
}

TEST_CASE("autograd: a copy to another device records; its gradient comes back to the source") {
  F x = xp::array<float>({1, 2}, xp::cpu(0));
  x.attach_grad();
  {
    xp::autograd::record recording;
    const F there = x.copyto(xp::cpu(1));
    const F y = there * there;
    CHECK(y.device() == xp::cpu(1));
    y.backward();
  }
  CHECK(x.grad().device() == xp::cpu(0));
  CHECK(x.grad().to_vector() == std::vector<float>{2, 4});
  CHECK(x.as_in_context(xp::cpu(0)).shares_buffer_with(x));
}

TEST_CASE("autograd: mark_variable takes a buffer of one's own; the fresh flag tracks backward") {
  xp::ndarray<> w = xp::array<float>({1, 2});
  const xp::ndarray<> buffer = xp::zeros<float>({2});
  xp::autograd::mark_variable(w, buffer, xp::GradReq::write);
  CHECK_FALSE(xp::autograd::has_fresh_grad(w));
  {
    xp::autograd::record recording;
    xp::sum(w * w).backward();
  }
  CHECK(buffer.as<float>().to_vector() == std::vector<float>{2, 4});
  CHECK(xp::autograd::has_fresh_grad(w));
  xp::autograd::set_fresh_grad(w, false);
  CHECK_FALSE(xp::autograd::has_fresh_grad(w));
  xp::autograd::set_fresh_grad(w, true);
  CHECK(xp::autograd::has_fresh_grad(w));
  xp::autograd::mark_variable(w, buffer, xp::GradReq::write);  // marked anew: not fresh
  CHECK_FALSE(xp::autograd::has_fresh_grad(w));
  xp::autograd::set_fresh_grad(xp::zeros<float>({2}), true);  // not a variable: nothing to set
  CHECK_FALSE(xp::autograd::has_fresh_grad(xp::zeros<float>({2})));
  CHECK_THROWS_AS(xp::autograd::mark_variable(w, xp::zeros<float>({3}), xp::GradReq::write), xp::ValueError);
}
