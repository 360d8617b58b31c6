#!/bin/sh
# SPDX-License-Identifier: ISC
#
# The manual page of pendula-render against the tool's own --help:
#
#   check_man_page.sh RENDER MANPAGE
#
# RENDER is the pendula-render executable, MANPAGE docs/pendula-render.1.
# Every option --help lists has an entry (a .TP tag) in the page; every
# option the page has an entry for is one the tool accepts (not "unknown
# option"); every default --help states ("default X") and every short
# plugin name it lists is in the page; and the page has its sections and
# formats without warnings (when groff is installed).  Exit status 0 when
# all hold, 1 otherwise (each failure on a FAIL line), 2 for a bad call.
set -u

if [ $# -ne 2 ]; then
	echo "usage: check_man_page.sh RENDER MANPAGE" >&2
	exit 2
fi
render=$1
page=$2
if [ ! -r "$page" ]; then
	echo "check_man_page.sh: cannot read '$page'" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_man_page.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

failures=0
checks=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
	checks=$((checks + 1))
}
pass() {
	echo "ok:   $*"
	checks=$((checks + 1))
}

if ! "$render" --help >"$tmp/help" 2>"$tmp/help.err"; then
	echo "check_man_page.sh: '$render --help' failed" >&2
	cat "$tmp/help.err" >&2
	exit 2
fi

# The page's text with "\-" as "-"; the entries' tags are the lines after .TP.
sed 's/\\-/-/g' "$page" >"$tmp/page"
awk 'tag { print; tag = 0 } /^\.TP/ { tag = 1 }' "$tmp/page" >"$tmp/tags"

# The options --help lists: the option names at the start of its indented
# option lines ("  -q, --quiet  ...", "  --set SYMBOL=VALUE  ...").
grep -E '^  +-' "$tmp/help" |
	sed -E 's/^ +//; s/  .*//' |
	grep -oE '(^|[ ,])--?[a-z][a-z-]*' |
	sed -E 's/^[ ,]//' | sort -u >"$tmp/help_options"
if [ ! -s "$tmp/help_options" ]; then
	fail "no options found in --help"
fi
# The option names in the page's tags.
grep -oE '(^|[ "])--?[a-z][a-z-]*' "$tmp/tags" | sed -E 's/^[ "]//' | sort -u >"$tmp/page_options"

while read -r opt; do
	if grep -qxF -- "$opt" "$tmp/page_options"; then
		pass "$opt (--help) has an entry in the page"
	else
		fail "$opt is in --help but has no entry (.TP) in $page"
	fi
done <"$tmp/help_options"

# An entry for an option the tool does not know is a stale page.
while read -r opt; do
	"$render" "$opt" >/dev/null 2>"$tmp/err" </dev/null
	if grep -q "unknown option" "$tmp/err"; then
		fail "$opt has an entry in the page, but $render does not know it"
	else
		pass "$opt (page) is an option of the tool"
	fi
done <"$tmp/page_options"

# Each "default X" of --help, as "default X" in the page.
grep -oE 'default [^)]*\)' "$tmp/help" | sed 's/)$//; s/;.*//' | sort -u >"$tmp/defaults"
while read -r def; do
	if grep -qF -- "($def)" "$tmp/page"; then
		pass "'$def' (--help) is in the page"
	else
		fail "'$def' is in --help, not as '($def)' in $page"
	fi
done <"$tmp/defaults"

# The short plugin names --help lists ("PLUGIN is a short name (a, b, ...)").
names=$(sed -n 's/^PLUGIN is a short name (\([^)]*\)).*/\1/p' "$tmp/help" | tr -d ',')
if [ -z "$names" ]; then
	fail "no short plugin names found in --help"
fi
for name in $names; do
	if grep -qE "^\.B[RI]? +$name( |\$|,)" "$tmp/page" || grep -qE "^\.RB \( *$name " "$tmp/page"; then
		pass "plugin name $name is in the page"
	else
		fail "plugin name $name (--help) is not in $page"
	fi
done

# The sections a manual page of a command has.
for section in NAME SYNOPSIS DESCRIPTION OPTIONS '"EXIT STATUS"' ENVIRONMENT EXAMPLES '"SEE ALSO"'; do
	if grep -qxF ".SH $section" "$tmp/page"; then
		pass "section $section"
	else
		fail "no section .SH $section in $page"
	fi
done
if grep -qE '^\.B +LV2_PATH$' "$tmp/page"; then
	pass "LV2_PATH in the page"
else
	fail "LV2_PATH has no entry in $page"
fi

# The page formats without a warning.
if command -v groff >/dev/null 2>&1; then
	if groff -man -ww -z "$page" >"$tmp/groff" 2>&1 && [ ! -s "$tmp/groff" ]; then
		pass "groff -man -ww formats the page without a warning"
	else
		fail "groff -man -ww: $(head -3 "$tmp/groff")"
	fi
else
	echo "skip: groff is not installed (the page's formatting is not checked)"
fi

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
