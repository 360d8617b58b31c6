#!/bin/sh
# SPDX-License-Identifier: ISC
#
# Lint: every C file of the project (git ls-files '*.c' '*.h'; every .c/.h
# outside build*/ and out/ when the source is not a git checkout) is
# formatted as .clang-format says, by clang-format 14 (another major version
# formats differently).  Fails listing the files that are not, with the
# number of places in each and the command that formats them.
#
# usage: lint_format.sh SOURCE_ROOT
# Exit 77 (skipped, with a SKIP-REASON line) only if clang-format 14 is not
# installed.
set -u
root=${1:?usage: lint_format.sh SOURCE_ROOT}
cd "$root" || exit 1

# clang-format 14: Debian's clang-format-14, or clang-format if it is 14.
cf=""
for c in clang-format-14 clang-format; do
	if command -v "$c" >/dev/null 2>&1 &&
		"$c" --version | grep -Eq 'version 14\.'; then
		cf=$c
		break
	fi
done
if [ -z "$cf" ]; then
	found=$(clang-format --version 2>/dev/null || echo "none")
	echo "SKIP-REASON: clang-format 14 is not installed (clang-format found: $found)"
	exit 77
fi
if [ ! -f .clang-format ]; then
	echo "FAIL: no .clang-format in $root"
	exit 1
fi

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files=$(git ls-files '*.c' '*.h')
else
	files=$(find . \( -path './build*' -o -path ./out -o -path ./.git \) -prune -o \
		-type f \( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||' | sort)
fi
if [ -z "$files" ]; then
	echo "FAIL: no C files found in $root"
	exit 1
fi

total=0
n_bad=0
bad=""
for f in $files; do
	total=$((total + 1))
	if ! "$cf" --style=file --dry-run --Werror "$f" >/dev/null 2>&1; then
		n=$("$cf" --style=file --dry-run "$f" 2>&1 | grep -c 'clang-format-violations')
		echo "not formatted: $f ($n clang-format violations)"
		bad="$bad $f"
		n_bad=$((n_bad + 1))
	fi
done
if [ -n "$bad" ]; then
	echo "FAIL: $n_bad of $total C files are not formatted as .clang-format says."
	echo "Format them with:"
	echo "  $cf -i --style=file$bad"
	exit 1
fi
echo "$total C files formatted as .clang-format says ($cf: $("$cf" --version))"
exit 0
