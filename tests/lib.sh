# lib.sh: helpers for Tide's test suites (sourced by run-all.sh).
#
# Each test case is one call:
#   tcase NAME [-t SECONDS] [-rc EXPECTED_RC] [-out REGEX] [-err REGEX]
#         [-noout REGEX] -- COMMAND...
# The command runs under a timeout (default 60 s; a hang fails). It passes
# when its exit status is the expected one (default 0) and its stdout /
# stderr match the given extended regular expressions.
# tskip NAME REASON records a skipped case.

T_PASS=0
T_FAIL=0
T_SKIP=0
T_FAILED_NAMES=""
T_LOGDIR=${T_LOGDIR:-/tmp/tide-test-logs}
mkdir -p "$T_LOGDIR"
T_FILTER=${TIDE_TEST_FILTER:-}

tpass() { T_PASS=$((T_PASS + 1)); echo "PASS $1"; }
tfail() {
    T_FAIL=$((T_FAIL + 1))
    T_FAILED_NAMES="$T_FAILED_NAMES $1"
    echo "FAIL $1: $2"
    if [ -f "$T_LOGDIR/$1.out" ]; then
        echo "---- stdout (last 15 lines)"; tail -n 15 "$T_LOGDIR/$1.out"
        echo "---- stderr (last 15 lines)"; tail -n 15 "$T_LOGDIR/$1.err"
        echo "----"
    fi
}
tskip() { T_SKIP=$((T_SKIP + 1)); echo "SKIP $1: $2"; }

tcase() {
    name=$1; shift
    tmo=60; rc_expect=0; out_re=""; err_re=""; noout_re=""
    while [ $# -gt 0 ]; do
        case "$1" in
        -t) tmo=$2; shift 2 ;;
        -rc) rc_expect=$2; shift 2 ;;
        -out) out_re=$2; shift 2 ;;
        -err) err_re=$2; shift 2 ;;
        -noout) noout_re=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "tcase $name: bad option $1"; return 1 ;;
        esac
    done
    if [ -n "$T_FILTER" ] && ! echo "$name" | grep -Eq "$T_FILTER"; then
        return 0
    fi
    timeout -k 5 "$tmo" "$@" > "$T_LOGDIR/$name.out" 2> "$T_LOGDIR/$name.err" < /dev/null
    rc=$?
    if [ $rc -eq 124 ] && [ "$rc_expect" != 124 ]; then
        tfail "$name" "timed out after $tmo s"
        return 0
    fi
    if [ "$rc_expect" != any ] && [ $rc -ne "$rc_expect" ]; then
        tfail "$name" "exit status $rc, expected $rc_expect"
        return 0
    fi
    if [ -n "$out_re" ] && ! grep -Eq -- "$out_re" "$T_LOGDIR/$name.out"; then
        tfail "$name" "stdout does not match /$out_re/"
        return 0
    fi
    if [ -n "$err_re" ] && ! grep -Eq -- "$err_re" "$T_LOGDIR/$name.err"; then
        tfail "$name" "stderr does not match /$err_re/"
        return 0
    fi
    if [ -n "$noout_re" ] && grep -Eq -- "$noout_re" "$T_LOGDIR/$name.out" "$T_LOGDIR/$name.err"; then
        tfail "$name" "output matches forbidden /$noout_re/"
        return 0
    fi
    tpass "$name"
}

# tcheck NAME COMMAND...: passes when the shell command succeeds (for
# checks that are not a single program run, e.g. no leftover files).
tcheck() {
    name=$1; shift
    if [ -n "$T_FILTER" ] && ! echo "$name" | grep -Eq "$T_FILTER"; then
        return 0
    fi
    if ( "$@" ) > "$T_LOGDIR/$name.out" 2> "$T_LOGDIR/$name.err"; then
        tpass "$name"
    else
        tfail "$name" "check failed"
    fi
}

# tbuild NAME SOURCE [CC-ARGS...]: compile a test's own helper program (a
# hostile client, a probe) into $B/tests/bin/NAME when it is missing or
# older than its source; prints the path. A build failure is a failed case
# "build.NAME" and returns 1.
tbuild() {
    tb_name=$1; tb_src=$2; shift 2
    mkdir -p "$B/tests/bin"
    tb_out="$B/tests/bin/$tb_name"
    if [ ! -x "$tb_out" ] || [ "$tb_src" -nt "$tb_out" ]; then
        if ! cc -std=gnu11 -O1 -g -Wall -Wextra -Werror -o "$tb_out" "$tb_src" "$@" \
             > "$T_LOGDIR/build.$tb_name.log" 2>&1; then
            tfail "build.$tb_name" "does not compile: $(head -c 600 "$T_LOGDIR/build.$tb_name.log")"
            return 1
        fi
    fi
    echo "$tb_out"
}
