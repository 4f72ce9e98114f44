// RawKernel and RawModule: a module's code compiled per architecture at its first launch there (the
// disk cache keyed by the source, options, name expressions and NVRTC's identity), or a CUBIN/PTX file
// read at construction; launches on the arrays' GPU, after their pending work, with the user's shape.
#include "xp/raw_kernel.hpp"

#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <sstream>

#include "api/array/array_factory.hpp"
#include "api/array/buffer.hpp"
#include "api/jit/compile_notice.hpp"
#include "api/jit/compiled_kernels.hpp"
#include "core/kernel_disk_cache.hpp"
#include "cuda/cuda_raw_modules.hpp"
#include "cuda/cuda_user_kernels.hpp"

namespace xp::detail {

namespace {

// A module's image for one architecture, and the lowered names of its name expressions.
struct LoadedModule {
  std::shared_ptr<RawLibrary> library;
  std::map<std::string, std::string, std::less<>> lowered;
};

// A compiled module as the disk cache holds it: a line with the count of lowered names, a line per
// name (expression, tab, lowered name), then the CUBIN.
std::string encoded(const RawCompiled& compiled) {
  std::string text = std::to_string(compiled.lowered.size()) + "\n";
  for (const auto& [expression, lowered] : compiled.lowered) text += expression + "\t" + lowered + "\n";
  return text + compiled.cubin;
}

RawCompiled decoded(const std::string& payload) {
  std::istringstream in(payload);
  std::size_t count = 0;
  in >> count;
  in.ignore(1);
  RawCompiled compiled;
  for (std::size_t k = 0; k < count; ++k) {
    std::string expression, lowered;
    std::getline(in, expression, '\t');
    std::getline(in, lowered);
    compiled.lowered.emplace_back(std::move(expression), std::move(lowered));
  }
  compiled.cubin = payload.substr(static_cast<std::size_t>(in.tellg()));
  return compiled;
}

std::string read_image(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  XP_CHECK(file, IOError, "RawModule: cannot read ", path);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

}  // namespace

struct RawModuleState {
  RawModuleSource source;
  std::string image;  // the file's, for a module of a path
  mutable std::mutex mutex;
  mutable std::map<std::string, LoadedModule> loaded;  // by architecture ("" for a file's image)

  const LoadedModule& for_device(Device device) const;
  RawCompiled compiled_for(const std::string& architecture) const;
};

RawCompiled RawModuleState::compiled_for(const std::string& architecture) const {
  std::string key = "raw module " + architecture + "\n" + nvrtc_identity() + "\n";
  for (const std::string& option : source.options) key += option + "\n";
  for (const std::string& expression : source.name_expressions) key += "name " + expression + "\n";
  key += source.code;
  if (auto cached = load_cached_kernel(key)) return decoded(*cached);
  CompileNotice notice("raw module for " + architecture);
  RawCompiled compiled = compile_raw(source.code, source.options, source.name_expressions, architecture);
  notice.done();
  if (const auto why = store_cached_kernel(key, encoded(compiled))) warn_uncached(*why);
  return compiled;
}

const LoadedModule& RawModuleState::for_device(Device device) const {
  const std::string architecture = source.path.empty() ? cuda_architecture(device) : "";
  const std::lock_guard lock(mutex);
  if (auto found = loaded.find(architecture); found != loaded.end()) return found->second;
  LoadedModule module;
  if (source.path.empty()) {
    const RawCompiled compiled = compiled_for(architecture);
    module.library = std::make_shared<RawLibrary>(compiled.cubin);
    module.lowered.insert(compiled.lowered.begin(), compiled.lowered.end());
  } else {
    module.library = std::make_shared<RawLibrary>(image);
  }
  return loaded.emplace(architecture, std::move(module)).first->second;
}

std::shared_ptr<const RawModuleState> new_module(RawModuleSource source) {
  XP_CHECK(source.code.empty() != source.path.empty(), ValueError,
           "RawModule: give either code or a path (a CUBIN or PTX file), not ",
           source.code.empty() ? "neither" : "both");
  XP_CHECK(source.path.empty() || source.name_expressions.empty(), ValueError,
           "RawModule: name_expressions need code to compile, not a file (", source.path, ")");
  auto state = std::make_shared<RawModuleState>();
  if (!source.path.empty()) state->image = read_image(source.path);
  state->source = std::move(source);
  return state;
}

void launch_raw(const RawModuleState& module, const std::string& name, const LaunchExtents& grid,
                const LaunchExtents& block, std::size_t shared_bytes, std::span<const RawArgument> args) {
  std::vector<const ArrayCore*> arrays;
  for (const RawArgument& a : args)
    if (a.array) arrays.push_back(a.array);
  const std::string op = "RawKernel '" + name + "'";
  const Device device = arrays.empty() ? current_device() : common_device(op, arrays);
  if (!device.is_gpu()) throw NotImplementedError(op, ": raw CUDA kernels run on GPUs only, not on ", device);
  const Exec exec = exec_on(device);
  order_access(exec, arrays);
  const LoadedModule& loaded = module.for_device(device);
  // Each parameter's value: an array's device address, kept here while the launch reads it.
  std::vector<void*> addresses(args.size()), values(args.size());
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (args[k].array) {
      addresses[k] = args[k].array->raw_data();
      note_write(*args[k].array);  // the kernel may write any array it is given
    }
    values[k] = args[k].array ? &addresses[k] : const_cast<void*>(args[k].value);
  }
  const auto lowered = loaded.lowered.find(name);
  loaded.library->launch(lowered == loaded.lowered.end() ? name : lowered->second, name, {grid.x, grid.y, grid.z},
                         {block.x, block.y, block.z}, shared_bytes, values.data(), exec);
}

}  // namespace xp::detail

namespace xp {

RawModule::RawModule(RawModuleSource source) : state_(detail::new_module(std::move(source))) {}

RawKernel RawModule::get_function(std::string_view name) const { return RawKernel(state_, std::string(name)); }

RawKernel::RawKernel(std::string code, std::string name, RawKernelOptions options)
    : RawKernel(detail::new_module({std::move(code), "", std::move(options.options), {}}), std::move(name)) {}

}  // namespace xp
