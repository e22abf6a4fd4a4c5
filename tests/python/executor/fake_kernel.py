"""A stand-in Jupyter kernel for the executor's start-up tests: it answers kernel_info and
shutdown and nothing else. The first FAKE_KERNEL_HANG starts (counted in the file
FAKE_KERNEL_COUNTER) never answer at all, as an evcxr kernel once in ~25 starts did."""

import json
import os
import sys
import time

import zmq
from jupyter_client.session import Session

conn = json.load(open(sys.argv[1], encoding="utf-8"))
counter = os.environ["FAKE_KERNEL_COUNTER"]
with open(counter, "a", encoding="utf-8") as f:
    f.write(f"{os.getpid()}\n")
with open(counter, encoding="utf-8") as f:
    starts = len(f.read().splitlines())
if starts <= int(os.environ.get("FAKE_KERNEL_HANG", "0")):
    time.sleep(3600)

ctx = zmq.Context()


def bind(kind, port):
    sock = ctx.socket(kind)
    sock.bind(f"{conn['transport']}://{conn['ip']}:{port}")
    return sock


shell = bind(zmq.ROUTER, conn["shell_port"])
control = bind(zmq.ROUTER, conn["control_port"])
iopub = bind(zmq.PUB, conn["iopub_port"])
stdin = bind(zmq.ROUTER, conn["stdin_port"])
hb = bind(zmq.REP, conn["hb_port"])
session = Session(key=conn["key"].encode(), signature_scheme=conn["signature_scheme"])
poller = zmq.Poller()
for sock in (shell, control, hb):
    poller.register(sock, zmq.POLLIN)
while True:
    for sock, _ in poller.poll():
        if sock is hb:
            hb.send(hb.recv())
            continue
        idents, msg = session.recv(sock)
        if msg is None:
            continue
        kind = msg["header"]["msg_type"]
        if kind == "kernel_info_request":
            session.send(iopub, "status", {"execution_state": "busy"}, parent=msg)
            session.send(sock, "kernel_info_reply", {
                "status": "ok", "protocol_version": "5.3", "implementation": "fake",
                "implementation_version": "0", "language_info": {"name": "fake"}, "banner": "",
            }, parent=msg, ident=idents)
            session.send(iopub, "status", {"execution_state": "idle"}, parent=msg)
        elif kind == "shutdown_request":
            session.send(sock, "shutdown_reply", {"status": "ok", "restart": False},
                         parent=msg, ident=idents)
            sys.exit(0)
