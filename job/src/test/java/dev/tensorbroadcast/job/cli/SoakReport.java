package dev.tensorbroadcast.job.cli;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The soak's result as Markdown tables: runs per engine and store, faults by point, outcomes, the invariant. */
final class SoakReport {
    private SoakReport() {}

    static String markdown(List<SoakRun> runs, String settings, String notes, long seconds) {
        StringBuilder text = new StringBuilder();
        long held = runs.stream().filter(SoakRun::held).count();
        long injected = runs.stream().filter(SoakRun::injected).count();
        text.append("Fault soak ")
                .append(settings)
                .append(": ")
                .append(runs.size())
                .append(" runs in ")
                .append(seconds)
                .append(" s, ")
                .append(injected)
                .append(" with the fault injected (the others ended" + " before their point); invariant held in ")
                .append(held)
                .append('/')
                .append(runs.size())
                .append(".\n");
        if (!notes.isEmpty()) {
            text.append(notes).append(".\n");
        }

        text.append(
                "\n| engine/store | runs | faults injected | held | seconds per run (mean) |\n|---|---:|---:|---:|---:|\n");
        Map<String, List<SoakRun>> byCombo =
                runs.stream().collect(Collectors.groupingBy(SoakRun::combo, TreeMap::new, Collectors.toList()));
        byCombo.forEach((combo, list) -> text.append("| ")
                .append(combo)
                .append(" | ")
                .append(list.size())
                .append(" | ")
                .append(list.stream().filter(SoakRun::injected).count())
                .append(" | ")
                .append(list.stream().filter(SoakRun::held).count())
                .append('/')
                .append(list.size())
                .append(" | ")
                .append(String.format(
                        "%.1f",
                        list.stream().mapToLong(SoakRun::millis).average().orElse(0) / 1000))
                .append(" |\n"));

        text.append("\nFaults by the point where they landed (runs whose fault was injected; the point is the last"
                + " state the watcher saw before it):\n\n| fault |");
        for (SoakPoint point : SoakPoint.values()) {
            text.append(' ').append(point.name().toLowerCase()).append(" |");
        }
        text.append(" not injected |\n|---|");
        text.append("---:|".repeat(SoakPoint.values().length + 1)).append('\n');
        for (SoakFault fault : SoakFault.values()) {
            List<SoakRun> ofFault =
                    runs.stream().filter(run -> run.fault() == fault).toList();
            if (ofFault.isEmpty()) {
                continue;
            }
            Map<SoakPoint, Long> landed = new EnumMap<>(SoakPoint.class);
            ofFault.stream().filter(SoakRun::injected).forEach(run -> landed.merge(run.landed(), 1L, Long::sum));
            text.append("| ").append(fault.name().toLowerCase()).append(" |");
            for (SoakPoint point : SoakPoint.values()) {
                text.append(' ').append(landed.getOrDefault(point, 0L)).append(" |");
            }
            text.append(' ')
                    .append(ofFault.stream().filter(run -> !run.injected()).count())
                    .append(" |\n");
        }

        text.append("\nWhat the runs left (before the rerun, which left the new dataset in every run that held):\n\n"
                + "| outcome | runs |\n|---|---:|\n");
        Map<SoakOutcome, Long> outcomes = new EnumMap<>(SoakOutcome.class);
        runs.forEach(run -> outcomes.merge(run.outcome(), 1L, Long::sum));
        outcomes.forEach((outcome, count) -> text.append("| ")
                .append(outcome.name().toLowerCase())
                .append(" | ")
                .append(count)
                .append(" |\n"));

        List<SoakRun> broken = runs.stream().filter(run -> !run.held()).toList();
        if (!broken.isEmpty()) {
            text.append("\nRuns that broke the invariant:\n\n");
            broken.forEach(run -> text.append("- ").append(run).append('\n'));
        }
        return text.toString();
    }
}
