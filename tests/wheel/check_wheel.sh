#!/bin/bash
# The wheel, end to end (doc/python.md): scripts/wheel.sh builds and repairs it (its
# `auditwheel show` tag is printed), it is installed into a fresh venv whose PATH holds nothing but
# that venv (no compiler, no cmake), and there: `gpuscope report` on the bundled example prints
# what the CMake build prints, `gpuscope run` records tests/run/nvtx_target with the bundled
# agent, `python -m gpuscope` is the binary (same process, argv, exit status, signal defaults),
# SQLite is loaded at run time, and the Python API gives the CLI's JSON rows, as lists of dicts
# and (after `pip install pandas`) as DataFrames, on the example and on two real profiles from
# ../shared/traces (that part is skipped without them); doc/python.md's example prints what it
# shows. Skipped (77) when PyPI cannot be reached. Nothing is cached between runs.
#
#   bash tests/wheel/check_wheel.sh path/to/gpuscope     # from the source root; the CMake build
set -u
ref=${1:?usage: check_wheel.sh GPUSCOPE}
nvtx=$(dirname "$ref")/nvtx_target
[ -x "$nvtx" ] || { echo "skip: the agent was not built (no CUDA toolkit headers: set CUDA_HOME)"; exit 77; }
source tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 ZIG_GLOBAL_CACHE_DIR=$tmp/zig-cache
unset GPUSCOPE_BINARY CUDA_INJECTION64_PATH NVTX_INJECTION64_PATH
start=$SECONDS
step() { echo "== $* (at $((SECONDS - start)) s)"; }

venv=$tmp/venv
python3 -m venv "$venv" || { echo "FAIL python3 -m venv (Debian: python3-venv)"; exit 1; }
if ! "$venv/bin/pip" download -q --no-deps --timeout 20 --retries 1 -d "$tmp/probe" \
    scikit-build-core >"$tmp/probe.log" 2>&1; then
    echo "skip: PyPI cannot be reached, so the wheel cannot be built: $(tail -1 "$tmp/probe.log")"
    exit 77
fi

step "build and repair the wheel (scripts/wheel.sh)"
if ! GS_WHEEL_WORK=$tmp/work scripts/wheel.sh "$tmp/dist" >"$tmp/wheel.log" 2>&1; then
    cat "$tmp/wheel.log"
    echo "FAIL scripts/wheel.sh"
    exit 1
fi
version=$(cat VERSION)
wheel=$(ls "$tmp"/dist/*.whl)
show=$(tr '\n' ' ' <"$tmp/wheel.log")
consistent=$(grep -o 'consistent with the following platform tag: *"[^"]*"' <<<"$show" |
             grep -o 'manylinux_[0-9_a-z]*')
echo "wheel: $(basename "$wheel"), $(stat -c %s "$wheel") bytes"
echo "auditwheel show: tagged $(grep -o 'manylinux_[0-9]*_[0-9]*_[a-z0-9_]*' <<<"$(basename "$wheel")"), consistent with $consistent"
check "wheel name" "$(basename "$wheel")" "gpuscope-$version-py3-none-manylinux_2_28_$(uname -m).whl"
# The floor auditwheel finds from the symbol versions must be at or below glibc 2.28.
minor=$(sed -E 's/manylinux_2_([0-9]+)_.*/\1/' <<<"$consistent")
check "auditwheel's floor at or below 2.28" "$([ -n "$minor" ] && [ "$minor" -le 28 ] && echo yes)" yes

step "install into a fresh venv; PATH: the venv and the few tools this script uses"
mkdir "$tmp/tools"
for tool in basename cat diff dirname grep head rm sort tr; do
    ln -s "$(command -v $tool)" "$tmp/tools/$tool"
done
export PATH=$venv/bin:$tmp/tools
for tool in cc gcc clang cmake ld zig; do
    check "no $tool on PATH" "$(command -v $tool)" ""
done
"$venv/bin/pip" install -q "$wheel" || { echo "FAIL pip install $wheel"; exit 1; }
check "gpuscope on PATH" "$(command -v gpuscope)" "$venv/bin/gpuscope"
bundled=$(python -c 'import gpuscope; print(gpuscope.binary())')
for ld_so in /lib64/ld-linux-*.so.* /lib/ld-linux-*.so.*; do [ -x "$ld_so" ] && break; done
for elf in "$bundled" "$(dirname "$bundled")/libgpuscope_agent.so"; do
    # What the dynamic loader maps: the C library and zlib, which every manylinux system has, and
    # what auditwheel bundled into the wheel (ISA-L), found inside the venv.
    check "libraries of $(basename "$elf") beyond libc, zlib and the wheel's own" "$("$ld_so" --list "$elf" | VENV="$venv" python -c '
import os, re, sys
venv = os.path.realpath(os.environ["VENV"])
lines = [line.split() for line in sys.stdin if line.strip()]
print(" ".join(l[0] for l in lines
               if not re.match(r"(linux-vdso|libc|libm|libz|libpthread|libdl)\.so|/.*/ld-linux", l[0])
               and not (len(l) > 2 and os.path.realpath(l[2]).startswith(venv + "/"))))')" ""
done

step "the command"
check "gpuscope --version" "$(gpuscope --version)" "gpuscope $version"
check "python -m gpuscope --version" "$(python -m gpuscope --version)" "gpuscope $version"
check "gpuscope.__version__" "$(python -c 'import gpuscope; print(gpuscope.__version__)')" "$version"
for args in "report examples/train.json.gz" "report --format json examples/train.json.gz" \
    "kernels --by-launch --limit 5 examples/train.json.gz"; do
    ran=$((ran + 1))
    # shellcheck disable=SC2086
    diff <("$ref" $args 2>&1) <(python -m gpuscope $args 2>&1) >/dev/null ||
        fail "gpuscope $args: the wheel prints something else than the CMake build"
done
python -m gpuscope kernels --no-such-option examples/train.json.gz 2>/dev/null
check "usage error's exit status" $? 2
gpuscope report "$tmp/absent.json" 2>/dev/null
check "bad input's exit status" $? 3
# exec: the program gpuscope run starts is the child of the very process python -m started.
python -m gpuscope run -o "$tmp/ppid.gst" -- /bin/sh -c 'echo $PPID' >"$tmp/ppid" 2>/dev/null &
pid=$!
wait $pid
check "python -m gpuscope execs the binary (same pid)" "$(cat "$tmp/ppid")" "$pid"
# Python ignores SIGPIPE; the binary (and what it runs) must not inherit that.
sigign() { "$@" run -o "$tmp/sig-$#.gst" -- /bin/grep SigIgn /proc/self/status 2>/dev/null; }
check "signal dispositions through python -m" "$(sigign python -m gpuscope)" "$(sigign "$ref")"

step "gpuscope run with the bundled agent"
out=$(gpuscope run -o "$tmp/ranges.gst" -- "$nvtx" ranges 0 2>/dev/null)
check "run: exit status" $? 0
check "run: the program's stdout" "$out" "target stdout line"
calls=$(gpuscope ops --format json "$tmp/ranges.gst" | python -c '
import json, sys
rows = sorted(json.load(sys.stdin)["rows"], key=lambda r: r["name"])
print(" ".join("%s=%d" % (r["name"], r["calls"]) for r in rows))')
check "run: NVTX ranges recorded" "$calls" "async=1 child=2 inner=3 outer=1 registered-range=2 work-item=20 worker=10"
gpuscope export --format sqlite -o "$tmp/ranges.db" "$tmp/ranges.gst"
check "export --format sqlite (SQLite loaded at run time)" "$(head -c 15 "$tmp/ranges.db")" "SQLite format 3"

step "the Python API without pandas"
python tests/wheel/check_api.py --records examples/train.json.gz || fail "API without pandas"
ran=$((ran + 1))

step "the Python API with pandas"
"$venv/bin/pip" install -q pandas || { echo "FAIL pip install pandas"; exit 1; }
traces=../shared/traces
profiles=(examples/train.json.gz)
if [ -d "$traces" ]; then
    profiles+=("$traces/tokenomics/llama_trace_4layers0_with_annotations.json.gz,$traces/tokenomics/llama_trace_4layers1_with_annotations.json.gz"
               "$traces/switch_transformers/result/trace.json.gz")
else
    echo "skipped: $traces is absent, the API is checked on the bundled example only"
fi
python tests/wheel/check_api.py "${profiles[@]}" || fail "API with pandas"
ran=$((ran + 1))
python tests/wheel/check_python_doc.py || fail "doc/python.md's example"
ran=$((ran + 1))

echo "wheel test took $((SECONDS - start)) s"
finish
