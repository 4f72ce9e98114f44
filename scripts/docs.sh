#!/usr/bin/env bash
# Builds the API reference: Doxygen over include/xp and docs/pages into build/docs/html. A public name
# without documentation, or any other Doxygen warning, fails the build.
#   scripts/docs.sh                 build (Doxygen comes with scripts/setup.sh)
#   scripts/docs.sh --screenshots   then render pages with headless Chromium into build/docs/screenshots
#                                   (Debian's chromium, installed when missing: it is large, so only here)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
out=build/docs
rm -rf "$out/html"
mkdir -p "$out"
if ! XP_DOCS_OUT="$out" doxygen docs/Doxyfile 2>"$out/warnings.log"; then
  cat "$out/warnings.log"
  echo "docs: Doxygen reported the warnings above" >&2
  exit 1
fi
echo "docs: $out/html/index.html"

[ "${1:-}" = "--screenshots" ] || exit 0
scripts/setup.sh chromium
mkdir -p "$out/screenshots"
# The main page, a section page, a class with inherited members, a header with macro-made functions.
for page in index devices array classxp_1_1ndarray classxp_1_1ElementwiseKernel math_8hpp; do
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1800 \
    --screenshot="$out/screenshots/$page.png" "file://$PWD/$out/html/$page.html" 2>/dev/null
  echo "docs: $out/screenshots/$page.png"
done
