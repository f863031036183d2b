#!/usr/bin/python3
"""Audit access logs with `robotstxt audit` on Dask distributed: each partition audited where it lies, the
partial audits merged into one report.

    /usr/bin/python3 examples/dask-audit.py <logs>... -- <audit options>... [--format table|json|html] [--output FILE]

<logs>: files or globs ('logs/access.log.*'), read by dask.bag.read_text in blocks of --blocksize (given
before --; default 64MiB; lines are never cut, and only LF ends a line). Each partition is piped through one
`robotstxt audit <audit options> --format partial -` process; the driver then runs `robotstxt audit --merge`
over the partials, in input order, which gives the report one `robotstxt audit <audit options> -` over all
the logs gives, byte for byte (the logs read as one standard input: their lines numbered as one). Audit
options after --: --robots <file>, --robots-dir <dir>, --verify, --by host, --since, ... (the robots file,
folder and range files must be on every worker); --format, --top and --output go to the merge.
The command is `robotstxt` on PATH, or what the ROBOTSTXT variable names; when it cannot be run, one line
says so and the exit status is 2. --workers N (before --, default 2) worker processes of a LocalCluster; give
a scheduler's address in DASK_SCHEDULER to run on a cluster. Run with /usr/bin/python3 (Debian's
python3-distributed installs Dask there).
"""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

import dask.bag as db
from dask.distributed import Client, LocalCluster

MERGE_OPTIONS = ("--format", "--top", "--output")


def audit_partition(lines, command):
    """One partition (its lines, LF kept) through one robotstxt audit --format partial process:
    [(partial, notes, error)]; error: None, or the one line saying why it could not audit."""
    text = "".join(lines)
    try:
        run = subprocess.run(command, input=text.encode("utf-8", "surrogateescape"), capture_output=True)
    except OSError as error:
        return [("", "", f"cannot run {shlex.join(command[:1])}: {error.strerror}")]
    notes = run.stderr.decode("utf-8", "replace")
    if run.returncode != 0:
        said = [line for line in notes.split("\n") if line.strip()]
        return [("", notes, f"robotstxt audit failed (exit {run.returncode}): {said[-1] if said else 'no message'}")]
    return [(run.stdout.decode("utf-8"), notes, None)]


def main(argv):
    if "--" not in argv:
        sys.stderr.write(__doc__)
        return 2
    split = argv.index("--")
    ours, audit_args = argv[1:split], argv[split + 1:]
    workers, blocksize, logs = 2, "64MiB", []
    it = iter(ours)
    for arg in it:
        if arg == "--workers":
            workers = int(next(it))
        elif arg == "--blocksize":
            blocksize = next(it)
        else:
            logs.append(arg)
    if not logs:
        sys.stderr.write("dask-audit.py: give at least one log file or glob before --\n")
        return 2
    merge_args, partial_args = [], []
    it = iter(audit_args)
    for arg in it:
        name = arg.split("=", 1)[0]
        if name in MERGE_OPTIONS:
            merge_args += [arg] if "=" in arg else [arg, next(it)]
        else:
            partial_args.append(arg)
    program = shlex.split(os.environ.get("ROBOTSTXT", "robotstxt"))
    if not program or shutil.which(program[0]) is None:
        sys.stderr.write(f"dask-audit.py: the robotstxt command was not found ({shlex.join(program) or 'empty ROBOTSTXT'}): install robotstxt-wasm, or set ROBOTSTXT to the command\n")
        return 2
    command = program + ["audit", *partial_args, "--format", "partial", "-"]
    scheduler = os.environ.get("DASK_SCHEDULER")
    cluster = None if scheduler else LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        with Client(scheduler or cluster) as client, tempfile.TemporaryDirectory() as folder:
            lines = db.read_text(logs, blocksize=blocksize, linedelimiter="\n", encoding="utf-8", errors="surrogateescape")
            partitions = client.compute(lines.map_partitions(audit_partition, command).to_delayed())
            files = []
            for index, future in enumerate(partitions):
                [(partial, notes, error)] = future.result()
                if error is not None:
                    sys.stderr.write(f"dask-audit.py: partition {index}: {error}\n")
                    return 2
                # (a partition's notes name its lines; the merged report names them as in the whole)
                path = os.path.join(folder, f"part-{index:05d}.json")
                with open(path, "w", encoding="utf-8") as out:
                    out.write(partial)
                files.append(path)
            merged = subprocess.run(program + ["audit", "--merge", *files, *merge_args])
            return merged.returncode
    finally:
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
