#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Runs every test: builds if needed, then `meson test` (lilv test host,
# TTL validation, lv2ls/lv2info/lv2bench, valgrind, render tool, engine...).
#   bash tools/test.sh [BUILD_DIR]      (default: build)
# Extra arguments after BUILD_DIR go to meson test (e.g. --suite host).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-${BUILD_DIR:-build}}
shift || true
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build"
fi
meson compile -C "$build"
meson test -C "$build" --print-errorlogs "$@"
