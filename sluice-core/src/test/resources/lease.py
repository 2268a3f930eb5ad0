import fcntl, os, signal, sys, time
# usage: lease.py file kind(r|w) seconds
path, kind, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
signal.signal(signal.SIGIO, lambda *a: None)
fd = os.open(path, os.O_RDONLY if kind == 'r' else os.O_RDWR)
fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK if kind == 'r' else fcntl.F_WRLCK)
print("leased", flush=True)
time.sleep(secs)
fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
os.close(fd)
print("released", flush=True)
