#!/usr/bin/env bash
# The cluster test of CI (.ci/run): a count split into job lines, run on
# Spark in local mode (local[2], through examples/spark/dlx_count.py) and
# under GNU parallel, must merge to exactly one run's solutions, nodes and
# updates. Installs what is missing: a Java runtime (openjdk-17-jre-headless),
# pyspark, GNU parallel.
#
#   bash examples/spark/check.sh [DLX]      (DLX: default target/release/dlx)
set -euo pipefail
cd "$(dirname "$0")/../.."
dlx=$(realpath "${1:-target/release/dlx}")

sudo=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then sudo="sudo"; fi
apt_install() {
  $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq "$@" >/dev/null
}
command -v java >/dev/null 2>&1 || apt_install openjdk-17-jre-headless
command -v parallel >/dev/null 2>&1 || apt_install parallel
if ! python3 -c 'import pyspark' >/dev/null 2>&1; then
  python3 -m pip install --quiet pyspark || python3 -m pip install --quiet pyspark
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$dlx" gen pentominoes 5x12 > "$work/p.dlx"
"$dlx" cover "$work/p.dlx" --json > "$work/one.json"

same() {  # same solutions, nodes and updates in two JSON objects
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keys = ("solutions", "nodes", "updates")
if any(a[k] != b[k] for k in keys) or not b.get("complete"):
    sys.exit(f"{sys.argv[2]}: {[b.get(k) for k in keys]} != one run's {[a[k] for k in keys]}")
print("  ", ", ".join(f"{k} {b[k]}" for k in keys), "(one run's)")
PY
}

echo "spark local[2]: pentominoes 5x12 cut into >= 200 jobs"
start=$(date +%s.%N)
python3 examples/spark/dlx_count.py "$work/p.dlx" --dlx "$dlx" --master 'local[2]' \
  --split 200 --json > "$work/spark.json"
echo "   $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f} s')")"
same "$work/one.json" "$work/spark.json"

echo "GNU parallel -j 2: the same job lines"
"$dlx" cover "$work/p.dlx" --split 200 > "$work/jobs.jsonl"
start=$(date +%s.%N)
parallel --will-cite --pipe -N 1 -j 2 "$dlx" cover "$work/p.dlx" --run-jobs - \
  < "$work/jobs.jsonl" > "$work/results.jsonl"
echo "   $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f} s')")"
"$dlx" cover --merge "$work/results.jsonl" --json > "$work/parallel.json"
same "$work/one.json" "$work/parallel.json"
