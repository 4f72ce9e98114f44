"""What the table scripts share: running a benchmark program and reading its lines."""
import subprocess


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
