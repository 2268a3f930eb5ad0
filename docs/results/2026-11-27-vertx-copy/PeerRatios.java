import io.sluice.testkit.Estimate;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;

/** sluice's speed over each Vert.x row's, per copy cell, from a run's samples.csv (ratio of means, 95% bootstrap). */
public class PeerRatios {
    public static void main(String[] args) throws Exception {
        List<String[]> rows = Files.readAllLines(Path.of(args[0])).stream().skip(1).map(l -> l.split(","))
                .filter(r -> r[17].equals("OK")).toList();
        Map<String, Map<String, double[]>> speeds = new LinkedHashMap<>();
        for (String[] r : rows) {
            double mibPerSecond = Double.parseDouble(r[7]) / Double.parseDouble(r[8]) / (1 << 20);
            speeds.computeIfAbsent(r[3], k -> new LinkedHashMap<>()).merge(r[4], new double[] {mibPerSecond},
                    (a, b) -> DoubleStream.concat(Arrays.stream(a), Arrays.stream(b)).toArray());
        }
        System.out.println("| cell | " + String.join(" | ", "sluice / vertx", "sluice / vertx-64k", "sluice / vertx-pipe", "sluice / vertx-pipe-64k") + " |");
        System.out.println("|---|---:|---:|---:|---:|");
        speeds.forEach((cell, byProvider) -> System.out.println("| " + cell + " | " + Stream.of("vertx", "vertx-64k", "vertx-pipe", "vertx-pipe-64k")
                .map(peer -> Estimate.ratioOfMeans(byProvider.get("sluice"), byProvider.get(peer)).format())
                .collect(Collectors.joining(" | ")) + " |"));
    }
}
