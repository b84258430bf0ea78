#!/bin/sh
# deps.sh: install, on Debian 12, the packages Tide needs to build and test
# (only what is missing; needs root or sudo). gfortran and python3 build
# the Fortran bindings (python3 runs fortran/gen-bindings.py). clang and libclang-rt-14-dev
# build the libFuzzer targets of tests/fuzz. openssh-server/-client,
# iputils-ping, util-linux (unshare) and tcpdump (the capture of the
# links between hosts) serve the multi-host tests of
# tests/multinode. slurm-wlm and munge run the
# private one-node cluster of tests/slurm (slurm-wlm-basic-plugins carries
# mpi_pmix, Slurm's PMIx server for srun --mpi=pmix); their services are
# not started nor left running by the install (see policy-rc.d below).
# g++, cmake, meson, ninja-build and autoconf-archive (AX_MPI) build the
# small projects of tests/toolchain that find Tide as users' builds do.
set -e
need="build-essential autoconf automake libtool pkg-config libpmix-dev libevent-dev
libssl-dev libcmocka-dev libhwloc-dev procps iproute2 ca-certificates
gfortran python3
clang libclang-rt-14-dev
openssh-server openssh-client iputils-ping util-linux tcpdump
slurm-wlm slurm-wlm-basic-plugins munge
g++ cmake meson ninja-build autoconf-archive"
missing=""
for p in $need; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "installing:$missing"
$SUDO apt-get update -qq
# the postinst of munge, slurmd and slurmctld asks invoke-rc.d to start its
# service: a policy-rc.d that answers 101 (action forbidden) keeps them
# stopped; an existing policy is left as it is
prc=/usr/sbin/policy-rc.d
own_prc=""
if [ ! -e "$prc" ]; then
    printf '#!/bin/sh\n# deps.sh: no service starts during the install\nexit 101\n' | $SUDO tee "$prc" > /dev/null
    $SUDO chmod 755 "$prc"
    own_prc=1
    trap '$SUDO rm -f "$prc"' EXIT
fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing > /dev/null
# under systemd the units of what was just installed may have been enabled
# (the hook above keeps them stopped): the tests start their own daemons,
# with their own configuration. Services installed before are left alone.
if command -v systemctl > /dev/null 2>&1 && [ -d /run/systemd/system ]; then
    for u in munge slurmd slurmctld; do
        case " $missing " in
        *" munge "*|*" slurm-wlm "*) $SUDO systemctl disable --now "$u" > /dev/null 2>&1 || true ;;
        esac
    done
fi
[ -n "$own_prc" ] && $SUDO rm -f "$prc"
trap - EXIT
exit 0
