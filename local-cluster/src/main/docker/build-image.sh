#!/usr/bin/env bash
# Builds the image the container cluster runs, with no container registry: a Debian root filesystem from debootstrap,
# a headless JRE 17 from Debian's packages, and the Spark jars Maven resolved (local-cluster/target/spark-home/jars,
# made by `mvn -pl local-cluster package`). The image is tagged <repository>:<spark version>-<content hash> and
# <repository>:<spark version>; when the content-hash tag already exists nothing is built. The root filesystem with
# the JRE is cached as a tar under the cache directory, so a rebuild after a Spark upgrade only re-imports.
#
# Needs root (debootstrap, chroot), debootstrap, tar and a Docker engine. Prints the version tag on stdout.
#
# Environment: TB_SPARK_JARS (jars directory), TB_IMAGE_REPOSITORY (default tensor-broadcast-spark),
# TB_CACHE_DIR (default ~/.cache/tensor-broadcast), DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR (default: the
# machine's own apt sources, else deb.debian.org).
set -euo pipefail

readonly SUITE=bookworm
readonly PACKAGES=openjdk-17-jre-headless,procps
readonly SCRIPT="$(readlink -f -- "${BASH_SOURCE[0]}")"
readonly REPO_ROOT="$(cd "$(dirname -- "$SCRIPT")/../../../.." && pwd)"
readonly JARS_DIR="${TB_SPARK_JARS:-$REPO_ROOT/local-cluster/target/spark-home/jars}"
readonly IMAGE_REPOSITORY="${TB_IMAGE_REPOSITORY:-tensor-broadcast-spark}"
readonly CACHE_DIR="${TB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tensor-broadcast}"

log() {
    echo "build-image: $*" >&2
}

fail() {
    echo "build-image: $*" >&2
    exit 1
}

# The first Debian archive (not -security) this machine's apt uses, so the image comes from the same mirror.
machine_mirror() {
    local uri
    uri="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n 1 | tr -d ' ' || true)"
    echo "${uri%/}"
}

check_prerequisites() {
    [[ "$(id -u)" == 0 ]] || fail "Cannot build image: debootstrap and chroot need root, running as uid $(id -u)"
    command -v debootstrap >/dev/null || fail "Cannot build image: debootstrap is not installed (apt-get install debootstrap)"
    command -v docker >/dev/null || fail "Cannot build image: the docker client is not installed"
    docker info >/dev/null 2>&1 || fail "Cannot build image: no Docker engine answers (docker info failed)"
    compgen -G "$JARS_DIR/spark-core_*.jar" >/dev/null \
        || fail "Cannot build image: no Spark jars in $JARS_DIR (run: mvn -B -pl local-cluster package)"
}

spark_version() {
    local core
    core="$(basename "$(compgen -G "$JARS_DIR/spark-core_*.jar" | head -n 1)" .jar)"
    echo "${core##*-}"
}

# What the root filesystem depends on: its recipe (the function's code, not this file's comments), the suite, the
# packages and the architecture.
rootfs_key() {
    { declare -f build_rootfs; echo "$SUITE $PACKAGES $(dpkg --print-architecture)"; } | sha256sum | cut -c1-16
}

# What the image depends on: the root filesystem, the import recipe, and the name and size of every jar.
image_key() {
    {
        rootfs_key
        declare -f import_image
        (cd "$JARS_DIR" && find . -maxdepth 1 -name '*.jar' -printf '%f %s\n' | LC_ALL=C sort)
    } | sha256sum | cut -c1-16
}

image_exists() {
    docker image inspect "$1" >/dev/null 2>&1
}

# debootstrap, then the suite's security and point updates from inside the new system, then no apt caches.
build_rootfs() {
    local target="$1" tar_file="$2" mirror security_mirror
    local work="$target/rootfs"
    mirror="${DEBIAN_MIRROR:-$(machine_mirror)}"
    mirror="${mirror:-http://deb.debian.org/debian}"
    security_mirror="${DEBIAN_SECURITY_MIRROR:-${mirror}-security}"
    log "debootstrap $SUITE from $mirror with $PACKAGES"
    debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$work" "$mirror" >&2
    cat >"$work/etc/apt/sources.list" <<EOF
deb $mirror $SUITE main
deb $mirror $SUITE-updates main
deb $security_mirror $SUITE-security main
EOF
    mount -t proc proc "$work/proc"
    CHROOT_PROC="$work/proc"
    log "applying $SUITE-updates and $SUITE-security"
    chroot "$work" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get -q update >&2
    chroot "$work" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get -q -y upgrade >&2
    chroot "$work" apt-get clean
    umount "$work/proc"
    CHROOT_PROC=""
    rm -rf "$work"/var/lib/apt/lists/* "$work"/var/log/apt/* "$work"/tmp/*
    mkdir -p "$(dirname -- "$tar_file")"
    tar --numeric-owner -C "$work" -cf "$tar_file.partial" .
    mv "$tar_file.partial" "$tar_file"
    rm -rf "$work"
}

# The cached root filesystem plus /opt/spark/jars, streamed into docker import.
import_image() {
    local target="$1" rootfs_tar="$2" tag="$3" version="$4" key="$5"
    local image_tar="$target/image.tar"
    mkdir -p "$target/spark/opt/spark/jars" "$target/spark/opt/spark/conf"
    cp "$JARS_DIR"/*.jar "$target/spark/opt/spark/jars/"
    cp "$rootfs_tar" "$image_tar"
    tar --numeric-owner --owner=0 --group=0 -C "$target/spark" -rf "$image_tar" ./opt/spark
    log "importing $tag"
    docker import \
        --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
        --change "ENV LANG=C.UTF-8" \
        --change "ENV SPARK_HOME=/opt/spark" \
        --change "ENV SPARK_SCALA_VERSION=2.13" \
        --change "WORKDIR /opt/spark" \
        --change "LABEL dev.tensorbroadcast.spark-version=$version dev.tensorbroadcast.image-key=$key" \
        --message "tensor-broadcast Spark $version on Debian $SUITE" \
        "$image_tar" "$tag" >&2
}

CHROOT_PROC=""
WORK_DIR=""
cleanup() {
    if [[ -n "$CHROOT_PROC" ]]; then umount "$CHROOT_PROC" || true; fi
    if [[ -n "$WORK_DIR" ]]; then rm -rf "$WORK_DIR"; fi
}

main() {
    check_prerequisites
    local version key tag version_tag rootfs_tar
    version="$(spark_version)"
    key="$(image_key)"
    tag="$IMAGE_REPOSITORY:$version-$key"
    version_tag="$IMAGE_REPOSITORY:$version"
    if image_exists "$tag"; then
        log "$tag exists, nothing to build"
    else
        trap cleanup EXIT
        mkdir -p "$CACHE_DIR"
        WORK_DIR="$(mktemp -d "$CACHE_DIR/build.XXXXXX")"
        rootfs_tar="$CACHE_DIR/rootfs-$SUITE-$(rootfs_key).tar"
        if [[ -f "$rootfs_tar" ]]; then
            log "using cached root filesystem $rootfs_tar"
        else
            build_rootfs "$WORK_DIR" "$rootfs_tar"
        fi
        import_image "$WORK_DIR" "$rootfs_tar" "$tag" "$version" "$key"
    fi
    docker tag "$tag" "$version_tag"
    echo "$version_tag"
}

main "$@"
