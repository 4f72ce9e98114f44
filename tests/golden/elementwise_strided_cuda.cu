// <jit_prelude.cuh>

typedef int T;
extern "C" __global__ void squared_diff(xpj::strided<const int, 2> _raw_x, xpj::raw_array<const int, 2, false> y, xpj::strided<int, 2> _raw_z, xpj::shape<2> _xp_shape) {
  // before
  xpj::grid_loop(_xp_shape, [&](const xpj::index_t i, const auto& _xp_at) {
    const xpj::position _ind = {i, _xp_shape.size};
    const int x = _xp_at(_raw_x);
    int& z = _xp_at(_raw_z);
    z = (x - y[i]) * (x - y[i]);
  });
  // after
}
