# Sourced by the bench scripts that time whole commands.
# timed_runs DIR REPEAT PROGRAM ARGS...: runs the command REPEAT times under /usr/bin/time (its stdout
# to DIR/stdout, stderr to DIR/stderr) and sets MEDIAN_WALL (seconds) and PEAK_MB (the largest peak
# resident memory); returns 1 as soon as a run fails.
timed_runs() {
  local dir=$1 repeat=$2
  shift 2
  local walls=() rss=0 wall peak
  for _ in $(seq "$repeat"); do
    /usr/bin/time -f "%e %M" -o "$dir/time" "$@" > "$dir/stdout" 2> "$dir/stderr" || return 1
    read -r wall peak < "$dir/time"
    walls+=("$wall")
    rss=$((peak > rss ? peak : rss))
  done
  MEDIAN_WALL=$(printf '%s\n' "${walls[@]}" | sort -g | sed -n "$(((repeat + 1) / 2))p")
  PEAK_MB=$((rss / 1024))
}
