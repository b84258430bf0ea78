#!/bin/sh
# deps.sh: install, on Debian 12, the packages Tide needs to build and test
# (only what is missing; needs root or sudo). clang and libclang-rt-14-dev
# build the libFuzzer targets of tests/fuzz. openssh-server/-client,
# iputils-ping and util-linux (unshare) serve the multi-host tests of
# tests/multinode.
set -e
need="build-essential autoconf automake libtool pkg-config libpmix-dev libevent-dev
libssl-dev libcmocka-dev libhwloc-dev procps iproute2 ca-certificates
clang libclang-rt-14-dev
openssh-server openssh-client iputils-ping util-linux"
missing=""
for p in $need; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "installing:$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing > /dev/null
