# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# Sourced by the mpi tests: the binary from $1, a scratch folder to work in (removed on exit), and
# Open MPI set up for a test machine. Open MPI refuses root unless told, and a test container often
# runs as root; --oversubscribe lets more ranks than cores run; containers often forbid the
# cross-process memory copy Open MPI tries first, so plain shared memory.
netdp=$(realpath "${1:?usage: $(basename "$0") NETDP_BINARY}")
command -v mpirun >/dev/null || { echo "FAIL: mpirun is missing (Debian openmpi-bin; \`make deps\` installs it)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
