#!/bin/sh
# SPDX-License-Identifier: ISC
#
# Pendula in Ardour 7, headless: for each model's audio plugin, a session is
# made by ardour7-lua with the Dummy backend (tests/scripts/ardour/session.lua): a
# MIDI track with the plugin, then a MIDI counter; every preset Ardour lists
# is loaded, time_scale is set, the transport rolls 1.5 s, and the control
# changes must reach the counter; the session is saved, then loaded in a
# second process, where the plugin and its setting must come back, with
# the motion: Ardour must have saved the plugin's state (its chunk in the
# session's plugins/ folder) and the plugin must not have refused it on
# reload; a copy of the session with that chunk damaged must load with the
# refusal in Ardour's log (lv2/state.h).  The
# double pendulum ends on its preset "Flip sequencer", whose notes (one per
# arm passing over the top) must reach the counter, with their note-offs.
# A last double session loads "C-minor pentatonic flips" at its own
# time_scale (2): every note that reaches the counter must be one of C minor
# pentatonic from 48 to 72 (C Eb F G Bb: 0 3 5 7 10 above C), and several
# must (docs/GUIDE.md, "Notes in a scale").
# Each model also runs alone on a MIDI track made as Ardour makes one by default,
# at its defaults (tests/scripts/ardour/master.lua): nothing above -60 dBFS
# may reach the master bus, and its control changes still reach the next
# plugin (where a synth goes).  So does each model's -midi plugin, the one
# docs/HOSTS.md tells Ardour users to take, on a MIDI track and on an audio
# track (phases midi-on-midi, midi-on-audio); Ardour's classification of
# it is printed (it needs the LV2 core spec: a folder with a link to the
# system's core.lv2 is added to LV2_PATH for these phases).
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

# The LV2 core spec, for the plugin classes' labels (Ardour's categories).
mkdir -p "$tmp/spec"
for d in /usr/lib/lv2 /usr/local/lib/lv2 /usr/lib/*/lv2; do
	if [ -d "$d/core.lv2" ]; then
		ln -s "$d/core.lv2" "$tmp/spec/core.lv2"
		break
	fi
done

status=0
models=$* # (model names have no spaces; "$@" carries each run's arguments below)
for model in $models; do
	for phase in create reload master midi-on-midi midi-on-audio; do
		log=$tmp/$model-$phase.log
		extra=""
		path=$lv2path
		[ "$model:$phase" = double:create ] && extra="preset=Flip sequencer"
		if [ $phase = master ]; then
			set -- "$here/ardour/master.lua" "$base$model" "$tmp/master-$model"
		elif [ $phase = midi-on-midi ] || [ $phase = midi-on-audio ]; then
			set -- "$here/ardour/master.lua" "$base$model-midi" "$tmp/$phase-$model" \
				"${phase#midi-on-}"
			path=$lv2path:$tmp/spec
		else
			set -- "$here/ardour/session.lua" "$phase" "$base$model" "$tmp/session-$model" \
				${extra:+"$extra"}
		fi
		XDG_CONFIG_HOME=$tmp/config HOME=$tmp LV2_PATH=$path \
			timeout 300 ardour7-lua "$@" > "$log" 2> "$log.err"
		rc=$?
		echo "== $model, $phase (exit $rc)"
		grep -E '^(ok|FAIL|name|presets|MIDI after|master peak|Pendula.s outputs|strict|track|Ardour.s classification|ALL OK|[0-9]+ FAILED)' "$log"
		# (the script's last line; Ardour's own messages, e.g. libxml2's
		# complaints about its bundled .midnam files, go to stderr and
		# could otherwise land in the middle of it)
		if [ $phase = create ] && ! grep -rqs 'state#motion' "$tmp/session-$model/plugins"; then
			echo "FAIL: $model: the session holds no saved motion"
			status=1
		fi
		if grep -q 'state not restored' "$log" "$log.err"; then
			echo "FAIL: $model $phase: $(grep -h 'state not restored' "$log" "$log.err")"
			status=1
		fi
		if [ $rc -ne 0 ] || ! grep -q 'ALL OK$' "$log"; then
			echo "FAIL: $model $phase; Ardour's log:"
			cat "$log" "$log.err" | grep -v 'has no known data type' | tail -n 30
			status=1
			break
		fi
	done
done
# A damaged saved motion: refused, said in the log, the session still loads.
set -- $models
model=$1
if [ $status -eq 0 ]; then
	cp -r "$tmp/session-$model" "$tmp/damaged"
	state=$(grep -rls 'state#motion' "$tmp/damaged/plugins" | head -n 1)
	# the first character of the chunk's second line of base64 changed
	awk '/state#motion/ { key = NR } NR == key + 1 && key { c = substr($0, 1, 1);
		$0 = (c == "A" ? "B" : "A") substr($0, 2) } { print }' "$state" > "$state.new" &&
		mv "$state.new" "$state"
	XDG_CONFIG_HOME=$tmp/config HOME=$tmp LV2_PATH=$lv2path \
		timeout 300 ardour7-lua "$here/ardour/session.lua" reload "$base$model" \
		"$tmp/damaged" > "$tmp/damaged.log" 2>&1
	echo "== $model, a damaged saved motion"
	if grep -q 'state not restored: the saved state is damaged' "$tmp/damaged.log" &&
		grep -q 'ALL OK$' "$tmp/damaged.log"; then
		echo "ok: refused and logged ($(grep -h 'state not restored' "$tmp/damaged.log"))"
	else
		echo "FAIL: a damaged saved motion was not refused with a log message"
		tail -n 20 "$tmp/damaged.log"
		status=1
	fi
fi
case " $models " in
*" double "*)
	if [ $status -eq 0 ]; then
		log=$tmp/double-scale.log
		XDG_CONFIG_HOME=$tmp/config HOME=$tmp LV2_PATH=$lv2path \
			timeout 300 ardour7-lua "$here/ardour/session.lua" create \
			"${base}double" "$tmp/session-scale" "preset=C-minor pentatonic flips" 0=2 \
			> "$log" 2> "$log.err"
		rc=$?
		echo "== double, C-minor pentatonic flips (exit $rc)"
		grep -E '^(FAIL|MIDI after|notes played|ALL OK|[0-9]+ FAILED)' "$log"
		notes=$(sed -n 's/^notes played: *//p' "$log")
		bad=""
		for n in $notes; do
			case $((n % 12)) in
			0 | 3 | 5 | 7 | 10) [ "$n" -ge 48 ] && [ "$n" -le 72 ] || bad="$bad $n" ;;
			*) bad="$bad $n" ;;
			esac
		done
		if [ $rc -ne 0 ] || ! grep -q 'ALL OK$' "$log" || [ -z "$notes" ] ||
			[ -n "$bad" ] || [ "$(echo $notes | wc -w)" -lt 3 ]; then
			echo "FAIL: the scale's notes in Ardour: played '$notes', outside the scale:$bad"
			status=1
		fi
	fi
	;;
esac
exit $status
