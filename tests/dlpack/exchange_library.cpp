// A small C-ABI library over xp::to_dlpack / xp::from_dlpack for tests/dlpack/numpy_exchange.py, which
// loads it with ctypes and trades DLPack capsules with NumPy. Exported tensors are counted until their
// deleter runs; imported arrays are held until xp_release_imports.
#include <cstdint>
#include <cstring>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "xp/creation.hpp"
#include "xp/dlpack.hpp"
#include "xp/index.hpp"

namespace {

int exported_alive = 0;
std::vector<xp::ndarray<>> held;

// Counts the tensors NumPy has not released yet: each exported tensor's deleter is wrapped.
struct Counted {
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned*);
};

void* counted(DLManagedTensorVersioned* managed, void** data) {
  *data = static_cast<char*>(managed->dl_tensor.data) + managed->dl_tensor.byte_offset;
  managed->manager_ctx = new Counted{managed->manager_ctx, managed->deleter};
  managed->deleter = [](DLManagedTensorVersioned* self) {
    const Counted* c = static_cast<Counted*>(self->manager_ctx);
    self->manager_ctx = c->manager_ctx;
    self->deleter = c->deleter;
    delete c;
    --exported_alive;
    self->deleter(self);
  };
  ++exported_alive;
  return managed;
}

void write(char* out, int size, const std::string& text) {
  std::snprintf(out, static_cast<std::size_t>(size), "%s", text.c_str());
}

// "dtype=float64 shape=3,3 strides=6,2 device=cpu(0) data=140... values=6,8,10,..."
std::string describe(const xp::ndarray<>& a) {
  std::ostringstream out;
  out << "dtype=" << a.dtype() << " shape=";
  for (int i = 0; i < a.ndim(); ++i) out << (i ? "," : "") << a.shape()[i];
  out << " strides=";
  for (int i = 0; i < a.ndim(); ++i) out << (i ? "," : "") << a.strides()[i];
  out << " device=" << a.device() << " data=" << reinterpret_cast<std::uintptr_t>(a.raw_data()) << " values=";
  const std::vector<double> values = a.astype(xp::dtype::float64).as<double>().to_vector();
  for (std::size_t i = 0; i < values.size(); ++i) out << (i ? "," : "") << values[i];
  return out.str();
}

}  // namespace

extern "C" {

// On `device` ("cpu(0)", "gpu(0)"): rows 1..3 and every second column of arange(24) as a 4 x 6 float32
// matrix: 6 8 10 / 12 14 16 / 18 20 22.
void* xp_export_matrix_view(const char* device, void** data) {
  const auto whole = xp::arange<float>(0, 24, 1, xp::Device(device)).reshape({4, 6});
  return counted(xp::to_dlpack(whole(xp::slice(1, 4), xp::slice(0, 6, 2))), data);
}

void* xp_export_bools(const char* device, void** data) {
  return counted(xp::to_dlpack(xp::array<bool>({true, false, true, true}, xp::Device(device))), data);
}

int xp_exported_alive() { return exported_alive; }

// The deleter of a tensor nobody consumed (a capsule's destructor calls it).
void xp_delete_tensor(void* managed) {
  auto* m = static_cast<DLManagedTensorVersioned*>(managed);
  m->deleter(m);
}

// copy: -1 unset, 0 false, 1 true. Returns 0 and the array's description, or 1 and the error's
// type and message ("ValueError: ...").
int xp_import(void* managed, int versioned, int copy, char* report, int report_size) {
  const std::optional<bool> copy_mode = copy < 0 ? std::nullopt : std::optional<bool>(copy == 1);
  try {
    held.push_back(versioned ? xp::from_dlpack(static_cast<DLManagedTensorVersioned*>(managed), copy_mode)
                             : xp::from_dlpack(static_cast<DLManagedTensor*>(managed), copy_mode));
    write(report, report_size, describe(held.back()));
    return 0;
  } catch (const xp::TypeError& e) {
    write(report, report_size, std::string("TypeError: ") + e.what());
  } catch (const xp::ValueError& e) {
    write(report, report_size, std::string("ValueError: ") + e.what());
  } catch (const std::exception& e) { write(report, report_size, std::string("other error: ") + e.what()); }
  return 1;
}

// The current description of the i-th held array (what NumPy wrote since shows).
void xp_describe_import(int i, char* report, int report_size) {
  write(report, report_size, describe(held.at(static_cast<std::size_t>(i))));
}

void xp_release_imports() { held.clear(); }

}  // extern "C"
