#!/usr/bin/env python3
"""notify_listener.py SOCKET OUT COUNT -- stands in for systemd's notification socket.

Binds a datagram socket at SOCKET (as systemd does for a Type=notify unit), and for each of COUNT
messages writes "PID MESSAGE PING" to OUT: the sender's pid from its kernel credentials, the
message, and the exit status of `scontrol ping` run the moment the message came (a daemon that
says READY=1 must already serve). Exits after COUNT messages or 120 s.
"""
import os
import socket
import struct
import subprocess
import sys


def main() -> int:
    path, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    sock.bind(path)
    os.chmod(path, 0o777)
    sock.settimeout(120)
    creds_size = struct.calcsize("3i")
    with open(out, "a", buffering=1) as f:
        for _ in range(count):
            try:
                msg, anc, _, _ = sock.recvmsg(4096, socket.CMSG_SPACE(creds_size))
            except socket.timeout:
                return 1
            pid = 0
            for level, kind, data in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    pid = struct.unpack("3i", data[:creds_size])[0]
            ping = subprocess.run(["scontrol", "ping"], capture_output=True).returncode
            f.write(f"{pid} {msg.decode(errors='replace')} {ping}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
