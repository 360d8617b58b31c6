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
mkdir -p "$tmp/config/ardour7/scripts"
cp "$here/ardour/pendula_cc_times.lua" "$here/ardour/pendula_recall_note.lua" \
	"$tmp/config/ardour7/scripts/"

status=0
for mode in store nostore; do
	log=$tmp/$mode.log
	XDG_CONFIG_HOME=$tmp/config HOME=$tmp LV2_PATH=$lv2path \
		timeout 300 ardour7-lua "$here/ardour/memory.lua" "$uri" "$tmp/session-$mode" \
		"$mode" > "$log" 2> "$log.err"
	rc=$?
	echo "== $mode (exit $rc)"
	grep -E '^(ok|FAIL|control changes|replay|no replay|ALL OK|[0-9]+ FAILED)' "$log"
	if [ $rc -ne 0 ] || ! grep -q 'ALL OK$' "$log"; then
		echo "FAIL: $mode; Ardour's log:"
		cat "$log" "$log.err" | grep -v 'has no known data type' | tail -n 30
		exit 1
	fi
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
