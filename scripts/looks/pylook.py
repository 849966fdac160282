"""Prints what Python's socket.getaddrinfo(NAME, None) returns, in order, one
result a line: FAMILY SOCKTYPE ADDRESS (e.g. `AF_INET6 SOCK_STREAM 2001:db8::2`).
No hints: glibc's getaddrinfo without AI_ADDRCONFIG, all socket types.
Run inside the VM of scripts/kernel-matrix.sh as
`/usr/bin/python3.11 -I -S -B /usr/local/bin/pylook.py NAME`.
"""
import socket
import sys

if len(sys.argv) != 2:
    print("usage: pylook.py NAME", file=sys.stderr)
    sys.exit(2)
try:
    results = socket.getaddrinfo(sys.argv[1], None)
except socket.gaierror as e:
    print(f"pylook: {e}", file=sys.stderr)
    sys.exit(1)
for family, socktype, _proto, _canon, sockaddr in results:
    print(family.name, socktype.name, sockaddr[0])
