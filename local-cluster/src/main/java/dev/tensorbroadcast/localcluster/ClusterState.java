package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What {@code cluster start} records about the cluster it runs, for {@code cluster status}, {@code cluster stop}
 * and {@code --master local-cluster}: where the master is, where its secret is (never the secret itself), and the
 * processes to stop. A YARN cluster's master is {@code yarn}, its UI port the ResourceManager's, its secret file the
 * drivers' properties file, and it has a {@code hadoop_conf_dir}.
 */
public record ClusterState(
        @JsonProperty("owner") ClusterProcess owner,
        @JsonProperty("master_url") String masterUrl,
        @JsonProperty("master_ui_port") int masterUiPort,
        @JsonProperty("workers") int workers,
        @JsonProperty("hdfs_uri") String hdfsUri,
        @JsonProperty("secret_file") String secretFile,
        @JsonProperty("work_directory") String workDirectory,
        @JsonProperty("processes") List<ClusterProcess> processes,
        @JsonProperty("s3") S3 s3Server,
        @JsonProperty("hadoop_conf_dir") String hadoopConfDir) {
    public ClusterState {
        requireNonNull(owner, "owner is null");
        requireNonNull(masterUrl, "masterUrl is null");
        requireNonNull(secretFile, "secretFile is null");
        requireNonNull(workDirectory, "workDirectory is null");
        processes = List.copyOf(processes);
    }

    /** A standalone cluster's state without an S3 server. */
    public ClusterState(
            ClusterProcess owner,
            String masterUrl,
            int masterUiPort,
            int workers,
            String hdfsUri,
            String secretFile,
            String workDirectory,
            List<ClusterProcess> processes) {
        this(owner, masterUrl, masterUiPort, workers, hdfsUri, secretFile, workDirectory, processes, null, null);
    }

    public Optional<S3> s3() {
        return Optional.ofNullable(s3Server);
    }

    /**
     * The S3 server beside the cluster: where it is, the file its secret key is in (never the key itself), and the
     * directory of the user's its objects are kept in ({@code --s3-data}), null when they are in the cluster's own.
     */
    public record S3(
            @JsonProperty("endpoint") String endpoint,
            @JsonProperty("bucket") String bucket,
            @JsonProperty("access_key") String accessKey,
            @JsonProperty("secret_key_file") String secretKeyFile,
            @JsonProperty("data_directory") String dataDirectory) {
        public S3 {
            requireNonNull(endpoint, "endpoint is null");
            requireNonNull(bucket, "bucket is null");
            requireNonNull(accessKey, "accessKey is null");
            requireNonNull(secretKeyFile, "secretKeyFile is null");
        }

        /** A server whose objects are in the cluster's directory. */
        public S3(String endpoint, String bucket, String accessKey, String secretKeyFile) {
            this(endpoint, bucket, accessKey, secretKeyFile, null);
        }

        /** The directory of the user's that keeps the objects after the cluster stops, if one was given. */
        public Optional<Path> kept() {
            return Optional.ofNullable(dataDirectory).map(Path::of);
        }
    }

    /** Whether the cluster is a YARN one: its master is {@code yarn}, its web port the ResourceManager's. */
    public boolean yarn() {
        return hadoopConfDir != null;
    }

    /** A YARN cluster's {@code HADOOP_CONF_DIR}. */
    public Optional<Path> hadoopConf() {
        return Optional.ofNullable(hadoopConfDir).map(Path::of);
    }

    public Optional<String> hdfs() {
        return Optional.ofNullable(hdfsUri);
    }

    public Path secretPath() {
        return Path.of(secretFile);
    }

    /**
     * A process by its pid and start time: a pid the system has since given to another process is not this one, so
     * {@code cluster stop} never kills a stranger.
     */
    public record ClusterProcess(
            @JsonProperty("pid") long pid,
            @JsonProperty("started") String started) {
        public ClusterProcess {
            requireNonNull(started, "started is null");
        }

        public static ClusterProcess of(ProcessHandle process) {
            return new ClusterProcess(
                    process.pid(),
                    process.info().startInstant().map(Instant::toString).orElse("unknown"));
        }

        /** The live process this entry names, if it still runs. */
        public Optional<ProcessHandle> live() {
            return ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .filter(process -> process.info()
                            .startInstant()
                            .map(Instant::toString)
                            .orElse("unknown")
                            .equals(started));
        }
    }
}
