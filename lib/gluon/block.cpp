#include "xp/block.hpp"

#include <algorithm>
#include <cctype>
#include <ostream>
#include <sstream>

#include "xp/serialization.hpp"

namespace xp::gluon {

namespace {

using Counters = std::vector<std::pair<std::string, int>>;

thread_local Counters global_counters;  // names made outside any block's scope
thread_local Block* current_scope = nullptr;

int next_count(Counters& counters, const std::string& hint) {
  for (auto& [name, count] : counters)
    if (name == hint) return count++;
  counters.emplace_back(hint, 1);
  return 0;
}

// Each line of `text` after the first indented by two spaces (MXNet's _indent).
std::string indented(const std::string& text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '\n') out += "  ";
  }
  return out;
}

// MXNet's _brief_print_list: 'a', 'b', 'c' with the middle of a list longer than 7 left out.
std::string brief_list(const std::vector<std::string>& names) {
  constexpr std::size_t limit = 7;
  const auto quoted = [&](std::size_t from, std::size_t to) {
    std::string out;
    for (std::size_t i = from; i < to; ++i) out += (i == from ? "'" : ", '") + names[i] + "'";
    return out;
  };
  if (names.size() <= limit) return quoted(0, names.size());
  return quoted(0, limit / 2) + ", ..., " + quoted(names.size() - (limit + 1) / 2, names.size());
}

}  // namespace

NameScope::NameScope(Block& block) : previous_(current_scope) { current_scope = &block; }
NameScope::~NameScope() { current_scope = previous_; }

Block::Block(std::string_view class_name) : class_name_(class_name) {
  std::string lower(class_name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (current_scope)
    prefix_ = current_scope->prefix_ + lower + std::to_string(next_count(current_scope->counters_, lower)) + "_";
  else prefix_ = lower + std::to_string(next_count(global_counters, lower)) + "_";
}

std::string Block::name() const { return prefix_.empty() ? prefix_ : prefix_.substr(0, prefix_.size() - 1); }

Parameter& Block::add_param(std::string attribute, Shape shape, std::shared_ptr<const initializer::Initializer> init,
                            GradReq grad_req, dtype type) {
  Parameter p(prefix_ + attribute, shape, grad_req, type, std::move(init), /*allow_deferred_init=*/true);
  params_.emplace_back(std::move(attribute), std::move(p));
  return params_.back().second;
}

void Block::add_child(std::string key, std::shared_ptr<Block> child) {
  children_.emplace_back(std::move(key), std::move(child));
}

Parameter Block::own(const std::string& attribute) const {
  for (const auto& [name, p] : params_)
    if (name == attribute) return p;
  throw ValueError(name(), " has no parameter '", attribute, "'");
}

void Block::collect(ParameterDict& out) const {
  for (const auto& [attribute, p] : params_) out.add(p);
  for (const auto& [key, child] : children_) child->collect(out);
}

void Block::collect_structural(const std::string& prefix, std::vector<std::pair<std::string, Parameter>>& out) const {
  for (const auto& [attribute, p] : params_) out.emplace_back(prefix + attribute, p);
  for (const auto& [key, child] : children_) child->collect_structural(prefix + key + ".", out);
}

void Block::save_parameters(const std::filesystem::path& path) const {
  std::vector<std::pair<std::string, Parameter>> params;
  collect_structural("", params);
  NamedArrays arrays;
  for (const auto& [name, p] : params) arrays.emplace_back(name, p.reduce());
  save(path, arrays);
}

void Block::load_parameters(const std::filesystem::path& path, std::vector<Device> devices, bool allow_missing,
                            bool ignore_extra) {
  std::vector<std::pair<std::string, Parameter>> params;
  collect_structural("", params);
  const NamedArrays loaded = load(path);
  const auto find_loaded = [&](const std::string& name) {
    return std::find_if(loaded.begin(), loaded.end(), [&](const auto& entry) { return entry.first == name; });
  };
  const auto find_param = [&](const std::string& name) {
    return std::find_if(params.begin(), params.end(), [&](const auto& entry) { return entry.first == name; });
  };
  const auto names_of = [](const auto& entries) {
    std::vector<std::string> names;
    for (const auto& entry : entries) names.push_back(entry.first);
    return brief_list(names);
  };
  for (const auto& [name, p] : params)
    XP_CHECK(allow_missing || find_loaded(name) != loaded.end(), ValueError, "Parameter '", name,
             "' is missing in file '", path.string(), "', which contains parameters: ", names_of(loaded),
             ". Set allow_missing=True to ignore missing parameters.");
  for (const auto& [name, value] : loaded) {
    const auto found = find_param(name);
    XP_CHECK(ignore_extra || found != params.end(), ValueError, "Parameter '", name, "' loaded from file '",
             path.string(), "' is not present in ParameterDict, which contains parameters ", names_of(params),
             ". Set ignore_extra=True to ignore. ");
    if (found != params.end()) found->second.load_init(value, devices);
  }
}

ParameterDict Block::collect_params() const {
  ParameterDict dict;
  collect(dict);
  return dict;
}

void Block::initialize(const initializer::Initializer& init, std::vector<Device> devices, bool force_reinit) {
  collect_params().initialize(init, std::move(devices), force_reinit);
}

std::string Block::repr() const {
  std::ostringstream out;
  out << class_name_ << "(";
  for (const auto& [key, child] : children_) out << "\n  (" << key << "): " << indented(child->repr());
  out << (children_.empty() ? ")" : "\n)");
  return out.str();
}

std::ostream& operator<<(std::ostream& out, const Block& block) { return out << block.repr(); }

}  // namespace xp::gluon
