#!/usr/bin/python3
"""Filter URL dumps with `robotstxt check` on Dask distributed, as a cluster job runs it.

    /usr/bin/python3 examples/dask-check.py <urls> <robots-dir or pack> <agent> [--workers N] [--blocksize SIZE] [--out DIR]

<urls>: a file, a glob ('dumps/*.txt') or several of them, read by dask.bag.read_text in blocks of SIZE
(default 64MiB; lines are never cut, and only LF ends a line). Each partition is piped through one
`robotstxt check --robots-dir <robots-dir> --agent <agent>` process as it is (or `--pack <pack>` when a file
made by `robotstxt pack` is given in place of the folder: the one file each worker needs): no shuffle, a
partition compiles the hosts it meets (input sorted by host keeps them apart). The answers are `verdict<TAB>url`, one
line per input line, and the partitions are written in input order: to standard output, or with --out DIR
to DIR/part-00000.txt, DIR/part-00001.txt, ... (together: what one robotstxt check over the input writes).
What a partition's command says on stderr (hosts without a robots.txt, lines without a host) is passed on,
named by partition. The command is `robotstxt` on PATH, or what the ROBOTSTXT variable names (e.g.
"node dist/src/bin/robotstxt.cjs"); when it cannot be run, one line says so and the exit status is 2.
A LocalCluster of --workers processes (default 2) runs it here; give a scheduler's address in
DASK_SCHEDULER to run on a cluster (robotstxt-wasm and the robots directory or pack must be on every worker).
Debian's python3-distributed installs Dask into the system Python: run this with /usr/bin/python3.
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys

import dask.bag as db
from dask.distributed import Client, LocalCluster


def check_partition(lines, command):
    """One partition (its lines, LF kept) through one robotstxt check process: [(answers, notes, error)],
    error: None, or the one line saying why the command could not answer."""
    text = "".join(lines)
    if text == "":
        return [("", "", None)]
    try:
        run = subprocess.run(command, input=text.encode("utf-8", "surrogateescape"), capture_output=True)
    except OSError as error:
        return [("", "", f"cannot run {shlex.join(command[:1])}: {error.strerror}")]
    notes = run.stderr.decode("utf-8", "replace")
    if run.returncode != 0:
        said = [line for line in notes.split("\n") if line.strip()]
        return [("", notes, f"robotstxt check failed (exit {run.returncode}): {said[-1] if said else 'no message'}")]
    answers = run.stdout.decode("utf-8", "surrogateescape")
    expected = text.count("\n") + (0 if text.endswith("\n") else 1)
    if answers.count("\n") != expected:
        return [("", notes, f"robotstxt check answered {answers.count(chr(10))} lines for {expected}")]
    return [(answers, notes, None)]


def main(argv):
    parser = argparse.ArgumentParser(prog="dask-check.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("urls", nargs="+", help="URL dump files or globs (the last two arguments are <robots-dir> <agent>)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--blocksize", default="64MiB")
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv[1:])
    if len(args.urls) < 3:
        parser.error("needs <urls>... <robots-dir> <agent>")
    *urls, robots_dir, agent = args.urls
    program = shlex.split(os.environ.get("ROBOTSTXT", "robotstxt"))
    if not program or shutil.which(program[0]) is None:
        sys.stderr.write(f"dask-check.py: the robotstxt command was not found ({shlex.join(program) or 'empty ROBOTSTXT'}): install robotstxt-wasm, or set ROBOTSTXT to the command\n")
        return 2
    # a folder of <host>.txt files, or a pack (one file): robotstxt says which is wrong when neither reads
    source = ["--pack", robots_dir] if os.path.isfile(robots_dir) else ["--robots-dir", robots_dir]
    command = program + ["check", *source, "--agent", agent, "-"]
    scheduler = os.environ.get("DASK_SCHEDULER")
    cluster = None if scheduler else LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        with Client(scheduler or cluster) as client:
            lines = db.read_text(urls, blocksize=args.blocksize, linedelimiter="\n", encoding="utf-8", errors="surrogateescape")
            partitions = client.compute(lines.map_partitions(check_partition, command).to_delayed())
            if args.out is not None:
                os.makedirs(args.out, exist_ok=True)
            out = sys.stdout.buffer
            for index, future in enumerate(partitions):
                [(answers, notes, error)] = future.result()
                for note in notes.split("\n"):
                    if note != "":
                        sys.stderr.write(f"partition {index}: {note}\n")
                if error is not None:
                    sys.stderr.write(f"dask-check.py: partition {index}: {error}\n")
                    return 2
                data = answers.encode("utf-8", "surrogateescape")
                if args.out is None:
                    out.write(data)
                else:
                    with open(os.path.join(args.out, f"part-{index:05d}.txt"), "wb") as part:
                        part.write(data)
            out.flush()
    finally:
        if cluster is not None:
            cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
