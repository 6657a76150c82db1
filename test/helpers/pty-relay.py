"""Runs a command on a pseudo-terminal (its stdin, stdout and stderr are a terminal) and relays: this
process's stdin to the terminal's input, the terminal's output to this process's stdout. Exits with
the command's exit code. Used by test/helpers/tty.ts (Node has no pty of its own)."""
import errno
import os
import pty
import select
import signal
import sys

pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])

def stop(_signum, _frame):
    # The test is done with it: the command (in its own session, out of reach of a group kill) goes too.
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    sys.exit(137)


signal.signal(signal.SIGTERM, stop)
os.set_blocking(fd, False)
stdin = sys.stdin.fileno()
os.set_blocking(stdin, False)
pending = b""
stdin_open = True
while True:
    readers = [fd] + ([stdin] if stdin_open and len(pending) < (1 << 20) else [])
    writers = [fd] if pending else []
    r, w, _ = select.select(readers, writers, [], 0.5)
    if fd in r:
        try:
            data = os.read(fd, 65536)
        except OSError as e:
            if e.errno == errno.EIO:
                break
            raise
        if not data:
            break
        os.write(sys.stdout.fileno(), data)
    if stdin in r:
        data = os.read(stdin, 65536)
        if data:
            pending += data
        else:
            stdin_open = False
    if fd in w and pending:
        try:
            n = os.write(fd, pending[:4096])
            pending = pending[n:]
        except BlockingIOError:
            pass
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        # drain what is left
        try:
            while True:
                data = os.read(fd, 65536)
                if not data:
                    break
                os.write(sys.stdout.fileno(), data)
        except OSError:
            pass
        sys.exit(os.waitstatus_to_exitcode(status) if os.waitstatus_to_exitcode(status) >= 0 else 128 - os.waitstatus_to_exitcode(status))
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
