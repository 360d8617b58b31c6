#!/bin/sh
# SPDX-License-Identifier: ISC
# Times Pendula's plugins (default settings) against the Debian reference
# oscillator swh sinCos (package swh-lv2) with lv2bench, in the same run, and
# prints per-frame figures and ratios.  Prints, never asserts.
# Each round runs the three plugins back to back; the figures are medians
# over the rounds, the ratios medians of each round's ratio (so a change of
# machine load between rounds does not skew them).
# usage: lv2bench_ratio.sh LV2_PATH_DIR PLUGIN...
#   (meson passes every audio plugin; FRAMES, BLOCK, ROUNDS from the
#   environment, defaults 1048576, 512, 7)
# A PLUGIN may be NAME:SYMBOL=VALUE[:SYMBOL=VALUE...]: lv2bench only runs a
# plugin's defaults, so the plugin then runs from a copy of the bundle whose
# pendula.ttl declares those defaults instead (same binary, same URI; e.g.
# chain:n_links=6 for the six-rod chain).
set -eu
build=$(cd "${1:?usage: lv2bench_ratio.sh LV2_PATH_DIR PLUGIN...}" && pwd)
shift
[ $# -gt 0 ] || { echo "lv2bench_ratio.sh: no plugin named"; exit 2; }
frames=${FRAMES:-1048576}
block=${BLOCK:-512}
rounds=${ROUNDS:-7}
export LV2_PATH="$build:/usr/lib/lv2"
base='https://pendula.invalid/plugins/pendula#'
ref='http://plugin.org.uk/swh-plugins/sinCos'

# Seconds lv2bench takes for plugin $1 (empty if it did not run), with
# LV2_PATH $2 if given.
time_of() {
	LV2_PATH=${2:-$LV2_PATH} lv2bench -b "$block" -n "$frames" "$1" 2>/dev/null |
		awk -v u="$1" '$2 == u { print $1 }'
}

# variant_bundle NAME SETTINGS DIR: a copy of the bundle in DIR/pendula.lv2
# whose plugin NAME declares SETTINGS ("sym=value:sym=value") as defaults.
variant_bundle() {
	mkdir -p "$3"
	cp -RL "$build/pendula.lv2" "$3/"
	awk -v uri="<$base$1>" -v settings="$2" '
		BEGIN { n = split(settings, kv, ":")
			for (i = 1; i <= n; i++) { split(kv[i], p, "="); want[p[1]] = p[2]; found[p[1]] = 0 } }
		/^<https?:/ { inside = ($1 == uri) }
		inside && /lv2:symbol "/ { sym = $0; sub(/.*lv2:symbol "/, "", sym); sub(/".*/, "", sym) }
		inside && /lv2:default / && (sym in want) {
			sub(/lv2:default [^ ;]*/, "lv2:default " want[sym]); found[sym] = 1; sym = "" }
		{ print }
		END { for (s in found) if (!found[s]) { print "no control " s > "/dev/stderr"; exit 1 } }
	' "$build/pendula.lv2/pendula.ttl" > "$3/pendula.lv2/pendula.ttl"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The LV2_PATH plugin argument $1 runs from (a variant's own bundle copy).
path_of() {
	case $1 in
	*:*) echo "$tmp/$(echo "$1" | tr ':=' '__'):/usr/lib/lv2" ;;
	*) echo "$LV2_PATH" ;;
	esac
}
for p in "$@"; do
	case $p in
	*:*)
		variant_bundle "${p%%:*}" "${p#*:}" "$tmp/$(echo "$p" | tr ':=' '__')" ||
			{ echo "bench: cannot make the variant $p"; exit 2; } ;;
	esac
done

if [ -z "$(time_of "$ref")" ]; then
	echo "bench: $ref not found (apt-get install swh-lv2); no ratios"
	exit 0
fi

times=$(
	r=0
	while [ $r -lt "$rounds" ]; do
		line=$(time_of "$ref")
		for p in "$@"; do
			line="$line $(time_of "$base${p%%:*}" "$(path_of "$p")")"
		done
		echo "$line"
		r=$((r + 1))
	done
)
echo "bench lv2bench frames=$frames block=$block rounds=$rounds (medians)"
echo "$times" | awk -v n="$frames" -v names="$*" '
	function median(a, k,   i, j, t) {
		for (i = 2; i <= k; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	BEGIN { m = split(names, name, " ") }
	NF == m + 1 && $1 > 0 {
		k++; s[k] = $1
		for (i = 1; i <= m; i++) { t[i, k] = $(i + 1); r[i, k] = $(i + 1) / $1 }
	}
	END {
		if (!k) { print "bench lv2bench FAILED (no complete round)"; exit }
		printf "bench lv2bench_sinCos ns_per_frame=%.2f\n", median(s, k) / n * 1e9
		for (i = 1; i <= m; i++) {
			for (j = 1; j <= k; j++) { tt[j] = t[i, j]; rr[j] = r[i, j] }
			printf "bench lv2bench_%s ns_per_frame=%.2f ratio_vs_sinCos=%.2f\n", name[i],
			       median(tt, k) / n * 1e9, median(rr, k)
		}
	}'
