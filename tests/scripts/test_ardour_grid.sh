#!/bin/sh
# SPDX-License-Identifier: ISC
#
# Notes in a scale on the song's grid in Ardour 7, headless
# (tests/scripts/ardour/grid.lua; docs/GUIDE.md, "Notes in a scale"): the
# double-midi plugin with "C-minor pentatonic flips" on a MIDI track at 120 bpm.
# With note_grid 1/16 every note-on starts a whole number of sixteenths
# (6000 frames at 48 kHz) after the first, to the frame; the session saved
# and reopened in a second process has the note settings back and plays
# the same way.  Every note played is one of C minor pentatonic from 48
# to 72.  With note_grid off the notes fall off the grid (so the check can
# tell the two apart).
#
# usage: test_ardour_grid.sh LV2_PATH_DIR
# Exit 77 (skipped) only on a machine without ardour7-lua.
set -u
lv2path=${1:?usage: test_ardour_grid.sh LV2_PATH_DIR}
here=$(cd "$(dirname "$0")" && pwd)
uri="https://pendula.invalid/plugins/pendula#double-midi"

. "$here/ardour/common.sh"
ardour_setup "$lv2path" pendula_note_times.lua

status=0
fail() {
	echo "FAIL: $*"
	status=1
}
for run in 3:create 3:reload 0:create; do
	grid=${run%%:*} phase=${run#*:}
	log=$tmp/$grid-$phase.log
	echo "== note_grid $grid, $phase"
	if ! ARDOUR_SHOW='note-ons|notes played|note offsets' ardour_run "$log" \
		"$here/ardour/grid.lua" "$phase" "$uri" "$tmp/session-$grid" "$grid"; then
		status=1
		continue
	fi
	notes=$(sed -n 's/^notes played: *//p' "$log")
	offsets=$(sed -n 's/^note offsets: *//p' "$log")
	bad=""
	for n in $notes; do
		case $((n % 12)) in
		0 | 3 | 5 | 7 | 10) [ "$n" -ge 48 ] && [ "$n" -le 72 ] || bad="$bad $n" ;;
		*) bad="$bad $n" ;;
		esac
	done
	[ "$(echo $offsets | wc -w)" -ge 5 ] || fail "note_grid $grid, $phase: fewer than 5 notes"
	[ -z "$bad" ] || fail "note_grid $grid, $phase: notes outside the scale:$bad"
	off=0
	for f in $offsets; do [ "$f" -eq 0 ] || off=$((off + 1)); done
	if [ "$grid" = 3 ]; then
		[ $off -eq 0 ] && echo "ok: every note on a sixteenth" ||
			fail "note_grid 1/16, $phase: $off notes off the grid"
	else
		[ $off -gt 0 ] && echo "ok: without the grid $off notes fall between sixteenths" ||
			fail "note_grid off: every note on a sixteenth (the check cannot tell)"
	fi
done
exit $status
