#!/bin/bash
# workers-ratio.sh — two workers against one on the 300-tetrapod collapse
# (issue 15: two workers ≥ 1.8× one). Runs `BIN bench --time T --workers 1`
# and `--workers 2` alternately (the order swapped every round, so a drift
# of the machine falls on both), ROUNDS rounds per binary, and prints per
# binary the medians of the whole process's wall time (/usr/bin/time: the
# set-up — reading the packed state, the start audit, the first
# evaluation — included), of the stepping loop's wall time (bench's "wall
# time") and of the user CPU, with the ratios one worker / two workers of
# the medians. Run it on a quiet machine (it prints the load average
# before and after; wall time on a busy one says little).
#
#   .ci/workers-ratio.sh [-r ROUNDS] [-t SIMTIME] [BIN ...]
#
# Defaults: 6 rounds, 0.3 simulated seconds, bin/grainlab. Several
# binaries are timed round by round (side by side with another build).
# Extra bench arguments: BENCH_ARGS="--set …".
set -eu
rounds=6 simtime=0.3
while getopts r:t: o; do
  case $o in
    r) rounds=$OPTARG ;;
    t) simtime=$OPTARG ;;
    *) sed -n '2,20p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(bin/grainlab)
for b in "${bins[@]}"; do
  [ -x "$b" ] || { echo "workers-ratio: $b: not an executable" >&2; exit 2; }
done
out=$(mktemp -d /tmp/workers-ratio.XXXX)
trap 'rm -rf "$out"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= rounds; r++)); do
  order="1 2"
  [ $((r % 2)) = 0 ] && order="2 1"
  for i in "${!bins[@]}"; do
    for w in $order; do
      /usr/bin/time -f '%e %U' -o "$out/time" "${bins[$i]}" bench --time "$simtime" --workers "$w" ${BENCH_ARGS:-} >"$out/bench" 2>/dev/null
      loop=$(awk '/^wall time/ {print $3}' "$out/bench")
      helped=$(awk '/^helpers/ {print $3}' "$out/bench")
      echo "$i $w $(cat "$out/time") $loop ${helped:--}" >>"$out/rows"
      printf 'round %d  %-28s  workers %d  process %s s  user %s s  loop %s s  helpers %s\n' \
        "$r" "$(basename "${bins[$i]}")" "$w" $(cat "$out/time" | cut -d' ' -f1) $(cat "$out/time" | cut -d' ' -f2) "$loop" "${helped:--}"
    done
  done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo
printf '%-28s  %-22s  %-22s  %-22s\n' "median of $rounds rounds" "process wall s (1w 2w)" "loop wall s (1w 2w)" "user CPU s (1w 2w)"
for i in "${!bins[@]}"; do
  line=$(printf '%-28s' "$(basename "${bins[$i]}")")
  for col in 3 5 4; do
    m1=$(awk -v i="$i" -v c=$col '$1 == i && $2 == 1 {print $c}' "$out/rows" | median)
    m2=$(awk -v i="$i" -v c=$col '$1 == i && $2 == 2 {print $c}' "$out/rows" | median)
    if [ $col = 4 ]; then
      line+=$(printf '  %.3f %.3f (%+.0f%%)     ' "$m1" "$m2" "$(echo "$m2 $m1" | awk '{print 100 * ($1 / $2 - 1)}')")
    else
      line+=$(printf '  %.3f %.3f = %.2f×    ' "$m1" "$m2" "$(echo "$m1 $m2" | awk '{print $1 / $2}')")
    fi
  done
  echo "$line"
done
