// <jit_prelude.cuh up to its math lines>
// <the rest of jit_prelude.cuh>

typedef float T;
extern "C" void squared_diff(void* const* _xp_args, xpj::index_t _xp_begin, xpj::index_t _xp_end) {
  const float* const _raw_x = *static_cast<const float* const*>(_xp_args[0]);
  float const y = *static_cast<float const*>(_xp_args[1]);
  float* const _raw_z = *static_cast<float* const*>(_xp_args[2]);
  xpj::index_t const& _xp_size = *static_cast<xpj::index_t const*>(_xp_args[3]);
  xpj::flat_loop(_xp_begin, _xp_end, [&](const xpj::index_t i, const auto& _xp_at) {
    const xpj::position _ind = {i, _xp_size};
    const float x = _xp_at(_raw_x);
    float& z = _xp_at(_raw_z);
    z = (x - y) * (x - y);
  });
}
