// <jit_prelude.cuh up to its math lines>
// <the rest of jit_prelude.cuh>

typedef int T;
extern "C" void squared_diff(void* const* _xp_args, xpj::index_t _xp_begin, xpj::index_t _xp_end) {
  xpj::strided<const int, 2> const _raw_x = *static_cast<xpj::strided<const int, 2> const*>(_xp_args[0]);
  xpj::raw_array<const int, 2, false> const y = *static_cast<xpj::raw_array<const int, 2, false> const*>(_xp_args[1]);
  xpj::strided<int, 2> const _raw_z = *static_cast<xpj::strided<int, 2> const*>(_xp_args[2]);
  xpj::shape<2> const& _xp_shape = *static_cast<xpj::shape<2> const*>(_xp_args[3]);
  // before
  xpj::row_loop(_xp_shape, _xp_begin, _xp_end, [&](const xpj::index_t i, const auto& _xp_at) {
    const xpj::position _ind = {i, _xp_shape.size};
    const int x = _xp_at(_raw_x);
    int& z = _xp_at(_raw_z);
    z = (x - y[i]) * (x - y[i]);
  });
  // after
}
