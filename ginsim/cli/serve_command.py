"""``ginsim serve``: play and review games in a browser (docs/serve.md).

The socket is bound here before the app starts, so ``--port 0`` prints the port the
system picked; the first line on stdout is ``serving at http://HOST:PORT``. Ctrl-C
stops the server after every unfinished game's record is saved, with one line.
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys

from .options import UsageError, command, positive_int

#: Where game records go unless ``--records`` names a folder.
DEFAULT_RECORDS = "ginsim-games"


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is no port: give 0 to 65535 (0 picks a "
                                         "free one)")
    return value


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (UsageError in one line when it cannot
    be had)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as err:
        raise UsageError(f"--host {host}: not an address of this machine ({err.strerror})"
                         ) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as err:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {err.strerror}; pick another "
                         "--port (0 picks a free one)") from None
    sock.listen(128)
    return sock


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{'[' + host + ']' if ':' in host else host}:{port}"


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from ..web.app import LOOPBACK_HOSTS, MAX_MESSAGE_BYTES, create_app

    sock = bind(args.host, args.port)
    print(f"serving at {_url(sock)}", flush=True)
    loopback = ipaddress.ip_address(sock.getsockname()[0]).is_loopback
    if not loopback:
        print(f"note: --host {args.host} lets other machines reach this server; anyone "
              "who can open the page can play on it", file=sys.stderr)
    app = create_app(args.records, args.idle_minutes * 60,
                     review_rollouts=args.review_rollouts,
                     hosts=LOOPBACK_HOSTS if loopback else None)
    # frames up to 4x the app's limit reach it, so an oversized record gets its one-line
    # error (JSON escaping grows a record) rather than a closed socket
    config = uvicorn.Config(app, log_level="warning", ws_max_size=4 * MAX_MESSAGE_BYTES,
                            lifespan="on", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print(f"stopped; game records are in {args.records}", flush=True)
    return 0


def add_serve_command(sub) -> None:
    """``ginsim serve``."""
    sv = command(sub, "serve", "play and review games against a bot in a web browser")
    sv.add_argument("--port", type=_port, default=8000,
                    help="the port to listen on (default 8000; 0 picks a free one)")
    sv.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (default 127.0.0.1: this machine only)")
    sv.add_argument("--records", metavar="DIR", default=DEFAULT_RECORDS,
                    help="the folder each game's record is saved in (docs/records.md), "
                         f"made on the first save (default {DEFAULT_RECORDS} here)")
    sv.add_argument("--idle-minutes", type=positive_int, default=30, metavar="N",
                    help="free a page's session and save its games after N minutes "
                         "without a message (default 30)")
    sv.add_argument("--review-rollouts", type=positive_int, default=None, metavar="N",
                    help="a fixed number of advisor rollouts for each decision a review "
                         "weighs (default: the review's own, more where a choice needs "
                         "them; docs/review.md); fewer is faster and rougher")
    sv.set_defaults(func=_cmd_serve)
