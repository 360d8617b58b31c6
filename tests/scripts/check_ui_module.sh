#!/bin/sh
# SPDX-License-Identifier: ISC
# The UI module exports lv2ui_descriptor and nothing else, and links Xlib and
# cairo only (no GTK, Qt or other toolkit: any host can load it).
# usage: check_ui_module.sh MODULE
set -eu
module=${1:?usage: check_ui_module.sh MODULE}
# (less the linker's own section markers, which some links add)
syms=$(nm -D --defined-only "$module" | awk '{print $3}' |
	grep -v -x -e __bss_start -e _edata -e _end -e _init -e _fini | sort)
echo "exported: $syms"
[ "$syms" = "lv2ui_descriptor" ] || { echo "expected only lv2ui_descriptor"; exit 1; }
needed=$(readelf -d "$module" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort)
echo "needed: $(echo $needed)"
[ -n "$needed" ] || { echo "no NEEDED entries read"; exit 1; }
status=0
echo "$needed" | grep -q '^libX11\.' || { echo "does not link libX11"; status=1; }
echo "$needed" | grep -q '^libcairo\.' || { echo "does not link libcairo"; status=1; }
for lib in $needed; do
	case $lib in
	libX11.so* | libcairo.so* | libm.so* | libc.so*) ;;
	*)
		echo "links $lib: only libX11, libcairo, libm and libc are expected"
		status=1
		;;
	esac
done
exit $status
