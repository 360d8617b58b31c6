#!/bin/sh
# SPDX-License-Identifier: ISC
# Times Pendula double, parallel, spherical and bead (default settings) against the Debian
# reference oscillator swh sinCos (package swh-lv2) with lv2bench, in the
# same run, and prints per-frame figures and ratios.  Prints, never asserts.
# Each round runs the three plugins back to back; the figures are medians
# over the rounds, the ratios medians of each round's ratio (so a change of
# machine load between rounds does not skew them).
# usage: lv2bench_ratio.sh LV2_PATH_DIR [FRAMES] [BLOCK] [ROUNDS]
set -eu
build=$(cd "${1:?usage: lv2bench_ratio.sh LV2_PATH_DIR [FRAMES] [BLOCK] [ROUNDS]}" && pwd)
frames=${2:-1048576}
block=${3:-512}
rounds=${4:-7}
export LV2_PATH="$build:/usr/lib/lv2"
base='https://pendula.invalid/plugins/pendula#'
ref='http://plugin.org.uk/swh-plugins/sinCos'

# Seconds lv2bench takes for plugin $1 (empty if it did not run).
time_of() {
	lv2bench -b "$block" -n "$frames" "$1" 2>/dev/null | awk -v u="$1" '$2 == u { print $1 }'
}

if [ -z "$(time_of "$ref")" ]; then
	echo "bench: $ref not found (apt-get install swh-lv2); no ratios"
	exit 0
fi

times=$(
	r=0
	while [ $r -lt "$rounds" ]; do
		echo "$(time_of "$ref") $(time_of "${base}double") $(time_of "${base}parallel")" \
			"$(time_of "${base}spherical") $(time_of "${base}bead")"
		r=$((r + 1))
	done
)
echo "bench lv2bench frames=$frames block=$block rounds=$rounds (medians)"
echo "$times" | awk -v n="$frames" '
	function median(a, k,   i, j, t) {
		for (i = 2; i <= k; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	NF == 5 && $1 > 0 { k++; s[k] = $1; d[k] = $2; p[k] = $3; sp[k] = $4; b[k] = $5
		rd[k] = $2 / $1; rp[k] = $3 / $1; rs[k] = $4 / $1; rb[k] = $5 / $1 }
	END {
		if (!k) { print "bench lv2bench FAILED (no complete round)"; exit }
		printf "bench lv2bench_sinCos ns_per_frame=%.2f\n", median(s, k) / n * 1e9
		printf "bench lv2bench_double ns_per_frame=%.2f ratio_vs_sinCos=%.2f\n", median(d, k) / n * 1e9, median(rd, k)
		printf "bench lv2bench_parallel ns_per_frame=%.2f ratio_vs_sinCos=%.2f\n", median(p, k) / n * 1e9, median(rp, k)
		printf "bench lv2bench_spherical ns_per_frame=%.2f ratio_vs_sinCos=%.2f\n", median(sp, k) / n * 1e9, median(rs, k)
		printf "bench lv2bench_bead ns_per_frame=%.2f ratio_vs_sinCos=%.2f\n", median(b, k) / n * 1e9, median(rb, k)
	}'
