#!/usr/bin/env bash
# Runs the example command lines of README.md as written, in README order, in a folder of demo data
# made by scripts/demo_data.sh --small, with the build tree's programs on PATH; fails naming the
# README line of every example that exits non-zero (a file an example names that the demo data
# lacks is such a failure: the programs check their inputs, also under --validate).
#
# The examples are the lines of README.md's indented code blocks that start with frost_, mpirun,
# NP= or sbatch (after joining "\" continuations and dropping trailing "# comments"; a line of
# several commands separated by ";" gives one example each). How each runs:
#   - GPU examples (--device with GPU ids): for real when this build has CUDA and enough GPUs are
#     visible, else with --validate appended (the command line, its input files and output folders
#     are checked, no device is touched);
#   - mpirun -np N: with the Open MPI settings for root and for more ranks than cores (the
#     OMPI_* variables below), $MPIRUN as the launcher;
#   - NP=N scripts/cluster/*.mpirun.sh: as written, FROST_DEVICE=cpu;
#   - sbatch scripts/cluster/*.sbatch: in the scripts' no-Slurm mode, as
#     tests/workflows/cluster_test.sh runs them (SLURM_NTASKS=2; an array job as each of its
#     array tasks in turn), FROST_DEVICE=cpu;
#   - scripts/ means the checkout's folder (the README's commands are written from its root).
# Lines that only an installation can run (Scipion, `cmake --install` into a system prefix, the GPU
# machine's check) are reported skipped with the reason; other set-up lines (cmake, scripts/...)
# are not examples.
#
# Usage: readme_examples_test.sh <build>/apps <work-dir>
# Environment: MPIRUN (default mpirun), MPIRUN_FLAGS; FROST_README (default: the checkout's README.md).
set -euo pipefail

apps=$(cd "${1:?usage: readme_examples_test.sh <build>/apps <work-dir>}" && pwd)
work=${2:?usage: readme_examples_test.sh <build>/apps <work-dir>}
root=$(cd "$(dirname "$0")/../.." && pwd)
readme=${FROST_README:-$root/README.md}
[ -f "$readme" ] || { echo "FAIL: no $readme" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
demo=$work/demo
start=$SECONDS

# The programs by their names; caches and tuning records inside the work folder, never the user's.
for d in "$apps"/*/; do PATH=$d:$PATH; done
export PATH
export FROST_CACHE_DIR=$work/cache FROST_TUNING_CACHE=$work/cache/tuning XDG_CACHE_HOME=$work/xdg-cache
unset FROST_STORAGE FROST_DEVICE FROST_BIN THREADS NP
# Open MPI as root and with more ranks than cores (CI containers), as the cluster tests run it.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export MPIRUN=${MPIRUN:-mpirun} MPIRUN_FLAGS=${MPIRUN_FLAGS:-}
# The sbatch scripts take their srun branch inside a Slurm job: this test wants the no-Slurm one.
while read -r name; do unset "$name"; done < <(env | sed -n 's/^\(SLURM_[A-Za-z0-9_]*\)=.*/\1/p')

version=$(frost_reconstruct_fourier --version)
gpus=0
if [[ $version != *"CUDA off"* ]] && command -v nvidia-smi >/dev/null; then
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
  if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
    visible=$(tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -c . || true)
    [ "$visible" -lt "$gpus" ] && gpus=$visible
  fi
fi
mpi=1
[[ $version == *"MPI off"* ]] && mpi=0
command -v "$MPIRUN" >/dev/null || mpi=0

echo "== demo data (scripts/demo_data.sh --small)"
bash "$root/scripts/demo_data.sh" "$apps" "$demo" --small >"$work/demo_data.log" 2>&1 ||
  { cat "$work/demo_data.log"; echo "FAIL: scripts/demo_data.sh --small" >&2; exit 1; }
echo "  $((SECONDS - start)) s; $gpus usable GPU(s); MPI $([ "$mpi" -eq 1 ] && echo on || echo off)"

# README.md's indented code blocks as "line<TAB>command": continuations joined (the line is the
# first one's), comment lines dropped, a trailing comment cut (outside quotes), ";" split outside
# quotes. Blocks are runs of lines indented by 4 spaces after a blank line; a Python block
# ("from ... import") gives one line, marked "python".
extract() {
  awk '
    function flush(   out, i, c, q, cut) {
      if (cmd == "") return
      # Cut a comment ("#" after a blank, outside quotes) and split at ";" outside quotes.
      out = ""; q = ""; cut = length(cmd) + 1
      for (i = 1; i <= length(cmd); i++) {
        c = substr(cmd, i, 1)
        if (q != "") { if (c == q) q = ""; continue }
        if (c == "\047" || c == "\"") { q = c; continue }
        if (c == "#" && (i == 1 || substr(cmd, i - 1, 1) ~ /[ \t]/)) { cut = i; break }
      }
      cmd = substr(cmd, 1, cut - 1)
      q = ""; out = ""
      for (i = 1; i <= length(cmd); i++) {
        c = substr(cmd, i, 1)
        if (q == "" && c == ";") { emit(out); out = ""; continue }
        if (q != "") { if (c == q) q = "" } else if (c == "\047" || c == "\"") q = c
        out = out c
      }
      emit(out)
      cmd = ""
    }
    function emit(text) {
      gsub(/^[ \t]+|[ \t]+$/, "", text)
      if (text == "" || (python && python_shown)) return
      print first "\t" (python ? "python\t" : "shell\t") text (python ? " ..." : "")
      if (python) python_shown = 1
    }
    /^    / && (inblock || prev_blank) {
      if (!inblock) { inblock = 1; python = 0; python_shown = 0 }
      line = substr($0, 5)
      if (line ~ /^(from|import) [A-Za-z_.]+/) python = 1
      if (cmd == "") first = NR
      if (line ~ /\\$/) { cmd = cmd substr(line, 1, length(line) - 1) " "; prev_blank = 0; next }
      cmd = cmd line
      flush()
      prev_blank = 0
      next
    }
    { flush(); prev_blank = ($0 ~ /^[ \t]*$/); if (!prev_blank) inblock = 0 }
    END { flush() }
  ' "$1"
}

ran=0 validated=0 skipped=0 failed=0
failures=() skips=()
log=$work/example.log

# Runs one example in the demo folder; $1 = README line, $2 = how (ran|validated), $3 = the
# command as run. A failure is recorded with the README line and the end of its log.
run_example() {
  local line=$1 how=$2 command=$3 t0=$SECONDS rc=0
  (cd "$demo" && bash -e -o pipefail -c "$command") </dev/null >"$log" 2>&1 || rc=$?
  if [ "$rc" -eq 0 ]; then
    printf '  ok   README:%-4s %-9s %3d s  %s\n' "$line" "$how" $((SECONDS - t0)) "$command"
    if [ "$how" = validated ]; then validated=$((validated + 1)); else ran=$((ran + 1)); fi
  else
    printf '  FAIL README:%-4s %-9s exit %d  %s\n' "$line" "$how" "$rc" "$command"
    tail -n 15 "$log" | sed 's/^/         | /'
    failed=$((failed + 1))
    failures+=("README.md:$line (exit $rc): $command")
  fi
}

skip() { # line reason text
  skipped=$((skipped + 1))
  skips+=("README.md:$1: $3  [$2]")
}

# The array task ids of an sbatch --array specification (0-15%8, 1,3,5-7): one per line.
array_tasks() {
  local spec=${1%%%*} part
  IFS=, read -ra parts <<<"$spec"
  for part in "${parts[@]}"; do
    if [[ $part =~ ^([0-9]+)-([0-9]+)$ ]]; then seq "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
    elif [[ $part =~ ^[0-9]+$ ]]; then echo "$part"
    else return 1; fi
  done
}

# The largest GPU id named by --device, or -1 when the command names none (cpu, auto, default).
max_gpu_id() {
  local ids max=-1 id
  [[ $1 =~ (^|[[:space:]])--(device|dev)[=[:space:]]+([0-9]+([,[:space:]]+[0-9]+)*)([[:space:]]|$) ]] ||
    { echo -1; return; }
  # Ids separated by commas, or by blanks as Scipion writes them (--device 0 1).
  read -ra ids <<<"${BASH_REMATCH[3]//,/ }"
  for id in "${ids[@]}"; do [ "$id" -gt "$max" ] && max=$id; done
  echo "$max"
}

echo "== README examples ($readme)"
total=0
while IFS=$'\t' read -r line kind command; do
  if [ "$kind" = python ]; then
    skip "$line" "Python for a Scipion project: needs a Scipion installation (ctest frost_scipion_plugin runs the protocols)" "$command"
    continue
  fi
  case $command in
    frost_* | mpirun\ * | NP=* | sbatch\ *) ;;
    "cmake --install"*) skip "$line" "installs into a system prefix; ctest frost_install installs into a temporary one" "$command"; continue ;;
    scipion3\ *) skip "$line" "needs a Scipion installation (ctest frost_scipion_plugin installs the plugin into a virtual environment)" "$command"; continue ;;
    scripts/device_check.sh*) skip "$line" "the GPU machine's check: builds for the GPU and runs every test and benchmark" "$command"; continue ;;
    *) continue ;; # set-up and build commands, the layout table: not examples
  esac
  total=$((total + 1))

  # scripts/ is the checkout's folder.
  command=$(sed -E "s#(^|[[:space:]=])scripts/#\\1$root/scripts/#g" <<<"$command")

  case $command in
    mpirun\ * | NP=* | sbatch\ *)
      if [ "$mpi" -eq 0 ]; then
        skip "$line" "frost was built without MPI or $MPIRUN is missing" "$command"
        continue
      fi ;;
  esac

  case $command in
    sbatch\ *)
      # sbatch [options] script [arguments]: the script in its no-Slurm mode on the CPU.
      [[ $command =~ ^sbatch((\ +-[^ ]+)*)\ +([^ ]+)(.*)$ ]] ||
        { failures+=("README.md:$line: cannot read the sbatch line: $command"); failed=$((failed + 1)); continue; }
      options=${BASH_REMATCH[1]} script=${BASH_REMATCH[3]} arguments=${BASH_REMATCH[4]}
      array=
      [[ $options =~ --array=([^ ]+) ]] && array=${BASH_REMATCH[1]}
      [ -z "$array" ] && array=$(sed -n 's/^#SBATCH --array=\([^ ]*\).*/\1/p' "$script" 2>/dev/null | head -n 1)
      if [ -n "$array" ]; then
        if ! tasks=$(array_tasks "$array"); then
          failures+=("README.md:$line: cannot read --array=$array"); failed=$((failed + 1)); continue
        fi
        count=$(wc -l <<<"$tasks")
        min=$(head -n 1 <<<"$tasks")
        # Every array task in turn, as Slurm would run them (most have no movie of a short list).
        loop="for task in $(tr '\n' ' ' <<<"$tasks"); do SLURM_ARRAY_TASK_ID=\$task SLURM_ARRAY_TASK_COUNT=$count"
        loop+=" SLURM_ARRAY_TASK_MIN=$min SLURM_CPUS_PER_TASK=1 FROST_DEVICE=cpu bash $script$arguments; done"
        run_example "$line" ran "$loop"
      else
        run_example "$line" ran "SLURM_NTASKS=2 SLURM_CPUS_PER_TASK=1 FROST_DEVICE=cpu bash $script$arguments"
      fi
      continue ;;
    NP=*) run_example "$line" ran "FROST_DEVICE=cpu $command"; continue ;;
  esac

  [[ $command == mpirun\ * ]] && command="\"\$MPIRUN\" \$MPIRUN_FLAGS ${command#mpirun }"
  need=$(( $(max_gpu_id "$command") + 1 ))
  if [ "$need" -gt 0 ] && [ "$gpus" -lt "$need" ]; then
    run_example "$line" validated "$command --validate"
  else
    run_example "$line" ran "$command"
  fi
done < <(extract "$readme")

echo
echo "== Summary: $total examples; $ran ran, $validated validated (--validate: no GPU or too few GPUs), $skipped skipped, $failed failed; $((SECONDS - start)) s"
for s in "${skips[@]}"; do echo "  skipped $s"; done
if [ "$total" -lt 20 ]; then
  echo "FAIL: only $total examples found in $readme (the extraction is broken)" >&2
  exit 1
fi
if [ "$failed" -gt 0 ]; then
  for f in "${failures[@]}"; do echo "FAIL: $f" >&2; done
  exit 1
fi
echo "README examples: ok"
