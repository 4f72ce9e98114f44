#include <cub/block/block_reduce.cuh>
// <jit_prelude.cuh>

typedef double T;
typedef double _type_reduce;
#define REDUCE(a, b) (a + b)
#define POST_MAP(a) (y = sqrt(a))
struct _xp_partial {
  _type_reduce value;
  bool valid;
};
struct _xp_combine {
  __device__ _xp_partial operator()(const _xp_partial& l, const _xp_partial& r) const {
    if (!l.valid) return r;
    if (!r.valid) return l;
    const _type_reduce a = l.value, b = r.value;
    _xp_partial s;
    s.value = REDUCE(a, b);
    s.valid = true;
    return s;
  }
};
extern "C" __global__ void __launch_bounds__(128) l2norm(xpj::strided<const double, 3> _raw_x, xpj::strided<double, 1> _raw_y, xpj::shape<1> _xp_kept, xpj::shape<2> _xp_red) {
  typedef cub::BlockReduce<_xp_partial, 128> _xp_block_reduce;
  __shared__ typename _xp_block_reduce::TempStorage _xp_temp;
  const int _J = threadIdx.x;
  for (xpj::index_t _i = blockIdx.x; _i < _xp_kept.size; _i += gridDim.x) {
    xpj::index_t _xp_k_x = 0;
    xpj::index_t _xp_k_y = 0;
    {
      xpj::index_t _xp_rest = _i;
      const xpj::index_t _xp_c0 = _xp_rest;
      _xp_k_x += _xp_c0 * _raw_x.stride[0];
      _xp_k_y += _xp_c0 * _raw_y.stride[0];
    }
    _xp_partial _xp_s;
    _xp_s.valid = false;
    for (xpj::index_t _r = threadIdx.x; _r < _xp_red.size; _r += 128) {
      _xp_partial _xp_e;
      xpj::index_t _xp_o_x = _xp_k_x;
      {
        xpj::index_t _xp_rest = _r;
        const xpj::index_t _xp_c1 = _xp_rest % _xp_red.extent[1];
        _xp_rest /= _xp_red.extent[1];
        _xp_o_x += _xp_c1 * _raw_x.stride[2];
        const xpj::index_t _xp_c0 = _xp_rest;
        _xp_o_x += _xp_c0 * _raw_x.stride[1];
      }
      const xpj::index_t _j = _r * _xp_kept.size + _i;
      const xpj::position _in_ind = {_j, _xp_kept.size * _xp_red.size};
      const xpj::position _out_ind = {_i, _xp_kept.size};
      const double x = _raw_x.data[_xp_o_x];
      _xp_e.value = static_cast<_type_reduce>(x * x);
      _xp_e.valid = true;
      _xp_s = _xp_combine()(_xp_s, _xp_e);
    }
    const _xp_partial _xp_total = _xp_block_reduce(_xp_temp).Reduce(_xp_s, _xp_combine());
    if (threadIdx.x == 0) {
      _type_reduce a = _xp_total.valid ? _xp_total.value : _type_reduce(0);
      double& y = _raw_y.data[_xp_k_y];
      POST_MAP(a);
    }
    __syncthreads();
  }
}
