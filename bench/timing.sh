# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# Sourced by the bench scripts that time whole commands.
#
# timed_runs DIR REPEAT PROGRAM ARGS...: runs the command REPEAT times under /usr/bin/time (its stdout
# to DIR/stdout, stderr to DIR/stderr) and sets
#   MEDIAN_WALL  the median wall time (s)          WALL_MIN, WALL_MAX  its range
#   MEDIAN_CPU   the median CPU time, user + system (s)
#   PEAK_MB      the largest peak resident memory (MB)
#   LOAD_BEFORE, LOAD_AFTER  /proc/loadavg (1, 5, 15 minutes) before the first run and after the last
# and returns 1 as soon as a run fails.
timed_runs() {
  local dir=$1 repeat=$2
  shift 2
  local walls=() cpus=() rss=0 wall user sys peak
  LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
  for _ in $(seq "$repeat"); do
    /usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$@" > "$dir/stdout" 2> "$dir/stderr" || return 1
    read -r wall user sys peak < "$dir/time"
    walls+=("$wall")
    cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')")
    rss=$((peak > rss ? peak : rss))
  done
  LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
  local middle=$(((repeat + 1) / 2))
  MEDIAN_WALL=$(printf '%s\n' "${walls[@]}" | sort -g | sed -n "${middle}p")
  MEDIAN_CPU=$(printf '%s\n' "${cpus[@]}" | sort -g | sed -n "${middle}p")
  WALL_MIN=$(printf '%s\n' "${walls[@]}" | sort -g | head -1)
  WALL_MAX=$(printf '%s\n' "${walls[@]}" | sort -g | tail -1)
  PEAK_MB=$((rss / 1024))
  RUNS=$repeat
}

# shown_command ARGS...: the words of a command as a user types them from the repository root: the
# binary under test shown as build/release/bin/netdp, the scripts' scratch folder left out.
shown_command() {
  local words=() word
  for word in "$@"; do
    [ -n "${SHOWN_NETDP:-}" ] && word=${word//"$SHOWN_NETDP"/build/release/bin/netdp}
    [ -n "${SHOWN_SCRATCH:-}" ] && word=${word//"$SHOWN_SCRATCH/"/}
    words+=("$word")
  done
  echo "${words[*]}"
}

# measurement_json TITLE COMMAND: the last timed_runs as a JSON object (a comparison entry).
measurement_json() {
  /usr/bin/python3 - "$1" "$2" "$MEDIAN_WALL" "$MEDIAN_CPU" "$PEAK_MB" "$WALL_MIN" "$WALL_MAX" "$RUNS" << 'EOF'
import json, sys
title, command, wall, cpu, peak, lo, hi, runs = sys.argv[1:]
print(json.dumps({"title": title, "command": command, "wall_s": float(wall), "cpu_s": float(cpu),
                  "peak_mb": int(peak), "wall_range_s": [float(lo), float(hi)], "runs": int(runs)},
                 ensure_ascii=False))
EOF
}

# write_result FILE CASE TITLE COMMAND SCRIPT BUSY NOTES [COMPARISON-JSON...]: bench/results/CASE.json
# for the last timed_runs (docs/reference/performance.md reads it through bench/render_performance.py).
# BUSY is true when a loop kept one core busy during the runs. RESULT_EXTRA, when set, is a JSON object
# whose keys are added to the file (e.g. memory_estimate_mb).
write_result() {
  local file=$1
  shift
  /usr/bin/python3 - "$@" "$MEDIAN_WALL" "$MEDIAN_CPU" "$PEAK_MB" "$WALL_MIN" "$WALL_MAX" "$RUNS" \
    "$LOAD_BEFORE" "$LOAD_AFTER" "${RESULT_EXTRA:-{\}}" > "$file.tmp" << 'EOF'
import datetime, json, os, re, sys
case, title, command, script, busy, notes = sys.argv[1:7]
comparisons = [json.loads(c) for c in sys.argv[7:-9]]
wall, cpu, peak, lo, hi, runs, before, after, extra = sys.argv[-9:]
cpu_model = "unknown"
with open("/proc/cpuinfo") as f:
    for line in f:
        if line.startswith("model name"):
            cpu_model = line.split(":", 1)[1].strip()
            break
with open("/proc/meminfo") as f:
    mem_kb = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
result = {
    "case": case, "title": title, "command": command, "script": script,
    "machine": {"cores": os.cpu_count(), "memory_gb": round(mem_kb / 1048576, 1), "cpu": cpu_model},
    "load_before": before, "load_after": after, "one_core_busy": busy == "true",
    "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
    "wall_s": float(wall), "cpu_s": float(cpu), "peak_mb": int(peak),
    "wall_range_s": [float(lo), float(hi)], "runs": int(runs),
}
if comparisons:
    result["comparison"] = comparisons
if notes:
    result["notes"] = notes
result.update(json.loads(extra))
print(json.dumps(result, ensure_ascii=False, indent=1))
EOF
  mv "$file.tmp" "$file"
}
