#!/bin/sh
# SPDX-License-Identifier: ISC
# The port reference docs/PORTS.md is the file ttl_gen --markdown prints from
# contract/ports.h, whole.  Fix with: meson compile -C build update-ports-doc
# usage: check_readme_ports.sh TTL_GEN docs/PORTS.md
# (Given the README.md of a checkout, as before the port tables left the
# README, it checks docs/PORTS.md beside it.)
set -eu
gen=${1:?usage}; doc=${2:?usage}
case $doc in
README.md | */README.md) doc=$(dirname "$doc")/docs/PORTS.md ;;
esac
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
