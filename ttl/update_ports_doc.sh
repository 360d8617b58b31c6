#!/bin/sh
# SPDX-License-Identifier: ISC
# Rewrites the port reference docs/PORTS.md, which ttl_gen --markdown prints
# whole from contract/ports.h (tests/scripts/check_ports_doc.sh checks it).
# usage: update_ports_doc.sh TTL_GEN docs/PORTS.md
set -eu
gen=${1:?usage}; doc=${2:?usage}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$gen" --markdown > "$tmp" # a failing ttl_gen leaves the file as it was
cat "$tmp" > "$doc"
echo "updated $doc"
