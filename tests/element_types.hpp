#pragma once
// Runs a template lambda once per element type: for_each_element_type([&]<class T>() { ... }).
#include <cstdint>

template <class F>
void for_each_element_type(F&& f) {
  f.template operator()<bool>();
  f.template operator()<std::int8_t>();
  f.template operator()<std::int16_t>();
  f.template operator()<std::int32_t>();
  f.template operator()<std::int64_t>();
  f.template operator()<std::uint8_t>();
  f.template operator()<std::uint16_t>();
  f.template operator()<std::uint32_t>();
  f.template operator()<std::uint64_t>();
  f.template operator()<float>();
  f.template operator()<double>();
}
