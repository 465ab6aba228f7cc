#!/usr/bin/env python3
"""Count the solutions of an exact-cover problem on Apache Spark.

The search is cut into job lines by `dlx cover MATRIX --split N` on the
driver; the executors pipe the lines through `dlx cover MATRIX --run-jobs -`
(RDD.pipe: one dlx process per partition; the lines, largest jobs first, are
dealt to the partitions in turn, so that each gets its share of the large
ones and starts with them); the result lines come back to the driver and
`dlx cover --merge` adds them up to exactly what one run prints. Its exit
code is this script's: 0 a count (solutions found), 1 none, 3 not final.

    spark-submit examples/spark/dlx_count.py pentominoes.dlx --split 2000
    python3 examples/spark/dlx_count.py queens14.dlx --master 'local[2]'

The dlx binary and the matrix must be at the same paths on every executor:
a shared file system, or shipped with `spark-submit --files` and named as
the executors see them (see docs/cluster.md).
"""

import argparse
import os
import shlex
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("matrix", help="the problem, in Knuth's DLX format")
    ap.add_argument("--split", type=int, default=2000, metavar="N",
                    help="cut into at least N jobs (default 2000)")
    ap.add_argument("--dlx", default="dlx", help="the dlx binary (default: dlx on PATH)")
    ap.add_argument("--master", default=None,
                    help="Spark master when not run by spark-submit, e.g. local[2]")
    ap.add_argument("--partitions", type=int, default=None, metavar="P",
                    help="dlx processes, i.e. Spark tasks (default: 4 per core of the "
                         "cluster, at most one per job)")
    ap.add_argument("--results", metavar="FILE",
                    help="also keep the summary and result lines in FILE (for a later --merge)")
    ap.add_argument("--json", action="store_true", help="print the merge as JSON")
    ap.add_argument("dlx_flags", nargs="*", metavar="-- FLAG",
                    help="flags for every dlx cover (e.g. -- --engine links)")
    args = ap.parse_args()

    from pyspark import SparkConf, SparkContext

    dlx = os.path.abspath(args.dlx) if os.path.sep in args.dlx else args.dlx
    matrix = os.path.abspath(args.matrix)
    flags = list(args.dlx_flags)
    split = subprocess.run([dlx, "cover", matrix, "--split", str(args.split)] + flags,
                           stdout=subprocess.PIPE, check=True, text=True)
    lines = split.stdout.splitlines()
    summary, jobs = lines[0], lines[1:]

    conf = (SparkConf().setAppName("dlx cover " + os.path.basename(matrix))
            .set("spark.ui.showConsoleProgress", "false"))
    if args.master:
        conf = conf.setMaster(args.master)
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    try:
        partitions = args.partitions or 4 * sc.defaultParallelism
        partitions = max(1, min(partitions, len(jobs)))
        command = " ".join(shlex.quote(a) for a in [dlx, "cover", matrix, "--run-jobs", "-"] + flags)
        # Job k of the largest-first list goes to partition k mod P: one
        # element a partition, the list of its lines (no shuffle).
        dealt = sc.parallelize([jobs[p::partitions] for p in range(partitions)], partitions)
        results = dealt.flatMap(lambda lines: lines).pipe(command).collect()
    finally:
        sc.stop()

    merged_input = "\n".join([summary] + results) + "\n"
    if args.results:
        with open(args.results, "w") as f:
            f.write(merged_input)
    merge = subprocess.run([dlx, "cover", "--merge", "-"] + (["--json"] if args.json else []),
                           input=merged_input, text=True)
    return merge.returncode


if __name__ == "__main__":
    sys.exit(main())
