#!/bin/sh
# SPDX-License-Identifier: ISC
# Replaces the README port table (between <!-- ports:begin --> and
# <!-- ports:end -->) with the output of ttl_gen --markdown.
# usage: update_readme_ports.sh TTL_GEN README.md
set -eu
gen=${1:?usage}; readme=${2:?usage}
grep -q '<!-- ports:begin -->' "$readme" && grep -q '<!-- ports:end -->' "$readme" || {
	echo "update_readme_ports: $readme lacks the ports:begin/ports:end markers"; exit 1; }
table=$(mktemp); out=$(mktemp)
"$gen" --markdown > "$table"
awk -v table="$table" '
	/<!-- ports:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
	/<!-- ports:end -->/ { skip = 0 }
	!skip { print }' "$readme" > "$out"
cat "$out" > "$readme"
rm -f "$table" "$out"
echo "updated the port table in $readme"
