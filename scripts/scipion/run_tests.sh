#!/usr/bin/env bash
# Runs the tests of the frost Scipion plugin (scripts/scipion/scipion-em-frost) for real:
# a virtual environment with scipion-pyworkflow and scipion-em from the package registry and the
# plugin (pip install -e), a headless Scipion configuration, data made by frost_simulate, and the
# three protocols run in a Scipion project on the CPU (MPI with 2 ranks where frost supports it).
#
# Usage: scripts/scipion/run_tests.sh <work-dir> <frost-bin-dir>
#        scripts/scipion/run_tests.sh --prepare <work-dir>
#   --prepare      only creates the virtual environment (network-bound; scripts/test.sh runs it
#                  while the programs compile) and exits
#   work-dir       holds the virtual environment (reused when it is complete) and the Scipion
#                  projects of the run (renewed every run); ctest gives <build>/tests/workflows/scipion
#   frost-bin-dir  a folder with the frost programs, or a build tree's apps/ folder
# Environment: PYTHON (default python3); FROST_SCIPION_PACKAGES (default: the versions tested here).
# Exit status: 0 all tests passed; 77 skipped (the registry could not be reached to create the
# environment; the reason is printed as "SKIPPED: ..."); anything else: a failure.
set -euo pipefail

prepare_only=0
if [ "${1:-}" = --prepare ]; then
  prepare_only=1
  shift
fi
work=${1:?usage: run_tests.sh <work-dir> <frost-bin-dir> | --prepare <work-dir>}
bin_dir=${2:-}
[ "$prepare_only" = 1 ] || [ -n "$bin_dir" ] || { echo "usage: run_tests.sh <work-dir> <frost-bin-dir>" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
plugin=$here/scipion-em-frost
python=${PYTHON:-python3}
packages=${FROST_SCIPION_PACKAGES:-"scipion-pyworkflow==3.11.7 scipion-em==3.11.1"}
skip=77

mkdir -p "$work"
work=$(cd "$work" && pwd)
venv=$work/venv

# The programs must exist: a missing build is a failure, not a skip.
[ "$prepare_only" = 1 ] || bin_dir=$(cd "$bin_dir" && pwd)
[ "$prepare_only" = 1 ] || for p in frost_simulate frost_movie_align frost_align_significant frost_reconstruct_fourier; do
  found=""
  for c in "$bin_dir/$p" "$bin_dir/${p#frost_}/$p" "$bin_dir/apps/${p#frost_}/$p"; do
    [ -x "$c" ] && found=$c && break
  done
  if [ -z "$found" ]; then
    echo "run_tests.sh: $p not found under $bin_dir (build it first: cmake --build <build> --target $p)" >&2
    exit 1
  fi
done

# 1. The virtual environment, reused when it was completed for the same packages and plugin metadata.
stamp_want="$packages | $(sha256sum "$plugin/pyproject.toml" | cut -d' ' -f1)"
stamp=$venv/.frost-scipion-stamp
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$stamp_want" ]; then
  rm -rf "$venv"
  if ! "$python" -m venv "$venv" > "$work/venv.log" 2>&1; then
    # A machine without the venv module (the GPU machine has no network to install it) cannot
    # build the environment either: the same outcome as an unreachable registry.
    echo "SKIPPED: '$python -m venv' failed, no virtual environment for the Scipion packages (Debian/Ubuntu: apt-get install python3-venv; scripts/install_deps.sh does; log: $work/venv.log)"
    rm -rf "$venv"
    exit $skip
  fi
  log=$work/pip.log
  echo "run_tests.sh: installing $packages and the plugin into $venv"
  # shellcheck disable=SC2086  # $packages is a list of requirement specifiers
  if ! "$venv/bin/python" -m pip install --disable-pip-version-check --timeout 30 --retries 2 \
       $packages >"$log" 2>&1 ||
     ! "$venv/bin/python" -m pip install --disable-pip-version-check --timeout 30 --retries 2 \
       -e "$plugin" >>"$log" 2>&1; then
    tail -n 15 "$log" >&2
    if grep -Eq "Failed to establish a new connection|Temporary failure in name resolution|Name or service not known|Network is unreachable|Max retries exceeded|Connection refused|ConnectTimeout|timed out|ProxyError|Could not fetch URL" "$log"; then
      echo "SKIPPED: the package registry could not be reached to install $packages (pip log: $log)"
      rm -rf "$venv"
      exit $skip
    fi
    echo "run_tests.sh: pip failed for another reason than the network; see $log" >&2
    exit 1
  fi
  echo "$stamp_want" >"$stamp"
fi
[ "$prepare_only" = 0 ] || exit 0

# 2. A headless Scipion configuration of its own (no user config, no network, no GUI).
scipion_home=$work/scipion_home
rm -rf "$work/user_data"
mkdir -p "$scipion_home/config" "$work/user_data" "$work/tests"
export SCIPION_HOME=$scipion_home
export SCIPION_USER_DATA=$work/user_data
export SCIPION_TESTS=$work/tests
export SCIPION_TESTS_OUTPUT=$work/user_data/Tests
export SCIPION_LOGS=$work/user_data/logs
export SCIPION_TEST_NOSYNC=1
export SCIPION_NOTIFY=False
export SCIPION_DOMAIN=pwem
export SCIPION_CONFIG=$scipion_home/config/scipion.conf
export SCIPION_HOSTS=$scipion_home/config/hosts.conf
# Protocols run in subprocesses started with $SCIPION_PYTHON (default: python3 on PATH).
export SCIPION_PYTHON=$venv/bin/python
export PATH=$venv/bin:$PATH
export FROST_BIN_DIR=$bin_dir
export PYTHONDONTWRITEBYTECODE=1
# Open MPI refuses to start as root, or more ranks than cores, without these (CI runs as root on 2 cores).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
: >"$SCIPION_CONFIG"
# The host configuration Scipion writes for its own tests: PARALLEL_COMMAND = mpirun -np N --map-by node ...
"$venv/bin/python" -c "import sys; from pyworkflow.protocol.hosts import HostConfig; HostConfig.writeBasic(sys.argv[1])" \
  "$SCIPION_HOSTS"

# 3. The tests (unittest, pyworkflow's BaseTest for the protocol runs).
cd "$work"
exec "$venv/bin/python" -m unittest -v frost.tests.test_convert frost.tests.test_protocols_frost
