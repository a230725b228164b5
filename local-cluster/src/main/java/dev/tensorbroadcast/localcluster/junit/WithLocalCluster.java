package dev.tensorbroadcast.localcluster.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class one running {@link dev.tensorbroadcast.localcluster.ProcessCluster}, started before its first
 * test and stopped after its last; a test or lifecycle method receives it as a
 * {@link dev.tensorbroadcast.localcluster.LocalCluster} parameter. The Spark home is the one the system property
 * {@value dev.tensorbroadcast.localcluster.SparkHome#PROPERTY} names.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(LocalClusterExtension.class)
public @interface WithLocalCluster {
    int workers() default 2;

    int workerCores() default 1;

    String workerMemory() default "1g";

    boolean hdfs() default false;

    /** Each worker on a loopback address of its own, a host of its own to Spark (speculation needs two). */
    boolean distinctWorkerHosts() default false;

    /**
     * Kept running after the class for the next class in this JVM with the same settings, and stopped when the JVM's
     * tests end. Each class gets it idle (every worker alive, no application, no executor), or a fresh one; what a
     * class leaves in its storage (HDFS) stays, so such classes use paths of their own there. Not for a class that
     * stops one of the cluster's processes.
     */
    boolean shared() default false;
}
