#!/bin/sh
# SPDX-License-Identifier: ISC
#
# The plugin UI in real hosts, headless: an Xvfb X server, a dummy JACK
# server, then the plugin run by
#   jalv.gtk3   which embeds the X11 UI in its window (ui:parent, suil), and
#   jalv -s     which shows it in a window of its own (ui:showInterface).
# For each host: the window "Pendula UI" appears at the UI's size (xwininfo);
# two screenshots (xwd + ImageMagick) half a second apart differ (the
# pendulum moves); in each, the orange marker is within 2 px of where the
# angles the host sent to the UI put it (ui_probe computes that from the
# host's --print-controls log with the test's own geometry of the model,
# tests/support/model_geometry.h).
#
# The pendulum runs at time_scale 0.1 (a tenth of real time), so it moves
# a few pixels per frame at most and the pose on screen is one of the
# last few the host printed.
#
# Then the controls, through the host: dragging body 1 by its handle
# restarts the pendulum at the angle it was dragged to; the torque slider
# drives it; the memory strip stores and recalls the motion, seen in the
# energy (tests/support/ui_click.c sends the mouse events).
#
# usage: test_ui.sh UI_PROBE UI_CLICK LV2_PATH_DIR MODEL
# MODEL: a model of the registry (its audio plugin is opened).
# Exit 77 (skipped) only on a machine without Xvfb, or without jalv and
# jalv.gtk3 both; anything else that goes wrong fails, a server that does
# not start too.  PENDULA_UI_SHOT_DIR, if set, receives the screenshots as
# PNG (the pictures in docs/UI.md).
set -u

usage="usage: test_ui.sh UI_PROBE UI_CLICK LV2_PATH_DIR MODEL"
probe=${1:?$usage}
click=${2:?$usage}
lv2path=${3:?$usage}
plugin=${4:?$usage}
case $plugin in
*[!a-z0-9_]*)
	echo "test_ui.sh: '$plugin' is not a model name"
	exit 2
	;;
esac
uri="https://pendula.invalid/plugins/pendula#$plugin"
time_scale=0.1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pendula-ui.XXXXXX") || exit 1
pids=""     # everything started here, stopped in reverse order on exit

# Stops one process: TERM (twice: jalv 1.6's console loop takes two), then KILL.
stop() {
	kill -TERM "$1" 2>/dev/null || return 0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$1" 2>/dev/null || return 0
		[ "$i" = 4 ] && kill -TERM "$1" 2>/dev/null
		sleep 0.2
	done
	kill -KILL "$1" 2>/dev/null
	sleep 0.1
}

cleanup() {
	for p in $pids; do
		order="$p $order"
	done
	for p in ${order:-}; do
		stop "$p"
	done
	rm -rf "$tmp"
}
order=""
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

fail() {
	echo "FAIL: $*"
	# a host that crashed (early or at any later point) left a core
	[ -n "${name:-}" ] && backtrace "$name" "$host_prog"
	for f in "$tmp"/*.err; do
		[ -s "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
	done
	exit 1
}

# --- an X server and a host (the only reasons to skip) ---
if ! command -v Xvfb >/dev/null 2>&1; then
	echo "SKIP: Xvfb is not installed: no X server can be started"
	exit 77
fi
if ! command -v jalv >/dev/null 2>&1 && ! command -v jalv.gtk3 >/dev/null 2>&1; then
	echo "SKIP: jalv is not installed: no host to open the UI in"
	exit 77
fi
for tool in xwd xwininfo convert jackd jack_lsp jalv jalv.gtk3 stdbuf flock; do
	command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (needed with Xvfb)"
done

# -displayfd: Xvfb picks a free display and writes its number when ready.
# -noreset: by default Xvfb resets itself whenever its last client leaves
# (a host stopped, xwininfo done), and a client that connects during the
# reset is refused: jalv.gtk3 then dies of "Cannot open display" (a
# SIGSEGV in jalv 1.6.8), and our UI in jalv -s gets no display.
: >"$tmp/display"
screen_w=800
screen_h=700
Xvfb -displayfd 3 -noreset -screen 0 ${screen_w}x${screen_h}x24 -nolisten tcp 3>"$tmp/display" >"$tmp/xvfb.err" 2>&1 &
pids="$pids $!"
for i in $(seq 50); do
	[ -s "$tmp/display" ] && break
	sleep 0.1
done
display=$(tr -dc 0-9 <"$tmp/display")
[ -n "$display" ] || fail "Xvfb is installed but did not start"

DISPLAY=:$display
export DISPLAY
echo "X server on $DISPLAY"

# --- a dummy JACK server of our own (parallel tests do not meet) ---
# JACK servers starting at the same moment can trip over each other (shared
# memory registry): the tests of the suite start theirs one at a time.
JACK_DEFAULT_SERVER=pendula-ui-$$-$plugin
JACK_NO_START_SERVER=1
export JACK_DEFAULT_SERVER JACK_NO_START_SERVER
start_jack() {
	jackd -n "$JACK_DEFAULT_SERVER" --no-realtime -d dummy -r 48000 -p 256 \
		>"$tmp/jackd.err" 2>&1 &
	jack_pid=$!
	pids="$pids $jack_pid"
	for i in $(seq 40); do
		sleep 0.25
		kill -0 "$jack_pid" 2>/dev/null || return 1
		jack_lsp >/dev/null 2>&1 && return 0
	done
	return 1
}
exec 9>"${TMPDIR:-/tmp}/pendula-ui-jack.lock"
flock -w 60 9 2>/dev/null || true
if ! start_jack; then
	stop "$jack_pid"
	start_jack || fail "the dummy JACK server did not start (twice)"
fi
flock -u 9 2>/dev/null || true
exec 9>&-

LV2_PATH=$(cd "$lv2path" && pwd) || fail "no directory $lv2path"
export LV2_PATH
read -r ui_w ui_h <<EOF
$("$probe" size)
EOF

# Geometry of the window named "Pendula UI": sets win_x win_y win_w win_h.
window_geometry() {
	info=$(xwininfo -name "Pendula UI" 2>/dev/null) || return 1
	win_x=$(echo "$info" | sed -n 's/.*Absolute upper-left X: *\(-*[0-9]*\).*/\1/p')
	win_y=$(echo "$info" | sed -n 's/.*Absolute upper-left Y: *\(-*[0-9]*\).*/\1/p')
	win_w=$(echo "$info" | sed -n 's/.*Width: *\([0-9]*\).*/\1/p')
	win_h=$(echo "$info" | sed -n 's/.*Height: *\([0-9]*\).*/\1/p')
	echo "$info" | grep -q 'Map State: IsViewable' || return 1
	[ -n "$win_x" ] && [ -n "$win_y" ] && [ -n "$win_w" ] && [ -n "$win_h" ] || return 1
	# wholly on the screen (a host may place its window before it moves it)
	[ "$win_x" -ge 0 ] && [ "$win_y" -ge 0 ] && [ $((win_x + win_w)) -le $screen_w ] &&
		[ $((win_y + win_h)) -le $screen_h ]
}

# The window's pixels as PPM, and in $lines the length of the log right
# after the capture (the pose on screen was printed before that line).
shoot() {
	window_geometry || return 1
	xwd -root -silent >"$tmp/root.xwd" || return 1
	lines=$(wc -l <"$log")
	convert "xwd:$tmp/root.xwd" -crop "${win_w}x${win_h}+${win_x}+${win_y}" +repage "ppm:$1"
}

# groups of control outputs printed so far
groups() {
	n=$(grep -c '^pivot_y_ctl = ' "$1" 2>/dev/null)
	echo "${n:-0}"
}

# interact NAME: the controls, through the host, seen in the plugin's outputs.
# 1. Drag bob 1 (Chaos Man: body 1 by its centre of mass; the bead: the
#    bead) to the right of the pivot and let go: theta1_init becomes 90
#    degrees and the pendulum restarts there (reset pulse), so the outputs
#    show theta1 = 0.5 (angle / pi) together with the unchanged theta2_init
#    (3-D models: the direction or position that angle gives).
# 2. Click the right end of the torque slider: sigma1 = 100 N m, the energy
#    climbs (without torque and damping it stays constant); the bead has no
#    torque: time scale and drag at their maximum, the energy falls.
interact() {
	# (at a tenth of real time the Chaos Man's arms can stay near body 1
	# for several seconds: wait up to about 15 s)
	for i in $(seq 150); do
		bob=$("$probe" point --plugin "$plugin" --log "$log" --size "$win_w" "$win_h" --what bob1)
		[ $? = 0 ] && break
		bob=""
		sleep 0.1 # another handle is near bob 1: wait until they part (up to
		# 15 s: at time_scale 0.1 in the small window they can overlap long)
	done
	[ -n "$bob" ] || fail "$1: bob 1 never clear of the other handles"
	pivot=$("$probe" point --plugin "$plugin" --log "$log" --size "$win_w" "$win_h" --what pivot)
	set -- "$1" $bob $pivot
	from=$(wc -l <"$log")
	"$click" "Pendula UI" drag "$2" "$3" $(($4 + 120)) "$5" || fail "$1: could not send the drag"
	for i in $(seq 30); do
		awk -v from="$from" -v s1="$restart_sym1" -v v1="$restart_val1" \
			-v s2="$restart_sym2" -v v2="$restart_val2" '
			NR > from && $1 == s1 { a = $3; next }
			NR > from && $1 == s2 && a != "" &&
			    (a - v1)^2 < 1e-4 && ($3 - v2)^2 < 1e-4 { found = 1 }
			END { exit !found }' "$log" && break
		sleep 0.1
	done
	[ "$i" -lt 30 ] || fail "$1: dragging bob 1 from ($2, $3) to ($(($4 + 120)), $5) did not restart the pendulum at theta1 = 90 degrees ($restart_sym1 = $restart_val1, $restart_sym2 = $restart_val2)"
	echo "$1: dragged bob 1 to 90 degrees: the plugin restarted there"

	from=$(wc -l <"$log")
	e0=$(awk '$1 == "energy_ctl" { e = $3 } END { print e }' "$log")
	for s in $sliders; do
		slider=$("$probe" slider "$plugin" "$win_w" "$win_h" "$s" 1) ||
			fail "$1: the UI has no slider for $s"
		"$click" "Pendula UI" click $slider ||
			fail "$1: could not send the click"
	done
	for i in $(seq 30); do
		awk -v from="$from" -v e0="$e0" -v dir="$energy_dir" '
			NR > from && $1 == "energy_ctl" && dir * ($3 - e0) > 0.1 { found = 1 }
			END { exit !found }' "$log" && break
		sleep 0.1
	done
	[ "$i" -lt 30 ] || fail "$1: the sliders $sliders at their maximum did not move the energy (it stayed near $e0)"
	echo "$1: sliders $sliders at their maximum: the energy moves away from $e0"
	[ "$energy_dir" = 1 ] && memories "$1"
}

# energy_after LINE: the first energy_ctl the host printed after log line LINE.
energy_after() {
	for i in $(seq 30); do
		e=$(awk -v from="$1" 'NR > from && $1 == "energy_ctl" { print $3; exit }' "$log")
		[ -n "$e" ] && { echo "$e"; return 0; }
		sleep 0.1
	done
	return 1
}

# press NAME: a click on the UI's button NAME (ui_probe button).
press() {
	"$click" "Pendula UI" click $("$probe" button "$plugin" "$win_w" "$win_h" "$1") ||
		fail "$name: could not click $1"
}

# memories NAME: the memory strip, through the host.  The torque pumps
# energy in without end, so the energy tells the moments apart: slot 2,
# Store; when the energy has climbed, slot 3 (empty) and Recall change
# nothing (the energy goes on climbing); slot 2 and Recall bring the
# energy back down to about where it was stored.
memories() {
	press slot2
	from=$(wc -l <"$log")
	press store
	e_store=$(energy_after "$from") || fail "$1: no energy after the store"
	for i in $(seq 50); do
		e=$(awk '$1 == "energy_ctl" { e = $3 } END { print e }' "$log")
		awk -v a="$e" -v b="$e_store" 'BEGIN { exit !(a > b + 2 && a > 2 * b) }' && break
		sleep 0.1
	done
	press slot3
	from=$(wc -l <"$log")
	press recall
	sleep 0.5
	e_empty=$(awk -v from="$from" 'NR > from && $1 == "energy_ctl" { if (m == "" || $3 < m) m = $3 } END { print m }' "$log")
	awk -v a="$e_empty" -v b="$e" 'BEGIN { exit !(a != "" && a >= b - 1e-3) }' ||
		fail "$1: a recall of the empty slot 3 changed the motion (energy $e, then down to $e_empty)"
	press slot2
	e_pre=$(awk '$1 == "energy_ctl" { e = $3 } END { print e }' "$log")
	from=$(wc -l <"$log")
	press recall
	for i in $(seq 30); do
		awk -v from="$from" -v s="$e_store" -v p="$e_pre" '
			NR > from && $1 == "energy_ctl" && $3 < (s + p) / 2 { found = 1 }
			END { exit !found }' "$log" && break
		sleep 0.1
	done
	[ "$i" -lt 30 ] || fail "$1: Recall of slot 2 did not bring the energy back from $e_pre toward $e_store (stored)"
	echo "$1: slot 2 stored at energy $e_store; recalled at $e_pre, the energy came back below the midpoint; slot 3 (empty) changed nothing"
}

# backtrace NAME PROGRAM: the stack of the crash, if the host left a core
# (kernel.core_pattern "core", the default) and gdb is installed.
backtrace() {
	for core in "$tmp/$1.d"/core*; do
		[ -f "$core" ] || continue
		command -v gdb >/dev/null 2>&1 || {
			echo "$1 left a core; no gdb to read it"
			return 0
		}
		echo "--- $1: the stack of the crash ($core)"
		gdb -q -batch -ex 'thread apply all bt 25' "$(command -v "$2")" "$core" 2>&1 |
			grep -v '^\[New LWP\|^warning:' | head -n 150
	done
}

# run_host NAME COMMAND...: start a host, check its UI, stop it.
run_host() {
	name=$1
	shift
	host_prog=$1
	log=$tmp/$name.log
	echo "--- $name: $*"
	# (in a directory of its own, with core dumps on: a host that crashes
	# leaves a core there, and fail() prints its stack)
	mkdir -p "$tmp/$name.d"
	(
		cd "$tmp/$name.d" || exit 1
		ulimit -c unlimited 2>/dev/null
		exec stdbuf -oL "$@" >"$log" 2>"$tmp/$name.err" </dev/null
	) &
	host=$!
	pids="$pids $host"

	found=""
	for i in $(seq 150); do
		if ! kill -0 "$host" 2>/dev/null; then
			wait "$host"
			fail "$name exited early (status $?)"
		fi
		if window_geometry; then
			found=yes
			break
		fi
		sleep 0.1
	done
	[ -n "$found" ] || fail "$name: no window named 'Pendula UI' appeared (wholly on the screen)"
	echo "$name: window ${win_w}x${win_h}+${win_x}+${win_y}"
	[ "$win_w" = "$ui_w" ] && [ "$win_h" = "$ui_h" ] ||
		fail "$name: window is ${win_w}x${win_h}, expected ${ui_w}x${ui_h}"

	# Let the host send a few updates and the UI draw them.
	for i in $(seq 100); do
		[ "$(groups "$log")" -ge 8 ] && break
		sleep 0.1
	done
	[ "$(groups "$log")" -ge 8 ] || fail "$name: the host sent no control outputs to the UI"
	sleep 0.3

	for shot in 1 2; do
		shoot "$tmp/$name-$shot.ppm" || fail "$name: screenshot failed"
		[ "$win_w" = "$ui_w" ] && [ "$win_h" = "$ui_h" ] ||
			fail "$name: window is now ${win_w}x${win_h}, expected ${ui_w}x${ui_h}"
		"$probe" check --plugin "$plugin" --image "$tmp/$name-$shot.ppm" --log "$log" \
			--lines "$lines" --candidates 8 --tol 2 ||
			fail "$name: screenshot $shot: the bob is not where the angles put it"
		[ "$shot" = 1 ] && sleep 0.5
	done
	"$probe" changed "$tmp/$name-1.ppm" "$tmp/$name-2.ppm" 30 ||
		fail "$name: the picture did not change while the pendulum moved"

	if [ "$name" = jalv-s ]; then
		# Our own top-level window: resize it; the drawing follows.
		"$click" "Pendula UI" resize 420 520 || fail "$name: could not resize"
		sleep 0.4
		shoot "$tmp/$name-3.ppm" || fail "$name: screenshot failed"
		[ "$win_w" = 420 ] && [ "$win_h" = 520 ] ||
			fail "$name: resized to 420x520, the window is ${win_w}x${win_h}"
		"$probe" check --plugin "$plugin" --image "$tmp/$name-3.ppm" --log "$log" \
			--lines "$lines" --candidates 8 --tol 2 ||
			fail "$name: after a resize, the bob is not where the angles put it"
		echo "$name: resized to 420x520: the drawing follows"
	fi
	interact "$name"

	if [ -n "${PENDULA_UI_SHOT_DIR:-}" ]; then
		mkdir -p "$PENDULA_UI_SHOT_DIR"
		convert "ppm:$tmp/$name-2.ppm" "$PENDULA_UI_SHOT_DIR/ui-$plugin-$name.png"
	fi
	stop "$host"
	# (the window must be gone before the next host opens one)
	for i in $(seq 30); do
		xwininfo -name "Pendula UI" >/dev/null 2>&1 || break
		sleep 0.1
	done
	echo "$name: ok"
}

# Initial angles that put the marker away from the pivot and off the axes.
# After the drag, the outputs that show the restart at theta1 = 90 degrees
# (restart_sym1 = restart_val1, then restart_sym2 = restart_val2), and the
# sliders clicked at their maximum, which move the energy up (energy_dir 1)
# or down (-1).
restart_sym1=theta1_ctl
restart_val1=0.5
restart_sym2=theta2_ctl
sliders=sigma1
energy_dir=1
# jalv.gtk3 sends the UI every control value at start, so there the geometry
# differs from the defaults too (the drawing must follow it); jalv 1.6's
# console host sends the UI only the outputs, so it runs the default geometry.
case $plugin in
double)
	angles="theta1_init=100 theta2_init=150"
	restart_val2=0.833333 # 150 / 180
	geometry="l1=0.8 l2=0.6"
	;;
parallel)
	angles="theta1_init=40 theta2_init=110"
	restart_val2=0.611111 # 110 / 180
	geometry="b2=0.45 c2=0.3 beta2=100"
	;;
spherical)
	angles="theta1_init=100 theta2_init=150"
	geometry="l1=0.8 l2=0.6"
	# link 1 at polar angle 90 degrees, azimuth phi1_init = 0: along +x
	restart_sym1=x1_ctl
	restart_val1=1
	restart_sym2=y1_ctl
	restart_val2=0
	;;
bead)
	# on the ellipsoid at 100 degrees from the lowest point, azimuth 45
	angles="theta1_init=100"
	geometry="axis_x=1.5"
	# dragged to 90 degrees: on the equator, y = 0, z / axis_z =
	# sin 90 sin 45 = 0.707107
	restart_sym1=y_ctl
	restart_val1=0
	restart_sym2=z_ctl
	restart_val2=0.707107
	# no torque: fast time and full drag bring it down
	sliders="time_scale lambda1"
	energy_dir=-1
	;;
chain)
	# three links (the default): link 2's end is the marker; link 3 turned
	# away, so its end is clear of link 1's (the handle dragged) at the
	# default lengths too (jalv -s)
	angles="theta1_init=100 theta2_init=150 theta3_init=120"
	restart_val2=0.833333 # 150 / 180
	geometry="l1=0.8 l2=0.8 l3=0.5"
	;;
*)
	# a model without settings of its own here: its defaults, two angles
	angles="theta1_init=100 theta2_init=150"
	restart_val2=0.833333
	geometry=""
	;;
esac
gtk_args="--control time_scale=$time_scale"
console_args="-c time_scale=$time_scale"
for a in $angles; do
	gtk_args="$gtk_args --control $a"
	console_args="$console_args -c $a"
done
for a in $geometry; do
	gtk_args="$gtk_args --control $a"
done
# (word splitting of the *_args is intended: no spaces inside the values)
run_host jalv.gtk3 jalv.gtk3 --print-controls --no-menu $gtk_args "$uri"
run_host jalv-s jalv -s -p $console_args "$uri"
echo "ok: the UI of $plugin in jalv.gtk3 and jalv -s"
exit 0
