"""Shared by the tests: `default_sigint`, for the tests that send themselves SIGINT."""

import signal
import threading

import pytest


@pytest.fixture
def default_sigint():
    """Python's own SIGINT handler for the test, where the process started with SIGINT
    ignored (as a shell starts a command in the background with `&`: Python then raises
    no KeyboardInterrupt, and a test that sends SIGINT would wait for its search's end);
    the disposition it found is put back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    found = signal.getsignal(signal.SIGINT)
    if found is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, found)
