#!/bin/sh
# check-mpicc.sh BUILDDIR SRCDIR: a program built with Tide's mpicc uses Tide's
# libmpi even when the user's flags name a directory holding another
# libmpi first (as Python's build tools add the system's library
# directory), and a program compiled with Tide's mpi.h can neither link
# with another libmpi nor start with one found first on the search path.
# The "other libmpi" is made here: a small library of the same name.
B=$1
S=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-mpicc: $*"; exit 1; }
mkdir -p "$tmp/other"
cat > "$tmp/other.c" <<'C'
int MPI_Init(void *a, void *b) { (void)a; (void)b; return 0; }
int MPI_Finalize(void) { return 0; }
int MPI_Get_library_version(char *v, int *n) { v[0] = 'X'; v[1] = 0; *n = 1; return 0; }
C
cc -shared -fPIC -Wl,-soname,libmpi.so.0 -o "$tmp/other/libmpi.so.0" "$tmp/other.c" || fail "cannot build the other libmpi"
ln -s libmpi.so.0 "$tmp/other/libmpi.so"
cat > "$tmp/prog.c" <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Init(&argc, &argv);
    MPI_Get_library_version(v, &n);
    printf("library: %s\n", v);
    MPI_Finalize();
    return 0;
}
C
# 1. the user's -L and run path come after Tide's
"$B/bin/mpicc" -o "$tmp/prog" "$tmp/prog.c" -L"$tmp/other" -Wl,-rpath,"$tmp/other" ||
    fail "mpicc with the user's -L failed"
out=$("$tmp/prog" 2>&1) || fail "the program failed: $out"
echo "$out" | grep -q "library: Tide" || fail "the program did not run with Tide's libmpi: $out"
# 2. compiled with Tide's header, linked with the other libmpi: refused
if cc -I"$S/libmpi/include" -o "$tmp/bad" "$tmp/prog.c" -L"$tmp/other" -lmpi \
    > "$tmp/link.log" 2>&1; then
    fail "a program compiled with Tide's mpi.h linked with another libmpi"
fi
grep -q tide_mpi_abi_1 "$tmp/link.log" || fail "the link failed, but not for the ABI mark: $(cat "$tmp/link.log")"
# 3. the other libmpi first on the loader's path: Tide's library has a
# name of its own (SONAME libmpi-tide.so.N), so the loader never takes
# another MPI's libmpi.so.N for it
soname=$(readelf -d "$B/lib/.libs/libmpi.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
case "$soname" in libmpi-tide.so.*) ;; *) fail "Tide's SONAME is '$soname'" ;; esac
out=$(LD_LIBRARY_PATH="$tmp/other" "$tmp/prog" 2>&1) || fail "the program failed with another libmpi on the path: $out"
echo "$out" | grep -q "library: Tide" || fail "the program ran with another libmpi: $out"
# 4. even a library that takes Tide's name is refused at start (the ABI mark)
mkdir -p "$tmp/impostor"
cc -shared -fPIC -Wl,-soname,"$soname" -o "$tmp/impostor/$soname" "$tmp/other.c" || fail "cannot build the impostor"
if out=$(LD_LIBRARY_PATH="$tmp/impostor" "$tmp/prog" 2>&1); then
    fail "the program started with another libmpi: $out"
fi
echo "$out" | grep -q tide_mpi_abi_1 || fail "refused, but not for the ABI mark: $out"
echo "check-mpicc: ok"
