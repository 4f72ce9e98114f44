"""Charts of the benchmark tables (scripts/bench.sh --plot): one PNG per chart, sizes on a log axis,
each peer a line, the ceiling measured in the same run dashed."""
import os

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)


def size_label(n):
    """2^k for powers of two, else the number."""
    return f"$2^{{{n.bit_length() - 1}}}$" if n & (n - 1) == 0 else str(n)


def draw(axes, xs, series, ceiling, ylabel, xlabel):
    """series: {label: [y per x]}; ceiling: (label, [y per x]) drawn dashed, or None."""
    for (label, ys), marker in zip(series.items(), "os^vD"):  # distinct markers: lines that coincide stay visible
        axes.plot(xs, ys, marker=marker, markerfacecolor="none", label=label)
    if ceiling:
        axes.plot(xs, ceiling[1], linestyle="--", color="black", label=ceiling[0])
    axes.set_xscale("log", base=2)
    axes.set_xticks(xs, [size_label(x) for x in xs])
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_ylim(bottom=0)
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize="small")


def save(path, title, panels, xlabel, ylabel):
    """panels: [(subtitle, xs, series, ceiling)], side by side in one figure."""
    figure, axes = plt.subplots(1, len(panels), figsize=(6.4 * len(panels), 4.4), squeeze=False)
    for axis, (subtitle, xs, series, ceiling) in zip(axes[0], panels):
        draw(axis, xs, series, ceiling, ylabel, xlabel)
        axis.set_title(subtitle, fontsize="medium")
    figure.suptitle(title)
    figure.tight_layout()
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    print(f"plot: {path}")
