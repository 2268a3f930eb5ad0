package io.sluice.server;

import io.sluice.server.load.LoadReport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar sluice-server.jar [--lane A|B|C|C-unbounded] [--port 8080] [--host 127.0.0.1]
 * [--dir ./data | --storage s3://BUCKET [--s3-endpoint URI] [--s3-region us-east-1]]
 * [--max-upload-bytes N] [--threads 200]}. Prints {@code READY port=N lane=X} when it accepts
 * connections. With {@code --storage} the files are objects of the bucket (lane C only; credentials
 * from the AWS SDK's default chain: {@link S3Bucket}). {@code java -jar sluice-server.jar report ...} is the load harness's
 * report instead ({@link LoadReport}).
 */
public final class Main {

    private Main() {}

    /**
     * Starts a server and waits until the JVM is stopped.
     *
     * @param args flags as in the class comment
     */
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("report")) {
            System.exit(LoadReport.main(List.of(args).subList(1, args.length), System.out));
        }
        ServerConfig config;
        try {
            config = parse(args);
            FileServer.refuseUnsupportedLane(config.lane());
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            System.err.println("sluice-server: " + e.getMessage());
            System.exit(2);
            return;
        }
        FileServer server;
        try {
            server = FileServer.start(config);
        } catch (IOException e) { // the directory or the bucket is unusable
            System.err.println("sluice-server: " + e.getMessage());
            System.exit(1);
            return;
        }
        String storage = config.bucket() != null
                ? "storage=" + config.bucket()
                : "dir=" + config.directory().toAbsolutePath();
        server.serveUntilStopped(
                "sluice-server",
                "READY port=" + server.port() + " lane=" + config.lane().flag() + " " + storage + " java="
                        + Runtime.version());
    }

    static ServerConfig parse(String[] args) {
        Map<String, String> flags = new HashMap<>(Map.of(
                "--lane",
                "C",
                "--host",
                "127.0.0.1",
                "--port",
                "8080",
                "--dir",
                "data",
                "--max-upload-bytes",
                Long.toString(ServerConfig.DEFAULT_MAX_UPLOAD_BYTES),
                "--threads",
                Integer.toString(ServerConfig.DEFAULT_PLATFORM_THREADS),
                "--storage",
                "",
                "--s3-endpoint",
                "",
                "--s3-region",
                "us-east-1"));
        for (int i = 0; i < args.length; i += 2) {
            if (args[i].equals("--help") || args[i].equals("-h")) {
                throw new IllegalArgumentException("usage: --lane A|B|C|C-unbounded --port 8080 --host 127.0.0.1"
                        + " [--dir ./data | --storage s3://BUCKET --s3-endpoint URI --s3-region us-east-1]"
                        + " --max-upload-bytes N --threads 200");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("flag " + args[i] + " needs a value");
            }
            if (flags.put(args[i], args[i + 1]) == null) {
                throw new IllegalArgumentException("unknown flag " + args[i] + " (try --help)");
            }
        }
        S3Bucket bucket = null;
        if (!flags.get("--storage").isEmpty()) {
            bucket = S3Bucket.parse(flags.get("--storage"), flags.get("--s3-endpoint"), flags.get("--s3-region"));
        } else if (!flags.get("--s3-endpoint").isEmpty()) {
            throw new IllegalArgumentException("--s3-endpoint needs --storage s3://BUCKET");
        }
        return new ServerConfig(
                Lane.parse(flags.get("--lane")),
                flags.get("--host"),
                Integer.parseInt(flags.get("--port")),
                Path.of(flags.get("--dir")),
                Long.parseLong(flags.get("--max-upload-bytes")),
                Integer.parseInt(flags.get("--threads")),
                UploadEvents.NONE,
                ServerConfig.DEFAULT_DOWNLOAD_CHUNKS,
                bucket);
    }
}
