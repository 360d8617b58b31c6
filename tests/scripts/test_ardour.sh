#!/bin/sh
# SPDX-License-Identifier: ISC
#
# Pendula in Ardour 7, headless: for each model's audio plugin, a session is
# made by ardour7-lua with the Dummy backend (tests/scripts/ardour/session.lua): a
# MIDI track with the plugin, then a MIDI counter; every preset Ardour lists
# is loaded, time_scale is set, the transport rolls 1.5 s, and the control
# changes must reach the counter; the session is saved, then loaded in a
# second process, where the plugin and its setting must come back.  The
# double pendulum ends on its preset "Flip sequencer", whose notes (one per
# arm passing over the top) must reach the counter, with their note-offs.
# Then each model alone on a MIDI track made as Ardour makes one by default,
# at its defaults (tests/scripts/ardour/master.lua): nothing above -60 dBFS
# may reach the master bus, and its control changes still reach the next
# plugin (where a synth goes).
#
# usage: test_ardour.sh LV2_PATH_DIR MODEL...
# Exit 77 (skipped) only on a machine without ardour7-lua.
set -u
usage="usage: test_ardour.sh LV2_PATH_DIR MODEL..."
lv2path=${1:?$usage}
shift
here=$(cd "$(dirname "$0")" && pwd)
base="https://pendula.invalid/plugins/pendula#"

if ! command -v ardour7-lua > /dev/null 2>&1; then
	echo "SKIP-REASON: ardour7-lua (Debian package ardour) is not installed"
	exit 77
fi
case $lv2path in
/*) ;;
*) lv2path=$(pwd)/$lv2path ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Ardour finds Lua DSP scripts in its configuration folder: a private one.
mkdir -p "$tmp/config/ardour7/scripts"
cp "$here/ardour/pendula_midi_count.lua" "$here/ardour/pendula_peak_meter.lua" \
	"$tmp/config/ardour7/scripts/"

status=0
models=$* # (model names have no spaces; "$@" carries each run's arguments below)
for model in $models; do
	for phase in create reload master; do
		log=$tmp/$model-$phase.log
		extra=""
		[ "$model:$phase" = double:create ] && extra="preset=Flip sequencer"
		if [ $phase = master ]; then
			set -- "$here/ardour/master.lua" "$base$model" "$tmp/master-$model"
		else
			set -- "$here/ardour/session.lua" "$phase" "$base$model" "$tmp/session-$model" \
				${extra:+"$extra"}
		fi
		XDG_CONFIG_HOME=$tmp/config HOME=$tmp LV2_PATH=$lv2path \
			timeout 300 ardour7-lua "$@" > "$log" 2> "$log.err"
		rc=$?
		echo "== $model, $phase (exit $rc)"
		grep -E '^(ok|FAIL|name|presets|MIDI after|master peak|Pendula.s outputs|strict|ALL OK|[0-9]+ FAILED)' "$log"
		# (the script's last line; Ardour's own messages, e.g. libxml2's
		# complaints about its bundled .midnam files, go to stderr and
		# could otherwise land in the middle of it)
		if [ $rc -ne 0 ] || ! grep -q 'ALL OK$' "$log"; then
			echo "FAIL: $model $phase; Ardour's log:"
			cat "$log" "$log.err" | grep -v 'has no known data type' | tail -n 30
			status=1
			break
		fi
	done
done
exit $status
