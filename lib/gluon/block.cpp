#include "xp/block.hpp"

#include <cctype>
#include <ostream>
#include <sstream>

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

}  // namespace

NameScope::NameScope(Block& block) : previous_(current_scope) { current_scope = &block; }
NameScope::~NameScope() { current_scope = previous_; }

Block::Block(std::string_view class_name) : class_name_(class_name) {
  std::string lower(class_name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (current_scope)
    prefix_ = current_scope->prefix_ + lower + std::to_string(next_count(current_scope->counters_, lower)) + "_";
  else
    prefix_ = lower + std::to_string(next_count(global_counters, lower)) + "_";
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
