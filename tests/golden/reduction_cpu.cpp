// <jit_prelude.cuh up to its math lines>
XPJ_MATH1(sqrt)
// <the rest of jit_prelude.cuh>

typedef double T;
typedef double _type_reduce;
#define REDUCE(a, b) (a + b)
#define POST_MAP(a) (y = sqrt(a))
extern "C" const unsigned long long l2norm_partial_size = sizeof(_type_reduce);
extern "C" void l2norm(void* const* _xp_args, xpj::index_t _xp_out_begin, xpj::index_t _xp_out_end, xpj::index_t _xp_r_begin, xpj::index_t _xp_r_end, _type_reduce* _xp_partial) {
  xpj::strided<const double, 3> const _raw_x = *static_cast<xpj::strided<const double, 3> const*>(_xp_args[0]);
  xpj::strided<double, 1> const _raw_y = *static_cast<xpj::strided<double, 1> const*>(_xp_args[1]);
  xpj::shape<1> const& _xp_kept = *static_cast<xpj::shape<1> const*>(_xp_args[2]);
  xpj::shape<2> const& _xp_red = *static_cast<xpj::shape<2> const*>(_xp_args[3]);
  const int _J = 0;
  xpj::reduce_rows(_xp_kept, _xp_red, _type_reduce(0), _xp_out_begin, _xp_out_end, _xp_r_begin, _xp_r_end, _xp_partial,
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
extern "C" void l2norm_finish(void* const* _xp_args, xpj::index_t _xp_i, const _type_reduce* _xp_partials, int _xp_count) {
  xpj::strided<const double, 3> const _raw_x = *static_cast<xpj::strided<const double, 3> const*>(_xp_args[0]);
  xpj::strided<double, 1> const _raw_y = *static_cast<xpj::strided<double, 1> const*>(_xp_args[1]);
  xpj::shape<1> const& _xp_kept = *static_cast<xpj::shape<1> const*>(_xp_args[2]);
  const int _J = 0;
  xpj::finish_partials(_xp_kept, _xp_i, _xp_partials, _xp_count,
      [&](const _type_reduce& a, const _type_reduce& b) -> _type_reduce { return REDUCE(a, b); },
      [&](const xpj::index_t _i, _type_reduce a, const auto& _xp_at) {
        double& y = _xp_at(_raw_y);
        POST_MAP(a);
      });
}
