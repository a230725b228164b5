package dev.tensorbroadcast.job.cli;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.TensorSpec;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** What {@code plan} prints about a plan: as aligned lines for people, or as one JSON object for scripts. */
record PlanSummary(
        BroadcastPlan plan, PartitionPlan partitions, Optional<SourceStrategy> source, List<KeptColumn> kept) {
    PlanSummary {
        requireNonNull(plan, "plan is null");
        requireNonNull(partitions, "partitions is null");
        requireNonNull(source, "source is null");
        kept = List.copyOf(kept);
    }

    PlanSummary(BroadcastPlan plan, PartitionPlan partitions) {
        this(plan, partitions, Optional.empty(), List.of());
    }

    private static final String LINE = "%-13s %s";

    ObjectNode toJson() {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("dialect", plan.dialect().dialectName());
        if (plan.dialect() == Dialect.OPENVINO) {
            json.put("mode", mode());
        }
        ArrayNode inputs = json.putArray("input_shapes");
        for (TensorSpec input : plan.request().inputs()) {
            inputs.add(Json.array(input.shape()));
        }
        json.put("dtype", dtype());
        json.set("shape", Json.array(plan.output()));
        json.put("elements", partitions.elements());
        json.put("bytes", partitions.bytes());
        json.put("rows", partitions.rows());
        json.put("row_dims", partitions.rowDims());
        json.set("row_shape", Json.array(partitions.rowShape()));
        json.put("row_bytes", partitions.rowBytes());
        json.put("partitions", partitions.partitionCount());
        json.putObject("partition_rows")
                .put("min", partitions.minPartitionRows())
                .put("max", partitions.maxPartitionRows());
        json.putObject("partition_bytes")
                .put("min", partitionBytes(partitions.minPartitionRows()))
                .put("max", partitionBytes(partitions.maxPartitionRows()));
        json.set("copy_program", copyProgramJson(plan.copyProgram(0)));
        int inputCount = plan.inputs().size();
        if (inputCount > 1) {
            ArrayNode programs = json.putArray("copy_programs");
            for (int i = 0; i < inputCount; i++) {
                programs.add(copyProgramJson(plan.copyProgram(i)));
            }
        }
        source.ifPresent(strategy -> strategy.toJson(json));
        if (!kept.isEmpty()) {
            ArrayNode columns = json.putArray("kept_columns");
            kept.forEach(
                    column -> columns.addObject().put("name", column.name()).put("type", column.typeName()));
        }
        return json;
    }

    void printText(PrintWriter out) {
        String dialect = plan.dialect().dialectName();
        line(out, "dialect", plan.dialect() == Dialect.OPENVINO ? dialect + " (mode " + mode() + ")" : dialect);
        line(
                out,
                "inputs",
                String.join(
                        " ",
                        plan.request().inputs().stream()
                                .map(input -> input.shape().toList())
                                .toList()));
        line(out, "output", plan.output().toList());
        line(out, "dtype", dtype());
        line(out, "elements", Long.toString(partitions.elements()));
        line(out, "bytes", partitions.bytes() + " (" + ByteSize.format(partitions.bytes()) + ")");
        line(
                out,
                "rows",
                partitions.rows() + " x " + partitions.rowShape().toList() + " ("
                        + ByteSize.format(partitions.rowBytes()) + " each)");
        line(out, "partitions", partitionsText());
        int inputCount = plan.inputs().size();
        for (int i = 0; i < inputCount; i++) {
            String label = inputCount == 1 ? "" : "input " + i + ": ";
            line(out, i == 0 ? "copy program" : "", label + copyProgramText(plan.copyProgram(i)));
        }
        source.ifPresent(strategy -> strategy.printText(out, LINE));
        if (!kept.isEmpty()) {
            line(
                    out,
                    "kept columns",
                    String.join(
                            ", ",
                            kept.stream()
                                    .map(column -> column.name() + " " + column.typeName())
                                    .toList()));
        }
    }

    private String mode() {
        return plan.request().mode().map(Object::toString).orElse("numpy");
    }

    private String dtype() {
        return plan.request().input(0).dtype().typeName();
    }

    private long partitionBytes(long rows) {
        long elements = rows * partitions.rowElements();
        long bits = partitions.elementBits();
        // bits are 1 or whole bytes, so neither form can overflow where the output's byte count does not
        return bits % 8 == 0 ? elements * (bits / 8) : (elements * bits + 7) / 8;
    }

    /** "3 of 5..6 rows, 1.0 MiB each"; one row is "1 row", and an output of no rows has one empty partition. */
    private String partitionsText() {
        if (partitions.rows() == 0) {
            return partitions.partitionCount() + ", empty (the output has 0 rows)";
        }
        long max = partitions.maxPartitionRows();
        return partitions.partitionCount() + " of " + range(partitions.minPartitionRows(), max)
                + (max == 1 ? " row, " : " rows, ") + byteRange() + " each";
    }

    private String byteRange() {
        String min = ByteSize.format(partitionBytes(partitions.minPartitionRows()));
        String max = ByteSize.format(partitionBytes(partitions.maxPartitionRows()));
        return min.equals(max) ? min : min + ".." + max;
    }

    private static String range(long min, long max) {
        return min == max ? Long.toString(min) : min + ".." + max;
    }

    private static ObjectNode copyProgramJson(CopyProgram program) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.set("counts", Json.array(program.counts()));
        json.set("strides", Json.array(program.strides()));
        json.put("innermost_run", program.innermostRun());
        json.put("innermost_repeats", program.innermostRepeats());
        return json;
    }

    private static String copyProgramText(CopyProgram program) {
        return program + "; innermost run " + program.innermostRun()
                + (program.innermostRepeats() ? " (one element repeated)" : "");
    }

    private static void line(PrintWriter out, String label, String value) {
        out.println(String.format(Locale.ROOT, LINE, label, value));
    }
}
