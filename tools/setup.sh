#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Fresh Debian 12 to a working Pendula: installs the packages, builds
# (build/pendula.lv2 is a loadable bundle), renders a demo into out/.
#   bash tools/setup.sh            (as root, or with sudo available)
# Environment: BUILD_DIR (default build), MESON_ARGS (extra meson setup args).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}

sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo=sudo
fi
mapfile -t packages < <(grep -v '^\s*#' tools/debian-packages.txt | grep -v '^\s*$')
echo "== installing ${#packages[@]} Debian packages"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${packages[@]}"

echo "== building in $build/"
if [ ! -f "$build/build.ninja" ]; then
	# shellcheck disable=SC2086
	meson setup "$build" ${MESON_ARGS:-}
fi
meson compile -C "$build"
echo "bundle: $PWD/$build/pendula.lv2 (LV2_PATH=$PWD/$build/lv2 finds it)"

render="$build/tools/pendula-render"
if [ -x "$render" ]; then
	echo "== rendering a demo of every model"
	mkdir -p out
	# the models of the registry (engine/pendula_models.h)
	models=$(sed -n 's/^[[:space:]]*X([A-Z0-9_]*, \([a-z0-9_]*\),.*/\1/p' engine/pendula_models.h)
	for m in $models; do
		LV2_PATH="$PWD/$build/lv2" "$render" "$m" --seconds 20 --wav "out/$m.wav" --png "out/$m.png"
	done
	echo "demo: $PWD/out/<model>.wav (one channel per output) and $PWD/out/<model>.png for: $(echo $models)"
else
	echo "no $render: demo skipped"
	exit 1
fi
