#!/bin/bash
# gpuscope run's Python hooks change nothing for a Python program that never imports torch
# (doc/run.md, "Python programs"): with -q, its stdout, stderr and exit status are those of the
# same program run without gpuscope, sys.path is the same, and a sitecustomize of its own on
# PYTHONPATH still runs (also one that fails: Python reports it as it would have). A fake torch
# package checks that the hooks wait for `import torch` and never break it. --python-hooks off
# leaves PYTHONPATH alone. No PyTorch needed (tests/run/torch_hooks.sh has the real one).
#
#   bash tests/cli/test_python_hooks.sh path/to/gpuscope        # run from the source root
set -u
exe=${1:?usage: test_python_hooks.sh GPUSCOPE}
bin=$(dirname "$exe")
[ -x "$exe" ] || { echo "skip: $exe is not built"; exit 77; }
if [ ! -f "$bin/libgpuscope_agent.so" ] || [ ! -f "$bin/python-hooks/sitecustomize.py" ]; then
    echo "skip: the agent was not built (no CUDA toolkit headers: set CUDA_HOME)"
    exit 77
fi
source tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset CUDA_INJECTION64_PATH NVTX_INJECTION64_PATH PYTHONPATH GPUSCOPE_AGENT GPUSCOPE_TORCH_OPS

# same NAME -- COMMAND...: COMMAND alone and under `gpuscope run -q` give the same stdout, stderr
# and exit status.
same() {
    local name=$1
    shift 2
    (cd "$tmp" && "$@" >"$tmp/plain.out" 2>"$tmp/plain.err")
    local want=$?
    (cd "$tmp" && "$exe" run -q -f -o "$tmp/t.gst" -- "$@" >"$tmp/run.out" 2>"$tmp/run.err")
    local got=$?
    check "$name: exit status" "$got" "$want"
    check "$name: stdout" "$(cat "$tmp/run.out")" "$(cat "$tmp/plain.out")"
    check "$name: stderr" "$(cat "$tmp/run.err")" "$(cat "$tmp/plain.err")"
}

# A program that never imports torch: output on both streams, sys.path, modules, exit status 3.
cat >"$tmp/plain.py" <<'EOF'
import json, os, sys
print("argv", sys.argv[1:])
print("path", json.dumps(sys.path))
print("torch" in sys.modules, file=sys.stderr)
sys.exit(3)
EOF
same "no torch" -- python3 plain.py a "b c"
check "no torch: the program ran" "$(head -1 "$tmp/run.out")" "argv ['a', 'b c']"
check "no torch: the run folder is gone" "$(ls -d "$tmp"/.gpuscope-run-* 2>/dev/null)" ""

# The program's own sitecustomize on PYTHONPATH: it runs (its output, its variable), once.
mkdir -p "$tmp/site"
cat >"$tmp/site/sitecustomize.py" <<'EOF'
import builtins, sys
builtins.SITE_RAN = getattr(builtins, "SITE_RAN", 0) + 1
print("own sitecustomize ran", file=sys.stderr)
EOF
cat >"$tmp/own.py" <<'EOF'
import builtins, json, os, sys
import sitecustomize
print("ran", getattr(builtins, "SITE_RAN", 0), "from", os.path.basename(os.path.dirname(sitecustomize.__file__)))
print("path", json.dumps(sys.path))
EOF
PYTHONPATH=$tmp/site same "own sitecustomize" -- python3 own.py
check "own sitecustomize: ran once" "$(head -1 "$tmp/run.out")" "ran 1 from site"

# One that fails: Python's own report of it, and the program goes on.
cat >"$tmp/site/sitecustomize.py" <<'EOF'
print("before the failure")
raise RuntimeError("broken site")
EOF
PYTHONPATH=$tmp/site same "failing sitecustomize" -- python3 plain.py
check "failing sitecustomize: reported" "$(head -1 "$tmp/run.err")" \
    "Error in sitecustomize; set PYTHONVERBOSE for traceback:"
rm "$tmp/site/sitecustomize.py"

# A fake torch: the hooks load once it is imported, find no real torch API, and change nothing
# the program sees (its module, its exception-free import, its output).
mkdir -p "$tmp/fake/torch"
echo 'VALUE = 42' >"$tmp/fake/torch/__init__.py"
cat >"$tmp/fake.py" <<'EOF'
import sys
import torch
print("torch", torch.VALUE, torch.__name__, type(torch.__spec__.loader).__name__)
print("exec_module patched", "exec_module" in vars(torch.__spec__.loader))
print("meta_path", [getattr(f, "__name__", type(f).__name__) for f in sys.meta_path])
print("path", sys.path)
EOF
PYTHONPATH=$tmp/fake same "fake torch" -- python3 fake.py
check "fake torch: imported" "$(head -1 "$tmp/run.out")" "torch 42 torch SourceFileLoader"

# The environment: PYTHONPATH has the hooks first, then the program's; off leaves it alone.
echo 'import os; print(os.environ.get("PYTHONPATH"))' >"$tmp/env.py"
out=$(cd "$tmp" && PYTHONPATH=/x:/y "$exe" run -q -f -o "$tmp/t.gst" -- python3 env.py)
check "PYTHONPATH: hooks first" "$out" "$(cd "$bin" && pwd -P)/python-hooks:/x:/y"
out=$(cd "$tmp" && PYTHONPATH=/x:/y "$exe" run -q -f --python-hooks=off -o "$tmp/t.gst" -- python3 env.py)
check "--python-hooks=off: PYTHONPATH unchanged" "$out" "/x:/y"
out=$(cd "$tmp" && "$exe" run -q -f --python-hooks off -o "$tmp/t.gst" -- python3 env.py)
check "--python-hooks off: PYTHONPATH unset" "$out" "None"
out=$(cd "$tmp" && "$exe" run -q -f --trace cuda,sampler -o "$tmp/t.gst" -- python3 env.py)
check "--trace without nvtx: no hooks" "$out" "None"
check_error 2 "$exe" run --python-hooks maybe -- true
check_error 2 "$exe" run --python-hooks off --torch-ops -- true

finish
