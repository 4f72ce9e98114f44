"""Runs benchmark programs alternately, round after round (this VM's speed drifts: only figures measured
together compare), and takes the median of each measurement."""
import statistics
import subprocess
from collections import defaultdict


def medians(commands, rounds):
    """Each command prints lines "name n seconds" and comment lines "# text". Returns the median seconds
    per (name, n) over every line of every round, and the set of comments."""
    seconds = defaultdict(list)
    comments = set()
    for _ in range(rounds):
        for command in commands:
            for line in subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines():
                if line.startswith("#"):
                    comments.add(line[2:])
                    continue
                name, n, value = line.split()
                seconds[(name, int(n))].append(float(value))
    return {key: statistics.median(values) for key, values in seconds.items()}, comments
