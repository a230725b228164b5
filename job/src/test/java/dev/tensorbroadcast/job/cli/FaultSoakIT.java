package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tensorbroadcast.job.commit.FaultPoint;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.SparkHome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault soak (issue 40): runs of {@code expand}, each in a JVM of its own, each with one fault injected at a
 * point drawn from {@link SoakPoint}, and after each an oracle: what the output holds is the new dataset byte for
 * byte (CRC32C of every file, see {@link SoakListing} for the fields left out), or the old one (nothing when there was
 * none), or what the docs say a killed process leaves ({@link SoakOutcome}); {@code inspect} says which; a run that
 * exited 0 left the new dataset; a rerun with {@code --overwrite} succeeds and leaves exactly the new dataset.
 *
 * <p>Without settings this is the slice every {@code mvn verify} runs: 30 runs on the embedded engine, two of three
 * on a local disk and one on S3Proxy, faults SIGKILL and SIGINT of the command line, no run started after 3 minutes,
 * in two lanes (a local-disk run beside an S3 one: each store's runs in their order, one at a time; the command lines
 * in this JVM, references, {@code inspect} and reruns, one at a time across the lanes; {@code -Dsoak.lanes=1} runs
 * one run at a time, as the full soak does). {@code bench/soak.sh} runs the full soak with
 * {@code -Dsoak.runs=500 -Dsoak.engines=embedded,local_spark,cluster -Dsoak.stores=local,s3,hdfs -Dsoak.faults=all}.
 * Every run has a seed (printed), which draws its engine, store, format, old dataset or none, fault, point and delay:
 * {@code -Dsoak.run=SEED} with the same engines, stores and faults runs that one run again (the timing is the
 * machine's, so a run that hit a window of milliseconds may need a few tries). A run that leaves the S3 overwrite's
 * documented commit window ({@link SoakOutcome#OLD_WITHOUT_MARKERS}) is reported as broken but fails the test only
 * with {@code -Dsoak.strict=true}, until that window is closed.
 */
class FaultSoakIT {
    private static final long DEFAULT_SEED = 20261128L;
    private static final String NEW_SHAPE = "256,1024";
    private static final String OLD_SHAPE = "64,1024";
    private static final int PARTITIONS = 8;
    private static final long RUN_TIMEOUT_SECONDS = 300;

    @TempDir
    static Path dir;

    @Test
    void afterEveryFaultTheOldOrTheNewDatasetIsThereAndARerunSucceeds() throws Exception {
        Settings settings = Settings.fromSystemProperties();
        List<SoakRun> runs;
        String machine;
        long started = System.nanoTime();
        try (Soak soak = new Soak(dir, settings)) {
            runs = soak.runAll();
            machine = soak.notes();
        }
        long minutes = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        String report = SoakReport.markdown(runs, settings.describe(), machine, minutes);
        System.out.println(report);
        Path file = Path.of(settings.report());
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, report, StandardCharsets.UTF_8);

        // the S3 overwrite's documented commit window is reported, and fails the soak only when asked
        boolean strict = Boolean.getBoolean("soak.strict");
        List<String> broken = runs.stream()
                .filter(run -> !run.held())
                .filter(run -> strict || run.outcome() != SoakOutcome.OLD_WITHOUT_MARKERS)
                .map(run -> run + "\n  again: " + settings.reproduce(run.seed()))
                .toList();
        assertThat(broken)
                .as("runs that broke the invariant (report: %s)", file)
                .isEmpty();
        // a fault that never came tests nothing: most runs must reach their point
        assertThat(runs).as(report).isNotEmpty();
        assertThat(runs.stream().filter(SoakRun::injected).count())
                .as(report)
                .isGreaterThanOrEqualTo(runs.size() * 2L / 3);
    }

    /** What to run, from {@code -Dsoak.*} settings; the defaults are the slice. */
    record Settings(
            int runs,
            long seed,
            Optional<Long> run,
            List<SoakEngine> engines,
            List<SoakStore.Kind> stores,
            List<SoakFault> faults,
            double minutes,
            int lanes,
            String report) {
        static Settings fromSystemProperties() {
            String faults = System.getProperty("soak.faults", "driver_kill,driver_int");
            return new Settings(
                    Integer.getInteger("soak.runs", 30),
                    Long.getLong("soak.seed", DEFAULT_SEED),
                    Optional.ofNullable(System.getProperty("soak.run")).map(Long::parseLong),
                    names(System.getProperty("soak.engines", "embedded"), SoakEngine.class),
                    // a store named twice is drawn twice as often: the slice runs two of three on the local disk,
                    // whose runs cost a third of S3's
                    names(System.getProperty("soak.stores", "local,local,s3"), SoakStore.Kind.class),
                    faults.equals("all") ? List.of(SoakFault.values()) : names(faults, SoakFault.class),
                    // the slice stops starting runs after 3 minutes, whatever the machine's load
                    Double.parseDouble(
                            System.getProperty("soak.minutes", System.getProperty("soak.runs") == null ? "3" : "0")),
                    // the slice runs a local-disk run beside an S3 one; the full soak one run at a time (its cluster's
                    // executors and its S3 server are killed on purpose, which must hit one run only)
                    Integer.getInteger("soak.lanes", System.getProperty("soak.runs") == null ? 2 : 1),
                    System.getProperty("soak.report", "target/soak/report.md"));
        }

        private static <E extends Enum<E>> List<E> names(String list, Class<E> type) {
            return Arrays.stream(list.split(","))
                    .map(String::strip)
                    .filter(name -> !name.isEmpty())
                    .map(name -> Enum.valueOf(type, name.toUpperCase()))
                    .toList();
        }

        String describe() {
            return "-Dsoak.runs=" + runs + " -Dsoak.seed=" + seed + " -Dsoak.engines=" + lower(engines)
                    + " -Dsoak.stores=" + lower(stores) + " -Dsoak.faults=" + lower(faults)
                    + (minutes > 0 ? " -Dsoak.minutes=" + minutes : "") + " -Dsoak.lanes=" + lanes;
        }

        String reproduce(long runSeed) {
            return "mvn -B -o -pl job -am verify -Dit.test=FaultSoakIT -Dtest=none"
                    + " -Dsurefire.failIfNoSpecifiedTests=false -Dsoak.run=" + runSeed + " -Dsoak.engines="
                    + lower(engines) + " -Dsoak.stores=" + lower(stores) + " -Dsoak.faults=" + lower(faults);
        }

        private static String lower(List<? extends Enum<?>> values) {
            return String.join(
                    ",",
                    values.stream().map(value -> value.name().toLowerCase()).toList());
        }
    }

    /** The soak's fixtures (the stores, a cluster when asked for, the references) and its loop. */
    static final class Soak implements AutoCloseable {
        private final Path dir;
        private final Path source;
        private final Map<SoakStore.Kind, SoakStore> stores = new EnumMap<>(SoakStore.Kind.class);
        private final Map<String, SoakListing> references = new ConcurrentHashMap<>();
        private final Map<String, String> manifests = new ConcurrentHashMap<>();
        /**
         * Held by a lane while it runs the command line in this JVM (a reference, {@code inspect}, a rerun): two at
         * once would share this JVM's Spark session, which one of them stops.
         */
        private final Object inThisJvm = new Object();
        /** The old dataset every {@code --overwrite} run replaces, file by file: see {@link #oldDataset}. */
        private Map<String, byte[]> oldDataset;

        private final boolean sigintHeard;
        private final List<String> notes = new ArrayList<>();
        private Settings settings;
        private ProcessCluster cluster;
        private Path clusterState;

        Soak(Path dir, Settings settings) throws IOException {
            this.dir = dir;
            this.settings = settings;
            this.source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 1024});
            this.sigintHeard = sigintHeard();
        }

        String notes() {
            List<String> notes = new ArrayList<>(this.notes);
            if (!sigintHeard) {
                notes.add("SIGINT is ignored in this JVM (a background job of a script): SIGTERM instead of SIGINT");
            }
            return String.join("; ", notes);
        }

        /**
         * The engines and stores asked for that can run here: without a standalone cluster (it did not start), no
         * cluster engine and no HDFS, which the report says.
         */
        private Settings available() {
            if (settings.faults().contains(SoakFault.DISK_FULL)
                    && settings.stores().contains(SoakStore.Kind.LOCAL)) {
                store(SoakStore.Kind.LOCAL).unfillable().ifPresent(why -> notes.add("no full disk: " + why));
            }
            boolean needsCluster = settings.engines().contains(SoakEngine.CLUSTER)
                    || settings.stores().contains(SoakStore.Kind.HDFS);
            if (!needsCluster) {
                return settings;
            }
            try {
                cluster();
                return settings;
            } catch (RuntimeException e) {
                notes.add("the standalone cluster did not start (" + e.getMessage() + "): no cluster engine, no HDFS");
                return new Settings(
                        settings.runs(),
                        settings.seed(),
                        settings.run(),
                        settings.engines().stream()
                                .filter(engine -> engine != SoakEngine.CLUSTER)
                                .toList(),
                        settings.stores().stream()
                                .filter(store -> store != SoakStore.Kind.HDFS)
                                .toList(),
                        settings.faults(),
                        settings.minutes(),
                        settings.lanes(),
                        settings.report());
            }
        }

        List<SoakRun> runAll() throws Exception {
            settings = available();
            List<SoakRun> runs = new ArrayList<>();
            long deadline =
                    settings.minutes() > 0 ? System.nanoTime() + (long) (settings.minutes() * 60e9) : Long.MAX_VALUE;
            if (settings.run().isPresent()) {
                runs.add(run(settings.run().get()));
                return runs;
            }
            Random random = new Random(settings.seed());
            long[] seeds = new long[settings.runs()];
            for (int i = 0; i < seeds.length; i++) {
                seeds[i] = random.nextLong();
            }
            settings.stores().forEach(this::store);
            // one lane per store while the lanes last, so that two runs at once never share an output
            int lanes = Math.max(1, Math.min(settings.lanes(), new java.util.HashSet<>(settings.stores()).size()));
            List<SoakStore.Kind> kinds = settings.stores().stream().distinct().toList();
            SoakRun[] done = new SoakRun[seeds.length];
            ExecutorService pool = Executors.newFixedThreadPool(lanes);
            try {
                List<Future<?>> running = new ArrayList<>();
                for (int lane = 0; lane < lanes; lane++) {
                    int self = lane;
                    running.add(pool.submit(() -> {
                        for (int i = 0; i < seeds.length && System.nanoTime() < deadline; i++) {
                            if (lanes > 1 && kinds.indexOf(storeOf(seeds[i])) % lanes != self) {
                                continue;
                            }
                            SoakRun run = run(seeds[i]);
                            System.out.println("soak run " + (i + 1) + "/" + seeds.length + ": " + run);
                            done[i] = run;
                        }
                        return null;
                    }));
                }
                for (Future<?> lane : running) {
                    lane.get();
                }
            } finally {
                pool.shutdownNow();
            }
            Arrays.stream(done).filter(java.util.Objects::nonNull).forEach(runs::add);
            return runs;
        }

        /** The store the run of {@code seed} writes to: its second draw, as {@link #run} draws it. */
        private SoakStore.Kind storeOf(long seed) {
            Random random = new Random(seed);
            pick(random, settings.engines());
            return pick(random, settings.stores());
        }

        private SoakStore store(SoakStore.Kind kind) {
            return stores.computeIfAbsent(kind, k -> switch (k) {
                case LOCAL -> new SoakStore.Local(dir.resolve("local"));
                case S3 -> new SoakStore.S3(directory("s3"));
                case HDFS -> new SoakStore.Hdfs(cluster().hdfsUri().orElseThrow());
            });
        }

        private Path directory(String name) {
            try {
                return Files.createDirectories(dir.resolve(name));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /** The standalone cluster, with HDFS, started at its first use and recorded as 'cluster start' would. */
        private ProcessCluster cluster() {
            if (cluster == null) {
                cluster = ProcessCluster.builder(SparkHome.locate())
                        .workers(2)
                        .workerCores(1)
                        .workerMemory("1g")
                        .hdfs(true)
                        // a loaded machine (other builds beside the soak) takes minutes, not the default 90 s
                        .startTimeout(Duration.ofMinutes(10))
                        .start();
                clusterState = directory("cluster-state");
                System.setProperty(ClusterStateDirectory.PROPERTY, clusterState.toString());
                ClusterStateDirectory states = ClusterStateDirectory.locate();
                states.create();
                states.write(new ClusterState(
                        ClusterState.ClusterProcess.of(ProcessHandle.current()),
                        cluster.masterUrl(),
                        cluster.masterUiPort(),
                        cluster.workers(),
                        cluster.hdfsUri().orElseThrow().toString(),
                        cluster.secretFile().toString(),
                        cluster.workDirectory().toString(),
                        List.of()));
            }
            return cluster;
        }

        private static <T> T pick(Random random, List<T> values) {
            return values.get(random.nextInt(values.size()));
        }

        SoakRun run(long seed) throws Exception {
            long started = System.nanoTime();
            Random random = new Random(seed);
            SoakEngine engine = pick(random, settings.engines());
            SoakStore store = store(pick(random, settings.stores()));
            Phases phases = new Phases(store::serverPid);
            if (engine == SoakEngine.CLUSTER) {
                cluster();
            }
            String format = random.nextBoolean() ? "arrow" : "parquet";
            boolean overwrite = random.nextBoolean();
            List<SoakFault> faults = settings.faults().stream()
                    .filter(fault -> fault.applies(engine, store))
                    .toList();
            SoakFault drawn = pick(random, faults);
            // the same draws either way, so a seed means the same run wherever SIGINT can be sent
            SoakFault fault = drawn == SoakFault.DRIVER_INT && !sigintHeard ? SoakFault.DRIVER_TERM : drawn;
            List<SoakPoint> points = fault.points().stream()
                    .filter(point -> point.applies(store.kind(), overwrite))
                    .toList();
            SoakPoint point = pick(random, points);
            // after the point is seen: a moment later, within the point's window (long for the JVM's start)
            int delay = point == SoakPoint.START ? random.nextInt(engine.startMillis()) : random.nextInt(60);
            int failing = random.nextInt(PARTITIONS);

            SoakListing created = reference(store, format, NEW_SHAPE, PARTITIONS);
            Map<String, byte[]> oldFiles = overwrite ? oldDataset() : Map.of();
            SoakListing old = SoakListing.of(oldFiles);
            phases.end("references");
            store.clear();
            if (overwrite) {
                // the old dataset file by file: cheaper than writing it again
                oldFiles.forEach(store::write);
                assertThat(store.list(true).files()).as("the old dataset").isEqualTo(old.files());
            }
            phases.end("prepare");

            List<String> args = new ArrayList<>();
            Arrays.stream(expand(store, format, NEW_SHAPE, PARTITIONS, overwrite))
                    .forEach(args::add);
            args.addAll(engine.arguments());
            if (point.taskDelayMillis() > 0) {
                args.addAll(engine.testSetting("taskDelayMillis", Integer.toString(point.taskDelayMillis())));
            }
            if (fault == SoakFault.TASK_FAILURE) {
                args.addAll(engine.testSetting("failPartition", Integer.toString(failing)));
                args.addAll(engine.testSetting("failAttempts", "all"));
            }
            if (engine == SoakEngine.CLUSTER) {
                args.add(0, "-D" + ClusterStateDirectory.PROPERTY + "=" + clusterState);
            }
            point.pausesAt().ifPresent(name -> args.add(0, "-D" + FaultPoint.PAUSE_AT + "=" + name));
            Path log = dir.resolve("run-" + store.kind().name().toLowerCase() + ".log");
            Process cli = CliProcess.start(Map.of(), log, args.toArray(String[]::new));
            Injection injection;
            try {
                injection = inject(cli, log, store, engine, fault, point, delay);
                if (!cli.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    cli.destroyForcibly().waitFor();
                    return verdict(
                            seed,
                            engine,
                            store,
                            format,
                            overwrite,
                            fault,
                            point,
                            injection,
                            -1,
                            SoakOutcome.BROKEN,
                            "hung for " + RUN_TIMEOUT_SECONDS + " s: " + CliProcess.read(log),
                            started,
                            phases);
                }
            } finally {
                cli.destroyForcibly();
                if (fault == SoakFault.DISK_FULL) {
                    store.unfill();
                }
            }
            phases.end("faulted");
            if (fault == SoakFault.SERVER_KILL && injection.injected()) {
                // it empties this JVM's cache of file systems, which a command line in this JVM may be using
                synchronized (inThisJvm) {
                    store.restart();
                }
                phases.end("restart");
            }
            String printed = CliProcess.read(log);
            int exit = cli.exitValue();
            if (fault == SoakFault.TASK_FAILURE) {
                injection = new Injection(printed.contains("injected failure"), SoakPoint.TASK_WRITTEN);
            }

            SoakListing found = store.list(true);
            SoakOutcome outcome = SoakOutcome.classify(found, created, old);
            List<String> problems = new ArrayList<>();
            if (!outcome.allowedAfter(fault, store.kind())) {
                problems.add("left " + outcome + ": against the new dataset" + found.difference(created)
                        + (overwrite ? "; against the old" + found.difference(old) : ""));
                if (found.has(SoakListing.MANIFEST)) {
                    problems.add("its manifest, as compared: "
                            + SoakListing.comparedManifest(store.read(SoakListing.MANIFEST))
                            + "; a clean run's: " + manifests.get(key(store, format, NEW_SHAPE)));
                }
            }
            if (exit == 0 && outcome != SoakOutcome.NEW) {
                problems.add("exited 0 and left " + outcome);
            }
            phases.end("oracle");
            synchronized (inThisJvm) {
                // the other lane's command line in this JVM, if any, is waited for
                phases.end("wait");
                if (outcome != SoakOutcome.NOTHING && outcome != SoakOutcome.BROKEN) {
                    inspect(store, outcome, problems);
                    phases.end("inspect");
                }
                rerun(store, format, created, problems);
                phases.end("rerun");
            }
            if (!problems.isEmpty()) {
                problems.add("printed: " + printed.strip().replace('\n', '|'));
            }
            return verdict(
                    seed,
                    engine,
                    store,
                    format,
                    overwrite,
                    fault,
                    point,
                    injection,
                    exit,
                    outcome,
                    String.join("; ", problems),
                    started,
                    phases);
        }

        private static SoakRun verdict(
                long seed,
                SoakEngine engine,
                SoakStore store,
                String format,
                boolean overwrite,
                SoakFault fault,
                SoakPoint aimed,
                Injection injection,
                int exit,
                SoakOutcome outcome,
                String problem,
                long started,
                Phases phases) {
            return new SoakRun(
                    seed,
                    engine,
                    store.kind(),
                    format,
                    overwrite,
                    fault,
                    aimed,
                    injection.landed(),
                    injection.injected(),
                    exit,
                    outcome,
                    problem.isEmpty(),
                    problem,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                    phases.toString());
        }

        /**
         * Where a run's time went, phase by phase, for the report: wall time, and the CPU time of this JVM, of the
         * command lines it started and waited for, and of the store's server. On a shared machine the wall time
         * is mostly other processes'; the CPU time is what the slice's budget is spent on. With two lanes the CPU of
         * this JVM and of its ended children counts the other lane's too; {@code wait} is a lane waiting for the
         * other's command line in this JVM.
         */
        static final class Phases {
            private final List<String> ended = new ArrayList<>();
            private final java.util.function.Supplier<Optional<Long>> server;
            private long last = System.nanoTime();
            private long[] cpu;

            Phases(java.util.function.Supplier<Optional<Long>> server) {
                this.server = server;
                this.cpu = cpu();
            }

            void end(String phase) {
                long now = System.nanoTime();
                long[] cpuNow = cpu();
                ended.add(String.format(
                        "%s %.1f s (cpu %.1f test, %.1f cli, %.1f server)",
                        phase,
                        (now - last) / 1e9,
                        (cpuNow[0] - cpu[0]) / 1000.0,
                        (cpuNow[1] - cpu[1]) / 1000.0,
                        Math.max(0, cpuNow[2] - cpu[2]) / 1000.0));
                last = now;
                cpu = cpuNow;
            }

            /** Milliseconds of CPU: this JVM, its ended children, the server (from /proc; zeros elsewhere). */
            private long[] cpu() {
                long[] self = ticks("self");
                long[] ofServer =
                        server.get().map(pid -> ticks(Long.toString(pid))).orElse(new long[4]);
                return new long[] {(self[0] + self[1]) * 10, (self[2] + self[3]) * 10, (ofServer[0] + ofServer[1]) * 10
                };
            }

            /** utime, stime, cutime and cstime of a process, in the kernel's clock ticks (100 a second). */
            private static long[] ticks(String pid) {
                try {
                    String stat = Files.readString(Path.of("/proc", pid, "stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    return new long[] {
                        Long.parseLong(fields[11]),
                        Long.parseLong(fields[12]),
                        Long.parseLong(fields[13]),
                        Long.parseLong(fields[14])
                    };
                } catch (IOException | RuntimeException e) {
                    return new long[4];
                }
            }

            @Override
            public String toString() {
                return String.join(", ", ended);
            }
        }

        /** Whether the fault was injected (the run had not ended first), and where it landed. */
        record Injection(boolean injected, SoakPoint landed) {}

        private Injection inject(
                Process cli, Path log, SoakStore store, SoakEngine engine, SoakFault fault, SoakPoint point, int delay)
                throws Exception {
            if (!point.watched()) {
                return new Injection(false, point);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RUN_TIMEOUT_SECONDS);
            boolean tasksSeen = false;
            SoakListing.View view = new SoakListing.View(SoakListing.empty(), false);
            String paused = point.pausesAt()
                    .map(name -> "tensor-broadcast test: paused at " + name)
                    .orElse(null);
            while (paused != null && cli.isAlive() && System.nanoTime() < deadline) {
                if (CliProcess.read(log).contains(paused)) {
                    break;
                }
                Thread.sleep(5);
            }
            while (paused == null && cli.isAlive() && System.nanoTime() < deadline) {
                view = new SoakListing.View(store.list(false), tasksSeen);
                tasksSeen |= view.staging();
                view = new SoakListing.View(view.listing(), tasksSeen);
                if (point.reached(view)) {
                    break;
                }
                Thread.sleep(5);
            }
            if (delay > 0) {
                cli.waitFor(delay, TimeUnit.MILLISECONDS);
            }
            if (!cli.isAlive()) {
                return new Injection(false, SoakPoint.seen(view));
            }
            SoakPoint landed = point == SoakPoint.START || paused != null
                    ? point
                    : SoakPoint.seen(new SoakListing.View(store.list(false), tasksSeen));
            switch (fault) {
                case DRIVER_KILL -> cli.destroyForcibly();
                case DRIVER_TERM -> cli.destroy();
                case DRIVER_INT ->
                    new ProcessBuilder("kill", "-INT", Long.toString(cli.pid()))
                            .start()
                            .waitFor(10, TimeUnit.SECONDS);
                case SERVER_KILL ->
                    ProcessHandle.of(store.serverPid().orElseThrow()).ifPresent(ProcessHandle::destroyForcibly);
                case EXECUTOR_KILL -> {
                    Optional<ProcessHandle> executor = executor();
                    if (executor.isEmpty()) {
                        return new Injection(false, landed);
                    }
                    executor.get().destroyForcibly();
                }
                case TASK_FAILURE -> throw new IllegalStateException("a task failure is injected by its task");
                case DISK_FULL -> store.fill();
            }
            return new Injection(true, landed);
        }

        /** An executor JVM of the cluster: a descendant of one of its workers. */
        private Optional<ProcessHandle> executor() {
            return cluster.pids().stream()
                    .map(ProcessHandle::of)
                    .flatMap(Optional::stream)
                    .flatMap(ProcessHandle::descendants)
                    .filter(process -> process.info().commandLine().orElse("").contains("CoarseGrainedExecutorBackend"))
                    .findFirst();
        }

        /** {@code inspect --json} agrees with the oracle: complete for a dataset, incomplete for leftovers. */
        private void inspect(SoakStore store, SoakOutcome outcome, List<String> problems) {
            List<String> args = new ArrayList<>(List.of("inspect", store.output(), "--json"));
            args.addAll(store.confArguments());
            CliRun inspect = CliRun.of(args.toArray(String[]::new));
            JsonNode json;
            try {
                json = inspect.json();
            } catch (AssertionError e) {
                problems.add("inspect printed no JSON (exit " + inspect.exitCode() + "): "
                        + inspect.err().strip());
                return;
            }
            boolean complete = json.path("complete").asBoolean(false);
            if (outcome.complete() != complete || inspect.exitCode() != (complete ? 0 : 1)) {
                problems.add("inspect says complete=" + complete + " (exit " + inspect.exitCode() + ") of " + outcome
                        + ": " + json.path("incomplete"));
            }
            if ((outcome == SoakOutcome.OLD_SET_ASIDE || outcome == SoakOutcome.OLD_SPLIT)
                    && !json.path("incomplete").toString().contains(SoakListing.PREVIOUS)) {
                problems.add("inspect does not name " + SoakListing.PREVIOUS + ": " + json.path("incomplete"));
            }
        }

        /** A rerun with {@code --overwrite} on the embedded engine exits 0 and leaves exactly the new dataset. */
        private void rerun(SoakStore store, String format, SoakListing created, List<String> problems) {
            // what the rerun found, should it refuse it: the store's own listing, staging and all
            SoakListing before = store.list(false);
            CliRun again = CliRun.of(expand(store, format, NEW_SHAPE, PARTITIONS, true));
            if (again.exitCode() != 0) {
                problems.add("the rerun exited " + again.exitCode() + ": "
                        + again.err().strip() + " (it found " + before + ")");
                return;
            }
            SoakListing after = store.list(true);
            if (!after.sameFiles(created)) {
                problems.add("the rerun left" + after.difference(created));
            }
            List<String> strays = store.strays();
            if (!strays.isEmpty()) {
                problems.add("the store keeps " + strays + " after the rerun");
            }
        }

        private String[] expand(SoakStore store, String format, String shape, int partitions, boolean overwrite) {
            List<String> args = new ArrayList<>(List.of(
                    "expand",
                    "--input",
                    source.toString(),
                    "--dialect",
                    "numpy",
                    "--shape",
                    shape,
                    "--partitions",
                    Integer.toString(partitions),
                    "--format",
                    format,
                    "--output",
                    store.output()));
            if (overwrite) {
                args.add("--overwrite");
            }
            args.addAll(store.confArguments());
            return args.toArray(String[]::new);
        }

        /**
         * The old dataset an {@code --overwrite} run replaces, by path: a clean run's on the local disk, written once
         * in this JVM on the embedded engine, whatever store the run is on (one of our datasets is one on any store:
         * the run's store gets its files, and the oracle their checksums; on S3 a clean run of its own cost a Spark
         * job in this JVM).
         */
        private Map<String, byte[]> oldDataset() throws IOException {
            synchronized (inThisJvm) {
                if (oldDataset == null) {
                    Path output = dir.resolve("old-dataset");
                    CliRun clean = CliRun.of(
                            "expand",
                            "--input",
                            source.toString(),
                            "--dialect",
                            "numpy",
                            "--shape",
                            OLD_SHAPE,
                            "--partitions",
                            "4",
                            "--format",
                            "arrow",
                            "--output",
                            output.toString());
                    assertThat(clean.exitCode()).as(clean.err()).isZero();
                    Map<String, byte[]> files = new java.util.TreeMap<>();
                    try (java.util.stream.Stream<Path> walk = Files.walk(output)) {
                        for (Path file : walk.filter(Files::isRegularFile).toList()) {
                            files.put(output.relativize(file).toString(), Files.readAllBytes(file));
                        }
                    }
                    oldDataset = Map.copyOf(files);
                }
                return oldDataset;
            }
        }

        /** A clean run's dataset on {@code store}, written once in this JVM on the embedded engine. */
        private SoakListing reference(SoakStore store, String format, String shape, int partitions) {
            synchronized (inThisJvm) {
                return cleanRun(store, format, shape, partitions);
            }
        }

        private SoakListing cleanRun(SoakStore store, String format, String shape, int partitions) {
            return references.computeIfAbsent(key(store, format, shape), key -> {
                store.clear();
                CliRun clean = CliRun.of(expand(store, format, shape, partitions, false));
                assertThat(clean.exitCode()).as(clean.err()).isZero();
                SoakListing listing = store.list(true);
                manifests.put(key, SoakListing.comparedManifest(store.read(SoakListing.MANIFEST)));
                store.clear();
                return listing;
            });
        }

        private static String key(SoakStore store, String format, String shape) {
            return store.kind() + " " + format + " " + shape;
        }

        private static boolean sigintHeard() throws IOException {
            Path status = Path.of("/proc/self/status");
            if (!Files.isReadable(status)) {
                return true;
            }
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("SigIgn:")) {
                    long ignored = Long.parseUnsignedLong(
                            line.substring("SigIgn:".length()).strip(), 16);
                    return (ignored & 2L) == 0;
                }
            }
            return true;
        }

        @Override
        public void close() {
            stores.values().forEach(SoakStore::close);
            if (cluster != null) {
                cluster.close();
                System.clearProperty(ClusterStateDirectory.PROPERTY);
            }
        }
    }
}
