package dev.tensorbroadcast.job.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

/** One in-process run of the command line: its exit code and everything it printed. */
record CliRun(int exitCode, String out, String err) {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    static CliRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode =
                TensorBroadcastCli.run(args, new PrintStream(out, true, UTF_8), new PrintStream(err, true, UTF_8));
        return new CliRun(exitCode, out.toString(UTF_8), err.toString(UTF_8));
    }

    JsonNode json() {
        try {
            return MAPPER.readTree(out);
        } catch (JsonProcessingException e) {
            throw new AssertionError("stdout is not JSON: " + out, e);
        }
    }

    static long[] longs(JsonNode array) {
        long[] values = new long[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).asLong();
        }
        return values;
    }
}
