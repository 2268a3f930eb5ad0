import io.sluice.bench.Report;
import io.sluice.bench.Sample;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** sluice's speed over each Vert.x row's in every cell of a samples file, as the bench's own report computes it. */
public class PeerRatios {
    public static void main(String[] args) throws Exception {
        List<String> peers = List.of("vertx", "vertx-64k", "vertx-pipe", "vertx-pipe-64k");
        Report report = new Report(Sample.read(Path.of(args[0])));
        System.out.println("| cell | " + peers.stream().map(peer -> "sluice / " + peer).collect(Collectors.joining(" | "))
                + " |");
        System.out.println("|---|" + "---:|".repeat(peers.size()));
        report.rowsByCell().keySet().forEach(cell -> System.out.println("| " + cell.spec() + " | " + peers.stream()
                .map(peer -> report.speedRatio(cell, "sluice", peer).format()).collect(Collectors.joining(" | ")) + " |"));
    }
}
