#pragma once
// Runs one test case of this test program in a fresh process (for what a process cannot undo: a
// sticky CUDA error, an environment variable read once) and returns its exit status and standard
// output. The child cases skip unless XP_TEST_CHILD names them, so a normal run lists them as skipped.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

extern char** environ;

struct ChildResult {
  int exit_status = -1;  // -1: killed by a signal
  std::string output;
};

inline bool is_child_case(const char* role) {
  const char* wanted = std::getenv("XP_TEST_CHILD");
  return wanted && std::string(wanted) == role;
}

// `role`: the value of XP_TEST_CHILD the child case waits for; `test_case`: its doctest name; `env`:
// variables set (or, given nullopt, unset) in the child.
inline ChildResult run_child_case(const std::string& role, const std::string& test_case,
                                  const std::vector<std::pair<std::string, std::optional<std::string>>>& env = {}) {
  std::vector<std::string> variables{"XP_TEST_CHILD=" + role};
  for (char** e = environ; *e; ++e) {
    const std::string entry(*e), name = entry.substr(0, entry.find('='));
    bool replaced = name == "XP_TEST_CHILD";
    for (const auto& [key, value] : env) replaced = replaced || key == name;
    if (!replaced) variables.push_back(entry);
  }
  for (const auto& [key, value] : env) {
    if (value) variables.push_back(key + "=" + *value);
  }
  std::vector<std::string> args{"/proc/self/exe", "--test-case=" + test_case};
  std::vector<char*> argv, envp;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (std::string& v : variables) envp.push_back(v.data());
  envp.push_back(nullptr);
  int fds[2];
  if (::pipe(fds) != 0) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  ChildResult result;
  char buffer[4096];
  for (ssize_t n; spawned == 0 && (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) result.output.append(buffer, n);
  ::close(fds[0]);
  if (spawned != 0) return result;
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}
