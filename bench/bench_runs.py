"""What the table scripts share: running a benchmark program and reading its lines."""
import statistics
import subprocess
from collections import defaultdict


def run(command, threads, suffix="", env=None):
    """{name + suffix: seconds} from a program's lines ("name elements seconds [...]"); the counts of its
    `# threads` line into `threads`."""
    figures = {}
    lines = subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout.splitlines()
    for line in lines:
        if line.startswith("# threads"):
            words = line.split()[2:]
            threads.update(zip(words[::2], map(int, words[1::2])))
            continue
        words = line.split()
        figures[words[0] + suffix] = float(words[2])
    return figures


def alternate(commands, rounds, env=None):
    """The median seconds of each measurement over `rounds` rounds of the commands run one after another,
    and the thread counts they report."""
    samples, threads = defaultdict(list), {}
    for _ in range(rounds):
        for command in commands:
            for name, seconds in run(command, threads, "", env).items():
                samples[name].append(seconds)
    return {name: statistics.median(values) for name, values in samples.items()}, threads
