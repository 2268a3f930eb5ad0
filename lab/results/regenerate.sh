#!/usr/bin/env bash
# Regenerates every generated block of the repository's pages from the raw results committed under
# lab/results: builds the benchmark's, the server's, the Spring app's, the S3 harness's and the JMH jars, then each tool
# rewrites the blocks that name it, each from the run folder its block names. `mvn verify` fails
# while a block differs.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -q -B -DskipTests -Dsluice.stress.skip=true package -Plab -pl lab/sluice-bench,lab/sluice-server,lab/sluice-spring-load,lab/sluice-s3-load,lab/sluice-jmh -am
java -jar lab/sluice-bench/target/sluice-bench.jar report --all
java -jar lab/sluice-server/target/sluice-server.jar report --all
java -Dloader.main=io.sluice.lab.spring.SpringReport \
  -cp lab/sluice-spring-load/target/sluice-spring-load.jar \
  org.springframework.boot.loader.launch.PropertiesLauncher --all
java -cp lab/sluice-s3-load/target/sluice-s3-load.jar io.sluice.lab.s3.S3Report --all
java -cp lab/sluice-jmh/target/sluice-jmh.jar io.sluice.jmh.LoansReport --all
