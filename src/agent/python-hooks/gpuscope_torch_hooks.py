# What gpuscope run's Python hook marks once the program has imported torch (doc/run.md, "Python
# programs"). Loaded by sitecustomize.py from this folder; records through the agent's own C API
# (src/agent/gpuscope_marks.h), loaded with ctypes from $GPUSCOPE_AGENT, so it needs no NVTX and
# works on the CPU build of PyTorch as on the CUDA one:
#   - training steps: a range ProfilerStep#N per step, from the end of the previous step to the
#     end of the optimizer step that closes this one (torch.optim's global step post-hooks). Step 0
#     starts at the first DataLoader fetch or the first nn.Module call, whichever comes first
#     (not at start-up). With several optimizers, a step is the cycle they repeat (a GAN's D then G
#     is one step). Nothing is marked for steps when the program opens ProfilerStep#N ranges itself.
#   - DataLoader fetches: each __next__ of a DataLoader iterator as the range PyTorch names
#     `enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__` (the TensorBoard plugin's
#     DataLoader category).
#   - with GPUSCOPE_TORCH_OPS=1 (--torch-ops): every aten operator as a range named as
#     torch.autograd.profiler.emit_nvtx names it ("aten::mm, op_id = 7"), so `gpuscope ops` lists it.
# Nothing here may break the program: every failure of gpuscope's own is swallowed, and the
# program's own exceptions pass through unchanged.
import atexit
import ctypes
import functools
import os
import threading
import time

STEP_PREFIX = "ProfilerStep#"


def _load_agent():
    lib = ctypes.CDLL(os.environ["GPUSCOPE_AGENT"])
    lib.gpuscope_range_push.argtypes = [ctypes.c_char_p]
    lib.gpuscope_range_push.restype = ctypes.c_int
    lib.gpuscope_range_pop.argtypes = []
    lib.gpuscope_range_pop.restype = ctypes.c_int
    lib.gpuscope_range_at.argtypes = [ctypes.c_char_p, ctypes.c_int64, ctypes.c_int64]
    lib.gpuscope_range_at.restype = ctypes.c_int
    lib.gpuscope_recording.argtypes = []
    lib.gpuscope_recording.restype = ctypes.c_int
    lib.gpuscope_program_marks_steps.argtypes = []
    lib.gpuscope_program_marks_steps.restype = ctypes.c_int
    return lib


class _Steps:
    """Training steps from optimizer steps, emitted as whole ranges once their end is known."""

    def __init__(self, lib):
        self.lib = lib
        self.lock = threading.Lock()
        self.number = 0
        self.start = None  # when the current step began (ns), None before the first activity
        self.cycle_last = None  # the optimizer whose step ends a training step, once learnt
        self.seen = []  # optimizers stepped in step 0, while the cycle is being learnt
        self.last_end = None
        self.first_call_hook = None
        self.off = False

    def activity(self):
        """A DataLoader fetch or a module call: step 0 starts at the first one."""
        if self.start is None:
            self.start = time.time_ns()

    def _emit(self, start, end):
        name = (STEP_PREFIX + str(self.number)).encode()
        self.number += 1
        self.lib.gpuscope_range_at(name, start, end)

    def optimizer_stepped(self, optimizer):
        end = time.time_ns()
        with self.lock:
            if self.off:
                return
            if self.lib.gpuscope_program_marks_steps():
                self.off = True  # the program marks its own steps
                return
            if self.first_call_hook is not None:
                self.first_call_hook.remove()  # outside any module call: safe to remove here
                self.first_call_hook = None
            if self.start is None:
                self.start = end
            key = id(optimizer)
            if self.cycle_last is not None:
                if key == self.cycle_last:
                    self._emit(self.start, end)
                    self.start = end
                return
            if key not in self.seen:
                self.seen.append(key)
                self.last_end = end
                return
            # An optimizer steps a second time: step 0 was every optimizer seen so far.
            self.cycle_last = self.seen[-1]
            self._emit(self.start, self.last_end)
            self.start = self.last_end
            self.seen = []
            if key == self.cycle_last:
                self._emit(self.start, end)
                self.start = end

    def at_exit(self):
        """A program that stepped once, or whose cycle was never completed: its one step."""
        with self.lock:
            if not self.off and self.cycle_last is None and self.seen:
                self._emit(self.start, self.last_end)
                self.seen = []


def _install_steps(torch, lib):
    steps = _Steps(lib)
    from torch.optim.optimizer import register_optimizer_step_post_hook

    def post_hook(optimizer, args, kwargs):
        try:
            steps.optimizer_stepped(optimizer)
        except Exception:
            pass

    register_optimizer_step_post_hook(post_hook)

    def first_call(module, args):
        if steps.start is None:
            steps.start = time.time_ns()

    try:
        from torch.nn.modules.module import register_module_forward_pre_hook

        steps.first_call_hook = register_module_forward_pre_hook(first_call)
    except Exception:
        pass
    atexit.register(steps.at_exit)
    return steps


def _install_dataloader(torch, lib, steps):
    from torch.utils.data import dataloader

    cls = dataloader._BaseDataLoaderIter
    original = cls.__next__
    names = {}

    @functools.wraps(original)
    def __next__(self):
        try:
            kind = type(self)
            name = names.get(kind)
            if name is None:
                name = getattr(self, "_profile_name", None) or (
                    "enumerate(DataLoader)#%s.__next__" % kind.__name__
                )
                name = names[kind] = name.encode()
            steps.activity()
            opened = lib.gpuscope_range_push(name) >= 0
        except Exception:
            opened = False
        try:
            return original(self)
        finally:
            if opened:
                lib.gpuscope_range_pop()

    cls.__next__ = __next__


def _install_ops(torch, lib):
    from torch.utils._python_dispatch import TorchDispatchMode

    names = {}
    counter = [0]
    push, pop = lib.gpuscope_range_push, lib.gpuscope_range_pop

    class GpuscopeOps(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = names.get(func)
            if name is None:
                try:
                    name = func._schema.name
                except Exception:
                    name = str(func)
                names[func] = name
            counter[0] += 1
            push(("%s, op_id = %d" % (name, counter[0])).encode())
            try:
                return func(*args, **(kwargs or {}))
            finally:
                pop()

    mode = GpuscopeOps()
    mode.__enter__()  # for the rest of the program, on the thread that imported torch
    return mode


def install():
    import torch

    lib = _load_agent()
    if not lib.gpuscope_recording():
        return
    steps = _install_steps(torch, lib)
    _install_dataloader(torch, lib, steps)
    if os.environ.get("GPUSCOPE_TORCH_OPS") == "1":
        _install_ops(torch, lib)
