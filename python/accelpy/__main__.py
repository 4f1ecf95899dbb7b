"""python -m accelpy {demo,info,bench}"""

import argparse
import sys


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m accelpy", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="a short tour, timed against NumPy")
    sub.add_parser("info", help="versions, devices and memory, libraries found, kernel cache, "
                                "settings")
    sub.add_parser("bench", add_help=False,
                   help="accelpy beside the libraries installed here, on every device: a table, "
                        "JSON and a PNG chart (see python -m accelpy bench --help)")
    args, rest = parser.parse_known_args(argv)
    if args.command != "bench" and rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "demo":
        from ._demo import run

        return run()
    if args.command == "info":
        from ._info import info_text

        print(info_text())
        return 0
    from ._bench import run as run_bench

    return run_bench(rest)


if __name__ == "__main__":
    sys.exit(main())
