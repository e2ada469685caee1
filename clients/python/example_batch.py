#!/usr/bin/env python3
"""Renders every .ppdmp/.zip in a directory on a getiled server, pipelined,
and writes OUTDIR/NAME.png (the same bytes as `getile render`).

    python3 clients/python/example_batch.py --server unix:/tmp/getiled.sock DUMPS/ -o out/

Exits 0 when every dump rendered, 1 otherwise."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from getile_client import Client, GetileError  # noqa: E402


def dump_name(file_name):
    name = file_name
    if name.lower().endswith(".zip"):
        name = name[:-4]
    if name.lower().endswith(".ppdmp"):
        name = name[:-6]
    return name


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server", required=True, help="tcp://HOST:PORT or unix:/PATH")
    ap.add_argument("dir", help="directory of .ppdmp/.zip dumps")
    ap.add_argument("-o", "--output", required=True, help="where the PNGs go")
    ap.add_argument("--window", type=int, default=8, help="requests in flight (default 8)")
    args = ap.parse_args()

    os.makedirs(args.output, exist_ok=True)
    files = sorted(f for f in os.listdir(args.dir) if f.lower().endswith((".ppdmp", ".zip")))

    def items():
        for f in files:
            with open(os.path.join(args.dir, f), "rb") as fh:
                yield f, fh.read()

    failures = 0
    with Client(args.server) as client:
        if not client.ping():
            print("no pong from %s" % args.server, file=sys.stderr)
            return 1
        for f, result in client.submit_many(items(), window=args.window):
            if isinstance(result, GetileError):
                print("FAIL %s: %s" % (f, result))
                failures += 1
                continue
            png, stats = result
            out = os.path.join(args.output, dump_name(f) + ".png")
            with open(out, "wb") as fh:
                fh.write(png)
            print("ok   %s: %.1f ms, %d draws -> %s" % (f, stats.get("ms", 0.0), stats.get("draws", 0), out))
    print("%d dumps, %d failed" % (len(files), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
