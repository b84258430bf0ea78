#!/bin/sh
# check-manpages.sh BUILDDIR SRCDIR: every option that `mpiexec --help`,
# `tide-nameserver --help` and `mpicc --help` print is in its manual page,
# and the pages render without warnings (when groff is installed).
B=$1
S=$2
fail=0
# options of a help text: words starting with - (without their arguments)
# (the lines showing the wrapper's own flags are not options)
opts() {
    grep -vE '^ *(compile|link): ' | grep -oE '(^|[ ,(])--?[A-Za-z][A-Za-z0-9_:-]*' | sed -E -e 's/^[ ,(]//' -e 's/:$//' | sort -u
}
check() {
    page="$S/man/$1"; shift
    text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$page")
    for o in $("$@" --help 2>&1 | opts); do
        echo "$text" | grep -qe "$o" || { echo "$page: no $o (from $* --help)"; fail=1; }
    done
}
check mpiexec.1 "$B/bin/mpiexec"
check tide-nameserver.1 "$B/bin/tide-nameserver"
check mpicc.1 "$B/bin/mpicc"
if command -v groff > /dev/null 2>&1; then
    for p in "$S"/man/*.1; do
        grep -q '^\.so ' "$p" && continue
        w=$(groff -man -Tutf8 -ww -z "$p" 2>&1)
        [ -z "$w" ] || { echo "$p: $w"; fail=1; }
    done
fi
[ $fail -eq 0 ] && echo "check-manpages: ok"
exit $fail
