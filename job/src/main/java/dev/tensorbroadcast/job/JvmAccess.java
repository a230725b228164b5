package dev.tensorbroadcast.job;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The JDK packages Arrow and Spark reach into, which a JVM must open to them: spark-submit and our launcher do, a
 * JVM an application starts itself may not. Without them Arrow fails deep inside its first allocation with
 * {@code sun.misc.Unsafe or java.nio.DirectByteBuffer.<init>(long, int) not available}; this says which option to add.
 */
final class JvmAccess {
    /** Arrow's memory; Spark 4 starts and runs without its openings, only slower in places. */
    private static final List<String> PACKAGES = List.of("java.nio");

    private JvmAccess() {}

    static void requireOpens() {
        Module base = Object.class.getModule();
        Module ours = JvmAccess.class.getModule();
        List<String> closed =
                PACKAGES.stream().filter(name -> !base.isOpen(name, ours)).toList();
        if (!closed.isEmpty()) {
            throw new IllegalStateException("Cannot run tensor-broadcast in this JVM: java.base does not open "
                    + String.join(" and ", closed) + " to it; start the JVM with "
                    + closed.stream()
                            .map(name -> "--add-opens=java.base/" + name + "=ALL-UNNAMED")
                            .collect(Collectors.joining(" "))
                    + " (spark-submit adds it, with the other openings Spark uses; see the README's Java section)");
        }
    }
}
