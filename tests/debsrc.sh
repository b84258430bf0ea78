# tests/debsrc.sh (sourced): ensure_deb_src adds a deb-src entry for
# Debian's archive when the machine has none, so that `apt-get source`
# works; the scripts that build software from Debian's sources use it.
# Returns non-zero (with a message) when the entry cannot be added.
ensure_deb_src() {
    if grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ || grep -qs '^deb-src' /etc/apt/sources.list; then
        return 0
    fi
    cat > /etc/apt/sources.list.d/debian-src.sources <<'SRC' || { echo "cannot add a deb-src entry (run as root)" >&2; return 1; }
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update >/dev/null || { echo "apt-get update failed" >&2; return 1; }
}
