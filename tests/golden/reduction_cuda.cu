#include <cub/block/block_reduce.cuh>
// <jit_prelude.cuh>

typedef double T;
typedef double _type_reduce;
#define REDUCE(a, b) (a + b)
#define POST_MAP(a) (y = sqrt(a))
extern "C" __global__ void __launch_bounds__(128) l2norm(xpj::strided<const double, 3> _raw_x, xpj::strided<double, 1> _raw_y, xpj::shape<1> _xp_kept, xpj::shape<2> _xp_red) {
  const int _J = threadIdx.x;
  xpj::block_reduce<_type_reduce, 128>(_xp_kept, _xp_red, _type_reduce(0),
      [&](const xpj::index_t _i, const xpj::index_t _r, const auto& _xp_at) -> _type_reduce {
        const xpj::index_t _j = _r * _xp_kept.size + _i;
        const xpj::position _in_ind = {_j, _xp_kept.size * _xp_red.size};
        const xpj::position _out_ind = {_i, _xp_kept.size};
        const double x = _xp_at(_raw_x);
        return static_cast<_type_reduce>(x * x);
      },
      [&](const _type_reduce& a, const _type_reduce& b) -> _type_reduce { return REDUCE(a, b); },
      [&](const xpj::index_t _i, _type_reduce a, const auto& _xp_at) {
        double& y = _xp_at(_raw_y);
        POST_MAP(a);
      });
}
