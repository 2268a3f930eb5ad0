package io.sluice.server;

import java.nio.file.Path;

/**
 * {@code java -jar sluice-server.jar [--lane A|B|C|C-unbounded] [--port 8080] [--host 127.0.0.1]
 * [--dir ./data] [--max-upload-bytes N] [--threads 200]}. Prints {@code READY port=N lane=X} when
 * it accepts connections.
 */
public final class Main {

    private Main() {
    }

    /**
     * Starts a server and waits until the JVM is stopped.
     *
     * @param args flags as in the class comment
     */
    public static void main(String[] args) throws Exception {
        ServerConfig config;
        try {
            config = parse(args);
            FileServer.refuseUnsupportedLane(config.lane());
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            System.err.println("sluice-server: " + e.getMessage());
            System.exit(2);
            return;
        }
        FileServer server = FileServer.start(config);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println("sluice-server: " + e.getMessage());
            }
        }, "sluice-server-shutdown"));
        System.out.println("READY port=" + server.port() + " lane=" + config.lane().flag()
                + " dir=" + config.directory().toAbsolutePath() + " java=" + Runtime.version());
        System.out.flush();
        server.join();
    }

    static ServerConfig parse(String[] args) {
        ServerConfig config = ServerConfig.loopback(Lane.C, Path.of("data")).withPort(8080);
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                throw new IllegalArgumentException("usage: --lane A|B|C|C-unbounded --port 8080 --host 127.0.0.1"
                        + " --dir ./data --max-upload-bytes N --threads 200");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("flag " + flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--lane" -> config = new ServerConfig(Lane.parse(value), config.host(), config.port(),
                        config.directory(), config.maxUploadBytes(), config.platformThreads(), config.events(),
                        config.downloadChunks());
                case "--port" -> config = config.withPort(Integer.parseInt(value));
                case "--host" -> config = config.withHost(value);
                case "--dir" -> config = new ServerConfig(config.lane(), config.host(), config.port(), Path.of(value),
                        config.maxUploadBytes(), config.platformThreads(), config.events(),
                        config.downloadChunks());
                case "--max-upload-bytes" -> config = config.withMaxUploadBytes(Long.parseLong(value));
                case "--threads" -> config = config.withPlatformThreads(Integer.parseInt(value));
                default -> throw new IllegalArgumentException("unknown flag " + flag + " (try --help)");
            }
        }
        return config;
    }
}
