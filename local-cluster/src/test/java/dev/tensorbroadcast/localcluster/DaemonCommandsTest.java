package dev.tensorbroadcast.localcluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where workers bind, and that both backends start the same daemons, differing only in where Spark is. */
class DaemonCommandsTest {
    @Test
    void workersShareTheLoopbackAddressUnlessAskedForHostsOfTheirOwn() {
        assertThat(IntStream.range(0, 3).mapToObj(i -> DaemonCommands.workerAddress(i, false)))
                .containsExactly("127.0.0.1", "127.0.0.1", "127.0.0.1");
        assertThat(IntStream.range(0, 3).mapToObj(i -> DaemonCommands.workerAddress(i, true)))
                .containsExactly("127.0.0.2", "127.0.0.3", "127.0.0.4");
    }

    @Test
    void bothBackendsRunTheSameDaemonsFromTheirOwnJavaJarsAndSecretFile(@TempDir Path dir) throws Exception {
        Files.createFile(Files.createDirectories(dir.resolve("jars")).resolve("spark-core_2.13-4.2.0.jar"));
        Path secret = dir.resolve("cluster.properties");
        DaemonCommands host = DaemonCommands.onHost(new SparkHome(dir), secret);
        DaemonCommands image = DaemonCommands.inImage("/opt/spark", "/opt/spark/conf/cluster.properties");

        List<String> hostWorker = host.worker("127.0.0.2", "spark://127.0.0.1:7077", 2, "1g", "/w");
        List<String> imageWorker = image.worker("127.0.0.2", "spark://127.0.0.1:7077", 2, "1g", "/w");
        assertThat(hostWorker.get(0))
                .isEqualTo(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString());
        assertThat(imageWorker.get(0)).isEqualTo("java");
        assertThat(hostWorker.subList(hostWorker.indexOf("-cp"), hostWorker.indexOf("-cp") + 2))
                .containsExactly("-cp", dir.resolve("jars") + "/*");
        assertThat(imageWorker.subList(imageWorker.indexOf("-cp"), imageWorker.indexOf("-cp") + 2))
                .containsExactly("-cp", "/opt/spark/jars/*");
        assertThat(hostWorker.subList(hostWorker.indexOf("-cp") + 2, hostWorker.size()))
                .containsExactly(
                        "org.apache.spark.deploy.worker.Worker",
                        "--host",
                        "127.0.0.2",
                        "--port",
                        "0",
                        "--webui-port",
                        "0",
                        "--cores",
                        "2",
                        "--memory",
                        "1g",
                        "--work-dir",
                        "/w",
                        "--properties-file",
                        secret.toString(),
                        "spark://127.0.0.1:7077");
        assertThat(withoutLocations(hostWorker)).isEqualTo(withoutLocations(imageWorker));
        assertThat(withoutLocations(host.master("master", 7077, 8080)))
                .isEqualTo(withoutLocations(image.master("master", 7077, 8080)))
                .contains("-Xmx256m", "--add-opens=java.base/java.nio=ALL-UNNAMED", "--webui-port", "8080");
        // the daemons start with C1 and the serial collector, before the class path
        assertThat(hostWorker.subList(0, hostWorker.indexOf("-cp")))
                .contains("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
        List<String> hostMaster = host.master("master", 7077, 8080);
        assertThat(hostMaster.subList(0, hostMaster.indexOf("-cp")))
                .contains("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

        assertThat(host.environment()).containsEntry("SPARK_HOME", dir.toString());
        assertThat(image.environment())
                .containsEntry("SPARK_HOME", "/opt/spark")
                .doesNotContainKey("SPARK_LOCAL_IP");
        assertThat(host.environment("127.0.0.3"))
                .containsEntry("SPARK_LOCAL_IP", "127.0.0.3")
                .containsEntry("SPARK_SCALA_VERSION", "2.13");
    }

    @Test
    void aSubmissionAuthenticatesWithTheFileAndNeverCarriesTheSecret() {
        List<String> submit = DaemonCommands.inImage("/opt/spark", "/opt/spark/conf/cluster.properties")
                .submit("spark://master:7077", List.of("--class", "Main", "/opt/app/app.jar", "--x"));
        assertThat(submit.subList(submit.indexOf("org.apache.spark.deploy.SparkSubmit"), submit.size()))
                .containsExactly(
                        "org.apache.spark.deploy.SparkSubmit",
                        "--master",
                        "spark://master:7077",
                        "--deploy-mode",
                        "client",
                        "--properties-file",
                        "/opt/spark/conf/cluster.properties",
                        "--class",
                        "Main",
                        "/opt/app/app.jar",
                        "--x");
        assertThat(submit).noneMatch(argument -> argument.contains("secret"));
        // a driver runs the job: the JVM's own JIT and collector
        assertThat(submit).doesNotContain("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    }

    /** A command line with the java binary, the class path and the properties file taken out. */
    private static List<String> withoutLocations(List<String> command) {
        int classPath = command.indexOf("-cp") + 1;
        int properties = command.indexOf("--properties-file") + 1;
        return IntStream.range(1, command.size())
                .filter(i -> i != classPath && i != properties)
                .mapToObj(command::get)
                .toList();
    }
}
