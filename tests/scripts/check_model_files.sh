#!/bin/sh
# SPDX-License-Identifier: ISC
# A model is found in one place: the models engine/meson.build lists
# (pendula_models, passed here in its order) are the registry's
# (engine/pendula_models.h, one X(ID, slug, ...) line each), in the same
# order, each with its file engine/models/model_<slug>.c, and no other
# engine/models/model_*.c exists (a model file that nothing builds).
#
# usage: check_model_files.sh SOURCE_ROOT SLUG...
set -u
root=${1:?usage: check_model_files.sh SOURCE_ROOT SLUG...}
shift
registry="$root/engine/pendula_models.h"
models="$root/engine/models"
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

[ -r "$registry" ] || { echo "FAIL: no registry $registry"; exit 1; }
[ $# -gt 0 ] || fail "meson lists no model (pendula_models is empty)"

# the registry's slugs, in order: the second field of each X(ID, slug, ...)
listed=$(sed -n 's/^[[:space:]]*X([[:space:]]*\([A-Z0-9_]*\)[[:space:]]*,[[:space:]]*\([a-z0-9_]*\)[[:space:]]*,.*/\2/p' "$registry" | tr '\n' ' ')
listed=${listed% }
built="$*"
echo "registry (engine/pendula_models.h): $listed"
echo "meson (engine/meson.build):         $built"
[ -n "$listed" ] || fail "no X(ID, slug, ...) line in $registry"
[ "$listed" = "$built" ] ||
	fail "engine/meson.build's pendula_models and the registry differ (same models, same order)"

for slug in "$@"; do
	[ -f "$models/model_$slug.c" ] || fail "model '$slug' has no file engine/models/model_$slug.c"
done
for file in "$models"/model_*.c; do
	[ -e "$file" ] || continue
	slug=${file##*/model_}
	slug=${slug%.c}
	case " $built " in
	*" $slug "*) ;;
	*) fail "engine/models/model_$slug.c is no model of engine/meson.build's list" ;;
	esac
done
[ $status -eq 0 ] && echo "ok: $# models, one file each, in the registry's order"
exit $status
