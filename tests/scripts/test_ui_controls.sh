#!/bin/sh
# SPDX-License-Identifier: ISC
#
# The UI's memory strip, momentary buttons and drive meter, each model's
# audio plugin: tests/support/ui_harness.c loads the UI module on an Xvfb
# display of its own, clicks the slots, Store, Recall and Reset and checks
# the values written (and when), and the meter against drive_level events.
#
# usage: test_ui_controls.sh UI_HARNESS UI_MODULE MODEL...
# Exit 77 (skipped) only on a machine without Xvfb.  PENDULA_UI_SHOT_DIR, if
# set, receives a screenshot per model (PNG, with ImageMagick's convert).
set -u
harness=${1:?usage: test_ui_controls.sh UI_HARNESS UI_MODULE MODEL...}
module=${2:?usage: test_ui_controls.sh UI_HARNESS UI_MODULE MODEL...}
shift 2
if ! command -v Xvfb >/dev/null 2>&1; then
	echo "SKIP: Xvfb is not installed: no X server can be started"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pendula-uic.XXXXXX") || exit 1
xvfb=""
cleanup() {
	[ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# -displayfd: Xvfb picks a free display and writes its number when ready.
: >"$tmp/display"
Xvfb -displayfd 3 -noreset -screen 0 800x700x24 -nolisten tcp 3>"$tmp/display" >"$tmp/xvfb.err" 2>&1 &
xvfb=$!
for i in $(seq 50); do
	[ -s "$tmp/display" ] && break
	sleep 0.1
done
display=$(tr -dc 0-9 <"$tmp/display")
[ -n "$display" ] || { echo "FAIL: Xvfb is installed but did not start"; cat "$tmp/xvfb.err"; exit 1; }
DISPLAY=:$display
export DISPLAY

status=0
for m in "$@"; do
	echo "--- $m"
	"$harness" "$module" "$m" "$tmp/$m.ppm" || status=1
	if [ -n "${PENDULA_UI_SHOT_DIR:-}" ] && [ -s "$tmp/$m.ppm" ]; then
		mkdir -p "$PENDULA_UI_SHOT_DIR"
		convert "ppm:$tmp/$m.ppm" "$PENDULA_UI_SHOT_DIR/ui-controls-$m.png"
	fi
done
exit $status
