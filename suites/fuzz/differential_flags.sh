# Sourced wherever the differential fuzzer runs (its ctest, tools/fuzz.sh --backend, the defect
# measurement): libFuzzer's flags for it. Inputs may be long at once (-len_control=0): the
# generators draw many choices, and an input that ends early makes every later choice the
# simplest.
differential_flags=(-timeout=10 -rss_limit_mb=2048 -max_len=4096 -len_control=0)
