"""scripts/sanitizer_report.py on two logs written in compute-sanitizer's format (reports end at a bare
marker, "========= " with its space, as on the H100 run): one with a finding of
each kind and the reports that are there by design, one with polling alone."""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "..", "..", "scripts", "sanitizer_report.py")


def report(log):
    result = subprocess.run([sys.executable, script, os.path.join(here, log)], capture_output=True, text=True)
    return result.returncode, result.stdout


def expect(condition, what):
    if not condition:
        sys.exit(f"sanitizer_report: {what}")


status, text = report("sample.log")
expect(status == 1, f"a log with findings exits 1, not {status}:\n{text}")
expect("FINDING: 1 x error: Invalid __global__ write of size N bytes" in text, f"the write is a finding:\n{text}")
expect("FINDING: 1 x error: Error: Race reported" in text, f"a race in xparray's kernel is a finding:\n{text}")
expect("listed: 1 x hazard in an NVIDIA library" in text, f"CUB's race is listed:\n{text}")
expect("listed: 2 x polling (cudaErrorNotReady)" in text, f"polling is counted apart:\n{text}")
expect("listed: 1 x expected API error cudaErrorMemoryAllocation" in text, f"OOM is expected:\n{text}")
expect("listed: 1 x warning" in text, f"racecheck's warning is listed:\n{text}")
expect("findings: 2; reports in all: 7" in text, f"the totals:\n{text}")
status, text = report("polling_only.log")
expect(status == 0 and "findings: 0; reports in all: 1" in text, f"polling alone passes:\n{text}")
print("sanitizer_report: 2 logs sorted as expected")
