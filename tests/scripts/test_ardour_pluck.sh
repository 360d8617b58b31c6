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
cp "$here/ardour/pendula_midi_count.lua" "$here/ardour/pendula_note_source.lua" \
	"$tmp/config/ardour7/scripts/"

for mode in notes none; do
	log=$tmp/$mode.log
	XDG_CONFIG_HOME=$tmp/config HOME=$tmp LV2_PATH=$lv2path \
		timeout 300 ardour7-lua "$here/ardour/pluck.lua" "$uri" "$tmp/session-$mode" \
		"$mode" > "$log" 2> "$log.err"
	rc=$?
	echo "== $mode (exit $rc)"
	grep -E '^(ok|FAIL|MIDI after|ALL OK|[0-9]+ FAILED)' "$log"
	if [ $rc -ne 0 ] || ! grep -q 'ALL OK$' "$log"; then
		echo "FAIL: $mode; Ardour's log:"
		cat "$log" "$log.err" | grep -v 'has no known data type' | tail -n 30
		exit 1
	fi
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
