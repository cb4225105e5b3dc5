"""Hostile recorded arguments for the vector operators' traffic model (doc/roofline.md, "vector
operators"; run by tests/hostile/test_hostile.py): dims out of range, sizes no tensor has, more
dimensions than a shape holds, a ScalarType number out of range, an output_mask cut short. Each
operator launches one kernel, so each has its row on the roofline; none may crash, read out of
bounds (the --sanitized build), or print inf or nan: what cannot be sized is unknown."""

import os

import hostile_inputs as h
from hostile_case import Case

F = '"float"'
S = '"Scalar"'
# name, Input Dims, Input type, Concrete Inputs (JSON text, as torch.profiler writes them)
CALLS = [
    ("aten::sum", "[[4, 8], [], []]", f"[{F}, {S}, {S}]", '["", "[1e300]", "True"]'),
    ("aten::amax", "[[4, 8], [], []]", f"[{F}, {S}, {S}]", '["", "[-1e300, 99, -3]", "False"]'),
    ("aten::index_select", "[[10, 4], [], [3]]", f'[{F}, {S}, "long int"]', '["", "-1e300", ""]'),
    ("aten::mul", "[[1e200, 1e200], [1e200, 1e200]]", f"[{F}, {F}]", '["", ""]'),
    ("aten::add", "[[-5, 3], [-5, 3], []]", f"[{F}, {F}, {S}]", '["", "", "1"]'),
    ("aten::neg", "[[1, 2, 3, 4, 5, 6, 7, 8, 9]]", f"[{F}]", '[""]'),
    ("aten::_softmax_backward_data", "[[4, 8], [4, 8], [], []]", f"[{F}, {F}, {S}, {S}]",
     '["", "", "1", "1e300"]'),
    ("aten::embedding_dense_backward", "[[2, 8], [2], [], [], []]",
     f'[{F}, "long int", {S}, {S}, {S}]', '["", "", "1e308", "-1", "False"]'),
    ("aten::native_group_norm", "[[2, 4, 3], [4], [4], [], [], [], [], []]",
     f"[{F}, {F}, {F}, {S}, {S}, {S}, {S}, {S}]", '["", "", "", "2", "4", "3", "-1e308", "1e-5"]'),
    ("aten::native_layer_norm_backward",
     "[[4, 8], [4, 8], [], [4, 1], [4, 1], [8], [8], []]",
     f'[{F}, {F}, "ScalarList", {F}, {F}, {F}, {F}, "ScalarList"]',
     '["", "", "[8]", "", "", "", "", "[True, \\"Fa"]'),
    ("aten::native_batch_norm", "[[8], [], [], [], [], [], [], []]",
     f'[{F}, "", "", "", "", {S}, {S}, {S}]', '["", "", "", "", "", "True", "0.1", "1e-5"]'),
]


def hostile_args(tmp):
    """Each call of CALLS launches a 10 us kernel, one after the other in one step."""
    events = [h.event("ProfilerStep#1", 0, 100000, cat="user_annotation")]
    for i, (name, dims, types, concrete) in enumerate(CALLS):
        ts, corr = 100 + 1000 * i, i + 1
        events += [h.event(name, ts, 100, extra=', "args": {"Input Dims": %s, "Input type": %s, '
                           '"Concrete Inputs": %s}' % (dims, types, concrete)),
                   h.event("cudaLaunchKernel", ts + 10, 5, cat="cuda_runtime",
                           extra=', "args": {"correlation": %d}' % corr),
                   h.event("vector_kernel_%d" % i, ts + 50, 10, cat="kernel", pid=0, tid=7,
                           extra=', "args": {"device": 0, "stream": 7, "correlation": %d}' % corr)]
    return h.write(os.path.join(tmp, "vector_args.json"), h.trace(events))


# Every operator has its row, and no number is inf or nan (json.loads would take them).
EVERY_ROW_FINITE = (r"(?s)\A(?!.*\b(?:inf|nan|Infinity|NaN)\b)" +
                    "".join(r"(?=.*\"name\": \"%s\")" % name for name, _, _, _ in CALLS))


def cases():
    return [
        Case("vector operators with hostile recorded arguments: rows, nothing infinite",
             hostile_args, ["ops", "--roofline", "--group-by-shape", "--format", "json", "{}"],
             0, "", secs=5, mb=60, out=EVERY_ROW_FINITE),
    ]
