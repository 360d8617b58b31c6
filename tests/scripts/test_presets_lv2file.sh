#!/bin/sh
# SPDX-License-Identifier: ISC
#
# Every preset through a second host: lv2file (Debian's command-line LV2
# host, which keeps only float port values from a preset) renders each
# preset of the audio plugins headless, and the result must be that preset's:
# equal, sample for sample, to pendula-render's render of the same preset
# (both at 48 kHz, 1 s, blocks of 256; the outputs do not depend on the block
# size), and different from the plugin's default render.
#
#   test_presets_lv2file.sh RENDER WAV_DIFF LV2_DIR
#
# RENDER is tools/pendula-render, WAV_DIFF tests/wav_diff, LV2_DIR the folder
# holding pendula.lv2 (absolute).  lv2file connects the audio outputs to the
# output file's channels, in port order (pendula-render's WAV order), and
# leaves the atom ports unconnected, which the plugins allow; without
# --ignore-clipping it would clip the outputs to [-1, 1] (energy goes above
# 1 in some presets), which pendula-render does not.  A value lost
# from a preset shows only where it changes the audio (n_bodies, the
# physics); MIDI routing and tempo sync without a host tempo do not.
set -u

if [ $# -ne 3 ]; then
	echo "usage: test_presets_lv2file.sh RENDER WAV_DIFF LV2_DIR" >&2
	exit 2
fi
render=$1
wav_diff=$2
LV2_PATH=$3
export LV2_PATH

if ! command -v lv2file > /dev/null 2>&1; then
	echo "FAIL: lv2file not found (Debian package lv2file, tools/debian-packages.txt)"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_presets_lv2file.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

base=https://pendula.invalid/plugins/pendula#
rate=48000
frames=48000
failures=0
checked=0

"$wav_diff" --silence "$tmp/silence.wav" $frames $rate || exit 1

for plugin in double parallel; do
	"$render" "$plugin" --seconds 1 --rate $rate --block 256 --quiet \
		--wav "$tmp/$plugin-default.wav" || { echo "FAIL: $plugin: default render"; exit 1; }
	"$render" "$plugin" --list-presets > "$tmp/$plugin.list" || exit 1
	# "LABEL   URI" per line: the URI is the last field
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		uri=${line##* }
		label=$(printf '%s' "${line% *}" | sed 's/[[:space:]]*$//')
		name=${uri##*#}
		checked=$((checked + 1))
		if ! lv2file --ignore-clipping -b 256 -i "$tmp/silence.wav" -o "$tmp/$name-lv2file.wav" \
			-P "$label" "$base$plugin" > "$tmp/$name.log" 2>&1; then
			echo "FAIL: $plugin, $label: lv2file failed:"
			sed 's/^/    /' "$tmp/$name.log"
			failures=$((failures + 1))
			continue
		fi
		"$render" "$plugin" --seconds 1 --rate $rate --block 256 --quiet \
			--preset "$uri" --wav "$tmp/$name-render.wav" || {
			echo "FAIL: $plugin, $label: pendula-render failed"
			failures=$((failures + 1))
			continue
		}
		same=$("$wav_diff" "$tmp/$name-lv2file.wav" "$tmp/$name-render.wav") || {
			echo "FAIL: $plugin, $label: lv2file's and pendula-render's WAVs differ in shape: $same"
			failures=$((failures + 1))
			continue
		}
		other=$("$wav_diff" "$tmp/$name-lv2file.wav" "$tmp/$plugin-default.wav") || other="x x 1"
		d_same=${same##* }
		d_default=${other##* }
		if awk -v a="$d_same" -v b="$d_default" 'BEGIN { exit !(a <= 1e-6 && b > 1e-3) }'; then
			echo "ok:   $plugin, $label: lv2file = pendula-render (max difference $d_same), default differs by $d_default"
		else
			echo "FAIL: $plugin, $label: lv2file vs pendula-render max difference $d_same (want <= 1e-6), vs the default render $d_default (want > 1e-3)"
			failures=$((failures + 1))
		fi
	done < "$tmp/$plugin.list"
done

if [ $checked -lt 10 ]; then
	echo "FAIL: only $checked presets found"
	exit 1
fi
echo "$checked presets rendered by lv2file, $failures failures"
[ $failures -eq 0 ]
