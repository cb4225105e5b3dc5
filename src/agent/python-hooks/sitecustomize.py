# gpuscope run's Python hook (doc/run.md, "Python programs"). `gpuscope run` puts this folder first
# on PYTHONPATH, so Python's site module imports this file at start-up in every interpreter the
# traced program starts. It does two things and nothing else:
#   1. it runs the sitecustomize the environment had without gpuscope (the next one on sys.path),
#      so that its side effects happen as before;
#   2. it waits for `import torch` (a sys.meta_path finder that answers for no other name) and
#      only then loads gpuscope_torch_hooks.py, which marks steps and DataLoader fetches.
# A program that never imports torch pays one Python call per module it imports. This folder is
# taken off sys.path again: the program imports exactly what it imported without gpuscope.
# Nothing here may break the program: every failure of gpuscope's own is swallowed.
import sys

_HERE = None
try:
    import os

    _HERE = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if not (p and os.path.abspath(p) == _HERE)]
except Exception:
    pass


class _GpuscopeTorchFinder:
    """Answers for no module; on `import torch` arranges for the hooks to run once torch's own
    __init__ has finished (torch itself is found and loaded by the usual finders)."""

    _busy = False

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "torch" or cls._busy:
            return None
        try:
            cls._busy = True
            spec = _find_torch(cls, path, target)
            if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
                _wrap_exec(spec.loader)
            return spec
        except Exception:
            return None
        finally:
            cls._busy = False
            _remove_finder()

    @classmethod
    def invalidate_caches(cls):
        pass


def _find_torch(finder, path, target):
    for f in sys.meta_path:
        if f is finder or not hasattr(f, "find_spec"):
            continue
        spec = f.find_spec("torch", path, target)
        if spec is not None:
            return spec
    return None


def _wrap_exec(loader):
    original = loader.exec_module

    def exec_module(module):
        try:
            del loader.exec_module  # the loader's own method again, for any later use
        except Exception:
            pass
        original(module)  # torch's __init__: its exceptions are the program's
        _install_torch_hooks()

    loader.exec_module = exec_module


def _remove_finder():
    try:
        sys.meta_path[:] = [f for f in sys.meta_path if f is not _GpuscopeTorchFinder]
    except Exception:
        pass


def _install_torch_hooks():
    try:
        import importlib.util

        path = os.path.join(_HERE, "gpuscope_torch_hooks.py")
        spec = importlib.util.spec_from_file_location("_gpuscope_torch_hooks", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["_gpuscope_torch_hooks"] = module
        spec.loader.exec_module(module)
        module.install()
    except Exception:
        if os.environ.get("GPUSCOPE_HOOKS_DEBUG"):
            import traceback

            traceback.print_exc()


def _arm():
    try:
        if _HERE is None or not os.environ.get("GPUSCOPE_AGENT"):
            return
        if "torch" in sys.modules:  # imported by an earlier start-up file
            _install_torch_hooks()
        else:
            sys.meta_path.insert(0, _GpuscopeTorchFinder)
    except Exception:
        pass


def _chain():
    """Runs the sitecustomize that Python would have found without gpuscope, as this module:
    its exceptions reach the site module, which reports them as it would have."""
    try:
        from importlib.machinery import PathFinder
        from importlib.util import module_from_spec

        spec = PathFinder.find_spec("sitecustomize", sys.path)
        if spec is None or spec.loader is None:
            return
        module = module_from_spec(spec)
    except Exception:
        return
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


_arm()
_chain()
