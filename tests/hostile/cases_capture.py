"""Hostile cases for gpuscope capture: control folders holding what no agent writes (statuses of
no process, links and FIFOs named as statuses, a request id at the largest there is), each
refused at once with its exit status, never waited on until --timeout (run by
tests/hostile/test_hostile.py). tests/cli/test_capture.sh tests the protocol with a fake agent."""

import os
import socket

import hostile_inputs as h
from hostile_case import Case

HOST = socket.gethostname()[:63]  # as the agent cuts it (src/common/ondemand.h)
NO_AGENT = r"gpuscope: no agent in .*/job: no process of `gpuscope run --on-demand --job` runs with it\n"


def job_folder(tmp, statuses=(), request=None):
    """A private control folder holding these statuses ({name: text}) and request text."""
    path = os.path.join(tmp, "job")
    os.mkdir(path, 0o700)
    for name, text in dict(statuses).items():
        h.write(os.path.join(path, name), text)
    if request is not None:
        h.write(os.path.join(path, "request"), request)
    return path


def status(pid, request=0):
    return "pid=%s\nhost=%s\nstate=dormant\nrequest=%d\n" % (pid, HOST, request)


def no_process(pid):
    """A status of this host naming no process: pid 0 or -1 are process groups to kill(2), so
    such a status passed for a live agent and was waited on."""
    return lambda t: job_folder(t, {"%s.%s.agent" % (HOST, pid): status(pid)})


def links_and_fifos(tmp):
    """Statuses that are a link to a valid status, and a FIFO: neither is read."""
    path = job_folder(tmp)
    real = h.write(os.path.join(tmp, "real.agent"), status(os.getpid()))
    os.symlink(real, os.path.join(path, "%s.%d.agent" % (HOST, os.getpid())))
    os.mkfifo(os.path.join(path, "%s.1.agent" % HOST))
    return path


def ids_used_up(tmp):
    """A live process's status (this test's own) and a request of id 2^64-1: the next id would
    wrap to 0, which every agent refuses."""
    return job_folder(tmp, {"%s.%d.agent" % (HOST, os.getpid()): status(os.getpid())},
                      "id=18446744073709551615\nsteps=1\ndir=/x\n")


def cases():
    job = ["capture", "--job", "{}", "--steps", "1", "--timeout", "0.5"]
    return [
        Case("capture, a status of pid 0", no_process(0), job, 3, NO_AGENT),
        Case("capture, a status of pid -1", no_process(-1), job, 3, NO_AGENT),
        Case("capture, a status of pid 2^63", no_process(2 ** 63), job, 3, NO_AGENT),
        Case("capture, statuses that are a link and a FIFO", links_and_fifos, job, 3, NO_AGENT),
        Case("capture, request ids used up", ids_used_up, job, 3,
             r"gpuscope: .*/job: the window ids are used up \(a request or status holds "
             r"18446744073709551615, the largest\): start the programs again with a new "
             r"control folder\n"),
    ]
