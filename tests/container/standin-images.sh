#!/usr/bin/env bash
# Makes, on a machine with no image registry, local stand-ins for the public
# images that Dockerfile and deploy/compose.yaml start from:
#   localhost/kibitz-standin/debian:bookworm-slim   debootstrap --variant=minbase
#       bookworm, slimmed as the official image is (no docs, man pages,
#       locales or apt lists), imported with podman import
#   localhost/kibitz-standin/postgres:16-bookworm   Debian's PostgreSQL 15 on it
#   localhost/kibitz-standin/nginx:1.27-bookworm    Debian's nginx 1.22 on it
#   localhost/kibitz-standin/rust:1.95-slim-bookworm  (with --rust) gcc, this
#       machine's Rust toolchain and its added certificate authorities on it
# The files that use them are not changed: builds get them with podman's
# --build-context NAME=container-image://..., compose through an override file.
# The root file system is cached as a tarball in $KIBITZ_CONTAINER_CACHE
# (default /var/tmp/kibitz-container-cache, which outlives a fresh clone);
# images already in podman's store are kept. KIBITZ_CONTAINER_REFRESH=1 makes
# everything again.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${KIBITZ_CONTAINER_CACHE:-/var/tmp/kibitz-container-cache}
refresh=${KIBITZ_CONTAINER_REFRESH:-}
standin=localhost/kibitz-standin
mirror=http://deb.debian.org/debian
export CONTAINERS_CONF=${CONTAINERS_CONF:-$here/containers.conf}
with_rust=""
[ "${1:-}" = "--rust" ] && with_rust=1

have_image() { [ -z "$refresh" ] && podman image exists "$1"; }
from_debian=(--build-context "debian:bookworm-slim=container-image://$standin/debian:bookworm-slim")

mkdir -p "$cache"
rootfs_tar="$cache/debian-bookworm-minbase-slim.v2.tar"
if ! have_image "$standin/debian:bookworm-slim"; then
  if [ -n "$refresh" ] || [ ! -s "$rootfs_tar" ]; then
    echo "debootstrap --variant=minbase bookworm (about a minute and a half)"
    dir=$(mktemp -d "$cache/rootfs.XXXXXX")
    trap 'rm -rf "$dir"' EXIT
    debootstrap --variant=minbase bookworm "$dir" "$mirror" > "$cache/debootstrap.log" 2>&1 \
      || { tail -n 20 "$cache/debootstrap.log"; exit 1; }
    # What the official slim image leaves out, its apt sources, and its apt
    # settings that keep downloaded packages out of image layers.
    chroot "$dir" apt-get clean
    rm -rf "$dir"/var/lib/apt/lists/* "$dir"/usr/share/doc/* "$dir"/usr/share/man/* \
      "$dir"/usr/share/info/* "$dir"/usr/share/locale/* "$dir"/etc/apt/sources.list
    cat > "$dir/etc/dpkg/dpkg.cfg.d/slim" <<'SLIM'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
SLIM
    cat > "$dir/etc/apt/apt.conf.d/docker-clean" <<'CLEAN'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
CLEAN
    echo 'Acquire::Languages "none";' > "$dir/etc/apt/apt.conf.d/docker-no-languages"
    cat > "$dir/etc/apt/sources.list.d/debian.sources" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
    tar -C "$dir" --numeric-owner -cf "$rootfs_tar.tmp" .
    mv "$rootfs_tar.tmp" "$rootfs_tar"
    rm -rf "$dir"
    trap - EXIT
  else
    echo "root file system from the cache: $rootfs_tar"
  fi
  [ -n "$refresh" ] && { podman rmi "$standin/debian:bookworm-slim" >/dev/null 2>&1 || true; }
  podman import --quiet --change 'CMD ["bash"]' "$rootfs_tar" "$standin/debian:bookworm-slim" >/dev/null
fi

build_standin() { # NAME:TAG CONTAINERFILE [extra build arguments]
  local image=$standin/$1 file=$2
  shift 2
  have_image "$image" && return 0
  [ -n "$refresh" ] && { podman rmi "$image" >/dev/null 2>&1 || true; }
  echo "building $image"
  podman build --quiet --pull=never --network=host "${from_debian[@]}" "$@" \
    -f "$here/$file" -t "$image" "$here" >/dev/null
}

build_standin postgres:16-bookworm postgres.Containerfile
build_standin nginx:1.27-bookworm nginx.Containerfile
if [ -n "$with_rust" ]; then
  # The toolchain's sysroot without its documentation, hard-linked.
  sysroot=$(rustc --print sysroot)
  toolchain=$(mktemp -d "$cache/toolchain.XXXXXX")
  trap 'rm -rf "$toolchain" "$toolchain.ca"' EXIT
  for part in bin lib libexec etc; do
    [ -e "$sysroot/$part" ] || continue
    cp -al "$sysroot/$part" "$toolchain/" 2>/dev/null || cp -a "$sysroot/$part" "$toolchain/"
  done
  mkdir -p "$toolchain.ca"
  cp /usr/local/share/ca-certificates/*.crt "$toolchain.ca/" 2>/dev/null || true
  build_standin rust:1.95-slim-bookworm rust.Containerfile \
    --build-context "toolchain=$toolchain" --build-context "cacerts=$toolchain.ca"
  rm -rf "$toolchain.ca"
  rm -rf "$toolchain"
  trap - EXIT
fi
podman images --filter "reference=$standin/*" --format '{{.Repository}}:{{.Tag}} {{.Size}}'
