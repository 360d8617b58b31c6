#!/bin/sh
# SPDX-License-Identifier: ISC
#
# Memories in Ardour 7, headless (tests/scripts/ardour/memory.lua;
# docs/GUIDE.md, "Worked example in Ardour: memory lanes"): the double-midi
# plugin with "Memory lanes" on a MIDI track after a source that plays note
# 60 (slot 1's note) 2.5 s into the roll.  With mem_store set from the host
# about 1 s in, the control changes after the note and its glide replay,
# frame for frame, those that followed the stored frame, which must lie
# between 0.5 s and 2 s into the roll; without the store the note recalls an
# empty memory and nothing replays.
#
# usage: test_ardour_memory.sh LV2_PATH_DIR
# Exit 77 (skipped) only on a machine without ardour7-lua.
set -u
lv2path=${1:?usage: test_ardour_memory.sh LV2_PATH_DIR}
here=$(cd "$(dirname "$0")" && pwd)
uri="https://pendula.invalid/plugins/pendula#double-midi"
. "$here/ardour/common.sh"
ardour_setup "$lv2path" pendula_cc_times.lua pendula_recall_note.lua

status=0
for mode in store nostore; do
	echo "== $mode"
	ARDOUR_SHOW='control changes|replay|no replay' ardour_run "$tmp/$mode.log" "$here/ardour/memory.lua" "$uri" \
		"$tmp/session-$mode" "$mode" || exit 1
done
set -- $(sed -n 's/^replay of the frame \([0-9]*\): \([0-9]*\) control changes$/\1 \2/p' "$tmp/store.log")
if [ $# -eq 2 ] && [ "$1" -ge 24000 ] && [ "$1" -le 96000 ] && [ "$2" -ge 10 ]; then
	echo "ok: the note replays the stored frame $1 ($2 control changes, frame for frame)"
else
	echo "FAIL: the note did not replay the stored moment"
	status=1
fi
if grep -q '^no replay' "$tmp/nostore.log"; then
	echo "ok: without a store the note replays nothing"
else
	echo "FAIL: a replay without a store (the check cannot tell)"
	status=1
fi
exit $status
