package io.sluice.server.ws;

import java.util.HashMap;
import java.util.Map;

/**
 * {@code java -cp sluice-server.jar io.sluice.server.ws.FanOutMain [--lane bounded|fixed|unbounded|bounded-batched]
 * [--host 127.0.0.1] [--port 8090] [--rate 0] [--send-buffer 0]}: the fan-out server alone
 * ({@code --rate}: messages per second over all clients, 0 for as fast as the generator goes;
 * {@code --send-buffer}: each connection's {@code SO_SNDBUF}, 0 for the system's default). Prints
 * {@code READY port=N lane=X} when it accepts connections.
 */
public final class FanOutMain {

    private FanOutMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> flags = new HashMap<>(Map.of(
                "--lane", "bounded", "--host", "127.0.0.1", "--port", "8090", "--rate", "0", "--send-buffer", "0"));
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length || flags.put(args[i], args[i + 1]) == null) {
                System.err.println(
                        "usage: --lane bounded|fixed|unbounded|bounded-batched --host 127.0.0.1 --port 8090 --rate 0 --send-buffer 0");
                System.exit(2);
            }
        }
        FanOutLane lane = FanOutLane.parse(flags.get("--lane"));
        FanOutServer server = FanOutServer.start(
                lane,
                flags.get("--host"),
                Integer.parseInt(flags.get("--port")),
                Double.parseDouble(flags.get("--rate")),
                Integer.parseInt(flags.get("--send-buffer")));
        server.serveUntilStopped(
                "ws-server", "READY port=" + server.port() + " lane=" + lane.flag() + " java=" + Runtime.version());
    }
}
