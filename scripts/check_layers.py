#!/usr/bin/env python3
"""The layers' order, checked two ways (lib/CMakeLists.txt says why there are layers).

Includes: no file of lib/<layer> includes a public header (include/, kernels/) or a lib/support header
implemented above its layer. A header's layer is that of the source file named after it (xp/metric.hpp:
lib/*/metric.cpp, the lowest when several; kernels/xp/kernels/cpu/x.hpp: lib/cpu/x.*), or else the
highest among the headers it includes.

Symbols (with --objects BUILD): no layer's object file refers to a symbol defined only above its layer;
this one needs no naming convention, and catches a use through a header that declares it elsewhere.

Layers on one floor (cpu and cuda) see neither of each other. Exit status 1 with one line per breach."""
import argparse
import collections
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Floors, lowest first: kernels holds the public loop drivers and functors the backends are built on;
# utils, dist and fft are libraries of their own over libxparray.
FLOORS = [["core"], ["kernels"], ["cpu", "cuda"], ["api"], ["autograd"], ["routines"], ["symbol"], ["metric"],
          ["parallel"], ["gluon"], ["utils", "dist", "fft"]]
FLOOR = {layer: level for level, layers in enumerate(FLOORS) for layer in layers}
INCLUDE = re.compile(r'^\s*#\s*include\s*"((?:xp|support)/[^"]+)"', re.M)
SOURCES = (".cpp", ".cu", ".inc", ".hpp", ".cuh")


def cmake_layers():
    text = (ROOT / "lib" / "CMakeLists.txt").read_text()
    listed = re.search(r"set\(XP_LAYERS ([a-z ]+)\)", text).group(1).split()
    return listed + re.findall(r"xp_layer\((utils|dist|fft) ", text)


def header_path(name):
    for base in (ROOT / "include", ROOT / "kernels", ROOT / "lib"):
        if (base / name).is_file():
            return base / name
    return None


def includes(path):
    return INCLUDE.findall(path.read_text(errors="replace"))


def implementing_layers(layers):
    """Source stem -> layers whose lib folder compiles a file of that name."""
    stems = collections.defaultdict(set)
    for layer in layers:
        for source in (ROOT / "lib" / layer).rglob("*"):
            if source.suffix in (".cpp", ".cu"):
                stems[source.stem].add(layer)
    return stems


def header_layer(name, stems, memo):
    if name in memo:
        return memo[name]
    memo[name] = None  # include cycles end here
    path = pathlib.PurePosixPath(name)
    driver = re.match(r"xp/kernels/(cpu|cuda)/", name)
    if driver:
        candidates = stems.get(path.stem, set()) & {driver.group(1)}
    elif name.startswith("xp/kernels/"):
        candidates = set()
    else:
        candidates = stems.get(path.stem, set())
    layer = min(candidates, key=FLOOR.get, default=None)
    for included in includes(header_path(name)) if header_path(name) else ():
        other = header_layer(included, stems, memo)
        if other is not None and (layer is None or FLOOR[other] > FLOOR[layer]):
            layer = other
    memo[name] = layer
    return layer


def breaches(user, used):
    return used != user and FLOOR[used] >= FLOOR[user]


def check_includes(layers):
    stems, memo, found = implementing_layers(layers), {}, []
    for layer in layers:
        for source in sorted((ROOT / "lib" / layer).rglob("*")):
            if source.suffix not in SOURCES:
                continue
            for name in includes(source):
                home = header_layer(name, stems, memo) if header_path(name) else None
                if home is not None and breaches(layer, home):
                    found.append(f"{source.relative_to(ROOT)}: includes {name}, implemented in lib/{home}")
    return found


def symbols(objects, kinds):
    out = subprocess.run(["nm", "--defined-only" if kinds != "U" else "--undefined-only", *map(str, objects)],
                         capture_output=True, text=True, check=True).stdout
    by_file, current = collections.defaultdict(set), None
    for line in out.splitlines():
        if line.endswith(".o:"):
            current = line[:-1]
        elif line.strip():
            parts = line.split()
            if parts[-2] in kinds:
                by_file[current].add(parts[-1])
    return by_file


def check_symbols(layers, build):
    objects = {layer: sorted(build.glob(f"lib/CMakeFiles/xp_{layer}.dir/**/*.o")) for layer in layers}
    defined = {layer: set().union(*symbols(files, "TDBR").values()) if files else set()
               for layer, files in objects.items()}
    found = []
    for layer, files in objects.items():
        for path, needed in symbols(files, "U").items() if files else ():
            for other, there in defined.items():
                for symbol in sorted(needed & there):
                    if breaches(layer, other) and not any(symbol in defined[l] for l in layers if not breaches(layer, l)):
                        found.append(f"{pathlib.Path(path).name} (lib/{layer}): uses {symbol}, defined in lib/{other}")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=pathlib.Path, help="a build folder: check the object files too")
    args = parser.parse_args()
    layers = cmake_layers()
    unknown = [layer for layer in layers if layer not in FLOOR]
    if unknown:
        sys.exit(f"check_layers.py: lib/CMakeLists.txt has layers this script does not place: {unknown}")
    found = check_includes(layers)
    if args.objects:
        found += check_symbols(layers, args.objects)
    for line in found:
        print(line)
    print(f"check_layers.py: {len(layers)} layers, {len(found)} breaches", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
