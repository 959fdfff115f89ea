#!/usr/bin/env bash
# install-deps.sh - installs the Debian packages Drover builds and tests with, when missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ make pkg-config ccache
  libboost-dev libboost-filesystem-dev libboost-system-dev
  flatbuffers-compiler libflatbuffers-dev
  liblmdb-dev libspdlog-dev libfmt-dev libssl-dev
  postgresql libpq-dev            # accounting/postgres and its integration test
  libgtest-dev
  clang libclang-rt-14-dev        # the libFuzzer targets
  procps iproute2 passwd          # pgrep, ip, useradd in the tests
  stress-ng                       # scripts/stress-test.sh: the tests on a busy machine
  libpmix-dev                     # drover-pmix: srun --mpi=pmix (OpenPMIx server library)
  libhwloc-dev                    # droverd: the node's topology for --cpu-bind (task/affinity)
  liblua5.4-dev                   # job_submit/lua: runs the site's job_submit.lua
  mpich libmpich-dev python3      # mpi_pmi2_test: MPICH programs (and a PMI-2 client) under srun --mpi=pmi2
  openmpi-bin libopenmpi-dev      # mpi_pmix_test: Open MPI programs under srun --mpi=pmix
  dpkg-dev systemd lintian        # package_test: cpack's .deb files, systemd-analyze verify, lintian
  curl python3-prometheus-client  # metrics_test: scrapes and reads the text as Prometheus does
  man-db                          # man_completion_test: every generated page renders
  chromium                        # rest_page_test: drover-restd's status page in a real browser
)

# rest_page_test drives chromium with puppeteer-core from the npm registry: Debian's nodejs and
# npm unless a Node.js with its npm is already here.
command -v npm >/dev/null || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
