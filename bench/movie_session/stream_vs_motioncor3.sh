#!/usr/bin/env bash
# A live stream (docs/performance.md#a-live-stream-into-a-watched-folder): N copies of one movie
# written into a watched folder, one started every INTERVAL seconds (cp writes each in place, as a
# microscope's transfer does), while frost_movie_align --session --watch follows the folder.
# Reports movies/s, the latency from "file complete" (cp returned) to "record written" (the
# record's ready_at), and the resident and device memory sampled every 0.2 s, with RSS after
# movie 10 against after the last. With $FROST_MOTIONCOR3 set, MotionCor3 -Serial 1 then
# follows the same stream into a folder of its own, and its latency is taken from its output
# files' modification times.
#
# Usage: stream_vs_motioncor3.sh FROST_MOVIE_ALIGN MOVIE N INTERVAL WORKDIR [DEVICES]
#   DEVICES: frost's --device (default 0; "0,1" drives two GPUs from one process)
#   FROST_STREAM_RANKS=k runs k processes under mpirun instead, sharing the session (one GPU each)
#   FROST_STREAM_DIR: where the stream is written (default /dev/shm when it has room, else WORKDIR)
#   FROST_STREAM_LABEL: the label of the summary lines; FROST_STREAM_SKIP_FROST=1 runs MotionCor3 only
#   FROST_MC3_PREFIX: the file-name prefix MotionCor3 -Serial gets after the folder (the stream's files are mNNN)
#   FROST_STREAM_AGE=S: each copy's modification time is set S seconds into the past once written
#   (MotionCor3 -Serial answered "no input image files are found" for a folder of fresh files)
set -uo pipefail
exe=${1:?frost_movie_align}; movie=${2:?movie}; n=${3:?count}; interval=${4:?interval}; work=${5:?workdir}
devices=${6:-0}
label=${FROST_STREAM_LABEL:-frost --device $devices}
ext=${movie##*.}
bytes=$(stat -c %s "$movie")
need=$(( bytes * n / 1024 ))
shm_free=$(df -k --output=avail /dev/shm 2>/dev/null | tail -1 || echo 0)
stream_root=${FROST_STREAM_DIR:-}
if [ -z "$stream_root" ]; then
  if [ "${shm_free:-0}" -gt $(( need + 4 * 1024 * 1024 )) ]; then stream_root=/dev/shm/frost_stream; else stream_root=$work/stream; fi
fi
here=$(cd "$(dirname "$0")" && pwd)

# Copies N movies into $1, one started every INTERVAL s; each line of $2: name, Unix time complete.
stream_into() {
  local dir=$1 log=$2
  local copies=()
  : > "$log"
  for i in $(seq -w 1 "$n"); do
    ( cp "$movie" "$dir/m$i.$ext" && { [ -z "${FROST_STREAM_AGE:-}" ] || touch -d "-$FROST_STREAM_AGE sec" "$dir/m$i.$ext"; } &&
      echo "m$i $(date +%s.%N)" >> "$log" ) &
    copies+=($!)
    sleep "$interval"
  done
  wait "${copies[@]}"
}

# Samples the summed RSS (kB) of the processes named $1 and the device memory every 0.2 s into $2
# until the file $3 exists.
sample_memory() {
  local name=$1 out=$2 stop=$3
  : > "$out"
  while [ ! -e "$stop" ]; do
    rss=$(ps -C "$name" -o rss= 2>/dev/null | awk '{s += $1} END {print s + 0}')
    gpu=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | awk '{s += $1} END {print s + 0}')
    echo "$(date +%s.%N) $rss ${gpu:-0}" >> "$out"
    sleep 0.2
  done
}

rm -rf "$work" "$stream_root"; mkdir -p "$work" "$stream_root/in"
echo "stream: $n x $(basename "$movie") ($(( bytes / 1000000 )) MB), one every $interval s, into $stream_root/in"

# frost, following the folder (FROST_STREAM_SKIP_FROST=1: only MotionCor3).
ranks=${FROST_STREAM_RANKS:-1}
if [ -z "${FROST_STREAM_SKIP_FROST:-}" ]; then
cmd=("$exe" -i "$stream_root/in" --session "$work/S" --watch --watch-timeout 5 --device "$devices" --sampling 1
     --dose-weight --dose-per-frame 1)
if [ "$ranks" -gt 1 ]; then cmd=(mpirun --allow-run-as-root --oversubscribe -np "$ranks" --bind-to none "${cmd[@]}"); fi
sample_memory frost_movie_ali "$work/memory.txt" "$work/stopped" &
sampler=$!
t0=$(date +%s.%N)
"${cmd[@]}" > "$work/session.log" 2>&1 &
pid=$!
sleep 1 # the session is watching before the first file appears
stream_into "$stream_root/in" "$work/complete.txt"
wait $pid; rc=$?
touch "$work/stopped"; wait $sampler
echo "$label: rc=$rc, $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s in all"
python3 "$here/stream_report.py" frost "$label" "$work/complete.txt" "$work/S/records.jsonl" "$work/memory.txt"
rm -rf "$stream_root/in"; mkdir -p "$stream_root/in"
fi

if [ -n "${FROST_MOTIONCOR3:-}" ]; then
  flag=-InMrc; [ "$ext" = tif ] || [ "$ext" = tiff ] && flag=-InTiff
  mkdir -p "$work/mc3"
  rm -f "$work/stopped"
  sample_memory MotionCor3 "$work/mc3_memory.txt" "$work/stopped" &
  sampler=$!
  # -Serial 1 fails on an empty folder: it starts once the first movie is complete.
  t0=$(date +%s.%N)
  stream_into "$stream_root/in" "$work/mc3_complete.txt" &
  streamer=$!
  while [ ! -s "$work/mc3_complete.txt" ]; do sleep 0.05; done
  "$FROST_MOTIONCOR3" $flag "$stream_root/in/${FROST_MC3_PREFIX:-}" -InSuffix ".$ext" -Serial 1 -OutMrc "$work/mc3/" -Patch 5 5 \
    -FmDose 1 -PixSize 1 -Gpu 0 > "$work/mc3.log" 2>&1 &
  pid=$!
  wait $streamer
  # Whether -Serial ends by itself after the last file is not documented: wait until every movie
  # has its sum (or a deadline of 5 s per movie), then stop it.
  deadline=$(( $(date +%s) + 5 * n ))
  while kill -0 $pid 2>/dev/null && [ "$(ls "$work"/mc3/m*.mrc 2>/dev/null | grep -vc _DW)" -lt "$n" ] &&
        [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.5; done
  sleep 2; kill $pid 2>/dev/null
  wait $pid; rc=$?
  touch "$work/stopped"; wait $sampler
  echo "MotionCor3 -Serial 1: rc=$rc, $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s in all"
  python3 "$here/stream_report.py" motioncor3 "MotionCor3 -Serial 1" "$work/mc3_complete.txt" "$work/mc3" \
    "$work/mc3_memory.txt"
fi
rm -rf "$stream_root"
