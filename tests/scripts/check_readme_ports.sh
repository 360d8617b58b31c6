#!/bin/sh
# SPDX-License-Identifier: ISC
# The README port table is the one ttl_gen --markdown prints from
# contract/ports.h.  Fix with: meson compile -C build update-readme-ports
# usage: check_readme_ports.sh TTL_GEN README.md
set -eu
gen=${1:?usage}; readme=${2:?usage}
tmp=${TMPDIR:-/tmp}/pendula-readme-ports.$$
trap 'rm -f "$tmp".*' EXIT
"$gen" --markdown > "$tmp.want"
sed -n '/<!-- ports:begin -->/,/<!-- ports:end -->/p' "$readme" | sed '1d;$d' > "$tmp.have"
[ -s "$tmp.have" ] || { echo "README.md has no <!-- ports:begin --> ... <!-- ports:end --> table"; exit 1; }
if diff -u "$tmp.have" "$tmp.want"; then
	echo "README port table matches ports.h ($(wc -l < "$tmp.want") lines)"
else
	echo "README port table differs from ports.h: meson compile -C build update-readme-ports"
	exit 1
fi
