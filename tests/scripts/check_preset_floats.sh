#!/bin/sh
# SPDX-License-Identifier: ISC
#
# Every pset:value in the preset files is a float literal: a decimal point or
# an exponent (xsd:decimal or xsd:double once parsed).  lv2file, Debian's
# command-line host, silently drops integer values from a preset.  serdi
# parses each file, so the check sees what a host sees, not the layout.
#
#   check_preset_floats.sh PRESET.ttl...
set -u
[ $# -gt 0 ] || { echo "usage: check_preset_floats.sh PRESET.ttl..." >&2; exit 2; }
command -v serdi > /dev/null 2>&1 || { echo "FAIL: serdi not found" >&2; exit 1; }

pset_value='<http://lv2plug.in/ns/ext/presets#value>'
xsd='http://www.w3.org/2001/XMLSchema#'
failures=0
values=0
for f in "$@"; do
	nt=$(serdi -i turtle -o ntriples "$f") || { echo "FAIL: $f does not parse"; failures=$((failures + 1)); continue; }
	n=$(printf '%s\n' "$nt" | grep -cF " $pset_value ")
	bad=$(printf '%s\n' "$nt" | grep -F " $pset_value " |
		grep -vF -e "^^<${xsd}decimal>" -e "^^<${xsd}double>" -e "^^<${xsd}float>")
	values=$((values + n))
	if [ -n "$bad" ]; then
		echo "FAIL: $(basename "$f"): pset:value not written as a float:"
		printf '%s\n' "$bad" | sed 's/^/    /'
		failures=$((failures + 1))
	else
		echo "ok:   $(basename "$f"): $n values, all floats"
	fi
done
echo "$values values in $# files, $failures files with integer values"
[ $failures -eq 0 ] && [ $values -gt 0 ]
