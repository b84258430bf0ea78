#!/bin/sh
# run-io.sh: MPI-IO bandwidth (MB/s, higher is better) of Tide, Open MPI
# (its default "ompio" component and its ROMIO component) and MPICH (ROMIO)
# side by side, on one shared file in IO_DIR, at 4 and 8 ranks on this
# node (see io.c): a block-distributed 3-D array with subarray views and
# MPI_File_write_all / read_all ("coll"), strided 64-byte blocks through a
# vector view with independent MPI_File_write / read ("vec"), and one
# contiguous slice per rank with MPI_File_write_at / read_at ("contig").
# "write" is the write calls alone (the data may still be in the page
# cache), "write_sync" includes MPI_File_sync, "read" follows an
# fdatasync + posix_fadvise(DONTNEED) of the file (unless IO_CACHED=1),
# "read_cached" reads the same data again from the page cache. Each value
# is the median of RUNS runs, the runs of the implementations interleaved;
# ratios are Tide/other (above 1: Tide is faster). Every group is its own
# launch, under a timeout; a failing or hanging one shows n/a. First, dd's
# figures for the same directory, for reference.
# Environment: RUNS (3), NPROCS ("4 8"), IO_GROUPS (coll,vec,contig),
# IO_DIR (/tmp), SIZE_MIB (512: coll and contig files; io.c alone defaults to 1024), VEC_MIB (128),
# BLOCK (64), IO_CACHED (0), IO_TIMEOUT (300 s per launch),
# IO_VARIANTS (tide ompio ompi-romio mpich, those installed),
# OMPI_ROMIO (romio321: Open MPI's ROMIO component, see ompi_info | grep io),
# TIDE_EXTRA / OMPI_EXTRA / MPICH_EXTRA (extra launcher options),
# IO_BENCH_HINTS (MPI_Info hints, see io.c).
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-3}
NPROCS=${NPROCS:-"4 8"}
IO_GROUPS=${IO_GROUPS:-coll,vec,contig}
IO_DIR=${IO_DIR:-/tmp}
SIZE_MIB=${SIZE_MIB:-512}
VEC_MIB=${VEC_MIB:-128}
BLOCK=${BLOCK:-64}
IO_TIMEOUT=${IO_TIMEOUT:-300}
OMPI_ROMIO=${OMPI_ROMIO:-romio321}
bench_build "$BENCH_DIR/io.c"

VARIANTS=""
for impl in $IMPLS; do
    case $impl in
    tide) VARIANTS="$VARIANTS tide" ;;
    openmpi) VARIANTS="$VARIANTS ompio ompi-romio" ;;
    mpich) VARIANTS="$VARIANTS mpich" ;;
    esac
done
VARIANTS=${IO_VARIANTS:-$VARIANTS}
cached_flag=""
[ "${IO_CACHED:-0}" = 1 ] && cached_flag=-C

# launcher and program of a variant
variant_cmd() {
    case $1 in
    tide) echo "$TIDE_RUN $TIDE_EXTRA" ;;
    ompio) echo "$OPENMPI_RUN --mca io ompio $OMPI_EXTRA" ;;
    ompi-romio) echo "$OPENMPI_RUN --mca io $OMPI_ROMIO $OMPI_EXTRA" ;;
    mpich) echo "$MPICH_RUN $MPICH_EXTRA" ;;
    esac
}
variant_prog() {
    case $1 in
    tide) echo "$OUT/io.tide" ;;
    ompio | ompi-romio) echo "$OUT/io.openmpi" ;;
    mpich) echo "$OUT/io.mpich" ;;
    esac
}

# dd on the same directory: write + fdatasync, read after dropping the
# file from the page cache, read with O_DIRECT, read from the page cache
dd_figure() { # dd arguments; prints MB/s
    dd "$@" 2>&1 | awk '/copied/ { for (i = 1; i <= NF; i++) if ($i == "s,") { printf "%.0f\n", $1 / $(i - 1) / 1e6; exit } }'
}
dd_file="$IO_DIR/io-bench-dd.$$"
dd_count=$(( (SIZE_MIB + 15) / 16 ))
dd_w=$(dd_figure if=/dev/zero of="$dd_file" bs=16M count=$dd_count conv=fdatasync)
dd if="$dd_file" iflag=nocache count=0 2>/dev/null
dd_r=$(dd_figure if="$dd_file" of=/dev/null bs=16M)
dd_rd=$(dd_figure if="$dd_file" of=/dev/null bs=16M iflag=direct)
dd_rc=$(dd_figure if="$dd_file" of=/dev/null bs=16M)
rm -f "$dd_file"

echo "cores: $(nproc 2>/dev/null || echo ?); load: $(cut -d" " -f1-3 /proc/loadavg 2>/dev/null); runs: $RUNS; variants:$VARIANTS"
echo "directory: $IO_DIR ($(df -PT "$IO_DIR" 2>/dev/null | awk 'NR == 2 { print $2 }')); sizes: coll/contig $SIZE_MIB MiB, vec $VEC_MIB MiB in $BLOCK-byte blocks"
echo "dd, $((dd_count * 16)) MiB in 16 MiB blocks (MB/s): write+fdatasync $dd_w; read after drop $dd_r; read O_DIRECT $dd_rd; read cached $dd_rc"

rm -f "$OUT"/io.run.*
for n in $NPROCS; do
    i=0
    while [ $i -lt $RUNS ]; do
        for v in $VARIANTS; do
            for g in $(echo $IO_GROUPS | tr , ' '); do
                f="$OUT/io.run.$n.$v.$i"
                timeout -k 10 $IO_TIMEOUT $(variant_cmd $v) -n $n "$(variant_prog $v)" -d "$IO_DIR" \
                    -s $SIZE_MIB -v $VEC_MIB -b $BLOCK -g $g $cached_flag > "$OUT/io.last" 2> "$OUT/io.last.err"
                rc=$?
                cat "$OUT/io.last" >> "$f"
                if [ $rc -ne 0 ] || ! grep -qx "#done $g" "$OUT/io.last"; then
                    echo "run $i: $v failed in $g at $n ranks (exit $rc): $(head -c 300 "$OUT/io.last.err" | tr '\n' ' ')" >&2
                    rm -f "$IO_DIR"/io-bench-$g.*.dat
                fi
            done
        done
        i=$((i + 1))
    done
done

value() { # variant nprocs metric: median over the runs
    cat "$OUT"/io.run.$2.$1.[0-9]* 2>/dev/null | awk -v k="$3" '$1 == k { print $3 }' > "$OUT/io.vals"
    if [ -s "$OUT/io.vals" ]; then median < "$OUT/io.vals"; else echo n/a; fi
}
ratio_na() { if [ "$1" = n/a ] || [ "$2" = n/a ]; then echo -; else ratio "$1" "$2"; fi; }

for n in $NPROCS; do
    echo "== $n ranks (MB/s, higher is better; ratios tide/other, above 1: Tide faster)"
    printf '%-18s' metric
    for v in $VARIANTS; do printf ' %10s' $v; done
    for v in $VARIANTS; do [ $v = tide ] || printf ' %16s' "tide/$v"; done
    echo
    for g in $(echo $IO_GROUPS | tr , ' '); do
        for phase in write write_sync read read_cached; do
            m=${g}_$phase
            printf '%-18s' $m
            for v in $VARIANTS; do
                x=$(value $v $n $m)
                eval "v_$(echo $v | tr - _)=\$x"
                printf ' %10s' "$x"
            done
            for v in $VARIANTS; do
                [ $v = tide ] && continue
                eval "o=\$v_$(echo $v | tr - _)"
                printf ' %16s' "$(ratio_na "$v_tide" "$o")"
            done
            echo
        done
    done
done
