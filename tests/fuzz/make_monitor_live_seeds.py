"""Writes the seed corpus of fuzz_monitor_live (tests/fuzz/corpus/monitor_live/): inputs laid out
as tests/fuzz/fuzz_monitor_live.c reads them (a host, a fake /proc, then the fake NVML's answers
call by call), for a few machines: one GPU as a quiet H100 reads, two GPUs with processes and
PCIe traffic, a GPU answering NVML's all-ones "not available" and errors, a host with no GPU.

    python3 tests/fuzz/make_monitor_live_seeds.py      # from the source root
"""
import os
import struct

OUT = "tests/fuzz/corpus/monitor_live"
OK, NOT_SUPPORTED, UNKNOWN = 0, 4, 7  # indexes into the target's table of return codes


def number(v, width, all_ones=False):
    """A number: a byte saying how (bit 0: full width, bit 1: all ones), then its bytes."""
    how = (1 if v >= 1 << 16 else 0) | (2 if all_ones else 0)
    return bytes([how]) + v.to_bytes(8, "little")[:width if how & 1 else 2]


def text(s):
    b = s.encode()
    return bytes([len(b)]) + b


def string(s, rc=OK):
    return bytes([rc]) + text(s)


def proc_files(comms, stat, meminfo):
    out = text(stat) + text(meminfo)
    for i in range(8):
        out += text(comms[i] + "\n" if i < len(comms) else "")
    return out


def gpu_open(i, name):
    return (bytes([OK]) + string(name) + string(f"GPU-{i:08x}-0000-0000-0000-000000000000") +
            string(f"00000000:{0x18 + i:02X}:00.0") + number(85 << 30, 8) + number(0, 8) +
            bytes([OK]) + bytes([9, 0, OK]))


def gpu_sample(util, used, mw, throttle=0, procs=(), pcie=True, ones=False, rc=OK):
    out = number(util, 4, ones) + number(util // 2, 4, ones) + bytes([rc])
    out += number(85 << 30, 8, ones) + number(used, 8, ones) + bytes([rc])
    out += number(mw, 4, ones) + bytes([rc])
    for v in (45, 1980, 2619):  # temperature, SM clock, memory clock
        out += number(v, 4, ones) + bytes([rc])
    out += number(throttle, 8, ones) + bytes([rc])
    if pcie:
        out += number(1000, 4) + bytes([OK]) + number(2000, 4) + bytes([NOT_SUPPORTED])
    out += bytes([OK, 0, len(procs)])
    for pid, mem in procs:
        out += bytes([pid]) + number(mem, 8, ones)
    return out


def seed(ngpus, host, comms, body):
    ts = struct.pack("<Q", 1795800000123)[:6]
    stat = "cpu  100 0 50 1000 10 0 0 0\n"
    mem = "MemTotal: 263858676 kB\nMemFree: 1000 kB\nMemAvailable: 250000000 kB\n"
    return bytes([ngpus]) + text(host) + ts + proc_files(comms, stat, mem) + body + \
        text("cpu  180 0 70 1100 10 0 0 0\n")


SEEDS = {
    "one_gpu.bin": seed(1, "node-1", ["python"], gpu_open(0, "NVIDIA H100 80GB HBM3") +
                        gpu_sample(0, 600 << 20, 70000, throttle=1) +
                        gpu_sample(0, 600 << 20, 70000, throttle=1, pcie=False)),
    "two_gpus_procs.bin": seed(2, "gpu-host", ["python", "torchrun", "pt_main_thread"],
                               gpu_open(0, "NVIDIA A100-SXM4-80GB") +
                               gpu_open(1, "NVIDIA A100-SXM4-80GB") +
                               gpu_sample(98, 70 << 30, 350000,
                                          procs=[(0, 40 << 30), (1, 30 << 30)]) +
                               gpu_sample(97, 71 << 30, 340000, throttle=4, procs=[(2, 71 << 30)])),
    "all_ones.bin": seed(1, "broken", ["\x1b[2Jname"], gpu_open(0, "GPU \"quoted\"\n") +
                         gpu_sample(1, 1, 1, procs=[(0x80, 1), (3, 1)], ones=True) +
                         gpu_sample(1, 1, 1, rc=UNKNOWN, pcie=False)),
    "no_gpu.bin": seed(0, "cpu-only", [], b""),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        print(f"{OUT}/{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
