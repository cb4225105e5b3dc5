"""Hostile inputs for tests/hostile/test_hostile.py, made at run time in a scratch folder: large
ones cost little disk (sparse files, gzip members repeated) and nothing large is committed.

Each maker takes the scratch folder and returns the path to give gpuscope."""

import gzip
import os
import struct
import threading

# ---- Kineto JSON -----------------------------------------------------------------------------

def event(name, ts, dur, cat="cpu_op", pid=1, tid=1, extra=""):
    return ('{"ph": "X", "cat": "%s", "name": "%s", "pid": %d, "tid": %d, "ts": %s, "dur": %s%s}'
            % (cat, name, pid, tid, ts, dur, extra))


def trace(events, tail=""):
    return '{"traceEvents": [\n' + ",\n".join(events) + "\n]" + tail + "}\n"


def write(path, data):
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    return path


def good_trace(tmp, name="good.json"):
    """Two kernels under an operator: a trace every view reads."""
    return write(os.path.join(tmp, name), trace([
        event("aten::mm", 10, 50),
        event("cudaLaunchKernel", 12, 3, cat="cuda_runtime", extra=', "args": {"correlation": 7}'),
        event("gemm", 20, 25, cat="kernel", pid=0, tid=7, extra=', "args": {"correlation": 7}'),
        event("relu", 50, 5, cat="kernel", pid=0, tid=7),
    ]))


def gzip_member(data):
    return gzip.compress(data.encode() if isinstance(data, str) else data, 6)


def gzip_bomb_zeros(tmp):
    """1 GiB of zero bytes as 1024 gzip members of 1 MiB: about 1 MB on disk."""
    member = gzip_member(bytes(1 << 20))
    return write(os.path.join(tmp, "zeros.json.gz"), member * 1024)


def gzip_bomb_string(tmp):
    """A name of 1 GiB inside a valid start of a trace: the scanner's 64 MB cap stops it."""
    head = gzip_member('{"traceEvents": [{"ph": "X", "name": "')
    body = gzip_member(b"a" * (1 << 20))
    return write(os.path.join(tmp, "string.json.gz"), head + body * 1024)


def gzip_bomb_events(tmp, copies=1200):
    """12 M valid events (copies x 10 000), about 4 MB of gzip: what a memory limit is for."""
    block = ",\n".join(event("op", 1, 1) for _ in range(10000)) + ",\n"
    data = gzip_member('{"traceEvents": [\n') + gzip_member(block) * copies + gzip_member("{}]}\n")
    return write(os.path.join(tmp, "events.json.gz"), data)


def deep_nesting(tmp, depth=100000):
    """A value nested 100 000 deep in an event's args (skipped), and one never closed."""
    ok = trace([event("a", 1, 1, extra=', "args": {"Input Dims": ' + "[" * depth + "]" * depth
                      + "}")])
    write(os.path.join(tmp, "deep_open.json"), '{"traceEvents": [' + "[" * depth)
    return write(os.path.join(tmp, "deep.json"), ok)


def huge_string(tmp):
    """A 70 MB name: longer than the scanner holds (64 MB)."""
    path = os.path.join(tmp, "huge.json")
    with open(path, "wb") as f:
        f.write(b'{"traceEvents": [{"ph": "X", "name": "')
        for _ in range(70):
            f.write(b"n" * (1 << 20))
        f.write(b'"}]}')
    return path


def nan_infinity(tmp):
    return write(os.path.join(tmp, "nan.json"), trace([event("a", "NaN", "Infinity")]))


def duplicate_keys(tmp):
    """Keys given twice (the last wins), traceEvents twice (both read)."""
    dup = ('{"ph": "X", "cat": "cpu_op", "name": "first", "name": "second", "pid": 1, "tid": 1,'
           ' "ts": 1, "ts": 5, "dur": 3, "dur": 4}')
    return write(os.path.join(tmp, "dup.json"),
                 '{"traceEvents": [' + dup + '], "traceEvents": [' + event("third", 1, 3) + "]}")


def bad_utf8(tmp):
    """Invalid UTF-8, lone surrogates, an escaped NUL and a raw NUL inside names."""
    name = b'bad\xff\xfe\xc3( \\ud800 esc\\u0000aped raw\x00nul'
    data = b'{"traceEvents": [' + event("NAME", 1, 3).encode().replace(b"NAME", name) + b"]}"
    return write(os.path.join(tmp, "utf8.json"), data)


def extreme_times(tmp):
    """ts + dur past INT64_MAX (undefined behaviour before), 1e999, a negative duration, a time
    past 2^62 ns, among events that are fine."""
    return write(os.path.join(tmp, "extreme.json"), trace([
        event("fine", 10, 5),
        event("sum", "9223372036854775.807", 5, cat="kernel", pid=0, tid=7),
        event("inf", "1e999", 5),
        event("long", 10, "1e999"),
        event("negative", 10, -5),
        event("far", "4611686018427387.904", 0),
    ]))


def extreme_args(tmp):
    """Every numeric arg a view uses, at the int64 and double extremes: launch shapes, registers,
    occupancy, collective sizes, counter values; sizes at the model's bound (2^50 bytes) and, for
    one copy and one allocation, beyond it (those two are skipped)."""
    big, huge, edge = "9223372036854775807", "1e308", "1125899906842624"
    kernel_args = (', "args": {"blocks per SM": %s, "warps per SM": -%s, "est. achieved occupancy '
                   '%%": 1e999, "registers per thread": %s, "shared memory": %s, "grid": [%s, -5, '
                   '2147483647], "block": [2147483647, 2147483647, 2147483647], "device": %s, '
                   '"stream": %s, "correlation": %s}' % (huge, huge, big, big, big, big, big, big))
    copy_args = ', "args": {"bytes": %s, "device": 0, "stream": 7}'
    coll_args = (', "args": {"Collective name": "allreduce", "In msg nelems": %s, '
                 '"Out msg nelems": %s, "dtype": "Float", "Group size": %s}' % (big, big, big))
    mem_args = (', "args": {"Device Type": 1, "Device Id": 0, "Addr": %s, "Bytes": %%s, '
                '"Total Allocated": %%s, "Total Reserved": %%s}' % big)
    return write(os.path.join(tmp, "args.json"), trace([
        event("ProfilerStep#1", 0, 100, cat="user_annotation"),
        event("nccl:all_reduce", 1, 50, extra=coll_args),
        event("ncclKernel_AllReduce", 10, 20, cat="kernel", pid=0, tid=7, extra=kernel_args),
        event("Memcpy HtoD (Pageable -> Device)", 40, 5, cat="gpu_memcpy", pid=0, tid=7,
              extra=copy_args % edge),
        event("Memcpy DtoH (Device -> Pinned)", 45, 5, cat="gpu_memcpy", pid=0, tid=7,
              extra=copy_args % big),
    ] + ['{"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1, '
         '"ts": %d, "s": "t"%s}' % (5 + i, mem_args % (size, size, size))
         for i, size in enumerate([edge, edge, "-" + edge, big])] + [
        '{"ph": "C", "cat": "gpu_counter", "name": "util", "pid": 0, "tid": 0, "ts": 7, '
        '"args": {"value": 1e308}}',
    ], tail=', "deviceProperties": [{"id": 0, "name": "G", "totalGlobalMem": %s, "numSms": '
       '2147483647, "maxThreadsPerMultiprocessor": 2147483647}]' % big))


def too_long_in_all(tmp):
    """Three calls of 2^62 ns in one range: each fits, their sum does not."""
    big = "4611686018427387.000"
    return write(os.path.join(tmp, "long_sum.json"), trace([
        event("outer", 0, big), event("c1", 0, big, cat="cuda_runtime"),
        event("c2", "0.001", big, cat="cuda_runtime")]))


def sparse_file(tmp):
    """4 GiB of holes: reads as zeros, stops at byte 0."""
    path = os.path.join(tmp, "sparse.json")
    with open(path, "wb") as f:
        f.truncate(4 << 30)
    return path


def symlink_loop(tmp):
    a, b = os.path.join(tmp, "loop_a.json"), os.path.join(tmp, "loop_b.json")
    os.symlink(b, a)
    os.symlink(a, b)
    return a


def empty_folder(tmp):
    path = os.path.join(tmp, "no_traces")
    os.mkdir(path)
    write(os.path.join(path, "notes.txt"), "not a trace\n")
    return path


def fifo(tmp, name="fifo.json"):
    path = os.path.join(tmp, name)
    os.mkfifo(path)
    return path


def feed_fifo(path, data):
    """Writes data into the FIFO from a thread once a reader opens it."""
    def run():
        with open(path, "wb") as f:
            f.write(data.encode())
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


# ---- .gst --------------------------------------------------------------------------------------

GST_MAGIC = b"\x89GST\r\n\x1a\n"
I64_MAX, I64_MIN = 2**63 - 1, -2**63


def gst_header(epoch=0):
    return GST_MAGIC + struct.pack("<HHIIIq", 1, 0, 32, 1, 0, epoch)


def gst_record(rtype, payload):
    payload += b"\0" * (-len(payload) % 8)
    return struct.pack("<HHI", rtype, 0, 8 + len(payload)) + payload


def gst_chunk(records, claimed=None):
    body = b"".join(records)
    size = len(body) if claimed is None else claimed
    return struct.pack("<IHHII", 0x4B4E4843, 1, 0, size, len(records)) + body


def gst_string(sid, text):
    return gst_record(3, struct.pack("<III", sid, 0, len(text)) + text)


def gst_range(start, end, name=1):
    return gst_record(9, struct.pack("<qqqqIIB", start, end, 1, 1, name, 0, 0))


def gst_api(start, end, name=1):
    return gst_record(7, struct.pack("<qqqqQiIB", start, end, 1, 1, 0, -1, name, 0))


def gst_extreme(tmp):
    """Ends before starts and ends at the int64 extremes (the index overflowed on them), an
    empty string (the merge offset a null pointer), beside a range that is fine."""
    return write(os.path.join(tmp, "extreme.gst"), gst_header() + gst_chunk([
        gst_string(1, b"r"), gst_string(2, b""), gst_range(I64_MAX, I64_MIN),
        gst_range(I64_MIN, I64_MAX), gst_range(50, 10), gst_range(100, 200),
        gst_api(120, 150)]))


def gst_truncated(tmp, fixture):
    """The fixture cut inside a chunk: a killed writer."""
    with open(fixture, "rb") as f:
        data = f.read()
    return write(os.path.join(tmp, "torn.gst"), data[:2000])


def gst_oversized(tmp):
    """A chunk that claims more than the 64 MiB a chunk may hold."""
    return write(os.path.join(tmp, "oversized.gst"),
                 gst_header() + gst_chunk([gst_range(1, 2)], claimed=(64 << 20) + 1))


def gst_huge_claim(tmp):
    """A chunk that claims 60 MiB in a file of 100 bytes: torn, read without 60 MiB."""
    return write(os.path.join(tmp, "claim.gst"),
                 gst_header() + gst_chunk([gst_range(1, 2)], claimed=60 << 20))


# ---- monitor log -------------------------------------------------------------------------------

def monitor_huge_value(tmp):
    return write(os.path.join(tmp, "huge.jsonl"),
                 '{"ts": 1700000000, "gpu": 0, "gpu_mem_used_bytes": 4.3e20}\n')
