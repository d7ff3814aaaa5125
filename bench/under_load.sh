#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# The headline commands (the speed table of docs/reference/performance.md) on an idle machine and with one
# core kept busy by a bounded background loop, each at the default thread count and at --threads 1,
# beside the numpy/scipy scripts of bench/baselines/ for the same results in the same run: the
# median and range of REPEAT runs (default 3) by /usr/bin/time, a case's default and --threads 1
# runs taking turns. Prints a Markdown table and writes one
# record per command and setting to the runs of bench/results/under_load.json (the machine, the load,
# the command as a user types it, median wall and CPU time, the range of the wall times, peak memory),
# which bench/render_performance.py puts in docs/reference/performance.md. Usage (after `make build`):
#   bench/under_load.sh [BUILD_DIR]          # default build/release
#   SNAP=0 bench/under_load.sh               # without the ../shared/datasets cases
#   ONLY='hypercube|numpy' bench/under_load.sh  # only the cases whose label matches (grep -E)
set -euo pipefail
build=${1:-build/release}
netdp=$build/bin/netdp
repeat=${REPEAT:-3}
snap=${SNAP:-1}
only=${ONLY:-}
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "REPEAT must be a whole number >= 1, got '$repeat'" >&2; exit 2; }
[ -x "$netdp" ] || { echo "$netdp is missing: build it first (make build)" >&2; exit 2; }
here=$(dirname "$0")
data=../shared/datasets/graphs/facebook
results=$here/results
mkdir -p "$results"
json=$results/under_load.json
out=$(mktemp -d)
busy_pid=
stop_busy() { [ -n "$busy_pid" ] && kill "$busy_pid" 2> /dev/null; busy_pid=; }
trap 'stop_busy; rm -rf "$out"' EXIT
# shellcheck source=bench/timing.sh
source "$here/timing.sh"
SHOWN_NETDP=$netdp

# One core kept busy for at most an hour (the bound, should this script be killed without its trap).
start_busy() { timeout 3600 sh -c 'while :; do :; done' & busy_pid=$!; sleep 1; }

record() {  # record LOAD THREADS LABEL WALL LOW HIGH CPU PEAK_MB COMMAND...: one record added to the file's runs
  local load=$1 threads=$2 label=$3 wall=$4 low=$5 high=$6 cpu=$7 peak=$8
  shift 8
  /usr/bin/python3 - "$json" "$load" "$threads" "$label" "$wall" "$low" "$high" "$cpu" "$peak" "$repeat" \
    "$(cut -d' ' -f1-3 /proc/loadavg)" "$(date -u '+%FT%H:%M:%SZ')" "$(shown_command "$@")" << 'EOF'
import json, os, re, sys
path, load, threads, label, wall, low, high, cpu, peak, runs, loadavg, when, command = sys.argv[1:]
try:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
except FileNotFoundError:
    data = {"runs": []}
cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown")
mem_kb = int(re.search(r"MemTotal:\s+(\d+)", open("/proc/meminfo").read()).group(1))
data.update({
    "case": "under_load",
    "title": "The headline commands idle and with one core kept busy, at the default thread count and at --threads 1",
    "command": "bench/under_load.sh build/release",
    "script": "bench/under_load.sh",
    "machine": {"cores": os.cpu_count(), "memory_gb": round(mem_kb / 1048576, 1), "cpu": cpu_model},
    "notes": "Each record is one case and setting of one run of the script: wall_s and cpu_s are the medians of "
             "its runs, wall_range_s their range; loadavg is /proc/loadavg when the record was written. "
             "Records without cpu_s predate its recording.",
})
data["runs"].append({"case": label, "load": load, "one_core_busy": load == "busy", "threads": threads,
                     "wall_s": float(wall), "wall_range_s": [float(low), float(high)], "cpu_s": float(cpu),
                     "peak_mb": int(peak), "runs": int(runs), "cores": os.cpu_count(), "loadavg": loadavg,
                     "utc": when, "command": command})
with open(path, "w", encoding="utf-8") as f:
    json.dump(data, f, ensure_ascii=False, indent=1)
    f.write("\n")
EOF
}

declare -A wall_of range_of
cases=()
add() {  # add LABEL ARGS...: a headline command, netdp ARGS
  local label=$1
  shift
  [ -z "$only" ] || grep -qE "$only" <<< "$label" || return 0
  cases+=("$label")
  printf '%s\0' "$netdp" "$@" > "$out/case_${#cases[@]}"
}
baseline() {  # baseline LABEL SCRIPT ARGS...: a numpy/scipy script of bench/baselines/ (no --threads)
  local label=$1
  shift
  [ -z "$only" ] || grep -qE "$only" <<< "$label" || return 0
  cases+=("$label")
  printf '%s\0' /usr/bin/python3 "$here/baselines/$1" "${@:2}" > "$out/case_${#cases[@]}"
}

add "hypercube d=11 Muffliato, --bound paper, T=19" account --graph hypercube:d=11 --method muffliato \
  --bound paper --rounds 19 --sigma 1 --quiet --json --summary-only
baseline "hypercube d=11 Muffliato --bound paper, T=19, in numpy/scipy" muffliato_theorem1.py 11 19 1
add "hypercube d=11 Muffliato, exact joint view, T=19" account --graph hypercube:d=11 --method muffliato \
  --rounds 19 --sigma 1 --quiet --json --summary-only
add "hypercube d=11 random walk, T=1150, σ=20, α=4" account --graph hypercube:d=11 --method random-walk \
  --rounds 1150 --sigma 20 --alpha 4 --quiet --json --summary-only
add "hypercube d=11 random walk, the paper's count T/n (--contributions expected)" account --graph hypercube:d=11 \
  --method random-walk --rounds 1150 --sigma 20 --alpha 4 --contributions expected --quiet --json --summary-only
baseline "hypercube d=11 random walk, the paper's count, in numpy/scipy" random_walk_theorem3.py 11 1150 20 4
add "KK Fig. 3: ER(100, 0.2) closed-row, plain view, T=100" account --graph er:n=100,p=0.2,seed=1,connected=1 \
  --weights closed-row --method linear-system --view plain --rounds 100 --quiet --json --summary-only
if [ "$snap" = 1 ] && [ -f "$data/facebook_combined.txt" ]; then
  add "facebook_combined Muffliato, --bound paper, T=20" account --graph "edgelist:$data/facebook_combined.txt" \
    --method muffliato --bound paper --rounds 20 --sigma 1 --quiet --json --summary-only
  add "facebook_combined random walk, T=40390, σ=20" account --graph "edgelist:$data/facebook_combined.txt" \
    --method random-walk --rounds 40390 --sigma 20 --quiet --json --summary-only
elif [ "$snap" = 1 ]; then
  echo "note: $data/facebook_combined.txt is missing: the SNAP cases are not run" >&2
fi

echo "$(nproc) cores; $(date -u '+%F %H:%M UTC'); median of $repeat; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# The default and --threads 1 runs of a case take turns, so that a drift in the machine's load
# falls on both; each setting's median and range (min-max) are kept.
for load in idle busy; do
  [ "$load" = busy ] && start_busy
  for i in "${!cases[@]}"; do
    mapfile -d '' command < "$out/case_$((i + 1))"
    settings=(default)
    [ "${command[0]}" = "$netdp" ] && settings+=(1)
    declare -A walls=() peaks=() cpus=()
    failed=
    for _ in $(seq "$repeat"); do
      for threads in "${settings[@]}"; do
        extra=()
        [ "$threads" = 1 ] && extra=(--threads 1)
        if ! timed_runs "$out" 1 "${command[@]}" "${extra[@]}"; then
          failed="failed: $(tail -1 "$out/stderr")"
          break 2
        fi
        walls[$threads]+="$MEDIAN_WALL "
        cpus[$threads]+="$MEDIAN_CPU "
        peaks[$threads]=$((PEAK_MB > ${peaks[$threads]:-0} ? PEAK_MB : ${peaks[$threads]:-0}))
      done
    done
    for threads in "${settings[@]}"; do
      if [ -n "$failed" ]; then
        wall_of["$load/$threads/$i"]=$failed
        continue
      fi
      sorted=$(printf '%s\n' ${walls[$threads]} | sort -g)
      median=$(sed -n "$(((repeat + 1) / 2))p" <<< "$sorted")
      wall_of["$load/$threads/$i"]=$median
      range_of["$load/$threads/$i"]="$(head -1 <<< "$sorted")–$(tail -1 <<< "$sorted")"
      extra=()
      [ "$threads" = 1 ] && extra=(--threads 1)
      cpu=$(printf '%s\n' ${cpus[$threads]} | sort -g | sed -n "$(((repeat + 1) / 2))p")
      record "$load" "$threads" "${cases[$i]}" "$median" "$(head -1 <<< "$sorted")" "$(tail -1 <<< "$sorted")" \
        "$cpu" "${peaks[$threads]}" "${command[@]}" "${extra[@]}"
    done
    unset walls peaks cpus
  done
  stop_busy
done
echo
echo '| command | idle, default | idle, --threads 1 | one core busy, default | one core busy, --threads 1 | busy: default / 1 thread |'
echo '|---|---|---|---|---|---|'
cell() { [ -n "${wall_of[$1]:-}" ] && printf '%s s (%s)' "${wall_of[$1]}" "${range_of[$1]:-}"; }
for i in "${!cases[@]}"; do
  ratio=$(/usr/bin/python3 -c "import sys; a, b = sys.argv[1:]; print(f'{float(a) / float(b):.2f}')" \
    "${wall_of[busy/default/$i]}" "${wall_of[busy/1/$i]:-}" 2> /dev/null || echo -)
  printf '| %s | %s | %s | %s | %s | %s |\n' "${cases[$i]}" "$(cell "idle/default/$i")" "$(cell "idle/1/$i")" \
    "$(cell "busy/default/$i")" "$(cell "busy/1/$i")" "$ratio"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); records added to $json; now run /usr/bin/python3 bench/render_performance.py"
