#!/usr/bin/env python3
"""pmi_client.py - mpi_pmi2_test: a task that speaks PMI to srun --mpi=pmi2 itself, on PMI_FD.

  pmi_client.py v2       the PMI-2 wire: fullinit, kvs-put, kvs-fence, the next rank's key
                         (on another node), the process mapping and a node attribute; prints
                         "rank R got NEXT_KEY_VALUE map MAPPING attr VALUE"
  pmi_client.py garbage  sends a line that is no request and prints the reply it gets
"""
import os
import socket
import sys

fd = int(os.environ["PMI_FD"])
rank, size = int(os.environ["PMI_RANK"]), int(os.environ["PMI_SIZE"])
sock = socket.socket(fileno=fd)
buf = b""


def read_line():
    global buf
    while b"\n" not in buf:
        buf += sock.recv(4096)
    line, _, buf = buf.partition(b"\n")
    return line.decode()


def call_v2(body):
    """One PMI-2 request and its reply as a dict."""
    global buf
    data = body.encode()
    sock.sendall(b"%-6d" % len(data) + data)
    while len(buf) < 6 or len(buf) < 6 + int(buf[:6]):
        buf += sock.recv(4096)
    n = int(buf[:6])
    reply, buf = buf[6:6 + n].decode(), buf[6 + n:]
    return dict(kv.split("=", 1) for kv in reply.replace(";;", "\0").split(";") if kv)


if sys.argv[1] == "garbage":
    sock.sendall(b"this is not PMI\n")
    os.write(1, b"rank %d reply %s\n" % (rank, read_line().encode()))
    sys.exit(0)

sock.sendall(b"cmd=init pmi_version=2 pmi_subversion=0\n")
assert "rc=0" in read_line()
init = call_v2("cmd=fullinit;pmirank=%d;" % rank)
assert init["rank"] == str(rank) and init["size"] == str(size), init
call_v2("cmd=kvs-put;key=card%d;value=from;;%d;" % (rank, rank))
if rank % 2 == 0:
    call_v2("cmd=info-putnodeattr;key=leader;value=%d;" % rank)
call_v2("cmd=kvs-fence;")
nxt = call_v2("cmd=kvs-get;jobid=%s;srcid=-1;key=card%d;" % (init.get("jobid", ""), (rank + 1) % size))
mapping = call_v2("cmd=info-getjobattr;key=PMI_process_mapping;")
attr = call_v2("cmd=info-getnodeattr;key=leader;wait=TRUE;")
# One write per line: the ranks' output meets in srun's.
os.write(1, ("rank %d got %s map %s attr %s\n" % (rank, nxt["value"].replace("\0", ";"),
                                                  mapping["value"], attr["value"])).encode())
call_v2("cmd=finalize;")
