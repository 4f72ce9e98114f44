// <jit_prelude.cuh>

typedef int T;
extern "C" __global__ void squared_diff(xpj::strided<const int, 2> _raw_x, xpj::raw_array<const int, 2, false> y, xpj::strided<int, 2> _raw_z, xpj::shape<2> _xp_shape) {
  // before
  for (xpj::index_t i = (xpj::index_t)blockIdx.x * blockDim.x + threadIdx.x; i < _xp_shape.size; i += (xpj::index_t)blockDim.x * gridDim.x) {
    const xpj::position _ind = {i, _xp_shape.size};
    xpj::index_t _xp_off_x = 0;
    xpj::index_t _xp_off_z = 0;
    {
      xpj::index_t _xp_rest = i;
      const xpj::index_t _xp_c1 = _xp_rest % _xp_shape.extent[1];
      _xp_rest /= _xp_shape.extent[1];
      _xp_off_x += _xp_c1 * _raw_x.stride[1];
      _xp_off_z += _xp_c1 * _raw_z.stride[1];
      const xpj::index_t _xp_c0 = _xp_rest;
      _xp_off_x += _xp_c0 * _raw_x.stride[0];
      _xp_off_z += _xp_c0 * _raw_z.stride[0];
    }
    const int x = _raw_x.data[_xp_off_x];
    int& z = _raw_z.data[_xp_off_z];
    z = (x - y[i]) * (x - y[i]);
  }
  // after
}
