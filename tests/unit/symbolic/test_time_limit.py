"""The checker's time limit: a timeout is never raised in its own setup or clean-up, and nothing of it
outlives it (a stray alarm once killed a test worker)."""

# ---------------------------------------------------------------------------------------------
# the alarm-based time limit: a timeout is never raised in its own setup or clean-up
# ---------------------------------------------------------------------------------------------

def test_the_alarm_handler_defers_inside_the_time_limits_own_bookkeeping():
    import sys

    from mlnotes.symbolic import _prove

    seen = {}

    def profiler(frame, event, arg):
        if frame.f_code is _prove._TIME_LIMIT_CODE and event == "call":
            seen.setdefault("generator", frame)
        if frame.f_code.co_name == "__exit__" and frame.f_code.co_filename.endswith("contextlib.py"):
            seen.setdefault("exit", _prove._in_bookkeeping(frame))

    sys.setprofile(profiler)
    try:
        with _prove._time_limit(5):
            seen["body"] = _prove._in_bookkeeping(sys._getframe())
    finally:
        sys.setprofile(None)
    assert seen["body"] is False
    assert seen["exit"] is True
    assert _prove._in_bookkeeping(seen["generator"]) is True


def test_many_tiny_time_limits_leave_nothing_behind():
    import signal
    import time

    from mlnotes.symbolic._prove import _Timeout, _deadlines, _time_limit

    fired = 0
    for k in range(150):     # CPU-time limits of 1-5 ms around 0-12 ms of CPU work (the timer ticks in ms)
        try:
            with _time_limit(1e-3 * (1 + k % 5)):
                with _time_limit(1e-3 * (1 + k % 3)):
                    end = time.process_time() + 4e-3 * (k % 4)
                    while time.process_time() < end:
                        pass
        except _Timeout:
            fired += 1
    assert not _deadlines
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    time.sleep(0.05)                                         # no stray alarm and no late _Timeout here
    assert fired > 0


def test_no_time_limit_outside_the_main_thread():
    import threading

    from mlnotes.symbolic._prove import _time_limit

    result = []

    def work():
        with _time_limit(1e-3):
            sum(range(10**6))
        result.append("done")

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert result == ["done"]


def test_the_limit_counts_cpu_time_not_wall_time():
    # a verdict must not depend on the machine's load: waiting (another process has the core) is no work
    import time

    import pytest

    from mlnotes.symbolic._prove import _Timeout, _time_limit

    with _time_limit(0.05):
        time.sleep(0.3)                                       # 0.3 s of wall time, no CPU time: no timeout
    with pytest.raises(_Timeout):
        with _time_limit(0.05):
            end = time.process_time() + 2
            while time.process_time() < end:                  # CPU time runs out after 0.05 s
                pass
