package dev.tensorbroadcast.job.dataset;

import java.util.List;
import java.util.OptionalLong;

/**
 * What {@code verify} found: every problem as one line naming its file, the files and bytes checked, and with a
 * source, how many values were compared.
 */
public record VerifyReport(List<String> problems, int files, long bytes, OptionalLong valuesCompared) {
    public VerifyReport {
        problems = List.copyOf(problems);
    }

    public boolean ok() {
        return problems.isEmpty();
    }
}
