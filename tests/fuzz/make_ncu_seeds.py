"""Writes the seed corpus of fuzz_ncu (tests/fuzz/corpus/ncu/): small Nsight Compute CSV exports
of both pages in the layouts ncu --csv writes, made up here (no copy of a real export), with the
shapes the reader must handle: ncu's own message lines, quoted commas, doubled quotes and newlines
in rule descriptions, numbers with thousands separators, a units row, two exports concatenated.

    python3 tests/fuzz/make_ncu_seeds.py      # from the source root
"""
import os

OUT = "tests/fuzz/corpus/ncu"
HEAD = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",'
        '"Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit",'
        '"Metric Value","Rule Name","Rule Type","Rule Description","Estimated Speedup Type",'
        '"Estimated Speedup"')


def row(i, name, block, grid, rest):
    return f'"{i}","7","app","host","{name}","1","7","{block}","{grid}","0","9.0",{rest}'


def details(kernels):
    lines = ["==PROF== Connected to process 7 (/usr/bin/app)", HEAD]
    for i, (name, block, grid) in enumerate(kernels):
        k = (i, name, block, grid)
        lines += [
            row(*k, '"GPU Speed Of Light Throughput","Duration","usecond","1,234.50",'),
            row(*k, '"GPU Speed Of Light Throughput","Compute (SM) Throughput","%","61.20",'),
            row(*k, '"GPU Speed Of Light Throughput","Memory Throughput","%","12.05",'),
            row(*k, '"Occupancy","Block Limit Registers","block","2",'),
            row(*k, '"Occupancy","Block Limit Shared Mem","block","3",'),
            row(*k, '"Occupancy","Theoretical Occupancy","%","25",'),
            row(*k, '"Occupancy","Achieved Occupancy","%","22.9",'),
            row(*k, '"Occupancy","","","","TheoreticalOccupancy","OPT","Limited by ""registers"", '
                    'see\nthe Launch Statistics","local","75"'),
        ]
    lines.append("==PROF== Disconnected from process 7")
    return "\n".join(lines) + "\n"


RAW_COLS = ["gpu__time_duration.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed",
            "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed",
            "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed",
            "smsp__cycles_elapsed.avg.per_second", "dram__bytes.sum.per_second",
            "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained",
            "sm__cycles_elapsed.avg.per_second", "dram__bytes.sum.peak_sustained",
            "dram__cycles_elapsed.avg.per_second", "launch__occupancy_limit_warps"]


def raw():
    head = '"ID","Kernel Name","Block Size","Grid Size",' + ",".join(f'"{c}"' for c in RAW_COLS)
    units = '"","","","","nsecond","%","inst/cycle","inst/cycle","hz","byte/s","inst/cycle","hz",' \
            '"byte/cycle","hz","block"'
    data = ('"0","gemm_kernel","(128, 1, 1)","(4, 2, 1)","2,048","33.5","10","35","1,500,000,000",'
            '"900,000,000,000","128","1,500,000,000","1,280","2,600,000,000","4"')
    return "\r\n".join([head, units, data]) + "\r\n"


def main():
    os.makedirs(OUT, exist_ok=True)
    seeds = {
        "details_two_kernels.csv": details([
            ("nvjet_sm90_tst_128x128_64x4_h_bz_NNT", "(384, 1, 1)", "(2, 66, 1)"),
            ("void at::<unnamed>::norm_kernel<float, 0>(int, T2, const T1 *)", "(32, 4, 1)",
             "(4096, 1, 1)")]),
        "raw_one_kernel.csv": raw(),
        "two_exports.csv": details([("k", "(1, 1, 1)", "(1, 1, 1)")]) +
                           details([("k", "(1, 1, 1)", "(1, 1, 1)")]),
        "mangled_name.csv": details([("_ZN2at6native6kernelIfEEviPT_", "(256, 1, 1)",
                                      "(80, 1, 1)")]),
    }
    for name, text in seeds.items():
        with open(os.path.join(OUT, name), "w", newline="") as f:
            f.write(text)


if __name__ == "__main__":
    main()
