#!/bin/sh
# SPDX-License-Identifier: ISC
#
# Pendula in Carla (tests/scripts/carla/carla_check.py; docs/HOSTS.md,
# "Carla"), on a private JACK server with the dummy backend: every -cv
# and -mod plugin (the plugins with CV ports) runs in Carla's rack, and the README's patchbay example moves the
# filter's cutoff across its range with the step the README gives (and not
# without it).  Carla is not in Debian 12: build its host library from its
# public sources (`make backend` in a checkout) and point CARLA_DIR at the
# checkout; without it the test is skipped.
#
# usage: CARLA_DIR=DIR test_carla.sh LV2_PATH_DIR
set -u
lv2path=${1:?usage: CARLA_DIR=DIR test_carla.sh LV2_PATH_DIR}
here=$(cd "$(dirname "$0")" && pwd)
base="https://pendula.invalid/plugins/pendula#"
carla=${CARLA_DIR:-}
if [ -z "$carla" ] || [ ! -f "$carla/bin/libcarla_standalone2.so" ]; then
	echo "SKIP-REASON: CARLA_DIR does not name a Carla checkout built with 'make backend'"
	exit 77
fi
for tool in jackd jack_lsp jack_connect python3; do
	command -v $tool > /dev/null 2>&1 || {
		echo "SKIP-REASON: $tool is not installed"
		exit 77
	}
done
if [ ! -d /usr/lib/lv2/lowpass_iir-swh.lv2 ]; then
	echo "SKIP-REASON: swh-lv2 (the README's filter) is not installed"
	exit 77
fi
case $lv2path in
/*) ;;
*) lv2path=$(pwd)/$lv2path ;;
esac

server=pendula-carla-$$
JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" -d dummy -r 48000 -p 256 > /dev/null 2>&1 &
jack=$!
trap 'kill $jack 2> /dev/null' EXIT
sleep 2
export JACK_DEFAULT_SERVER=$server LV2_PATH="$lv2path:/usr/lib/lv2"
status=0
echo "== rack"
out=$(timeout 120 python3 "$here/carla/carla_check.py" "$carla" rack \
	"${base}double-cv" "${base}parallel-cv" "${base}chain-cv" "${base}spherical-cv" \
	"${base}bead-cv" "${base}double-mod" "${base}parallel-mod" "${base}chain-mod" \
	"${base}spherical-mod" "${base}bead-mod" 2>&1)
rc=$?
echo "$out" | grep -E '^(ok|FAIL)'
{ [ $rc -ne 0 ] || echo "$out" | grep -q '^FAIL'; } && status=1
for step in range default; do
	echo "== patchbay, $step"
	out=$(timeout 120 python3 "$here/carla/carla_check.py" "$carla" patchbay $step 2>&1)
	rc=$?
	echo "$out" | grep -E '^(ok|FAIL|cutoff seen)'
	{ [ $rc -ne 0 ] || echo "$out" | grep -q '^FAIL'; } && status=1
done
exit $status
