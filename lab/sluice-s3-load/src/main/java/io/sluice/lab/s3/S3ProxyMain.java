package io.sluice.lab.s3;

import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;

import java.nio.file.Path;
import java.util.Properties;

/**
 * {@code S3ProxyMain STORE}: the server the harness measures against, in a JVM of its own so that
 * its CPU time and memory are read apart from the clients'. S3Proxy with a filesystem store in
 * {@code STORE} (the in-memory store needs gigabytes of heap per GiB uploaded in parts) on a random
 * loopback port, checking AWS signatures against {@link S3Endpoint}'s static credentials as a
 * deployment would; prints {@code READY port=N} once it accepts requests, and runs until it is
 * stopped (its Jetty threads are not daemons; a shutdown hook stops it).
 */
public final class S3ProxyMain {

    private S3ProxyMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: S3ProxyMain STORE");
        }
        Properties properties = new Properties();
        properties.setProperty("jclouds.provider", "filesystem");
        properties.setProperty(
                "jclouds.filesystem.basedir", Path.of(args[0]).toAbsolutePath().toString());
        properties.setProperty("s3proxy.endpoint", "http://127.0.0.1:0");
        properties.setProperty("s3proxy.authorization", "aws-v2-or-v4");
        properties.setProperty("s3proxy.identity", S3Endpoint.IDENTITY);
        properties.setProperty("s3proxy.credential", S3Endpoint.CREDENTIAL);
        // Without it every SDK CompleteMultipartUpload fails (501: x-amz-mp-object-size).
        properties.setProperty("s3proxy.ignore-unknown-headers", "true");
        S3Proxy proxy = S3Proxy.Builder.fromProperties(properties)
                .blobStore(BlobStores.create("filesystem", properties))
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(5); // Jetty offers no start callback here: poll its state
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                proxy.stop();
                            } catch (Exception e) {
                                // the JVM is going away: nothing to clean up beyond it
                            }
                        },
                        "s3proxy-stop"));
        System.out.println("READY port=" + proxy.getPort() + " store=" + args[0]);
        System.out.flush();
    }
}
