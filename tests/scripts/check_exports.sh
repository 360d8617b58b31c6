#!/bin/sh
# SPDX-License-Identifier: ISC
# The plugin module exports lv2_descriptor and nothing else.
# usage: check_exports.sh MODULE
set -eu
syms=$(nm -D --defined-only "${1:?usage: check_exports.sh MODULE}" | awk '{print $3}' | sort)
echo "exported: $syms"
[ "$syms" = "lv2_descriptor" ] || { echo "expected only lv2_descriptor"; exit 1; }
