#!/usr/bin/env bash
# The commit of a many-file dataset on S3 (not run by CI): ours (S3A's magic committer: one request per file to
# complete its upload) against Spark's own df.write.parquet with Hadoop's FileOutputCommitter (a rename per file at
# task commit and at job commit, each a copy on S3), on the same S3 server (S3Proxy, started here on 127.0.0.1) and
# the same Spark (local[2]). Prints each write's job time and commit time (last task's end to the write's return),
# and the S3 requests each sent, by kind, before and after its last task's end (S3A's own statistics), and the CPU
# time this JVM and the S3 server's used in the commit. Both writes run once small first (warm-up), then REPS times
# each, alternating which goes first.
#
#   bench/s3-commit.sh [PARTITIONS [REPS]]      (defaults 1000 and 2)
set -euo pipefail

root=$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/..
partitions=${1:-1000}
reps=${2:-2}
cd "$root"
mvn -B -q -o -DskipTests -pl job -am package
opens=$(sed -n 's:.*<spark.jvm.options>\(.*\)</spark.jvm.options>.*:\1:p' pom.xml)
# shellcheck disable=SC2086
java $opens -Xmx2g ${BENCH_JAVA_OPTS:-} -Dtensorbroadcast.spark.home="$root/local-cluster/target/spark-home" \
    -cp "$root/job/target/tensor-broadcast-job-0.1.0-SNAPSHOT.jar:$root/job/target/lib/*" \
    bench/S3CommitBench.java "$partitions" "$root/examples/row3.npy" "$reps"
