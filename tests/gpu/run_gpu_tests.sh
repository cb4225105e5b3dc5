#!/usr/bin/env bash
# GPU end-to-end tests of `gpuscope run`: build the CUDA test programs, run each under
# `gpuscope run -o X.gst -- PROG X.expected.json`, and compare the trace's views with what the
# program says it did (tests/gpu/check_trace.py). Then, when PyTorch with CUDA is importable, a
# few training steps of a tiny CNN (tests/gpu/torch_step.py) the same way, and its report.
#
#   tests/gpu/run_gpu_tests.sh [--workdir DIR] [--no-torch]
#
# Environment: GPUSCOPE (default: build/gpuscope; the agent, libgpuscope_agent.so, must lie beside
# it), NVCC (default: nvcc on PATH, else $CUDA_HOME/bin/nvcc, else /usr/local/cuda/bin/nvcc),
# NVCC_ARCH (default: the GPU's compute capability from nvidia-smi, e.g. sm_90, else native),
# PYTHON (default: python3), GPU_TEST_TIMEOUT (seconds per traced run, default 600).
#
# Exit: 0 all passed, 1 a test failed, 2 setup error (no gpuscope, no agent, no python3),
# 77 skipped (no GPU, or no nvcc). Not part of CTest: run it by hand on a GPU machine.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=""
torch=1
while [ $# -gt 0 ]; do
    case "$1" in
        --workdir) work=${2:?--workdir needs a directory}; shift 2 ;;
        --no-torch) torch=0; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run_gpu_tests.sh: unknown argument: $1" >&2; exit 2 ;;
    esac
done

skip() { echo "SKIP: $*"; exit 77; }
setup_error() { echo "ERROR: $*"; exit 2; }

# ---- what this machine has --------------------------------------------------------------------
if ! command -v nvidia-smi >/dev/null 2>&1; then
    skip "no GPU: nvidia-smi is not installed"
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
    skip "no GPU: 'nvidia-smi -L' fails"
fi

nvcc=${NVCC:-}
if [ -z "$nvcc" ]; then
    if command -v nvcc >/dev/null 2>&1; then nvcc=$(command -v nvcc)
    elif [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ]; then nvcc=$CUDA_HOME/bin/nvcc
    elif [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc
    fi
fi
if [ -z "$nvcc" ] || ! "$nvcc" --version >/dev/null 2>&1; then
    skip "no nvcc (set NVCC or CUDA_HOME, or put nvcc on PATH)"
fi

python=${PYTHON:-python3}
command -v "$python" >/dev/null 2>&1 || setup_error "$python not found (check_trace.py needs it)"

gpuscope=${GPUSCOPE:-$root/build/gpuscope}
[ -x "$gpuscope" ] || setup_error "gpuscope binary not found at $gpuscope
       build it (cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j) or set GPUSCOPE"
agent=$(dirname "$gpuscope")/libgpuscope_agent.so
[ -f "$agent" ] || setup_error "agent not found at $agent (it must lie beside the gpuscope binary)"

arch=${NVCC_ARCH:-}
if [ -z "$arch" ]; then
    cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .\r')
    case "$cc" in
        [0-9][0-9]|[0-9][0-9][0-9]) arch=sm_$cc ;;
        *) arch=native ;;
    esac
fi

timeout_s=${GPU_TEST_TIMEOUT:-600}
timed() { # command...: run it with a time limit when coreutils' timeout is there
    if command -v timeout >/dev/null 2>&1; then
        timeout --kill-after=10 "$timeout_s" "$@"
    else
        "$@"
    fi
}

if [ -z "$work" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/gpuscope-gpu-tests.XXXXXX") || setup_error "mktemp failed"
fi
mkdir -p "$work" || setup_error "cannot create $work"
work=$(cd "$work" && pwd)

echo "== environment"
nvidia-smi -L
nvidia-smi --query-gpu=driver_version,compute_cap --format=csv,noheader 2>/dev/null | sed 's/^/driver, cc: /'
"$nvcc" --version | tail -n 1
echo "nvcc: $nvcc (-arch=$arch)"
echo "gpuscope: $gpuscope ($(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "agent: $agent"
echo "work dir: $work (traces, expected values, views, logs)"

passed=()
failed=()
pass() { echo "PASS $1"; passed+=("$1"); }
fail() { echo "FAIL $1${2:+: $2}"; failed+=("$1"); }

show_tail() { # file: the last lines of a log, indented
    echo "   --- last lines of $1"
    tail -n "${2:-25}" "$1" | sed 's/^/   | /'
}

# ---- check_trace.py checks its own checks -------------------------------------------------------
echo
echo "== check_trace.py --self-test"
if "$python" "$here/check_trace.py" --self-test >"$work/self_test.log" 2>&1; then
    pass "check_trace self-test"
else
    fail "check_trace self-test" "see $work/self_test.log"
    show_tail "$work/self_test.log"
fi

# ---- one CUDA program: build, run traced, check -------------------------------------------------
run_cuda_test() { # name (tests/gpu/NAME.cu)
    local name=$1 exe="$work/$1" trace="$work/$1.gst" exp="$work/$1.expected.json"
    local log="$work/$1.run.log" rc
    echo
    echo "== $name"
    rm -f "$trace" "$exp"
    echo "build: $nvcc -O2 -arch=$arch -o $exe $here/$name.cu"
    if ! "$nvcc" -O2 -arch="$arch" -o "$exe" "$here/$name.cu" >"$work/$name.build.log" 2>&1; then
        fail "$name build" "see $work/$name.build.log"
        show_tail "$work/$name.build.log"
        return
    fi
    pass "$name build"

    echo "run: $gpuscope run -o $trace -- $exe $exp"
    timed "$gpuscope" run -o "$trace" -- "$exe" "$exp" >"$log" 2>&1
    rc=$?
    show_tail "$log" 15
    if [ "$rc" -ne 0 ]; then
        fail "$name traced run" "exit $rc$([ "$rc" -eq 124 ] && echo " (timed out after ${timeout_s}s)"), see $log"
        return
    fi
    pass "$name traced run"
    if [ ! -s "$exp" ]; then
        fail "$name expected values" "$exp was not written"
        return
    fi
    if [ ! -f "$trace" ]; then
        fail "$name trace file" "$trace does not exist; the work dir holds:"
        find "$work" -maxdepth 1 -printf '   | %10s  %f\n'
        return
    fi
    pass "$name trace file ($(wc -c <"$trace") bytes)"

    echo "check: $python $here/check_trace.py --gpuscope $gpuscope --trace $trace --expected $exp --save-dir $work/$name.views"
    if "$python" "$here/check_trace.py" --gpuscope "$gpuscope" --trace "$trace" \
        --expected "$exp" --save-dir "$work/$name.views"; then
        pass "$name trace matches the program"
    else
        fail "$name trace matches the program" "FAIL lines above; views in $work/$name.views"
    fi

    if "$gpuscope" report "$trace" >"$work/$name.report.txt" 2>&1; then
        pass "$name report runs (output in $work/$name.report.txt)"
    else
        fail "$name report runs" "see $work/$name.report.txt"
        show_tail "$work/$name.report.txt"
    fi
}

run_cuda_test streams_copies

# ---- PyTorch ------------------------------------------------------------------------------------
echo
echo "== torch_step"
if [ "$torch" -eq 0 ]; then
    echo "SKIP torch_step: --no-torch"
elif ! "$python" -c "import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)" \
        >"$work/torch_probe.log" 2>&1; then
    echo "SKIP torch_step: '$python -c \"import torch; torch.cuda.is_available()\"' does not say yes"
    show_tail "$work/torch_probe.log" 5
else
    trace="$work/torch_step.gst"
    exp="$work/torch_step.expected.json"
    log="$work/torch_step.run.log"
    rm -f "$trace" "$exp"
    echo "run: $gpuscope run -o $trace -- $python $here/torch_step.py $exp"
    timed "$gpuscope" run -o "$trace" -- "$python" "$here/torch_step.py" "$exp" >"$log" 2>&1
    rc=$?
    show_tail "$log" 15
    if [ "$rc" -ne 0 ]; then
        fail "torch_step traced run" "exit $rc, see $log"
    elif [ ! -f "$trace" ]; then
        fail "torch_step trace file" "$trace does not exist; the work dir holds:"
        find "$work" -maxdepth 1 -printf '   | %10s  %f\n'
    else
        pass "torch_step traced run ($(wc -c <"$trace") bytes)"
        if "$python" "$here/check_trace.py" --gpuscope "$gpuscope" --trace "$trace" \
            --expected "$exp" --save-dir "$work/torch_step.views"; then
            pass "torch_step trace matches the program"
        else
            fail "torch_step trace matches the program" "FAIL lines above; views in $work/torch_step.views"
        fi
        echo "--- $gpuscope report $trace"
        "$gpuscope" report "$trace"
        rc=$?
        echo "---"
        if [ "$rc" -eq 0 ]; then pass "torch_step report"; else fail "torch_step report" "exit $rc"; fi
    fi
fi

# ---- on demand: a dormant run, then a window of 3 steps -------------------------------------------
echo
echo "== torch_step on demand"
if [ "$torch" -eq 0 ] || ! "$python" -c "import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)" \
        >/dev/null 2>&1; then
    echo "SKIP torch_step on demand: no PyTorch with CUDA (or --no-torch)"
else
    window="$work/torch_window.gst"
    log="$work/torch_window.run.log"
    rm -f "$window" "$work"/torch_window.*.gst
    # Enough steps for the capture to arrive while they run (a few ms each).
    timed "$gpuscope" run -q --on-demand -o "$work/torch_window.%w.gst" -- \
        "$python" "$here/torch_step.py" "$work/torch_window.expected.json" --steps 3000 >"$log" 2>&1 &
    launcher=$!
    pid=""
    for _ in $(seq 1 200); do
        pid=$(pgrep -P "$launcher" | head -n 1)
        [ -n "$pid" ] && grep -qs GPUSCOPE_CONTROL "/proc/$pid/environ" && break
        sleep 0.1
    done
    sleep 3 # past CUDA's start and the first steps
    echo "run: $gpuscope capture $pid --steps 3 -o $window"
    if "$gpuscope" capture "$pid" --steps 3 -o "$window" >"$work/torch_window.capture.log" 2>&1; then
        pass "capture on demand"
        if "$python" "$here/check_window.py" --gpuscope "$gpuscope" --trace "$window" --steps 3; then
            pass "the window holds its 3 steps and only their kernels"
        else
            fail "the window holds its 3 steps and only their kernels"
        fi
    else
        fail "capture on demand" "see $work/torch_window.capture.log"
        show_tail "$work/torch_window.capture.log"
    fi
    wait "$launcher"
    rc=$?
    if [ "$rc" -eq 0 ]; then pass "on-demand run keeps the program's status"; else fail "on-demand run" "exit $rc, see $log"; fi
fi

# ---- summary ------------------------------------------------------------------------------------
echo
echo "== summary: ${#passed[@]} passed, ${#failed[@]} failed (work dir $work)"
for t in ${failed[@]+"${failed[@]}"}; do echo "FAILED: $t"; done
[ "${#failed[@]}" -eq 0 ] || exit 1
echo "ALL GPU TESTS PASSED"
exit 0
