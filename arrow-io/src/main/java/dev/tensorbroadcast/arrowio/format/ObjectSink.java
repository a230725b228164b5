package dev.tensorbroadcast.arrowio.format;

import java.io.IOException;
import java.io.OutputStream;

/** Where an {@link ArrayFileFormat} writes the objects of an array, each by its key ({@code c/0/1}). */
@FunctionalInterface
public interface ObjectSink {
    /** A new object named {@code key} (relative, '/'-separated); the writer closes it when written. */
    OutputStream create(String key) throws IOException;
}
