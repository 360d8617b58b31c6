#!/bin/sh
# SPDX-License-Identifier: ISC
#
# A drum track shakes Pendula through Ardour's sidechain, headless
# (tests/scripts/ardour/drive.lua; docs/GUIDE.md, "Shaking it with sound"):
# the chain plugin with its preset "Plucked chain" (hanging still) and
# drive_gain 20 on a MIDI track, its drive pin fed from a sidechain input,
# run twice for 3.5 s: once with a send from an audio track that plays a
# kick (pendula_kick_source.lua) into the sidechain, once without.  With
# the kick the chain moves and its control changes (theta1 on CC 1) flow,
# five times as many as without, where it hangs still and sends only its
# first values.
#
# usage: test_ardour_drive.sh LV2_PATH_DIR
# Exit 77 (skipped) only on a machine without ardour7-lua.
set -u
lv2path=${1:?usage: test_ardour_drive.sh LV2_PATH_DIR}
here=$(cd "$(dirname "$0")" && pwd)
uri="https://pendula.invalid/plugins/pendula#chain"
. "$here/ardour/common.sh"
ardour_setup "$lv2path" pendula_midi_count.lua pendula_kick_source.lua

for mode in kick none; do
	echo "== $mode"
	ARDOUR_SHOW='MIDI after' ardour_run "$tmp/$mode.log" "$here/ardour/drive.lua" "$uri" \
		"$tmp/session-$mode" "$mode" || exit 1
done

set -- $(sed -n 's/^MIDI counts: //p' "$tmp/kick.log")
cc=$3
set -- $(sed -n 's/^MIDI counts: //p' "$tmp/none.log")
cc0=$3
if [ "$cc" -gt $((5 * cc0)) ] && [ "$cc" -gt 20 ]; then
	echo "ok: the kick shakes the chain: $cc control changes, $cc0 without it"
	exit 0
fi
echo "FAIL: the kick did not shake the chain: $cc control changes, $cc0 without it"
exit 1
