"""python -m accelpy {demo,info,bench}"""

import argparse
import sys


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m accelpy", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="a short tour, timed against NumPy")
    sub.add_parser("info", help="versions, devices, libraries found")
    bench = sub.add_parser("bench", help="the CPU benchmarks (bench/cpu.py)")
    bench.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.command == "demo":
        from ._demo import run

        return run()
    if args.command == "info":
        from ._info import info_text

        print(info_text())
        return 0
    from ._bench import run as run_bench

    return run_bench(args.args)


if __name__ == "__main__":
    sys.exit(main())
