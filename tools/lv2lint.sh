#!/bin/sh
# SPDX-License-Identifier: ISC
# Runs lv2lint (by Open Music Kontrollers; not packaged in Debian 12, build
# it from its sources) on every plugin of the built bundle, with the LV2
# specifications of /usr/lib/lv2 beside it (lv2lint needs them to know the
# classes and features).  Warnings count as failures; notes are listed and
# counted (docs/DEVELOPMENT.md, "lv2lint", says which remain and why).
#   sh tools/lv2lint.sh [BUILD_DIR]        (default: build)
# The lv2lint program: $LV2LINT, else lv2lint on the PATH.  Without it the
# script prints SKIP-REASON and exits 77.  Not part of `meson test`.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
lint=${LV2LINT:-$(command -v lv2lint || true)}
if [ -z "$lint" ] || [ ! -x "$lint" ]; then
	echo "SKIP-REASON: lv2lint is not installed (set LV2LINT=/path/to/lv2lint)"
	exit 77
fi
[ -f "$build/lv2/pendula.lv2/manifest.ttl" ] || {
	echo "no bundle in $build/lv2: build first (meson compile -C $build)"
	exit 1
}
# MOD's vocabulary is not installed outside MOD devices: the terms the TTL
# uses (tests/support/schemas/mod-terms.ttl) go in a specification bundle
# of their own, so that lv2lint knows mod:CVPort as a port class.
log=$(mktemp)
spec=$(mktemp -d)
trap 'rm -rf "$log" "$spec"' EXIT
mkdir "$spec/mod-terms.lv2"
cp tests/support/schemas/mod-terms.ttl "$spec/mod-terms.lv2/"
cat >"$spec/mod-terms.lv2/manifest.ttl" <<'TTL'
@prefix lv2:  <http://lv2plug.in/ns/lv2core#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<http://moddevices.com/ns/mod> a lv2:Specification ; rdfs:seeAlso <mod-terms.ttl> .
TTL
LV2_PATH="$(cd "$build/lv2" && pwd):$spec:/usr/lib/lv2"
export LV2_PATH

# The plugins, as lilv lists them (lv2ls, lilv-utils).
plugins=$(lv2ls | grep '^https://pendula.invalid/plugins/pendula#' || true)
[ -n "$plugins" ] || { echo "lv2ls lists no Pendula plugin in $build/lv2"; exit 1; }

status=0
for uri in $plugins; do
	if "$lint" -E warn -S note "$uri" >"$log" 2>&1; then
		echo "lv2lint: $uri: no warning, no failure"
	else
		echo "lv2lint: $uri: FAILED"
		cat "$log"
		status=1
	fi
	# one line per kind of note, with its count
	grep -A1 '\[NOTE\]' "$log" | grep -v '^--' | paste - - |
		sed 's/^ *\[NOTE\] *//; s/  */ /g' | sort | uniq -c | sed 's/^/    note x/'
done
exit $status
