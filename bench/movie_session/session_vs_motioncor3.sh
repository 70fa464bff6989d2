#!/usr/bin/env bash
# A live session against MotionCor3 -Serial 1 (docs/performance.md#live-session-against-motioncor3--serial-1):
# N hard links to one movie in a folder; frost_movie_align --session over it on one GPU, with its
# RSS and the device's memory sampled every 0.5 s, the per-movie cadence and latency from the
# session's records; then MotionCor3 -Serial 1 over the same folder when $FROST_MOTIONCOR3 names it.
# Usage: session_vs_motioncor3.sh FROST_MOVIE_ALIGN MOVIE N WORKDIR [GPU]
set -uo pipefail
exe=${1:?frost_movie_align}; movie=${2:?movie}; n=${3:?count}; work=${4:?workdir}; gpu=${5:-0}
ext=${movie##*.}
rm -rf "$work"; mkdir -p "$work/in" "$work/mc3"
for i in $(seq -w 1 "$n"); do ln "$movie" "$work/in/m$i.$ext"; done
t0=$(date +%s.%N)
"$exe" -i "$work/in" --session "$work/S" --device "$gpu" --sampling 1 --dose-weight --dose-per-frame 1 \
  > "$work/session.log" 2>&1 &
pid=$!
: > "$work/memory.txt"
while kill -0 $pid 2>/dev/null; do
  gpu_mem=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i "$gpu" 2>/dev/null || echo 0)
  echo "$(date +%s.%N) $(awk '/VmRSS/ {print $2}' /proc/$pid/status 2>/dev/null) $gpu_mem" >> "$work/memory.txt"
  sleep 0.5
done
wait $pid; rc=$?
echo "frost session rc=$rc: $n movies in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{print b-a}') s"
awk '{ if ($2 > r) r = $2; if ($3 > g) g = $3 } END { printf "peak RSS %.0f MiB, peak GPU memory used %d MiB (%d samples)\n", r/1024, g, NR }' "$work/memory.txt"
python3 - "$work/S/records.jsonl" <<'PY'
import json, sys
r = sorted((json.loads(l) for l in open(sys.argv[1])), key=lambda x: x["ready_at"])
lat = sorted(x["ready_at"] - x["check_at"] for x in r)
gaps = sorted(b["ready_at"] - a["ready_at"] for a, b in zip(r, r[1:]))
print("done %d of %d; ready-to-ready median %.3f s, mean %.3f s; latency claim->record median %.3f p95 %.3f s" % (
    sum(x["status"] == "done" for x in r), len(r), gaps[len(gaps) // 2], sum(gaps) / len(gaps),
    lat[len(lat) // 2], lat[int(0.95 * (len(lat) - 1))]))
print("  " + ", ".join("%s %.3f" % (k, sorted(x["timings_s"][k] for x in r)[len(r) // 2])
                       for k in r[0]["timings_s"]) + " (medians, s)")
PY
if [ -n "${FROST_MOTIONCOR3:-}" ]; then
  flag=-InMrc; [ "$ext" = tif ] || [ "$ext" = tiff ] && flag=-InTiff
  t0=$(date +%s.%N)
  "$FROST_MOTIONCOR3" $flag "$work/in/" -InSuffix ".$ext" -Serial 1 -OutMrc "$work/mc3/" -Patch 5 5 -FmDose 1 \
    -PixSize 1 -Gpu "$gpu" > "$work/mc3.log" 2>&1
  echo "MotionCor3 -Serial 1 rc=$?: $n movies in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{print b-a}') s, $(ls "$work"/mc3/*.mrc 2>/dev/null | wc -l) files written"
else
  echo "MotionCor3: FROST_MOTIONCOR3 not set; not run"
fi
