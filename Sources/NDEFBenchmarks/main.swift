import NDEF

print("benchmarks: not yet")
