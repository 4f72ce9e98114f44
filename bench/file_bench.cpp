// save_npy and load_npy (and savez, load_npz: a stored archive of one member, its CRC-32 computed both
// ways) of 256 MiB of float32 beside the same bytes moved by write(2) and read(2) in the same rounds, in
// one folder (argument --dir, default the system's temporary folder). Writing is measured against two
// baselines: a plain write (into the page cache, lost in a crash) and the same bytes made durable the
// way save_npy makes them (a file beside, fsync, rename, fsync of the folder): save_npy pays for that
// durability, and only the second compares like with like. Prints each median and the ratios, the
// issue's target (0.8 of the plain figure) marked MISSED where not met. Both reads read a file written
// durably, as save_npy leaves its own, into page-aligned memory; sync(2) before each measurement keeps
// the dirty pages of one out of the next.
#include <fcntl.h>
#include <unistd.h>
#include <xp/npy.hpp>
#include <xp/utils/files.hpp>
#include <xp/xp.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "timing.hpp"

namespace {

namespace fs = std::filesystem;

void write_all(const fs::path& path, const char* data, std::size_t bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  XP_CHECK(fd >= 0, xp::IOError, "file_bench: cannot create ", path, ": ", std::strerror(errno));
  for (std::size_t done = 0; done < bytes;) {
    const ssize_t n = ::write(fd, data + done, bytes - done);
    XP_CHECK(n > 0, xp::IOError, "file_bench: cannot write ", path, ": ", std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

void read_all(const fs::path& path, char* data, std::size_t bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  XP_CHECK(fd >= 0, xp::IOError, "file_bench: cannot open ", path, ": ", std::strerror(errno));
  for (std::size_t done = 0; done < bytes;) {
    const ssize_t n = ::read(fd, data + done, bytes - done);
    XP_CHECK(n > 0, xp::IOError, "file_bench: cannot read ", path, ": ", std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

struct Measurement {
  const char* name;
  std::function<void()> run;
  std::vector<double> samples;
};

fs::path folder_from(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--dir") == 0) return argv[i + 1];
  return fs::temp_directory_path();
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = bench::rounds_from(argc, argv, 5);
  const fs::path dir = folder_from(argc, argv) / ("xp_file_bench_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::int64_t n = std::int64_t(1) << 26;  // 256 MiB of float32
  xp::random::seed(1);
  const auto a = xp::random::uniform<float>(0, 1, {n});
  const std::size_t bytes = a.nbytes();
  // Page-aligned, as the array's own memory is: read(2) into a buffer at another offset within a page
  // copies at a quarter of the speed on this kind of machine, which would flatter load_npy.
  const std::unique_ptr<char, decltype(&std::free)> buffer(static_cast<char*>(std::aligned_alloc(4096, bytes)),
                                                           &std::free);
  std::memcpy(buffer.get(), a.data(), bytes);
  xp::save_npy(dir / "a.npy", a);
  xp::savez(dir / "a.npz", {{"a", a}});
  std::vector<Measurement> measurements = {
      {"plain write", [&] { write_all(dir / "plain.bin", buffer.get(), bytes); }, {}},
      {"durable write",
       [&] {
         write_all(dir / "aside.bin", buffer.get(), bytes);
         xp::utils::replace_file(dir / "aside.bin", dir / "durable.bin");
       },
       {}},
      {"save_npy", [&] { xp::save_npy(dir / "a.npy", a); }, {}},
      {"plain read", [&] { read_all(dir / "durable.bin", buffer.get(), bytes), bench::escape(buffer.get()); }, {}},
      {"load_npy", [&] { bench::escape(xp::load_npy(dir / "a.npy").data()); }, {}},
      {"savez", [&] { xp::savez(dir / "a.npz", {{"a", a}}); }, {}},
      {"load_npz", [&] { bench::escape(xp::load_npz(dir / "a.npz")[0].second.data()); }, {}},
  };
  for (int round = 0; round < rounds; ++round)
    for (Measurement& m : measurements) {
      ::sync();  // no measurement pays for the dirty pages of the one before it (an fsync on ext4 may)
      m.samples.push_back(bench::seconds_per_call(1, m.run));
    }
  std::printf("256 MiB of float32 in %s (medians of %d rounds; one thread each side)\n", dir.parent_path().c_str(),
              rounds);
  for (const Measurement& m : measurements)
    std::printf("  %-14s %8.1f ms  %6.2f GB/s\n", m.name, 1e3 * bench::median(m.samples),
                bytes / bench::median(m.samples) / 1e9);
  const auto ratio = [&](int ours, int theirs, double wanted) {
    const double r = bench::median(measurements[theirs].samples) / bench::median(measurements[ours].samples);
    std::printf("  %-9s against %-14s %5.2f  (target %s)%s\n", measurements[ours].name, measurements[theirs].name, r,
                wanted > 0 ? std::to_string(wanted).substr(0, 4).c_str() : "-",
                wanted > 0 && r < wanted ? "  MISSED" : "");
  };
  ratio(2, 0, 0.8);
  ratio(2, 1, 0);
  ratio(4, 3, 0.8);
  ratio(5, 1, 0);
  ratio(6, 3, 0);
  fs::remove_all(dir);
  return 0;
}
