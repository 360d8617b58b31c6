#!/bin/sh
# SPDX-License-Identifier: ISC
# The bundle in the build tree seen by the stock lilv tools: lv2ls lists the
# plugins meson names, lv2info describes each (ports, symbols), lv2bench runs each.
# usage: lv2_tools.sh LV2_PATH_DIR PLUGIN...   (meson passes every plugin)
set -eu
dir=$(cd "${1:?usage: lv2_tools.sh LV2_PATH_DIR PLUGIN...}" && pwd)
shift
[ $# -gt 0 ] || { echo "lv2_tools.sh: no plugin named"; exit 2; }
LV2_PATH="$dir:/usr/lib/lv2" # the LV2 specs too, for class names
export LV2_PATH
base='https://pendula.invalid/plugins/pendula#'
status=0

list=$(lv2ls)
echo "$list"
for v in "$@"; do
	uri="$base$v"
	if ! echo "$list" | grep -qx "$uri"; then
		echo "lv2ls does not list $uri"
		status=1
		continue
	fi
	info=$(lv2info "$uri") || { echo "lv2info failed on $uri"; status=1; continue; }
	# (the -midi plugins: a MIDI plugin with control outputs, no signal port;
	# the -mod plugins: the signals as MOD CV outputs in volts)
	case $v in
	*-midi) class="MIDI Plugin" signal="energy_ctl" ;;
	*-mod) class="Oscillator Plugin" signal="energy_volts" ;;
	*) class="Oscillator Plugin" signal="energy" ;;
	esac
	for want in "Name:" "Class:  *$class" "Binary:" "Symbol:  *theta1" \
		"Symbol:  *$signal\$" "Symbol:  *midi_out" "Symbol:  *time_scale"; do
		if ! echo "$info" | grep -q "$want"; then
			echo "lv2info $uri: no line matching '$want'"
			status=1
		fi
	done
	case $v in
	*-cv | *-mod) port_class=CVPort ;;
	*-midi) port_class="" ;;
	*) port_class=AudioPort ;;
	esac
	if [ -n "$port_class" ] && ! echo "$info" | grep -q "lv2core#$port_class"; then
		echo "lv2info $uri: no $port_class"
		status=1
	fi
	if [ -z "$port_class" ] && echo "$info" | grep -q "lv2core#\(AudioPort\|CVPort\)"; then
		echo "lv2info $uri: a signal port in a -midi plugin"
		status=1
	fi
	echo "lv2info $uri: ok ($(echo "$info" | grep -c 'Symbol:') ports)"
	out=$(lv2bench -n 65536 "$uri" 2>&1) || { echo "lv2bench failed on $uri: $out"; status=1; continue; }
	echo "lv2bench: $out"
	if ! echo "$out" | grep -q "$uri"; then
		echo "lv2bench did not run $uri"
		status=1
	fi
done
exit $status
