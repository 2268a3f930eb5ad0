#!/usr/bin/env bash
# Regenerates every generated block of the repository's pages from the raw results committed under
# lab/results: builds the benchmark's, the server's, the Spring app's, the S3 harness's and the JMH jars and the lab's command line, then each tool
# rewrites the blocks that name it, each from the run folder its block names. `mvn verify` fails
# while a block differs.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -q -B -DskipTests -Dsluice.stress.skip=true package -Plab -pl lab/sluice-bench,lab/sluice-server,lab/sluice-spring-load,lab/sluice-s3-load,lab/sluice-jmh,lab/sluice-lab-cli -am
java -jar lab/sluice-lab-cli/target/lab.jar bench report --all
java -jar lab/sluice-lab-cli/target/lab.jar server report --all
java -jar lab/sluice-lab-cli/target/lab.jar spring report --all
java -jar lab/sluice-lab-cli/target/lab.jar s3 report --all
java -jar lab/sluice-lab-cli/target/lab.jar jmh report --all
