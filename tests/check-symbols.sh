#!/bin/sh
# check-symbols.sh BUILDDIR SRCDIR: every function mpi.h declares (MPI_x
# and PMPI_x, the predefined callbacks such as MPI_CONVERSION_FN_NULL
# included) is defined and exported by libmpi.so, so a program or a
# language binding that names one links and loads. The declarations are
# read by the compiler itself (gcc -aux-info), not by pattern matching.
# Prints the missing names and exits 1 if there are any.
B=$1
S=$2
lib="$B/lib/.libs/libmpi.so"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <mpi.h>\n' > "$tmp/decl.c"
cc -I"$S/libmpi/include" -aux-info "$tmp/aux" -c "$tmp/decl.c" -o "$tmp/decl.o" || exit 2
# each line: /* mpi.h:LINE:NC */ extern TYPE NAME (PARAMETERS);
grep 'mpi\.h:' "$tmp/aux" | sed -E 's|^/\*[^*]*\*/ *||; s/ \(.*//; s/.*[ *]//' | grep -E '^P?MPIX?_' | sort -u > "$tmp/declared"
[ -s "$tmp/declared" ] || { echo "check-symbols: found no declarations in mpi.h"; exit 2; }
nm -D --defined-only "$lib" | awk '{print $NF}' | sort -u > "$tmp/defined"
missing=$(comm -23 "$tmp/declared" "$tmp/defined")
if [ -n "$missing" ]; then
    echo "declared in mpi.h but not defined in libmpi.so:"
    echo "$missing"
    exit 1
fi
echo "check-symbols: $(wc -l < "$tmp/declared") functions, all defined"
