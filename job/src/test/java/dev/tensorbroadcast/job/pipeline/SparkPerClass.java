package dev.tensorbroadcast.job.pipeline;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The tests' Spark ({@link LocalSpark}) for one test class: started before its first test, stopped after its last.
 * The command line run in-process reuses it. {@code @RegisterExtension static final SparkPerClass SPARK = new
 * SparkPerClass();}
 */
public final class SparkPerClass implements BeforeAllCallback, AfterAllCallback {
    private SparkSession spark;

    @Override
    public void beforeAll(ExtensionContext context) {
        spark = LocalSpark.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        spark.stop();
    }

    public SparkSession session() {
        return spark;
    }
}
