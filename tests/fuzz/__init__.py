"""The differential fuzzer: random programs run on NumPy and on accelpy, compared statement by
statement (generator.py draws them, runner.py runs and compares them, known.py lists the
mismatch classes being fixed, test_fuzz.py is the pytest entry)."""
