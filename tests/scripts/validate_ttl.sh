#!/bin/sh
# SPDX-License-Identifier: ISC
# Validates the bundle's Turtle: serdi must parse each of our files, and
# sord_validate, given every Turtle file of the lv2-dev package (the LV2
# vocabularies and schemas) plus ours, must report 0 errors.  sord_validate
# exits 0 even when it prints errors, so its summary is read instead.
# Each SCHEMA is one more vocabulary file given to sord_validate (the terms
# of vocabularies Debian does not ship, e.g. MOD's: tests/support/schemas/).
# usage: validate_ttl.sh BUNDLE_DIR [SCHEMA.ttl...]
set -eu
bundle=${1:?usage: validate_ttl.sh BUNDLE_DIR [SCHEMA.ttl...]}
shift
extra="$*"
ours=$(ls "$bundle"/*.ttl)
[ -n "$ours" ] || { echo "no .ttl in $bundle"; exit 1; }

status=0
for f in $ours; do
	if serdi -q "$f" >/dev/null; then
		echo "serdi: parsed $f"
	else
		echo "serdi: FAILED to parse $f"
		status=1
	fi
done

# The LV2 specification bundles (atom, core, units, urid, midi, time,
# port-props, options, ui, presets, resize-port, schemas, ...).
specs=$(dpkg -L lv2-dev 2>/dev/null | grep '^/usr/lib/lv2/.*\.lv2/.*\.ttl$' || true)
if [ -z "$specs" ]; then
	specs=$(ls /usr/lib/lv2/*.lv2/*.ttl 2>/dev/null | grep -v -- '-swh\.lv2/' || true)
fi
n_specs=$(echo "$specs" | wc -l)
[ "$n_specs" -ge 20 ] || { echo "lv2-dev Turtle files not found ($n_specs)"; exit 1; }

out=$(sord_validate $specs $extra $ours 2>&1) || true
echo "$out" | tail -n 40
summary=$(echo "$out" | grep -E '^Found [0-9]+ errors' | tail -n 1)
case "$summary" in
"Found 0 errors among"*) ;;
*)
	echo "sord_validate: errors (summary: '${summary:-none}')"
	status=1
	;;
esac
if echo "$out" | grep -qi 'error:'; then
	echo "sord_validate printed errors"
	status=1
fi
# Our files must have been among those checked.
expected=$((n_specs + $# + $(echo "$ours" | wc -l)))
case "$summary" in
*"among $expected files"*) ;;
*)
	echo "sord_validate did not check all $expected files"
	status=1
	;;
esac
exit $status
