#!/bin/sh
# SPDX-License-Identifier: ISC
# The port reference docs/PORTS.md is the file ttl_gen --markdown prints from
# contract/ports.h, whole.  Fix with: meson compile -C build update-ports-doc
# usage: check_ports_doc.sh TTL_GEN docs/PORTS.md
set -eu
gen=${1:?usage}; doc=${2:?usage}
[ -f "$doc" ] || { echo "$doc: no such file; make it with: meson compile -C build update-ports-doc"; exit 1; }
tmp=${TMPDIR:-/tmp}/pendula-ports-doc.$$
trap 'rm -f "$tmp"' EXIT
"$gen" --markdown > "$tmp"
if diff -u "$doc" "$tmp"; then
	echo "$doc matches ports.h ($(wc -l < "$tmp") lines)"
else
	echo "$doc differs from ports.h: meson compile -C build update-ports-doc"
	exit 1
fi
