"""What one hostile case is: shared by tests/hostile/test_hostile.py and the per-area case lists
(cases_*.py)."""

E = r"gpuscope: %s: "  # the start of a message about a file
LOSS = r"[0-9]+ events? skipped \(%s\)\n"  # the note of events a reader skipped


class Case:
    """gpuscope ARGS on an input made by `make`: exit `rc`, stderr matching `err` (a regex for
    the whole of it), within `secs` seconds and `mb` MB of peak RSS."""

    def __init__(self, name, make, args, rc, err, secs=2, mb=40, env=None, out=None,
                 as_nobody=False, feed=None, run=False, closed=False, after=None):
        self.name, self.make, self.args, self.rc, self.err = name, make, args, rc, err
        self.secs, self.mb, self.env, self.out = secs, mb, env or {}, out
        self.as_nobody, self.feed = as_nobody, feed
        self.run = run          # gpuscope run of tests/run/nvtx_target: needs the agent
        self.closed = closed    # started with stdout and stderr closed (cron, daemons, >&-)
        self.after = after      # after(tmp): what is wrong with what the command left
