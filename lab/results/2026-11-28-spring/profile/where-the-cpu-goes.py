import sys, re, collections, subprocess
def samples(f):
    out = subprocess.run(["jfr","print","--events","jdk.ExecutionSample","--stack-depth","80",f],capture_output=True,text=True).stdout
    for block in out.split("jdk.ExecutionSample")[1:]:
        frames = re.findall(r"^\s+([\w$./<>]+)\(", block, re.M)
        yield frames
cats = [
 ("file write (FileChannel/IOUtil)", ["sun.nio.ch.FileChannelImpl.write","sun.nio.ch.IOUtil.write","sun.nio.ch.FileDispatcherImpl.write","sun.nio.ch.FileChannelImpl.transferFrom","sun.nio.ch.FileChannelImpl.transferTo"]),
 ("Spring multipart parsing", ["org.springframework.http.codec.multipart.MultipartParser","org.springframework.http.codec.multipart.PartEventHttpMessageReader","org.springframework.http.codec.multipart.MultipartUtils","org.springframework.http.codec.multipart.PartGenerator"]),
 ("socket read (Netty)", ["io.netty.channel.epoll","io.netty.channel.nio.NioEventLoop.processSelectedKey","sun.nio.ch.SocketChannelImpl.read","io.netty.buffer.AbstractByteBuf.writeBytes"]),
 ("Spring DataBuffer/Reactor ops", ["reactor.core","org.springframework.core.io.buffer"]),
]
for f in sys.argv[1:]:
    n=0; c=collections.Counter(); leaf=collections.Counter()
    for fr in samples(f):
        if not fr: continue
        n+=1
        leaf[fr[0]]+=1
        for name,keys in cats:
            if any(any(x.startswith(k) for k in keys) for x in fr):
                c[name]+=1; break
        else:
            c["other: "+fr[0].rsplit(".",2)[0]]+=1
    print("==",f,n,"samples")
    for k,v in c.most_common(8): print(f"  {100*v/n:5.1f}% {k}")
    print("  top leaves:")
    for k,v in leaf.most_common(8): print(f"    {100*v/n:5.1f}% {k}")
