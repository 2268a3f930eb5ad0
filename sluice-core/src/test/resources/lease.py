import fcntl, os, signal, sys, time
# usage: lease.py file kind(r|w) seconds|stdin   (stdin: held until a line, or the end, on stdin)
path, kind, hold = sys.argv[1], sys.argv[2], sys.argv[3]
signal.signal(signal.SIGIO, lambda *a: None)
fd = os.open(path, os.O_RDONLY if kind == 'r' else os.O_RDWR)
fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK if kind == 'r' else fcntl.F_WRLCK)
print("leased", flush=True)
if hold == 'stdin':
    sys.stdin.readline()
else:
    time.sleep(float(hold))
fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
os.close(fd)
print("released", flush=True)
