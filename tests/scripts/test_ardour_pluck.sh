#!/bin/sh
# SPDX-License-Identifier: ISC
#
# Plucking Pendula from a MIDI track in Ardour 7, headless
# (tests/scripts/ardour/pluck.lua; docs/GUIDE.md, "Plucking it"): the chain
# plugin with its preset "Plucked chain" on a MIDI track, run twice for
# 3.5 s, once after a note source that plays a note every second, once
# without.  With the notes, every note-on and note-off passes through to
# the next plugin, and the plucked chain moves: its control changes (theta1
# on CC 1 by default) flow, ten times as many as without notes, where the
# chain hangs still and sends only its first values.
#
# usage: test_ardour_pluck.sh LV2_PATH_DIR
# Exit 77 (skipped) only on a machine without ardour7-lua.
set -u
lv2path=${1:?usage: test_ardour_pluck.sh LV2_PATH_DIR}
here=$(cd "$(dirname "$0")" && pwd)
uri="https://pendula.invalid/plugins/pendula#chain"
. "$here/ardour/common.sh"
ardour_setup "$lv2path" pendula_midi_count.lua pendula_note_source.lua

for mode in notes none; do
	echo "== $mode"
	ARDOUR_SHOW='MIDI after' ardour_run "$tmp/$mode.log" "$here/ardour/pluck.lua" "$uri" \
		"$tmp/session-$mode" "$mode" || exit 1
done

set -- $(sed -n 's/^MIDI counts: //p' "$tmp/notes.log")
on=$1 off=$2 cc=$3
set -- $(sed -n 's/^MIDI counts: //p' "$tmp/none.log")
on0=$1 cc0=$3
status=0
check() {
	if [ "$1" = 0 ]; then echo "ok: $2"; else echo "FAIL: $2"; status=1; fi
}
[ "$on" -ge 2 ] && [ "$off" -ge 1 ] && [ "$off" -le "$on" ]
check $? "the notes pass through Pendula ($on note-on, $off note-off)"
[ "$on0" -eq 0 ]
check $? "without the source no notes ($on0)"
[ "$cc" -gt $((10 * cc0)) ] && [ "$cc" -gt 50 ]
check $? "the notes pluck the chain: $cc control changes, $cc0 without notes"
exit $status
