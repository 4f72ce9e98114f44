"""Sorts one compute-sanitizer log into findings and what is there by design, for scripts/gpu.sh.

sanitizer_report.py LOG: prints one line per kind of report with its count, and exits 1 when any report
is a finding. A report is a line "========= <text>" (one space after the marker) with the more indented
lines below it. Kinds:
- polling: "Program hit cudaErrorNotReady" (the memory pool asks events whether they are done, on
  purpose); counted apart, never a finding.
- expected API errors: cudaErrorMemoryAllocation, which the out-of-memory tests provoke; listed.
- API errors: any other "Program hit ..."; findings.
- hazards in NVIDIA libraries: racecheck reports whose every frame is a CUB, Thrust, cuBLAS, CUTLASS or
  NCCL kernel; listed, not findings (they are not this library's code to fix).
- warnings: racecheck's "Warning:" reports (possible hazards); listed, not findings.
- errors: everything else (out-of-bounds or misaligned accesses, uninitialized reads, barrier misuse,
  races in this library's kernels, hardware exceptions); findings.
"""
import collections
import re
import sys

MARKER = "========= "
NOT_REPORTS = ("COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY", "LEAK SUMMARY", "Target application")
EXPECTED_API_ERRORS = ("cudaErrorMemoryAllocation",)
NVIDIA_KERNELS = re.compile(r"\bcub::|\bthrust::|cutlass|xmma|[sdhc]gemm|gemv|gemmk|cublas|nccl", re.IGNORECASE)
ACCESS = re.compile(r"access at (?:0x[0-9a-f]+ in )?(.+?)(?:\+0x[0-9a-f]+|$)")


def reports(lines):
    """(header, body lines) for every report in a log."""
    header, body = None, []
    for line in lines:
        if not line.startswith("========="):
            continue
        if line.startswith(MARKER) and not line.startswith(MARKER + " "):
            if header is not None:
                yield header, body
            text = line[len(MARKER):].strip()
            # A bare marker ends a report; the tool's own banner and summaries are not reports.
            header, body = (None, []) if not text or text.startswith(NOT_REPORTS) else (text, [])
        elif header is not None:
            body.append(line[len("========="):])
    if header is not None:
        yield header, body


def in_nvidia_library(header, body):
    """Whether every kernel a race report names is one of NVIDIA's libraries'."""
    names = [name for line in [header] + body for name in ACCESS.findall(line)]
    return bool(names) and all(NVIDIA_KERNELS.search(name) for name in names)


def kind_of(header, body):
    hit = re.match(r"Program hit (\w+)", header)
    if hit:
        error = hit.group(1)
        if error == "cudaErrorNotReady":
            return "polling (cudaErrorNotReady)", False
        if error in EXPECTED_API_ERRORS:
            return f"expected API error {error}", False
        return f"API error {error}", True
    if header.startswith("Warning"):
        return "warning: " + header.split(" at ")[0], False
    if header.startswith("Error: Race") and in_nvidia_library(header, body):
        return "hazard in an NVIDIA library", False
    return "error: " + re.sub(r"0x[0-9a-f]+|\d+", "N", header.split(" at ")[0]), True


def main():
    with open(sys.argv[1], errors="replace") as log:
        found = [(kind_of(header, body), header) for header, body in reports(log)]
    counts = collections.Counter(kind for kind, _ in found)
    first = {}
    for kind, header in found:
        first.setdefault(kind, header)
    for (kind, finding), count in sorted(counts.items(), key=lambda item: (not item[0][1], item[0][0])):
        example = "" if kind.startswith("polling") else f" (first: {first[(kind, finding)][:160]})"
        print(f"{'FINDING' if finding else 'listed'}: {count} x {kind}{example}")
    findings = sum(count for (_, finding), count in counts.items() if finding)
    print(f"findings: {findings}; reports in all: {sum(counts.values())}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
