package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import dev.tensorbroadcast.localcluster.MasterStatus;
import dev.tensorbroadcast.localcluster.ResourceManagerStatus;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code cluster status}: whether the local cluster runs, where, and how many workers its master counts. */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Prints the local cluster's master URL, live workers (a YARN cluster's NodeManagers), HDFS URI,"
                    + " secret file (a YARN cluster's HADOOP_CONF_DIR and properties file) and S3 server.",
            "Exit code 0: it runs; 3: no cluster runs."
        },
        footerHeading = "%nExample:%n",
        footer = {"  tensor-broadcast cluster status --json"})
final class ClusterStatusCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        ClusterStateDirectory states = ClusterStateDirectory.locate();
        Optional<ClusterState> recorded = states.read();
        PrintWriter out = spec.commandLine().getOut();
        if (recorded.isEmpty() || recorded.get().owner().live().isEmpty()) {
            output.emit(
                    out,
                    () -> {
                        ObjectNode json = Json.MAPPER.createObjectNode().put("running", false);
                        recorded.ifPresent(state -> json.put("gone_master_url", state.masterUrl()));
                        return json;
                    },
                    text -> text.println("no local cluster is running"
                            + recorded.map(state -> " (the one recorded at " + state.masterUrl()
                                            + " is gone; 'tensor-broadcast cluster stop' cleans up)")
                                    .orElse("")));
            return ExitCode.NOT_RUNNING;
        }
        ClusterState state = recorded.get();
        Optional<MasterStatus> master = state.yarn()
                ? ResourceManagerStatus.query(state.masterUiPort())
                : MasterStatus.query(state.masterUiPort());
        output.emit(out, () -> json(state, master), text -> {
            text.println("master:      " + state.masterUrl()
                    + master.map(status -> "").orElse(" (not answering)"));
            text.println("workers:     "
                    + master.map(status -> status.aliveWorkers() + " alive of " + state.workers()
                                    + (state.yarn() ? " NodeManagers" : ""))
                            .orElse("unknown"));
            text.println("running:     "
                    + master.map(status -> status.activeApplications().size() + " application"
                                    + (status.activeApplications().size() == 1 ? "" : "s"))
                            .orElse("unknown"));
            text.println("web UI:      http://127.0.0.1:" + state.masterUiPort());
            state.hdfs().ifPresent(uri -> text.println("hdfs:        " + uri));
            state.hadoopConf().ifPresent(conf -> text.println("hadoop conf: " + conf));
            text.println((state.yarn() ? "properties:  " : "secret file: ") + state.secretFile());
            state.s3().ifPresent(s3 -> ClusterStartCommand.printS3(text, s3));
            text.println("pid:         " + state.owner().pid());
        });
        return master.isPresent() ? ExitCode.OK : ExitCode.INTERNAL_ERROR;
    }

    /** The same facts as the text, one key each; a master that does not answer has no worker counts. */
    private static ObjectNode json(ClusterState state, Optional<MasterStatus> master) {
        ObjectNode json = Json.MAPPER
                .createObjectNode()
                .put("running", true)
                .put("master_url", state.masterUrl())
                .put("master_answers", master.isPresent());
        master.ifPresent(status -> json.put("alive_workers", status.aliveWorkers())
                .put("active_applications", status.activeApplications().size()));
        json.put("workers", state.workers()).put("web_ui", "http://127.0.0.1:" + state.masterUiPort());
        state.hdfs().ifPresent(uri -> json.put("hdfs", uri));
        state.s3()
                .ifPresent(s3 -> json.putObject("s3")
                        .put("endpoint", s3.endpoint())
                        .put("bucket", s3.bucket())
                        .put("access_key", s3.accessKey())
                        .put("secret_key_file", s3.secretKeyFile()));
        state.hadoopConf().ifPresent(conf -> json.put("hadoop_conf_dir", conf.toString()));
        return json.put("secret_file", state.secretFile())
                .put("pid", state.owner().pid());
    }
}
