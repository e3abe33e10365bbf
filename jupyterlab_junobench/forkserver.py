"""Fresh kernels forked from a process that has already loaded ipykernel and the heavy libraries.

Every check of a repair starts fresh kernels (the learner's run, the reference runs), and each one
spends 1.5 to 2 CPU-seconds importing ipykernel, numpy, pandas and scikit-learn before it runs a
line. :class:`ForkingProvisioner` (entry point ``junobench-forking``) starts, per interpreter, one
*fork server*: a process of the kernel's own Python that imports those modules once and then forks a
child for each kernel. The child is a new process in a new session, with the kernel's environment,
working directory and arguments, running the kernelspec's launcher (``launcher.LAUNCHER``); its
namespace is empty like a fresh kernel's, only ``sys.modules`` already holds the preloaded modules.

What a forked kernel shares with its fork server, and what is done about it:

- numpy's global random state: reseeded from the OS in every child (``random`` reseeds itself).
- Python's string-hash seed is the fork server's. Each interpreter and environment has two fork
  servers, and consecutive kernels started in one folder come from alternate ones, so that the two
  runs of a reference fix that a check compares see two seeds, as two fresh kernels would.
- Environment variables read when a module is imported (thread counts, ``PYTHONPATH``): the fork
  server is started with the kernel's environment, and kernels whose environment differs in
  anything but the per-kernel ``JPY_*`` variables get a fork server of their own.
- A case folder holding a module named like a preloaded one (``pandas.py``) would shadow it in a
  fresh kernel: such a kernel is started the usual way.

Whenever a fork server cannot be used (it failed to start, died, or the kernelspec's argv is not
the launcher), the kernel starts as :class:`LocalProvisioner` starts it. docs/environment.md
explains the choice.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.provisioning import LocalProvisioner
from traitlets import Float, List, Unicode

from .launcher import LAUNCHER, with_launcher

PROVISIONER_NAME = "junobench-forking"
# What the pinned kernel preloads: the libraries most cases import, none that starts threads or
# reads the kernel's settings when imported (tensorflow, torch and matplotlib are left out).
DEFAULT_PRELOAD = ("numpy", "pandas", "sklearn")
# The per-kernel variables jupyter_client and jupyter_server set; any other difference in the
# environment gets a fork server of its own.
PER_KERNEL_PREFIXES = ("JPY_",)
# At most this many pairs of fork servers are kept; the pair used least recently is let go of first,
# and stopped once none of its kernels runs.
MAX_SERVERS = 4

# The fork server: `python -c FORKSERVER <stdout fd> <preload json>`. Requests and replies are JSON
# lines on its stdin and stdout; the kernels' stdout is the fd it is given (the Jupyter server's).
FORKSERVER = r"""
def _junobench_forkserver():
    # Imported here, not at the top: a fork empties __main__ before it runs the launcher there, and
    # its way out (os._exit) must not depend on what the launcher left behind.
    import atexit, gc, importlib, json, os, selectors, signal, sys
    # As Python's gc docs advise for fork without exec: no collection here, and every object frozen
    # before a fork, so that a kernel's collections neither copy nor walk what it shares with this
    # process (a forked kernel's gc.collect() took 0.4 to 1.3 s instead of 0.2 s without it).
    gc.disable()
    out_fd, preload = int(sys.argv[1]), json.loads(sys.argv[2])
    requests, replies = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(out_fd, 1)
    os.close(out_fd)
    os.close(null)
    os.set_inheritable(requests, False)
    os.set_inheritable(replies, False)
    # Nothing of the directory it was started in is imported here.
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]
    os.chdir("/")

    def send(message):
        os.write(replies, (json.dumps(message) + "\n").encode())

    import ipykernel.kernelapp  # noqa: F401
    loaded, failed = [], {}
    for name in preload:
        try:
            importlib.import_module(name)
            loaded.append(name)
        except BaseException as e:  # a module that cannot load is left to the kernel
            failed[name] = f"{type(e).__name__}: {e}"
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    send({"ready": os.getpid(), "loaded": loaded, "failed": failed})

    def child(request):
        gc.enable()
        os.setsid()
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for fd in (requests, replies, wake_r, wake_w):
            os.close(fd)
        os.environ.clear()
        os.environ.update(request["env"])
        # ipykernel ends itself when its parent changes: its parent is this process. (Its default
        # for parent_handle was read from the environment when this process imported it.)
        os.environ["JPY_PARENT_PID"] = str(os.getppid())
        os.chdir(request["cwd"])
        sys.path.insert(0, "")  # as `python -c` has it; the launcher and IPython take it from there
        if "numpy.random" in sys.modules:
            sys.modules["numpy.random"].seed()
        sys.argv = ["-c", *request["args"], f"--IPKernelApp.parent_handle={os.getppid()}"]
        main = sys.modules["__main__"].__dict__
        for key in [k for k in main if not k.startswith("__")]:
            del main[key]
        code = 0
        try:
            exec(compile(request["launcher"], "<string>", "exec"), main)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 1
        try:
            atexit._run_exitfuncs()
            # As the interpreter's finalisation would: objects in reference cycles are finalised.
            gc.collect()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)

    selector = selectors.DefaultSelector()
    selector.register(requests, selectors.EVENT_READ, "request")
    selector.register(wake_r, selectors.EVENT_READ, "child")
    pending = b""
    while True:
        for key, _ in selector.select():
            if key.data == "child":
                try:
                    os.read(wake_r, 4096)
                except BlockingIOError:
                    pass
                while True:
                    try:
                        pid, status = os.waitpid(-1, os.WNOHANG)
                    except ChildProcessError:
                        break
                    if pid == 0:
                        break
                    send({"exit": pid, "code": os.waitstatus_to_exitcode(status)})
                continue
            chunk = os.read(requests, 65536)
            if not chunk:  # the Jupyter server is gone; the kernels follow (their parent changes)
                os._exit(0)
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request = json.loads(line)
                gc.freeze()
                try:
                    pid = os.fork()
                except OSError as e:
                    send({"id": request["id"], "error": f"{type(e).__name__}: {e}"})
                    continue
                if pid == 0:
                    try:
                        child(request)
                    except BaseException:  # before the kernel ran (a folder gone): never back here
                        import traceback
                        traceback.print_exc()
                    finally:
                        os._exit(1)
                send({"id": request["id"], "spawned": pid})


_junobench_forkserver()
"""


class ForkServerError(RuntimeError):
    """A fork server could not start a kernel (it is not running, or it refused)."""


class ForkedProcess:
    """The part of ``subprocess.Popen`` that ``LocalProvisioner`` uses, for a forked kernel."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int, server: ForkServer):
        self.pid = pid
        self.returncode: int | None = None
        self._server = server

    def poll(self) -> int | None:
        """The exit code once the kernel has exited (as its fork server reported it), else None."""
        if self.returncode is None and not self._server.running:
            # The fork server reports no more exits: ask the system.
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                self.returncode = -1
            except PermissionError:
                pass
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the kernel to exit; ``subprocess.TimeoutExpired`` after ``timeout`` seconds."""
        end = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if end is not None and time.monotonic() > end:
                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout or 0)
            time.sleep(0.05)
        return self.returncode  # type: ignore[return-value]

    def send_signal(self, signum: int) -> None:
        """Signal the kernel (nothing once it has exited, as Popen)."""
        if self.poll() is None:
            os.kill(self.pid, signum)

    def terminate(self) -> None:
        """SIGTERM."""
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL."""
        self.send_signal(signal.SIGKILL)


class ForkServer:
    """One fork server process: its start, its requests and the exits it reports."""

    def __init__(self, interpreter: Sequence[str], preload: Sequence[str], env: dict[str, str], log: Any = None):
        self.interpreter = list(interpreter)
        self.preload = list(preload)
        self.env = dict(env)
        self.log = log
        self.loaded: list[str] = []
        self.failed: dict[str, str] = {}
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._changed = threading.Condition()
        self._replies: dict[int, dict[str, Any]] = {}
        self._children: dict[int, ForkedProcess] = {}
        self._exits: dict[int, int] = {}
        self._next = 0
        self._ready = False
        self._ended = False

    @property
    def running(self) -> bool:
        """Whether the fork server is up and reading requests."""
        return self._ready and not self._ended

    @property
    def busy(self) -> bool:
        """Whether a kernel it forked is still running (stopping it would end that kernel)."""
        with self._changed:
            return any(child.poll() is None for child in self._children.values())

    @property
    def pid(self) -> int | None:
        """The fork server's process id."""
        return self._process.pid if self._process else None

    def start(self, timeout: float) -> None:
        """Start the process and wait until its modules are loaded (``ForkServerError`` otherwise)."""
        out = os.dup(1)
        try:
            self._process = subprocess.Popen(
                [*self.interpreter, "-c", FORKSERVER, str(out), json.dumps(self.preload)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=self.env,
                cwd="/",
                pass_fds=(out,),
                start_new_session=True,
            )
        except OSError as e:
            raise ForkServerError(f"{self.interpreter[0]}: {e}") from e
        finally:
            os.close(out)
        threading.Thread(target=self._read, name="junobench-forkserver", daemon=True).start()
        end = time.monotonic() + timeout
        with self._changed:
            while not self._ready and not self._ended:
                left = end - time.monotonic()
                if left <= 0:
                    break
                self._changed.wait(left)
        if not self._ready:
            self.stop()
            raise ForkServerError(f"{self.interpreter[0]}: the fork server did not load ipykernel within {timeout:.0f} s")

    def _read(self) -> None:
        assert self._process and self._process.stdout
        for raw in self._process.stdout:
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            with self._changed:
                if "ready" in message:
                    self.loaded, self.failed = message["loaded"], message["failed"]
                    self._ready = True
                elif "exit" in message:
                    child = self._children.pop(message["exit"], None)
                    if child is not None:
                        child.returncode = message["code"]
                    else:
                        self._exits[message["exit"]] = message["code"]
                elif "id" in message:
                    self._replies[message["id"]] = message
                self._changed.notify_all()
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def spawn(self, args: Sequence[str], env: dict[str, str], cwd: str, launcher: str, timeout: float = 30) -> ForkedProcess:
        """Fork a kernel running ``launcher`` with ``args``; blocks until the fork server answers."""
        with self._lock:
            if not self.running or not self._process or not self._process.stdin:
                raise ForkServerError("the fork server is not running")
            self._next += 1
            ident = self._next
            request = {"id": ident, "args": list(args), "env": env, "cwd": cwd, "launcher": launcher}
            try:
                self._process.stdin.write((json.dumps(request) + "\n").encode())
                self._process.stdin.flush()
            except OSError as e:
                raise ForkServerError(f"the fork server took no request: {e}") from e
            end = time.monotonic() + timeout
            with self._changed:
                while ident not in self._replies and not self._ended and time.monotonic() < end:
                    self._changed.wait(max(0.0, end - time.monotonic()))
                reply = self._replies.pop(ident, None)
                if reply is None:
                    raise ForkServerError("the fork server did not answer")
                if "error" in reply:
                    raise ForkServerError(f"the fork server could not fork: {reply['error']}")
                child = ForkedProcess(reply["spawned"], self)
                if child.pid in self._exits:  # exited before its reply was read
                    child.returncode = self._exits.pop(child.pid)
                else:
                    self._children[child.pid] = child
                return child

    def stop(self) -> None:
        """End the fork server (its kernels notice their parent is gone and exit)."""
        if self._process and self._process.poll() is None:
            try:
                if self._process.stdin:
                    self._process.stdin.close()
                self._process.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()


def launcher_command(cmd: Sequence[str]) -> tuple[list[str], list[str]] | None:
    """``(interpreter and its options, the launcher's arguments)`` of a launcher argv, else None."""
    cmd = list(cmd)
    for i in range(1, len(cmd) - 1):
        if cmd[i] == "-c" and cmd[i + 1] == LAUNCHER:
            return cmd[:i], cmd[i + 2 :]
    return None


def shared_env(env: dict[str, str]) -> dict[str, str]:
    """The environment without the per-kernel variables: kernels that share it share a fork server."""
    return {k: v for k, v in env.items() if not k.startswith(PER_KERNEL_PREFIXES)}


def shadowed(cwd: str | os.PathLike[str], modules: Iterable[str]) -> list[str]:
    """The preloaded top-level modules a file or folder in ``cwd`` would shadow in a fresh kernel."""
    folder = Path(cwd)
    names = {m.split(".")[0] for m in modules} | {"ipykernel", "IPython", "zmq", "tornado", "traitlets", "jupyter_client"}
    found = []
    for name in sorted(names):
        if (folder / f"{name}.py").exists() or (folder / name).is_dir():
            found.append(name)
    return found


class _Registry:
    """The fork servers of this Jupyter server: two per interpreter, preload list and environment.

    Two, because fresh kernels each have their own string-hash seed, and a check learns which values
    change from run to run by running the reference fix twice in one folder: consecutive kernels
    started in one folder come from alternate fork servers, each with its own seed (unless
    ``PYTHONHASHSEED`` fixes it, as it would for fresh kernels). The second one starts when a
    folder first asks for a second kernel.
    """

    def __init__(self) -> None:
        self._servers: OrderedDict[tuple[Any, ...], list[ForkServer | None]] = OrderedDict()
        self._last: OrderedDict[tuple[Any, ...], int] = OrderedDict()
        # Fork servers let go of while their kernels still ran: stopped once those have ended.
        self._retired: list[ForkServer] = []
        self._lock = threading.Lock()

    def get(
        self, interpreter: Sequence[str], preload: Sequence[str], env: dict[str, str], cwd: str, timeout: float, log: Any
    ) -> ForkServer:
        """A running fork server for a kernel of these in ``cwd``, started (and waited for) when there is none."""
        shared = shared_env(env)
        key = (tuple(interpreter), tuple(preload), tuple(sorted(shared.items())))
        with self._lock:
            slot = 1 - self._last.pop((key, cwd), 1)
            self._last[(key, cwd)] = slot
            while len(self._last) > 1024:
                self._last.popitem(last=False)
            pair = self._servers.setdefault(key, [None, None])
            self._servers.move_to_end(key)
            server = pair[slot]
            if server is not None and server.running:
                return server
            server = ForkServer(interpreter, preload, shared, log)
            pair[slot] = server
            server.start(timeout)
            while len(self._servers) > MAX_SERVERS:
                _, old = self._servers.popitem(last=False)
                self._retired.extend(each for each in old if each is not None)
            for each in [r for r in self._retired if not r.busy]:
                self._retired.remove(each)
                each.stop()
            return server

    def servers(self) -> list[ForkServer]:
        """The fork servers running (for tests and the log)."""
        with self._lock:
            kept = [s for pair in self._servers.values() for s in pair if s is not None]
            return [s for s in kept + self._retired if s.running]

    def stop_all(self) -> None:
        """Stop every fork server."""
        with self._lock:
            servers = [s for pair in self._servers.values() for s in pair if s is not None] + self._retired
            self._servers.clear()
            self._last.clear()
            self._retired = []
        for server in servers:
            server.stop()


REGISTRY = _Registry()


class ForkingProvisioner(LocalProvisioner):
    """Starts kernels as forks of a fork server that has loaded ``preload`` (see the module's doc).

    The kernelspec's ``argv`` must start its Python through ``launcher.LAUNCHER``
    (``python [options] -c LAUNCHER -f {connection_file}``); any other argv, or a fork server that
    cannot start, starts the kernel as :class:`LocalProvisioner` does.
    """

    preload = List(
        Unicode(),
        default_value=list(DEFAULT_PRELOAD),
        config=True,
        help="Modules the fork server imports before it forks kernels.",
    )
    start_timeout = Float(120.0, config=True, help="Seconds a fork server may take to load its modules.")

    forked: bool = False

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        """Fork the kernel from this interpreter's fork server, or launch it as usual."""
        self.forked = False
        plan = launcher_command(cmd)
        env = dict(kwargs.get("env") or os.environ)
        cwd = str(kwargs.get("cwd") or os.getcwd())
        why = None
        if plan is None:
            why = "its argv does not start the launcher"
        elif hidden := shadowed(cwd, self.preload):
            why = f"{cwd} holds {', '.join(hidden)}, which the fork server has loaded"
        if why is None and plan is not None:
            interpreter, args = plan
            try:
                process = await asyncio.to_thread(self._spawn, interpreter, args, env, cwd)
            except ForkServerError as e:
                why = str(e)
            else:
                # LocalProvisioner uses only the part of Popen that ForkedProcess has (its docstring).
                self.process = process  # type: ignore[assignment]
                self.pid = process.pid
                self.pgid = process.pid  # the child called setsid
                self.cwd = cwd
                self.forked = True
                return self.connection_info
        self.log.info("%s: starting the kernel without a fork server (%s)", self.kernel_spec.display_name, why)
        return await super().launch_kernel(cmd, **kwargs)

    def _spawn(self, interpreter: list[str], args: list[str], env: dict[str, str], cwd: str) -> ForkedProcess:
        server = REGISTRY.get(interpreter, self.preload, env, cwd, self.start_timeout, self.log)
        if server.failed:
            self.log.debug("fork server %s could not preload %s", server.pid, server.failed)
        return server.spawn(args, env, cwd, LAUNCHER)


def provisioner_metadata(preload: Sequence[str] = DEFAULT_PRELOAD) -> dict[str, Any]:
    """The kernelspec ``metadata.kernel_provisioner`` that starts kernels through a fork server."""
    return {"provisioner_name": PROVISIONER_NAME, "config": {"preload": list(preload)}}


def forked_native_kernelspec(preload: Sequence[str] = DEFAULT_PRELOAD) -> dict[str, Any]:
    """This Python's own ``python3`` kernelspec, started through the launcher and forked."""
    from ipykernel.kernelspec import get_kernel_dict

    spec = get_kernel_dict()
    spec["argv"] = with_launcher(spec["argv"])
    spec.setdefault("metadata", {})["kernel_provisioner"] = provisioner_metadata(preload)
    return spec


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m jupyterlab_junobench.forkserver python3 DATA_DIR [--preload a,b]``."""
    parser = argparse.ArgumentParser(prog="python -m jupyterlab_junobench.forkserver", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    native = sub.add_parser("python3", help="write this Python's python3 kernelspec, forked, to DATA_DIR/kernels/python3")
    native.add_argument("data_dir", help="a Jupyter data folder (put it first on JUPYTER_PATH)")
    native.add_argument("--preload", default=",".join(DEFAULT_PRELOAD), help="modules the fork server imports (comma-separated)")
    args = parser.parse_args(argv)
    folder = Path(args.data_dir) / "kernels" / "python3"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        spec = forked_native_kernelspec([m for m in args.preload.split(",") if m])
        (folder / "kernel.json").write_text(json.dumps(spec, indent=1), "utf-8")
    except OSError as e:
        parser.exit(2, f"{folder}: {e}\n")
    print(f"Wrote {folder / 'kernel.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
