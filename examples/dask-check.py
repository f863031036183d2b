#!/usr/bin/python3
"""Filter a URL dump with `robotstxt check` on Dask distributed.

    /usr/bin/python3 examples/dask-check.py <urls.txt> <robots-dir> <agent> [<workers>]

A LocalCluster of worker processes (2 by default) reads the dump, partitions it by host, and pipes each
partition through one `robotstxt check --robots-dir <robots-dir> --agent <agent>` process. The output is
what one `robotstxt check` over the whole dump writes: `verdict<TAB>url`, one line per input line, in input
order. This works because the command's contract holds per line: it keeps no state between lines that
changes a verdict, it writes exactly one line per input line, in order, and a host's lines need only that
host's robots.txt (partitioning by host lets each task compile each of its hosts once).

The command is `robotstxt` on PATH, or what the ROBOTSTXT variable names (e.g. "node dist/src/bin/robotstxt.cjs").
Debian's python3-distributed installs Dask into the system Python: run this with /usr/bin/python3.
"""
import os
import shlex
import subprocess
import sys
from urllib.parse import urlsplit

import dask.bag as db
from dask.distributed import Client, LocalCluster


def host_of(url):
    """The partition key: the URL's host in lower case ('' when it names none; those lines go together)."""
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def check_partition(groups, command):
    """Pipes one partition's URLs (its hosts' lines, each host's in input order) through one robotstxt
    check process; returns (input index, output line) pairs: the command answers line for line, in order."""
    numbered = sorted(item for _, items in groups for item in items)
    if not numbered:
        return []
    text = "".join(url + "\n" for _, url in numbered)
    run = subprocess.run(command, input=text.encode("utf-8", "surrogateescape"), capture_output=True, check=True)
    answers = run.stdout.decode("utf-8", "surrogateescape").split("\n")[:-1]
    if len(answers) != len(numbered):
        raise RuntimeError(f"robotstxt check answered {len(answers)} lines for {len(numbered)}")
    return [(index, answer) for (index, _), answer in zip(numbered, answers)]


def main(argv):
    if len(argv) not in (4, 5):
        sys.stderr.write(__doc__)
        return 2
    urls_file, robots_dir, agent = argv[1], argv[2], argv[3]
    workers = int(argv[4]) if len(argv) == 5 else 2
    command = shlex.split(os.environ.get("ROBOTSTXT", "robotstxt")) + ["check", "--robots-dir", robots_dir, "--agent", agent, "-"]
    with open(urls_file, encoding="utf-8", errors="surrogateescape", newline="\n") as dump:
        lines = [line[:-1] if line.endswith("\n") else line for line in dump]
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster):
        numbered = db.from_sequence(list(enumerate(lines)), npartitions=max(1, workers * 2))
        by_host = numbered.groupby(lambda item: host_of(item[1]), npartitions=workers * 2)
        answered = by_host.map_partitions(check_partition, command).compute()
    out = sys.stdout.buffer
    for _, answer in sorted(answered):
        out.write(answer.encode("utf-8", "surrogateescape") + b"\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
