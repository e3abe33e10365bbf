#!/usr/bin/env bash
# Sourced by scripts/test.sh and scripts/start.sh --container: the podman settings that work
# on this project's machines (deploy/podman/), unless the caller set its own.
_jb_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$_jb_root/deploy/podman/containers.conf}
export CONTAINERS_STORAGE_CONF=${CONTAINERS_STORAGE_CONF:-$_jb_root/deploy/podman/storage-${JUNOBENCH_PODMAN_STORAGE:-overlay}.conf}
unset _jb_root
