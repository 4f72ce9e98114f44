// <jit_prelude.cuh up to its math lines>
// <the rest of jit_prelude.cuh>

typedef int T;
extern "C" void squared_diff(void* const* _xp_args, xpj::index_t _xp_begin, xpj::index_t _xp_end) {
  xpj::strided<const int, 2> const _raw_x = *static_cast<xpj::strided<const int, 2> const*>(_xp_args[0]);
  xpj::raw_array<const int, 2, false> const y = *static_cast<xpj::raw_array<const int, 2, false> const*>(_xp_args[1]);
  xpj::strided<int, 2> const _raw_z = *static_cast<xpj::strided<int, 2> const*>(_xp_args[2]);
  xpj::shape<2> const& _xp_shape = *static_cast<xpj::shape<2> const*>(_xp_args[3]);
  // before
  xpj::index_t _xp_c[2];
  {
    xpj::index_t _xp_rest = _xp_begin;
    for (int _xp_d = 1; _xp_d >= 0; --_xp_d) {
      _xp_c[_xp_d] = _xp_rest % _xp_shape.extent[_xp_d];
      _xp_rest /= _xp_shape.extent[_xp_d];
    }
  }
  const xpj::index_t _xp_last = _xp_shape.extent[1];
  for (xpj::index_t _xp_i = _xp_begin; _xp_i < _xp_end;) {
    xpj::index_t _xp_row_x = 0;
    xpj::index_t _xp_row_z = 0;
    for (int _xp_d = 0; _xp_d < 1; ++_xp_d) {
      _xp_row_x += _xp_c[_xp_d] * _raw_x.stride[_xp_d];
      _xp_row_z += _xp_c[_xp_d] * _raw_z.stride[_xp_d];
    }
    const xpj::index_t _xp_first = _xp_c[1];
    const xpj::index_t _xp_count = _xp_last - _xp_first < _xp_end - _xp_i ? _xp_last - _xp_first : _xp_end - _xp_i;
    for (xpj::index_t _xp_k = 0; _xp_k < _xp_count; ++_xp_k) {
      const xpj::index_t i = _xp_i + _xp_k;
      const xpj::index_t _xp_col = _xp_first + _xp_k;
      const xpj::position _ind = {i, _xp_shape.size};
      const int x = _raw_x.data[_xp_row_x + _xp_col * _raw_x.stride[1]];
      int& z = _raw_z.data[_xp_row_z + _xp_col * _raw_z.stride[1]];
      z = (x - y[i]) * (x - y[i]);
    }
    _xp_i += _xp_count;
    _xp_c[1] += _xp_count;
    if (_xp_c[1] == _xp_last) {
      _xp_c[1] = 0;
      for (int _xp_d = 0; _xp_d >= 0; --_xp_d) {
        if (++_xp_c[_xp_d] < _xp_shape.extent[_xp_d]) break;
        _xp_c[_xp_d] = 0;
      }
    }
  }
  // after
}
