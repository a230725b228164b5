package dev.tensorbroadcast.job.cli;

import static java.util.Objects.requireNonNull;

/**
 * One faulted run of the soak and the oracle's verdict. {@code landed} is where the fault came (the last point the
 * watcher saw before it), {@code aimed} where the seed sent it; {@code fault} is null when the run ended before its
 * point and no fault was injected (counted apart, not as a faulted run). {@code phases} says where the run's time
 * went (preparing the old dataset, the faulted command, the oracle, {@code inspect}, the rerun), for the report.
 */
record SoakRun(
        long seed,
        SoakEngine engine,
        SoakStore.Kind store,
        String format,
        boolean overwrite,
        SoakFault fault,
        SoakPoint aimed,
        SoakPoint landed,
        boolean injected,
        int exitCode,
        SoakOutcome outcome,
        boolean held,
        String problem,
        long millis,
        String phases) {
    SoakRun {
        requireNonNull(engine, "engine is null");
        requireNonNull(store, "store is null");
        requireNonNull(format, "format is null");
        requireNonNull(fault, "fault is null");
        requireNonNull(aimed, "aimed is null");
        requireNonNull(landed, "landed is null");
        requireNonNull(outcome, "outcome is null");
        requireNonNull(problem, "problem is null");
        requireNonNull(phases, "phases is null");
    }

    String combo() {
        return engine.name().toLowerCase() + "/" + store.name().toLowerCase();
    }

    @Override
    public String toString() {
        return String.format(
                "seed %d %s %s%s %s aimed %s landed %s%s: exit %d, %s, %s%s (%d ms: %s)",
                seed,
                combo(),
                format,
                overwrite ? " --overwrite" : "",
                fault,
                aimed,
                landed,
                injected ? "" : " (not injected)",
                exitCode,
                outcome,
                held ? "held" : "BROKEN",
                problem.isEmpty() ? "" : ": " + problem,
                millis,
                phases);
    }
}
