// compare_params RTOL REFERENCE OTHER...: every array of each OTHER parameter file matches REFERENCE's
// of the same name to |a - b| <= RTOL * (1 + |b|); prints the largest difference per file. Exit 1 if not.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "xp/serialization.hpp"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: compare_params RTOL REFERENCE OTHER...\n");
    return 2;
  }
  const double rtol = std::atof(argv[1]);
  std::map<std::string, std::vector<double>> reference;
  for (const auto& [name, array] : xp::load(argv[2])) reference[name] = array.astype<double>().to_vector();
  int failures = 0;
  for (int f = 3; f < argc; ++f) {
    double worst = 0;
    std::size_t names = 0;
    for (const auto& [name, array] : xp::load(argv[f])) {
      ++names;
      const auto found = reference.find(name);
      const std::vector<double> got = array.astype<double>().to_vector();
      if (found == reference.end() || found->second.size() != got.size()) {
        std::printf("%s: '%s' is not in %s with its size\n", argv[f], name.c_str(), argv[2]);
        ++failures;
        continue;
      }
      for (std::size_t i = 0; i < got.size(); ++i)
        worst = std::max(worst, std::abs(got[i] - found->second[i]) / (1 + std::abs(found->second[i])));
    }
    const bool same = names == reference.size() && worst <= rtol;
    std::printf("%s: %zu arrays, largest relative difference %.3g against %s (tolerance %.3g): %s\n", argv[f], names,
                worst, argv[2], rtol, same ? "same" : "DIFFERENT");
    failures += same ? 0 : 1;
  }
  return failures == 0 ? 0 : 1;
}
