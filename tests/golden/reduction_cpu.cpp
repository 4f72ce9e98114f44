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
  for (xpj::index_t _i = _xp_out_begin; _i < _xp_out_end; ++_i) {
    xpj::index_t _xp_k_x = 0;
    xpj::index_t _xp_k_y = 0;
    {
      xpj::index_t _xp_rest = _i;
      const xpj::index_t _xp_c0 = _xp_rest;
      _xp_k_x += _xp_c0 * _raw_x.stride[0];
      _xp_k_y += _xp_c0 * _raw_y.stride[0];
    }
    auto _xp_element = [&](xpj::index_t _r) -> _type_reduce {
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
      return static_cast<_type_reduce>(x * x);
    };
    auto _xp_combine = [&](const _type_reduce& a, const _type_reduce& b) -> _type_reduce { return REDUCE(a, b); };
    const xpj::index_t _xp_rb = _xp_partial ? _xp_r_begin : 0, _xp_re = _xp_partial ? _xp_r_end : _xp_red.size;
    _type_reduce a = _xp_rb < _xp_re ? xpj::reduce_range<_type_reduce>(_xp_element, _xp_combine, _xp_rb, _xp_re) : _type_reduce(0);
    if (_xp_partial) {
      *_xp_partial = a;
      return;
    }
    double& y = _raw_y.data[_xp_k_y];
    POST_MAP(a);
  }
}
extern "C" void l2norm_finish(void* const* _xp_args, xpj::index_t _i, const _type_reduce* _xp_partials, int _xp_count) {
  xpj::strided<const double, 3> const _raw_x = *static_cast<xpj::strided<const double, 3> const*>(_xp_args[0]);
  xpj::strided<double, 1> const _raw_y = *static_cast<xpj::strided<double, 1> const*>(_xp_args[1]);
  xpj::shape<1> const& _xp_kept = *static_cast<xpj::shape<1> const*>(_xp_args[2]);
  xpj::index_t _xp_k_x = 0;
  xpj::index_t _xp_k_y = 0;
  {
    xpj::index_t _xp_rest = _i;
    const xpj::index_t _xp_c0 = _xp_rest;
    _xp_k_x += _xp_c0 * _raw_x.stride[0];
    _xp_k_y += _xp_c0 * _raw_y.stride[0];
  }
  _type_reduce a = _xp_partials[0];
  for (int _xp_k = 1; _xp_k < _xp_count; ++_xp_k) {
    const _type_reduce b = _xp_partials[_xp_k];
    a = REDUCE(a, b);
  }
  double& y = _raw_y.data[_xp_k_y];
  POST_MAP(a);
}
