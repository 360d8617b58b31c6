# SPDX-License-Identifier: ISC
#
# What the Ardour tests (tests/scripts/test_ardour_*.sh) share; sourced,
# with $here set to tests/scripts.
#
#   ardour_setup LV2_PATH_DIR DSP_SCRIPT...
#     exits 77 (skipped) on a machine without ardour7-lua; sets $lv2path
#     (absolute) and $tmp (removed at exit), and puts the test's Lua DSP
#     scripts (tests/scripts/ardour/NAME) in a private Ardour configuration
#     folder, where Ardour finds them.
#   ardour_run LOG SCRIPT ARG...
#     runs ardour7-lua SCRIPT ARG... headless in that configuration, its
#     output in LOG (stderr in LOG.err); prints the script's own lines
#     ("ok: ...", "FAIL: ...", and those matching $ARDOUR_SHOW); fails,
#     with the end of Ardour's log, unless the script exits 0 and ends
#     with "ALL OK".

ardour_setup() {
	if ! command -v ardour7-lua > /dev/null 2>&1; then
		echo "SKIP-REASON: ardour7-lua (Debian package ardour) is not installed"
		exit 77
	fi
	lv2path=$1
	shift
	case $lv2path in
	/*) ;;
	*) lv2path=$(pwd)/$lv2path ;;
	esac
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/config/ardour7/scripts"
	for script in "$@"; do
		cp "$here/ardour/$script" "$tmp/config/ardour7/scripts/"
	done
}

ardour_run() {
	log=$1
	shift
	XDG_CONFIG_HOME=$tmp/config HOME=$tmp LV2_PATH=$lv2path \
		timeout 300 ardour7-lua "$@" > "$log" 2> "$log.err"
	rc=$?
	grep -E "^(ok|FAIL|ALL OK|[0-9]+ FAILED${ARDOUR_SHOW:+|$ARDOUR_SHOW})" "$log"
	if [ $rc -ne 0 ] || ! grep -q 'ALL OK$' "$log"; then
		echo "FAIL: ardour7-lua $* (exit $rc); Ardour's log:"
		cat "$log" "$log.err" | grep -v 'has no known data type' | tail -n 30
		return 1
	fi
}
